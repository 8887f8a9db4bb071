import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

/// `viewfinder demo` as `make demo` runs it: the built tool against its in-process simulated camera, its sections,
/// the files it saves, and its command line.
@Suite struct DemoCommandTests {
    /// The section headings, in the order the demo prints them.
    static let sections = [
        "1/7 Start the simulated camera", "2/7 Discover and connect", "3/7 Properties",
        "4/7 Set ISO and shutter speed", "5/7 Live view", "6/7 Take a photo and download it", "7/7 Saved files",
    ]

    @Test func runsTheMainJobAndSavesALiveViewFrameAndThePhoto() async throws {
        try await onOwnThread {
            let directory = try TemporaryDirectory()
            // A directory that does not exist yet: the demo creates it.
            let out = directory.path + "/demo/output"
            let result = try Tool.run("demo", "--out", out)
            #expect(result.status == 0, "\(result)")
            let output = result.standardOutput

            var previous = output.startIndex
            for section in Self.sections {
                let found = try #require(output.range(of: "── \(section) "), "no section '\(section)' in\n\(output)")
                #expect(found.lowerBound >= previous, "'\(section)' is out of order in\n\(output)")
                previous = found.upperBound
            }
            #expect(output.contains("\n  Model          Simulated DSLR\n"), "\(output)")
            #expect(output.contains("\nPROPERTY "), "\(output)")
            #expect(line(startingWith: "ISO ", in: output)?.contains("Auto ISO (26 values)") == true, "\(output)")
            expectInOrder(
                [
                    "Setting ISO from ISO 100 to ISO 400", "  ISO publisher: ISO 400", "ISO is ISO 400",
                    "Setting Shutter Speed from 1/125 to 1/500", "  Shutter Speed publisher: 1/500",
                    "Shutter Speed is 1/500",
                ], in: output)

            let summary = try #require(line(startingWith: "Live view: ", in: output), "\(output)")
            let fps = try #require(number(before: " fps", in: summary), "\(summary)")
            #expect(fps > 0 && fps <= 31, "live view at \(fps) fps, more than the camera's 30: \(summary)")
            #expect(summary.contains("frames of 640x424 JPEG"), "\(summary)")
            #expect(result.standardError.contains("Downloading DSC_0001.JPG: 100%"), "\(result)")

            let frame = try decodedLuma(of: out + "/live-view.jpg")
            #expect(frame.width == 640 && frame.height == 424)
            let photo = try decodedLuma(of: out + "/DSC_0001.JPG")
            #expect(photo.width == 3008 && photo.height == 2000)
            // The simulated scene has colour bars and grey steps: far from a flat picture.
            #expect(frame.range > 100, "live view frame luma only spans \(frame.range)")
            #expect(photo.range > 100, "photo luma only spans \(photo.range)")
            #expect(output.contains("  \(out)/live-view.jpg  a live view frame, 640x424\n"), "\(output)")
            #expect(output.contains("  \(out)/DSC_0001.JPG   the photo, 3008x2000\n"), "\(output)")
        }
    }

    @Test func thePipelineDemoRunsWithPipeline() async throws {
        try await onOwnThread {
            let result = try Tool.run("demo", "--pipeline", "--frames", "10", "--fps", "200", "--size", "64x48")
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("Camera: generated 64x48 NV12"), "\(result)")
            #expect(result.standardOutput.contains("\nTotals\n"), "\(result)")
        }
    }

    @Test(arguments: [
        (["demo", "--frames", "10"], "--frames needs --pipeline"),
        (["demo", "--pipeline", "--out", "x"], "--out is for the camera demo, not for --pipeline"),
        (["demo", "--live-view", "0"], "--live-view takes a number of seconds from 0.5 to 600.0, not '0'"),
        (["demo", "--pipeline", "--size", "7x7"], "--size takes WIDTHxHEIGHT with even numbers"),
    ])
    func aWrongCommandLineIsAUsageError(_ arguments: [String], message: String) async throws {
        try await onOwnThread {
            let result = try ChildProcess.run(Tool.path, arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.standardError.contains("viewfinder: error: \(message)"), "\(result)")
            #expect(result.standardError.contains("See 'viewfinder demo --help'."), "\(result)")
        }
    }

    @Test func anOutputDirectoryThatCannotBeMadeIsSaidBeforeTheDemoStarts() async throws {
        try await onOwnThread {
            let directory = try TemporaryDirectory()
            let file = directory.path + "/file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            let result = try Tool.run("demo", "--out", file + "/out")
            #expect(result.status == 73, "\(result)")
            #expect(result.standardError.contains("cannot create the directory \(file)/out"), "\(result)")
            #expect(result.standardOutput.isEmpty, "\(result)")
        }
    }

    /// The first line of `text` that starts with `prefix`.
    private func line(startingWith prefix: String, in text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// The decimal number just before `suffix` in `text`.
    private func number(before suffix: String, in text: String) -> Double? {
        guard let end = text.range(of: suffix)?.lowerBound else { return nil }
        let digits = text[..<end].reversed().prefix { $0.isNumber || $0 == "." }
        return Double(String(digits.reversed()))
    }

    private func expectInOrder(_ parts: [String], in text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var start = text.startIndex
        for part in parts {
            guard let found = text.range(of: part, range: start..<text.endIndex) else {
                Issue.record("'\(part)' missing or out of order in\n\(text)", sourceLocation: sourceLocation)
                return
            }
            start = found.upperBound
        }
    }

    /// Decodes a JPEG file with ViewfinderImaging; returns its size and the spread of its luma.
    private func decodedLuma(of path: String) throws -> (width: Int, height: Int, range: Int) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let image = try JPEGDecoder().decode(bytes, to: .gray8)
        let (lowest, highest) = image.withUnsafePlanes { planes in
            let luma = planes[0]
            var (lowest, highest) = (UInt8.max, UInt8.min)
            for row in 0..<luma.height {
                for sample in UnsafeRawBufferPointer(
                    start: luma.baseAddress + row * luma.bytesPerRow, count: luma.width)
                {
                    (lowest, highest) = (min(lowest, sample), max(highest, sample))
                }
            }
            return (lowest, highest)
        }
        return (image.width, image.height, Int(highest) - Int(lowest))
    }
}

/// A directory under the system's temporary directory, removed with everything in it when released.
private final class TemporaryDirectory {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("viewfinder-demo-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
