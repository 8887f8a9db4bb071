import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderBarcode

/// A sequence frame source, a context and barcode capture, fed one frame at a time.
final class ScanPipeline: Sendable {
    let source: SequenceFrameSource
    let context = DataCaptureContext()
    let capture: BarcodeCapture
    private let sessions = Locked<[BarcodeCaptureSession]>([])
    private let token: ObservationToken

    init(settings: BarcodeCaptureSettings = BarcodeCaptureSettings(), position: CaptureDevicePosition = .unspecified)
        async
    {
        source = SequenceFrameSource(captureDevicePosition: position, lensPosition: 1)
        capture = BarcodeCapture(context: context, settings: settings)
        let sessions = sessions
        token = capture.addListener { session in sessions.withLock { $0.append(session) } }
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)
    }

    /// Adds `frame`, waits until the context has read it, and returns the codes newly recognised in it.
    func scan(_ frame: Frame) async throws -> [Barcode] {
        let before = context.statistics.framesProcessed
        source.add(frame)
        try await waitUntil("the frame to be read") { context.statistics.framesProcessed > before }
        return sessions.withLock { sessions in
            sessions.filter { $0.frameSequenceNumber == frame.sequenceNumber }.flatMap(\.newlyRecognizedBarcodes)
        }
    }

    /// Every session so far.
    var allSessions: [BarcodeCaptureSession] { sessions.withLock { $0 } }
}
