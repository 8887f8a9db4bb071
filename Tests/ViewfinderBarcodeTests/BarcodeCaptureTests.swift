import Testing
import ViewfinderCore
import ViewfinderSystem

@testable import ViewfinderBarcode

/// The mode's duplicate filter, listeners and switch, through a sequence frame source and a context.
@Suite struct BarcodeCaptureTests {
    static let qr: PixelBuffer = try! Scene.picture(
        of: CodeSample.qrencode("duplicate filter").render(), width: 320, height: 240)
    static let blank: PixelBuffer = try! PixelBuffer(width: 320, height: 240, format: .gray8) {
        $0[0].bytes.initializeMemory(as: UInt8.self, repeating: 200)
    }

    /// Scans the QR picture, or the blank one, as frame `sequence` taken at `seconds`.
    func scan(_ pipeline: ScanPipeline, _ sequence: UInt64, at seconds: Double, code: Bool = true) async throws
        -> [String?]
    {
        let timestamp = MonotonicTimestamp(nanoseconds: UInt64(seconds * 1e9) + 1_000_000_000)
        let frame = try Scene.frame(code ? Self.qr : Self.blank, sequenceNumber: sequence, at: timestamp)
        return try await pipeline.scan(frame).map(\.text)
    }

    @Test func theDuplicateFilterReportsACodeOnceWhileItStaysInView() async throws {
        let pipeline = await ScanPipeline(settings: BarcodeCaptureSettings(codeDuplicateFilter: .seconds(1)))
        #expect(try await scan(pipeline, 1, at: 0) == ["duplicate filter"])
        #expect(try await scan(pipeline, 2, at: 0.5).isEmpty)
        #expect(try await scan(pipeline, 3, at: 1.2).isEmpty)  // seen 0.7 s ago: still in view
        #expect(try await scan(pipeline, 4, at: 1.3, code: false).isEmpty)
        #expect(try await scan(pipeline, 5, at: 2.5) == ["duplicate filter"])  // away for 1.3 s
        pipeline.capture.reset()
        #expect(try await scan(pipeline, 6, at: 2.6) == ["duplicate filter"])
        let statistics = pipeline.capture.statistics
        #expect(statistics.framesRead == 6)
        #expect(statistics.barcodesRecognized == 3)
        #expect(statistics.duplicatesFiltered == 2)
    }

    @Test func aNegativeFilterReportsEachCodeOnceAndZeroReportsEverySighting() async throws {
        let once = await ScanPipeline(settings: BarcodeCaptureSettings(codeDuplicateFilter: .seconds(-1)))
        #expect(try await scan(once, 1, at: 0).count == 1)
        #expect(try await scan(once, 2, at: 100).isEmpty)
        once.capture.reset()
        #expect(try await scan(once, 3, at: 101).count == 1)

        let every = await ScanPipeline(settings: BarcodeCaptureSettings(codeDuplicateFilter: .zero))
        for sequence in 1...3 {
            #expect(try await scan(every, UInt64(sequence), at: 0).count == 1)
        }
    }

    @Test func listenersHearUntilTheirTokenGoesAndADisabledModeReadsNothing() async throws {
        let pipeline = await ScanPipeline()
        let heard = Locked<[UInt64]>([])
        final class Listener: BarcodeCaptureListener {
            let heard: Locked<[UInt64]>
            init(_ heard: Locked<[UInt64]>) { self.heard = heard }
            func barcodeCapture(_ barcodeCapture: BarcodeCapture, didScanIn session: BarcodeCaptureSession) {
                heard.withLock { $0.append(session.frameSequenceNumber) }
            }
        }
        var token: ObservationToken? = pipeline.capture.addListener(Listener(heard))
        _ = try await scan(pipeline, 1, at: 0)
        #expect(heard.withLock { $0 } == [1])

        pipeline.capture.isEnabled = false
        #expect(try await scan(pipeline, 2, at: 1).isEmpty)
        #expect(pipeline.capture.statistics.framesRead == 1)
        pipeline.capture.isEnabled = true
        #expect(try await scan(pipeline, 3, at: 2).count == 1)
        #expect(heard.withLock { $0 } == [1, 3])

        token = nil
        #expect(try await scan(pipeline, 4, at: 3).count == 1)  // the pipeline's own listener still hears it
        #expect(heard.withLock { $0 } == [1, 3])
        #expect(token == nil)
    }

    @Test func aCaptureWithoutAContextIsAddedLater() async throws {
        let capture = BarcodeCapture(context: nil)
        let context = DataCaptureContext()
        #expect(context.modes.isEmpty)
        context.addMode(capture)
        #expect(context.modes.count == 1)
        #expect(capture.settings == BarcodeCaptureSettings())
    }
}
