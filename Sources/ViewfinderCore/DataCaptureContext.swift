import Dispatch

/// Takes frames from one frame source, one frame at a time, and runs its processors and listeners on each.
///
/// Set a ``FrameSource`` with ``setFrameSource(_:completionQueue:completionHandler:)``, add ``FrameProcessor``s and
/// capture modes (``DataCaptureMode``, such as barcode capture), and switch the source on. The context runs on a
/// thread of its own: for each frame it tells its frame listeners ``FrameEvent/willProcess(_:)``, calls every
/// processor, then every enabled mode, then tells them ``FrameEvent/didProcess(_:)``. Exactly one
/// frame is in flight: the source emits the next frame only when the context has finished the previous one, so a
/// processor slower than the source makes the source drop frames, never queue them.
///
/// ```swift
/// let context = DataCaptureContext()
/// context.addProcessor { frame in try analyze(frame) }
/// let token = context.addFrameListener { event in
///     if case .processorFailed(let failure) = event { print(failure) }
/// }
/// await context.setFrameSource(source)
/// await source.switch(toDesiredState: .on)
/// ```
public final class DataCaptureContext: Sendable {
    /// What a context's frame listeners are told about each frame.
    public enum FrameEvent: Sendable {
        /// The context is about to run its processors on the frame.
        case willProcess(Frame)
        /// A processor threw while processing the frame; the other processors still run.
        case processorFailed(ProcessorFailure)
        /// Every processor has finished with the frame.
        case didProcess(Frame)
    }

    /// Counts of what a context did.
    public struct Statistics: Hashable, Sendable, CustomStringConvertible {
        /// Frames every processor has finished with.
        public var framesProcessed = 0
        /// Times a processor threw.
        public var processorFailures = 0

        /// Creates statistics with every count zero.
        public init() {}

        /// The counts, for people.
        public var description: String {
            "processed \(framesProcessed), processor failures \(processorFailures)"
        }
    }

    private let worker = CaptureWorker()

    /// Creates a context with no frame source and no processors; it starts its thread.
    public init() {
        worker.start()
    }

    deinit {
        worker.shutDown()
    }

    /// The frame source the context takes frames from, as most recently set.
    ///
    /// Setting a source on another context takes it away from this one; this property is then `nil`.
    public var frameSource: (any FrameSource)? {
        worker.state.withLock { $0.frameSource }
    }

    /// The source changes the context's thread has yet to carry out: it carries them out between frames.
    var pendingSourceChanges: Int {
        worker.state.withLock { $0.sourceChanges.count }
    }

    /// Sets the frame source, detaching the previous one, whose queued frames stay queued in it.
    ///
    /// A source feeds one context at a time: setting it here detaches it from any other context. The previous
    /// source's frame in flight, if any, is finished first.
    ///
    /// - Parameters:
    ///   - frameSource: The new source, or `nil` for none.
    ///   - completionQueue: Where to call `completionHandler`; `nil` calls it on the context's thread, where it must
    ///     return quickly.
    ///   - completionHandler: Called once the new source is attached and no frame of the previous one is in flight.
    public func setFrameSource(
        _ frameSource: (any FrameSource)?, completionQueue: DispatchQueue? = nil,
        completionHandler: (@Sendable () -> Void)? = nil
    ) {
        worker.setFrameSource(frameSource) {
            guard let completionHandler else { return }
            run(on: completionQueue, completionHandler)
        }
    }

    /// Sets the frame source and returns once it is attached and no frame of the previous one is in flight.
    public func setFrameSource(_ frameSource: (any FrameSource)?) async {
        await withCheckedContinuation { continuation in
            worker.setFrameSource(frameSource) { continuation.resume() }
        }
    }

    /// The processors, in the order they run.
    public var processors: [any FrameProcessor] {
        worker.state.withLock { $0.processors }
    }

    /// Adds a processor; it runs after the processors added before it, from the next frame on.
    ///
    /// The context holds its processors until they are removed; a processor that needs the context should hold it
    /// weakly.
    public func addProcessor(_ processor: any FrameProcessor) {
        worker.state.withLock { $0.processors.append(processor) }
    }

    /// Adds a processor made from `process`, and returns it so that it can be removed.
    @discardableResult
    public func addProcessor(_ process: @escaping @Sendable (Frame) throws -> Void) -> any FrameProcessor {
        let processor = ClosureFrameProcessor(process)
        addProcessor(processor)
        return processor
    }

    /// Removes `processor`; a frame it is processing now finishes.
    public func removeProcessor(_ processor: any FrameProcessor) {
        worker.state.withLock { $0.processors.removeAll { $0 === processor } }
    }

    /// The capture modes, in the order they were added, enabled or not.
    public var modes: [any DataCaptureMode] {
        worker.state.withLock { $0.modes }
    }

    /// Adds a capture mode; while it is enabled it reads every frame after the processors, from the next frame on.
    ///
    /// Adding a mode that is already added does nothing. The context holds its modes until they are removed.
    public func addMode(_ mode: any DataCaptureMode) {
        worker.state.withLock { state in
            guard !state.modes.contains(where: { $0 === mode }) else { return }
            state.modes.append(mode)
        }
    }

    /// Removes `mode`; a frame it is reading now finishes.
    public func removeMode(_ mode: any DataCaptureMode) {
        worker.state.withLock { $0.modes.removeAll { $0 === mode } }
    }

    /// Calls `listener` before and after each frame is processed, and when a processor throws, until the returned
    /// token is released.
    ///
    /// The listener runs on the context's thread, while the frame is in flight; keep it short.
    public func addFrameListener(_ listener: @escaping @Sendable (FrameEvent) -> Void) -> ObservationToken {
        let id = worker.state.withLock { $0.listeners.add(listener) }
        return ObservationToken { [weak worker] in worker?.state.withLock { $0.listeners.remove(id) } }
    }

    /// The counts of frames processed and processor failures.
    public var statistics: Statistics {
        worker.state.withLock { $0.statistics }
    }
}
