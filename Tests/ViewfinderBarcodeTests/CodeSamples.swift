import Foundation
import ViewfinderCore
import ViewfinderImaging
import ViewfinderTestSupport

@testable import ViewfinderBarcode

/// A code made by an independent generator, with the text a reader must find in it.
struct CodeSample: Sendable, CustomStringConvertible {
    /// How the generator is run: the command, with `OUT` standing for the PNG file to write.
    let command: [String]
    let symbology: Symbology
    let expectedText: String
    let generator: String

    var description: String { "\(symbology) from \(generator)" }

    static func zint(_ type: Int, _ data: String, _ symbology: Symbology, reads expected: String? = nil) -> CodeSample {
        CodeSample(
            command: ["zint", "-b", "\(type)", "--scale=0.5", "--quietzones", "-d", data, "-o", "OUT"],
            symbology: symbology,
            expectedText: expected ?? data, generator: "zint")
    }

    static func qrencode(_ text: String) -> CodeSample {
        CodeSample(
            command: ["qrencode", "-s", "1", "-m", "4", "-o", "OUT", text], symbology: .qr, expectedText: text,
            generator: "qrencode")
    }

    static func segno(_ text: String, micro: Bool) -> CodeSample {
        let script =
            "import segno, sys; segno.make(sys.argv[1], micro=\(micro ? "True" : "False")).save(sys.argv[2], "
            + "scale=1, border=\(micro ? 2 : 4))"
        return CodeSample(
            command: ["/usr/bin/python3", "-c", script, text, "OUT"], symbology: micro ? .microQR : .qr,
            expectedText: text, generator: "python3-segno")
    }

    static func dmtxwrite(_ text: String) -> CodeSample {
        CodeSample(
            command: ["sh", "-c", "printf %s \"$1\" | dmtxwrite -d 1 -m 2 -o \"$2\"", "sh", text, "OUT"],
            symbology: .dataMatrix, expectedText: text, generator: "dmtxwrite")
    }

    /// One sample of every symbology, QR from three generators and Data Matrix from two.
    static let all: [CodeSample] = [
        .qrencode("https://viewfinder.example/qr?id=42"),
        .segno("Viewfinder segno QR", micro: false),
        .zint(58, "zint QR 0123", .qr),
        .segno("MQR42", micro: true),
        .dmtxwrite("Viewfinder DataMatrix"),
        .zint(71, "zint DM 77", .dataMatrix),
        .zint(92, "Aztec from zint", .aztec),
        .zint(55, "PDF417 from zint", .pdf417),
        .zint(57, "MaxiCode Viewfinder", .maxiCode),
        .zint(13, "590123412345", .ean13UPCA, reads: "5901234123457"),
        .zint(34, "72527273070", .ean13UPCA, reads: "725272730706"),
        .zint(13, "9638507", .ean8, reads: "96385074"),
        .zint(37, "0123456", .upce, reads: "01234565"),
        .zint(20, "VF-128-abc", .code128),
        .zint(8, "VF39", .code39),
        .zint(25, "VF93", .code93),
        .zint(3, "12345678", .itf),
        .zint(18, "A123456B", .codabar, reads: "123456"),
        .zint(29, "0123456789012", .dataBar, reads: "01234567890128"),
        .zint(31, "[01]98898765432106[3202]012345", .dataBarExpanded, reads: "(01)98898765432106(3202)012345"),
    ]

    /// Runs the generator and returns its image in gray, one pixel a module (a few for some generators).
    func render() throws -> PixelBuffer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vf-codes-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try ChildProcess.run(
            command[0], command.dropFirst().map { $0 == "OUT" ? file : $0 }, mergingErrors: true,
            timeout: .seconds(30))
        guard result.status == 0, let png = FileManager.default.contents(atPath: file) else {
            throw TestFailure("\(generator) failed: \(result)")
        }
        return try PNGDecoder().decode(Array(png), to: .gray8)
    }
}

/// Pictures of codes: a code scaled up on a gray background, and the ways a camera spoils it.
enum Scene {
    static let converter = PixelConverter()

