// Decode time per 1920x1080 frame through Viewfinder's BarcodeReader, next to zxing-cpp called directly and zbar on
// the same frames in the same run, allocations per frame on both sides, and frames per second through a context.
// `make bench-barcode`.
import AllocationCounter
import BarcodePeer
import BenchmarkSupport
import CZXing
import Foundation
import ViewfinderBarcode
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 50
let width = 1920
let height = 1080

/// A 1920x1080 NV12 frame: a gradient with soft shapes, and a QR code from qrencode when `code` is given.
func makeFrame(code: String?) throws -> PixelBuffer {
    var qr: PixelBuffer?
    if let code {
        let file = NSTemporaryDirectory() + "/vf-bench-qr-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/qrencode")
        process.arguments = ["-s", "9", "-m", "4", "-o", file, code]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let png = FileManager.default.contents(atPath: file) else {
            throw ViewfinderError(.notAvailable, "qrencode failed; install the qrencode package")
        }
        qr = try PNGDecoder().decode(Array(png), to: .gray8)
    }
    let gray = try PixelBuffer(width: width, height: height, format: .gray8) { planes in
        let plane = planes[0]
        for y in 0..<height {
            let row = plane.baseAddress.advanced(by: y * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let wave = (x / 40 + y / 30) % 7 == 0 ? 40 : 0
                row[x] = UInt8(clamping: 90 + (x * 80) / width + (y * 40) / height + wave)
            }
        }
        guard let qr else { return }
        qr.withUnsafePlanes { source in
            let (left, top) = ((width - qr.width) / 2, (height - qr.height) / 2)
            for y in 0..<qr.height {
                (plane.baseAddress + (top + y) * plane.bytesPerRow + left).copyMemory(
                    from: source[0].baseAddress + y * source[0].bytesPerRow, byteCount: qr.width)
            }
        }
    }
    return try PixelConverter().convert(gray, to: .nv12FullRange)
}

/// The median time of `body` in milliseconds over `rounds` runs after two warm-up runs, and the allocations per run.
func measure(_ body: () throws -> Int) rethrows -> (milliseconds: Double, allocations: Double, found: Int) {
    var found = 0
    for _ in 0..<2 { found = try body() }
    var times: [Double] = []
    let before = viewfinder_allocation_count()
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        found = try body()
        times.append(start.duration(to: .now).inSeconds * 1000)
    }
    let allocations = Double(viewfinder_allocation_count() - before) / Double(rounds)
    return (median(times), allocations, found)
}

let qrFormats = Symbology.qr.zxingFormats
let allFormats = Symbology.allCases.reduce(UInt32(0)) { $0 | $1.zxingFormats }

say("Barcode decoding, 1920x1080 NV12 frames, median of \(rounds) (release build)")
say("")
say("VIEWFINDER is BarcodeReader.read(_:); SAME READS is Viewfinder's C interface to zxing-cpp called alone (the reads")
say("BarcodeReader makes, without the Swift layer); ZXING-CPP is ReadBarcodes with zxing-cpp's default hints.")
say("")
say(
    "FRAME    SYMBOLOGIES  VIEWFINDER  SAME READS  ZXING-CPP  RATIO  ZBAR      ALLOCS/FRAME V / SAME / Z  FOUND V/Z/ZBAR"
)
for (frameName, code) in [("one QR", "https://viewfinder.example/benchmark/1920x1080"), ("no code", nil)] {
    let image = try makeFrame(code: code)
    let frame = Frame(pixelBuffer: image, timestamp: .now(), sequenceNumber: 1)
    for (setName, symbologies, formats) in [
        ("QR", Set([Symbology.qr]), qrFormats), ("all", Set(Symbology.allCases), allFormats),
    ] {
        let reader = BarcodeReader(settings: BarcodeCaptureSettings(enabledSymbologies: symbologies))
        let ours = try measure { try reader.read(frame).count }
        let direct = image.withUnsafePlanes { planes in
            measure {
                Int(
                    barcode_peer_zxing_read(
                        planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height),
                        Int32(planes[0].bytesPerRow), formats))
            }
        }
        let cReader = vf_zxing_reader_create()!
        defer { vf_zxing_reader_destroy(cReader) }
        var options = vf_zxing_options(
            formats: formats, try_harder: 0, try_rotate: 1, maximum_count: 8, try_reduced: 1)
        let sameReads = image.withUnsafePlanes { planes in
            measure {
                Int(
                    vf_zxing_read(
                        cReader, planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(width),
                        Int32(height), Int32(planes[0].bytesPerRow), 1, &options))
            }
        }
        let zbar = image.withUnsafePlanes { planes in
            // zbar reads a tightly packed plane: the frame's rows are already 1920 bytes.
            measure {
                Int(
                    barcode_peer_zbar_read(
                        planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height),
                        setName == "QR" ? 1 : 0))
            }
        }
        say(
            frameName.padding(toLength: 9, withPad: " ", startingAt: 0)
                + setName.padding(toLength: 13, withPad: " ", startingAt: 0)
                + (format(ours.milliseconds, 2) + " ms").padding(toLength: 12, withPad: " ", startingAt: 0)
                + (format(sameReads.milliseconds, 2) + " ms").padding(toLength: 12, withPad: " ", startingAt: 0)
                + (format(direct.milliseconds, 2) + " ms").padding(toLength: 11, withPad: " ", startingAt: 0)
                + format(ours.milliseconds / direct.milliseconds, 2).padding(toLength: 7, withPad: " ", startingAt: 0)
                + (format(zbar.milliseconds, 2) + " ms").padding(toLength: 10, withPad: " ", startingAt: 0)
                + "\(format(ours.allocations, 0)) / \(format(sameReads.allocations, 0)) / \(format(direct.allocations, 0))"
                .padding(toLength: 27, withPad: " ", startingAt: 0)
                + "\(ours.found)/\(direct.found)/\(zbar.found)")
    }
}

/// Frames per second through a context: a SequenceFrameSource fed a frame each time the context has finished one.
func framesPerSecondThroughAContext() async throws {
    let image = try makeFrame(code: "https://viewfinder.example/benchmark/context")
    let source = SequenceFrameSource()
    let context = DataCaptureContext()
    let capture = BarcodeCapture(context: context, settings: BarcodeCaptureSettings(enabledSymbologies: [.qr]))
    await context.setFrameSource(source)
    _ = await source.switch(toDesiredState: .on)
    let start = ContinuousClock.now
    var sequence: UInt64 = 0
    while start.duration(to: .now) < .seconds(3) {
        let processed = context.statistics.framesProcessed
        sequence += 1
        source.add(Frame(pixelBuffer: image, timestamp: .now(), sequenceNumber: sequence))
        while context.statistics.framesProcessed == processed { usleep(100) }
    }
    let seconds = start.duration(to: .now).inSeconds
    let statistics = capture.statistics
    say("")
    say(
        "Through a context (SequenceFrameSource, QR, one code in view): \(format(Double(statistics.framesRead) / seconds)) "
            + "frames/s, \(statistics.barcodesRecognized) codes recognised in \(statistics.framesRead) frames")
}

try await framesPerSecondThroughAContext()
