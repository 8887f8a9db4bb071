import Dispatch
import Testing
import ViewfinderCore
import ViewfinderSystem

@testable import ViewfinderV4L2

/// Records a source's delegate calls.
final class RecordingDelegate: CameraSourceDelegate {
    let events = Locked<[String]>([])

    func cameraSourceWasInterrupted(_ source: CameraSource, reason: CameraSourceInterruptionReason) {
        events.withLock { $0.append("interrupted \(reason)") }
    }

    func cameraSourceInterruptionEnded(_ source: CameraSource) {
        events.withLock { $0.append("interruption ended") }
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        events.withLock { $0.append("failed \(error.code)") }
    }
}

/// The frames a processor received, optionally kept alive.
final class FrameSink: Sendable {
    private let frames = Locked<[Frame]>([])
    private let sequences = Locked<[UInt64]>([])
    let keeps: Bool

    init(keeps: Bool = false) { self.keeps = keeps }

    func receive(_ frame: Frame) {
        sequences.withLock { $0.append(frame.sequenceNumber) }
        if keeps { frames.withLock { $0.append(frame) } }
    }

    var received: [UInt64] { sequences.withLock { $0 } }
    var kept: [Frame] { frames.withLock { $0 } }

    func releaseAll() {
        let released = frames.withLock { frames in
            defer { frames = [] }
            return frames
        }
        _ = released
    }
}

/// Values recorded from any thread, in the order they arrived.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] { values.withLock { $0 } }
}

/// A gate a processor waits at until the test opens it.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// Blocks the caller until ``open()``.
    func wait() {
        semaphore.wait()
        semaphore.signal()  // Passes the opening on to the next waiter.
    }

    /// Lets every current and future waiter through.
    func open() {
        semaphore.signal()
    }
}

/// A context that hands every frame of `source` to `process`.
func makeContext(for source: CameraSource, process: @escaping @Sendable (Frame) -> Void) async -> DataCaptureContext {
    let context = DataCaptureContext()
    context.addProcessor { process($0) }
    await context.setFrameSource(source)
    return context
}

extension FakeV4L2System {
    /// Two fake cameras, `video0` and `video1`.
    static func twoCameras() -> FakeV4L2System {
        FakeV4L2System(nodes: ["video0": .init(), "video1": .init()])
    }
}
