import Testing
import ViewfinderCore
import ViewfinderImaging

@testable import ViewfinderBarcode

/// Codes from qrencode, zint, python3-segno and dmtxwrite, drawn into frames and read through a sequence frame source
/// and a context.
@Suite(.serialized) struct SymbologyTests {
    /// Each sample rendered once for every test.
    static let codes: [(sample: CodeSample, image: PixelBuffer)] = CodeSample.all.map { sample in
        // A generator that fails makes the tests that use its sample fail with its output.
        ((sample, (try? sample.render()) ?? (try! PixelBuffer(width: 1, height: 1, format: .gray8) { _ in })))
    }

    /// The symbologies read only as a pure image, alone on a page and unspoiled: MaxiCode, which zxing-cpp reads no
    /// other way, and Micro QR, whose other reading in zxing-cpp 1.4 can abort (see `passes` in the C shim).
    static let pureOnly: Set<Symbology> = [.maxiCode, .microQR]

    /// Every sample read in every condition.
    static let spoilable = CodeSample.all.indices.filter { !pureOnly.contains(CodeSample.all[$0].symbology) }

    @Test(arguments: spoilable)
    func everyGeneratedCodeIsReadWithItsTextAndSymbologyInEveryCondition(_ index: Int) async throws {
        let (sample, code) = Self.codes[index]
        #expect(code.width > 1, "\(sample) did not render")
        let pipeline = await ScanPipeline(settings: BarcodeCaptureSettings(tryHarder: true))
        let front = await ScanPipeline(settings: BarcodeCaptureSettings(tryHarder: true), position: .front)
        var sequence: UInt64 = 0
        func check(_ condition: String, _ gray: PixelBuffer, mirrored: Bool = false) async throws {
            sequence += 1
            let frame = try Scene.frame(gray, sequenceNumber: sequence)
            let read = try await (mirrored ? front : pipeline).scan(frame)
            #expect(read.count == 1, "\(sample), \(condition): read \(read)")
            #expect(read.first?.symbology == sample.symbology, "\(sample), \(condition): \(read)")
            #expect(read.first?.text == sample.expectedText, "\(sample), \(condition): \(read)")
            #expect(read.first?.frameSequenceNumber == sequence)
        }
        for (width, height) in [(320, 240), (1280, 720), (1920, 1080)] {
            try await check("\(width)x\(height)", try Scene.picture(of: code, width: width, height: height))
        }
        let picture = try Scene.picture(of: code, width: 640, height: 480, fill: 0.85)
        for rotation in [PixelConverter.Rotation.clockwise90, .clockwise180, .clockwise270] {
            try await check("turned \(rotation)", try Scene.turned(picture, rotation))
        }
        try await check("tilted 5°", try Scene.tilted(picture, degrees: 5))
        try await check("noise ±40", try Scene.noisy(picture, amplitude: 40))
        try await check("blurred", try Scene.blurred(picture))
        // A front camera's frames are mirrored: the code in them is the mirror image of the printed one.
        try await check("mirrored", try Scene.turned(picture, .none, mirrored: true), mirrored: true)
        let spoiled = try Scene.blurred(try Scene.noisy(try Scene.turned(picture, .clockwise180), amplitude: 40))
        try await check(
            "turned, mirrored, noisy, blurred", try Scene.turned(spoiled, .none, mirrored: true), mirrored: true)
        #expect(pipeline.capture.statistics.framesRead == 9)
    }

    @Test(arguments: pureOnly.sorted { $0.description < $1.description })
    func aPureOnlyCodeAloneOnAPageIsRead(_ symbology: Symbology) async throws {
        let (sample, code) = try #require(Self.codes.first { $0.sample.symbology == symbology })
        let pipeline = await ScanPipeline()
        let page = try Scene.picture(of: code, width: 640, height: 480, background: 255)
        let read = try await pipeline.scan(try Scene.frame(page, sequenceNumber: 1))
        #expect(read.map(\.symbology) == [symbology])
        #expect(read.first?.text == sample.expectedText)
    }

    @Test func disabledSymbologiesAreNotReported() async throws {
        let qr = try #require(Self.codes.first { $0.sample.symbology == .qr })
        let ean = try #require(Self.codes.first { $0.sample.symbology == .ean13UPCA })
        let pipeline = await ScanPipeline(settings: BarcodeCaptureSettings(enabledSymbologies: [.code128, .ean13UPCA]))
        let qrFrame = try Scene.frame(try Scene.picture(of: qr.image, width: 640, height: 480), sequenceNumber: 1)
        let eanFrame = try Scene.frame(try Scene.picture(of: ean.image, width: 640, height: 480), sequenceNumber: 2)
        #expect(try await pipeline.scan(qrFrame).isEmpty)
        #expect(try await pipeline.scan(eanFrame).map(\.symbology) == [.ean13UPCA])

        var onlyQR = pipeline.capture.settings
        onlyQR.enabledSymbologies = [.qr]
        pipeline.capture.apply(onlyQR)
        #expect(
            try await pipeline.scan(Frame(pixelBuffer: eanFrame.pixelBuffer, timestamp: .now(), sequenceNumber: 3))
                .isEmpty)
        #expect(
            try await pipeline.scan(Frame(pixelBuffer: qrFrame.pixelBuffer, timestamp: .now(), sequenceNumber: 4)).map(
                \.symbology) == [.qr])

        var none = onlyQR
        none.set(.qr, enabled: false)
        pipeline.capture.apply(none)
        #expect(
            try await pipeline.scan(Frame(pixelBuffer: qrFrame.pixelBuffer, timestamp: .now(), sequenceNumber: 5))
                .isEmpty)
        #expect(pipeline.capture.statistics.framesRead == 5)
        #expect(pipeline.capture.statistics.barcodesRecognized == 2)
    }
}
