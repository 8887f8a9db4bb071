/// A capture mode: a job a ``DataCaptureContext`` does on its frames, such as reading barcodes, that can be switched
/// on and off without being removed.
///
/// A mode is a ``FrameProcessor`` with a switch. The context runs its enabled modes after its processors, on its
/// own thread and inside its one-frame-in-flight rule: while a mode reads a frame the source holds back the next one,
/// so a slow mode costs frames, never latency or memory. A mode that throws is reported to the frame listeners as a
/// ``ProcessorFailure`` like a processor.
///
/// ```swift
/// final class MotionDetector: DataCaptureMode {
///     private let enabled = Mutex(true)
///
///     var isEnabled: Bool {
///         get { enabled.withLock { $0 } }
///         set { enabled.withLock { $0 = newValue } }
///     }
///
///     func process(_ frame: Frame) throws {
///         // Compare the frame's luminance with the previous frame's.
///     }
/// }
///
/// let detector = MotionDetector()
/// context.addMode(detector)
/// detector.isEnabled = false   // the context skips it from the next frame on
/// ```
public protocol DataCaptureMode: FrameProcessor {
    /// Whether the context runs the mode on its frames; a disabled mode stays added and reads nothing.
    var isEnabled: Bool { get }
}
