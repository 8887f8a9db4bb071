/// Work a ``DataCaptureContext`` does on every frame: detection, analysis, encoding, recording.
///
/// The context calls its processors in the order they were added, one frame at a time, on its own thread. While a
/// processor works on a frame, the frame source holds back the next frame and drops the oldest ones if frames keep
/// coming, so a slow processor costs frames, never latency or memory. A processor that needs longer than a frame
/// should hand the frame to its own queue and return.
///
/// ```swift
/// final class BrightnessMeter: FrameProcessor {
///     let average = Mutex<Double>(0)
///
///     func process(_ frame: Frame) throws {
///         let luma = frame.pixelBuffer.withUnsafeBytes(ofPlane: 0) { bytes in
///             Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count)
///         }
///         average.withLock { $0 = luma }
///     }
/// }
/// ```
public protocol FrameProcessor: AnyObject, Sendable {
    /// Processes one frame; throwing reports the error to the context's frame listeners and moves on.
    func process(_ frame: Frame) throws
}

/// A processor made from a closure.
final class ClosureFrameProcessor: FrameProcessor {
    private let body: @Sendable (Frame) throws -> Void

    init(_ body: @escaping @Sendable (Frame) throws -> Void) {
        self.body = body
    }

    func process(_ frame: Frame) throws {
        try body(frame)
    }
}

/// A processor that threw while processing a frame.
public struct ProcessorFailure: Sendable, CustomStringConvertible {
    /// The processor that threw.
    public let processor: any FrameProcessor
    /// The frame it was processing.
    public let frame: Frame
    /// What it threw.
    public let error: any Error

    /// The processor's type, the frame's sequence number and the error, for people.
    public var description: String {
        "\(type(of: processor)) failed on frame \(frame.sequenceNumber): \(error)"
    }
}
