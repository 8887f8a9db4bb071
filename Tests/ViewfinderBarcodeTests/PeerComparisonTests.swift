import Foundation
import Testing
import ViewfinderCore
import ViewfinderImaging
import ViewfinderTestSupport

@testable import ViewfinderBarcode

/// The same pictures read by zbarimg (zbar) and ZXingReader (zxing-cpp's own tool): Viewfinder reads every code
/// either of them reads, but for Micro QR codes that are not alone and upright on a page, which ZXingReader reads with
/// zxing-cpp's ring fitting, the reading that can abort the process (see `SymbologyTests.pureOnly`).
@Suite(.serialized) struct PeerComparisonTests {
    /// The conditions each sample is pictured in.
    static func conditions(of code: PixelBuffer) throws -> [(String, PixelBuffer)] {
        let picture = try Scene.picture(of: code, width: 640, height: 480, fill: 0.85)
        return [
            ("640x480", picture),
            ("1280x720", try Scene.picture(of: code, width: 1280, height: 720)),
            ("turned 90°", try Scene.turned(picture, .clockwise90)),
            ("tilted 5°", try Scene.tilted(picture, degrees: 5)),
            ("noise ±40", try Scene.noisy(picture, amplitude: 40)),
            ("blurred", try Scene.blurred(picture)),
        ]
    }

    /// Writes a gray picture as a binary PGM file, which both tools read.
    static func writePGM(_ gray: PixelBuffer, to path: String) throws {
        var bytes = Array("P5\n\(gray.width) \(gray.height)\n255\n".utf8)
        gray.withUnsafePlanes { planes in
            for y in 0..<gray.height {
                let row = UnsafeRawBufferPointer(
                    start: planes[0].baseAddress + y * planes[0].bytesPerRow, count: gray.width)
                bytes.append(contentsOf: row)
            }
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw TestFailure("cannot write \(path)")
        }
    }

    @Test func viewfinderReadsEveryCodeZbarOrZXingReaderReads() async throws {
        // zbarimg and ZXingReader run as child processes, waited for on a thread of their own.
        try await onOwnThread {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vf-peers-\(getpid())").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let reader = BarcodeReader(settings: .stillImage)
            var counts = (frames: 0, viewfinder: 0, zbar: 0, zxing: 0)
            var rows: [String] = []
            for (index, sample) in CodeSample.all.enumerated() {
                let code = try sample.render()
                var sampleCounts = (viewfinder: 0, zbar: 0, zxing: 0)
                for (conditionIndex, (condition, gray)) in try Self.conditions(of: code).enumerated() {
                    let path = "\(directory)/\(index)-\(conditionIndex).pgm"
                    try Self.writePGM(gray, to: path)
                    let zbar = try ChildProcess.run("zbarimg", ["-q", path], timeout: .seconds(60))
                    let zxing = try ChildProcess.run("ZXingReader", [path], timeout: .seconds(60))
                    let zbarRead = zbar.status == 0 && !zbar.standardOutput.isEmpty
                    let zxingRead = zxing.status == 0 && zxing.standardOutput.contains("Text:")
                    let ours = try reader.read(gray).contains { $0.text == sample.expectedText }
                    counts.frames += 1
                    sampleCounts.viewfinder += ours ? 1 : 0
                    sampleCounts.zbar += zbarRead ? 1 : 0
                    sampleCounts.zxing += zxingRead ? 1 : 0
                    #expect(
                        ours || !(zbarRead || zxingRead) || SymbologyTests.pureOnly.contains(sample.symbology),
                        "\(sample), \(condition): zbarimg \(zbarRead), ZXingReader \(zxingRead), Viewfinder read nothing"
                    )
                }
                counts.viewfinder += sampleCounts.viewfinder
                counts.zbar += sampleCounts.zbar
                counts.zxing += sampleCounts.zxing
                rows.append(
                    "\(sample): Viewfinder \(sampleCounts.viewfinder), zbarimg \(sampleCounts.zbar), "
                        + "ZXingReader \(sampleCounts.zxing)")
            }
            print(rows.joined(separator: "\n"))
            print(
                "Of \(counts.frames) pictures: Viewfinder read \(counts.viewfinder), zbarimg \(counts.zbar), "
                    + "ZXingReader \(counts.zxing)")
            #expect(counts.viewfinder >= max(counts.zbar, counts.zxing))
        }
    }
}
