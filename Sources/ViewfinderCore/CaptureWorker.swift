import Dispatch
import ViewfinderSystem

/// The thread and state behind a ``DataCaptureContext``: it attaches frame sources and takes their frames, one at a
/// time, through the processors and listeners.
///
/// Everything that changes which source is attached happens on the worker's own thread, between frames, so a
/// source change can never overlap a frame in flight and its completion runs once the change is done.
final class CaptureWorker: Sendable {
    typealias Listener = @Sendable (DataCaptureContext.FrameEvent) -> Void

    struct State: Sendable {
        /// The source most recently set.
        var frameSource: (any FrameSource)?
        /// Completions of source changes the thread has not carried out yet.
        var sourceChanges: [@Sendable () -> Void] = []
        var processors: [any FrameProcessor] = []
        var modes: [any DataCaptureMode] = []
        var listeners = ListenerList<Listener>()
        var statistics = DataCaptureContext.Statistics()
        var isShutDown = false
    }

    let state = Locked(State())
    private let parker = ThreadParker()

    /// Starts the worker's thread; it runs until ``shutDown()``.
    func start() {
        let body: @Sendable () -> Void = { [self] in run() }
        do {
            try PlatformThread.detach(name: "vf-capture", body)
        } catch {
            // No thread to spare: a Dispatch thread runs the loop instead, which beats not running it.
            DispatchQueue.global().async(execute: body)
        }
    }

    /// Wakes the thread to look for work.
    func wake() {
        parker.unpark()
    }

    /// Makes the thread detach its source, finish pending source changes and end.
    func shutDown() {
        state.withLock { $0.isShutDown = true }
        wake()
    }

    /// Sets the source to attach; `completion` runs on the thread once it is attached.
    func setFrameSource(_ frameSource: (any FrameSource)?, completion: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.frameSource = frameSource
            state.sourceChanges.append(completion)
        }
        wake()
    }

    /// Forgets `engine`'s source, which another context has attached.
    func sourceWasTaken(_ engine: FrameSourceEngine) {
        state.withLock { state in
            guard state.frameSource?.frameSourceEngine === engine else { return }
            state.frameSource = nil
        }
        wake()
    }

    private func run() {
        var attached: (any FrameSource)?
        var outcome: (processed: Bool, failures: Int) = (false, 0)
        while true {
            // Count the last frame, and pick up source changes and the shut-down between frames.
            let (frameSource, sourceChanges, isShutDown) = state.withLock { state in
                if outcome.processed { state.statistics.framesProcessed += 1 }
                state.statistics.processorFailures += outcome.failures
                defer { state.sourceChanges.removeAll() }
                return (state.isShutDown ? nil : state.frameSource, state.sourceChanges, state.isShutDown)
            }
            outcome = (false, 0)
            if frameSource !== attached {
                attached?.frameSourceEngine.detach(self)
                if let engine = frameSource?.frameSourceEngine {
                    engine.attach(self)?.sourceWasTaken(engine)
                }
                attached = frameSource
            }
            for completion in sourceChanges { completion() }
            if isShutDown { return }
            guard let (frame, sourceListeners) = attached.flatMap({ nextFrame(from: $0.frameSourceEngine) }) else {
                parker.park()
                continue
            }
            // Taken after the frame: a processor or listener removed before the frame was taken never sees it.
            let (processors, modes, listeners) = state.withLock { ($0.processors, $0.modes, $0.listeners.listeners) }
            for listener in sourceListeners { listener(frame) }
            outcome = (true, process(frame, processors: processors, modes: modes, listeners: listeners))
        }
    }

    /// Takes the next frame; when there is none, checks for one for a few microseconds before giving up.
    ///
    /// A producer on another core usually adds its next frame within that time, which spares it a futex wake-up per
    /// frame. The thread does not yield meanwhile: on a shared core, a yield would hand the core to the producer for
    /// a whole time slice, while sleeping lets the producer's wake-up bring the thread back at once.
    private func nextFrame(
        from engine: FrameSourceEngine
    ) -> (frame: Frame, listeners: [FrameSourceEngine.FrameListener])? {
        if let next = engine.takeFrame(for: self) { return next }
        for _ in 0..<Self.checksBeforeSleeping {
            if engine.hasDeliverableFrame, let next = engine.takeFrame(for: self) { return next }
        }
        return engine.takeFrameOrWait(for: self)
    }

    /// How many times the thread checks for a frame, a few nanoseconds each, before it sleeps.
    private static let checksBeforeSleeping = 2000

    /// Runs the processors, then the enabled modes, and tells the listeners; returns the number that threw.
    private func process(
        _ frame: Frame, processors: [any FrameProcessor], modes: [any DataCaptureMode], listeners: [Listener]
    ) -> Int {
        for listener in listeners { listener(.willProcess(frame)) }
        var failures = 0
        for processor in processors where !run(processor, on: frame, listeners: listeners) { failures += 1 }
        for mode in modes where mode.isEnabled && !run(mode, on: frame, listeners: listeners) { failures += 1 }
        for listener in listeners { listener(.didProcess(frame)) }
        return failures
    }

    /// Runs one processor on the frame, telling the listeners when it throws; returns whether it succeeded.
    private func run(_ processor: any FrameProcessor, on frame: Frame, listeners: [Listener]) -> Bool {
        do {
            try processor.process(frame)
            return true
        } catch {
            let failure = ProcessorFailure(processor: processor, frame: frame, error: error)
            for listener in listeners { listener(.processorFailed(failure)) }
            return false
        }
    }
}