    /// The code scaled by a whole factor so that it fills about `fill` of a `width × height` picture, centred on a
    /// background of `background`, or of a gray whose brightness varies down the picture.
    static func picture(
        of code: PixelBuffer, width: Int, height: Int, fill: Double = 0.6, background: UInt8? = nil
    ) throws -> PixelBuffer {
        let factor = max(1, min(Int(Double(width) * fill) / code.width, Int(Double(height) * fill) / code.height))
        let scaled = try converter.scale(
            code, to: Dimensions(width: code.width * factor, height: code.height * factor), filter: .nearest)
        let left = (width - scaled.width) / 2
        let top = (height - scaled.height) / 2
        return try PixelBuffer(width: width, height: height, format: .gray8) { planes in
            let plane = planes[0]
            let out = plane.baseAddress.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                let row = out + y * plane.bytesPerRow
                let shade = background ?? UInt8(150 + 60 * y / height)
                row.update(repeating: shade, count: width)
            }
            scaled.withUnsafePlanes { source in
                for y in 0..<scaled.height {
                    (out + (top + y) * plane.bytesPerRow + left).update(
                        from: source[0].baseAddress.advanced(by: y * source[0].bytesPerRow).assumingMemoryBound(
                            to: UInt8.self), count: scaled.width)
                }
            }
        }
    }

    /// The picture as an NV12 (full range) frame.
    static func frame(
        _ gray: PixelBuffer, sequenceNumber: UInt64 = 0, orientation: Frame.Orientation = .up,
        isMirrored: Bool = false, at timestamp: MonotonicTimestamp = .now()
    ) throws -> Frame {
        Frame(
            pixelBuffer: try converter.convert(gray, to: .nv12FullRange), timestamp: timestamp,
            sequenceNumber: sequenceNumber, orientation: orientation, isMirrored: isMirrored)
    }

    /// The picture turned clockwise by a multiple of 90°, and mirrored when asked.
    static func turned(_ gray: PixelBuffer, _ rotation: PixelConverter.Rotation, mirrored: Bool = false) throws
        -> PixelBuffer
    {
        try converter.rotate(gray, by: rotation, mirrored: mirrored)
    }

    /// The picture turned by `degrees` about its centre, pixels outside it the background's gray.
    static func tilted(_ gray: PixelBuffer, degrees: Double) throws -> PixelBuffer {
        let angle = degrees * .pi / 180
        let (cosine, sine) = (cos(angle), sin(angle))
        let (cx, cy) = (Double(gray.width) / 2, Double(gray.height) / 2)
        return try gray.withUnsafePlanes { source in
            let input = source[0].baseAddress.assumingMemoryBound(to: UInt8.self)
            let stride = source[0].bytesPerRow
            return try PixelBuffer(width: gray.width, height: gray.height, format: .gray8) { planes in
                let out = planes[0].baseAddress.assumingMemoryBound(to: UInt8.self)
                for y in 0..<gray.height {
                    for x in 0..<gray.width {
                        let dx = Double(x) - cx
                        let dy = Double(y) - cy
                        let sx = Int(cx + dx * cosine + dy * sine)
                        let sy = Int(cy - dx * sine + dy * cosine)
                        let inside = sx >= 0 && sy >= 0 && sx < gray.width && sy < gray.height
                        out[y * planes[0].bytesPerRow + x] = inside ? input[sy * stride + sx] : 180
                    }
                }
            }
        }
    }

    /// The picture with every pixel moved by up to `amplitude` either way, the same noise every run.
    static func noisy(_ gray: PixelBuffer, amplitude: Int) throws -> PixelBuffer {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return try gray.withUnsafePlanes { source in
            try PixelBuffer(width: gray.width, height: gray.height, format: .gray8) { planes in
                for y in 0..<gray.height {
                    let input = source[0].baseAddress.advanced(by: y * source[0].bytesPerRow).assumingMemoryBound(
                        to: UInt8.self)
                    let out = planes[0].baseAddress.advanced(by: y * planes[0].bytesPerRow).assumingMemoryBound(
                        to: UInt8.self)
                    for x in 0..<gray.width {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        let offset = Int(state >> 33) % (2 * amplitude + 1) - amplitude
                        out[x] = UInt8(clamping: Int(input[x]) + offset)
                    }
                }
            }
        }
    }

    /// The picture blurred: reduced to a half with a box filter and enlarged again.
    static func blurred(_ gray: PixelBuffer) throws -> PixelBuffer {
        let small = try converter.scale(gray, to: Dimensions(width: gray.width / 2, height: gray.height / 2))
        return try converter.scale(small, to: Dimensions(width: gray.width, height: gray.height), filter: .bilinear)
    }
}
