import Synchronization
import ViewfinderSystem

/// Carries out a frame source's transitions: opens, streams, pauses and closes whatever produces its frames.
///
/// A backend is the device-specific half of a frame source; ``FrameSourceEngine`` is the shared half. The engine
/// decides which transition runs and when, and calls ``perform(_:for:)`` for each one, never two at once. See
/// ``FrameSourceEngine`` for a complete example.
public protocol FrameSourceBackend: AnyObject, Sendable {
    /// Carries out `transition`, returning once the source is in the transition's target state.
    ///
    /// Throwing makes the source fall back to the transition's source state; the request that asked for the
    /// transition completes with `false`, and state listeners see the fall back with the error. Keep every wait
    /// bounded: a transition that never returns blocks every later request.
    ///
    /// - Parameters:
    ///   - transition: The step to carry out.
    ///   - engine: The engine of the source, to submit frames to once the source is on.
    func perform(_ transition: FrameSourceTransition, for engine: FrameSourceEngine) async throws
}

/// The shared machinery of every frame source: its state machine, its listeners and its one-frame-in-flight queue.
///
/// A type becomes a ``FrameSource`` by owning an engine; the protocol's default implementations forward to it. The
/// engine switches states with the rules users rely on (a request made during a transition waits, only the latest
/// waiting request is carried out, superseded requests complete with `false`), calls its ``FrameSourceBackend`` for
/// the transitions, and hands submitted frames to the attached ``DataCaptureContext`` one at a time. Frames reach the
/// context only while the source is ``FrameSourceState/on`` and attached; until then they wait in a bounded queue
/// that drops its oldest frame when full.
///
/// A backend only starts and stops its producer and calls ``submit(_:)`` for each frame. For example, a source for
/// a network camera's live view:
///
/// ```swift
/// public final class LiveViewSource: FrameSource {
///     public let frameSourceEngine: FrameSourceEngine
///
///     public init(camera: NetworkCamera) {
///         // One queued frame: a slow context sees the newest frame, never a backlog.
///         frameSourceEngine = FrameSourceEngine(queueCapacity: 1, backend: Backend(camera: camera))
///     }
///
///     private final class Backend: FrameSourceBackend {
///         let camera: NetworkCamera
///         let pump = Mutex<Task<Void, Never>?>(nil)
///
///         init(camera: NetworkCamera) { self.camera = camera }
///
///         func perform(_ transition: FrameSourceTransition, for engine: FrameSourceEngine) async throws {
///             switch transition {
///             case .start, .wakeUp:
///                 try await camera.startLiveView()          // throwing falls back to off or standby
///                 let task = Task { [camera] in
///                     while let frame = try? await camera.nextLiveViewFrame() {
///                         engine.submit(frame)               // never blocks; drops the oldest when full
///                     }
///                     engine.reportFailure(ViewfinderError(.disconnected, "live view ended"))
///                 }
///                 pump.withLock { $0 = task }
///             case .stop, .goToSleep:
///                 pump.withLock { $0 }?.cancel()
///                 try await camera.stopLiveView()
///             case .bootUp, .shutDown:
///                 break                                      // nothing to prepare for standby
///             }
///         }
///     }
/// }
/// ```
///
/// Users then call ``FrameSource/switch(toDesiredState:completionHandler:)`` and
/// ``DataCaptureContext/setFrameSource(_:completionQueue:completionHandler:)`` as with any other source.
public final class FrameSourceEngine: Sendable {
    typealias StateListener = @Sendable (FrameSourceStateChange) -> Void
    typealias FrameListener = @Sendable (Frame) -> Void

    struct State: Sendable {
        var machine = FrameSourceStateMachine()
        /// The context the source is attached to.
        var consumer: CaptureWorker?
        var stateListeners = ListenerList<StateListener>()
        var frameListeners = ListenerList<FrameListener>()
        /// State changes not yet told to the listeners, in order.
        var announcements: [FrameSourceStateChange] = []
        /// Whether a thread is telling the listeners; changes are told by one thread at a time, in order.
        var isAnnouncing = false
    }

    /// The most frames that wait for the context; when it is full, the oldest is dropped.
    public let queueCapacity: Int
    /// The only pixel format ``submit(_:)`` accepts, or `nil` for any.
    public let acceptedPixelFormat: PixelFormat?
    private let backend: (any FrameSourceBackend)?
    let state: Locked<State>

    // The frame path runs without the lock: producers and the context meet in the ring and in these atomics.
    let ring: FrameRing
    /// Whether the current state is on; written under the lock, read by the frame path.
    let isOn = Atomic<Bool>(false)
    /// The identity of the attached context's worker, or 0; written under the lock, read by the frame path.
    let consumerID = Atomic<UInt>(0)
    /// Whether the attached context found no frame to take and sleeps until one can be delivered.
    let consumerIsWaiting = Atomic<Bool>(false)
    let delivered = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
    let rejected = Atomic<Int>(0)

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - queueCapacity: The most frames that wait for the context, at least 1. Keep it short: every queued frame
    ///     adds a frame of latency when the context is slower than the source.
    ///   - acceptedPixelFormat: The only pixel format ``submit(_:)`` accepts, or `nil` for any.
    ///   - backend: Carries out transitions; `nil` for a source with nothing to start or stop, whose transitions then
    ///     complete at once.
    /// - Precondition: `queueCapacity` is at least 1.
    public init(
        queueCapacity: Int = 1, acceptedPixelFormat: PixelFormat? = nil, backend: (any FrameSourceBackend)? = nil
    ) {
        self.queueCapacity = queueCapacity
        self.acceptedPixelFormat = acceptedPixelFormat
        self.backend = backend
        self.state = Locked(State())
        self.ring = FrameRing(capacity: queueCapacity)
    }

    /// The state the source is in, transitional states included.
    public var currentState: FrameSourceState { state.withLock { $0.machine.currentState } }

    /// The state most recently asked for.
    public var desiredState: FrameSourceState { state.withLock { $0.machine.desiredState } }

    /// The counts of frames received, delivered, dropped and rejected, and how many wait now.
    ///
    /// Read while frames flow, the counts are each exact but not taken at one instant.
    public var statistics: FrameSourceStatistics {
        var statistics = FrameSourceStatistics()
        statistics.received = ring.appendedCount
        statistics.delivered = delivered.load(ordering: .relaxed)
        statistics.dropped = dropped.load(ordering: .relaxed)
        statistics.rejected = rejected.load(ordering: .relaxed)
        statistics.queued = ring.count
        return statistics
    }

    /// Asks for `desiredState`; `completion`, if any, is told how the request ended, on the thread that ended it.
    ///
    /// A request made while a transition runs waits for it; a later request supersedes it.
    public func requestState(
        _ desiredState: FrameSourceState, completion: (@Sendable (FrameSourceSwitchResult) -> Void)?
    ) {
        apply(.request(desiredState, completion))
    }

    /// Asks for `desiredState` and returns how the request ended.
    ///
    /// Cancelling the calling task does not cancel the request.
    public func requestState(_ desiredState: FrameSourceState) async -> FrameSourceSwitchResult {
        await withCheckedContinuation { continuation in
            requestState(desiredState) { continuation.resume(returning: $0) }
        }
    }

    /// Tells the engine that the backend stopped by itself, for example because its device went away.
    ///
    /// The source goes ``FrameSourceState/off`` and its state listeners see `error`. During a transition, the
    /// failure takes effect when the transition ends. Queued frames stay queued.
    public func reportFailure(_ error: any Error) {
        apply(.fail(error))
    }

    /// Calls `listener` with every change of the current state until the returned token is released.
    ///
    /// Changes are told in order, one at a time, on the thread that made them or on one that is already telling.
    public func addStateListener(
        _ listener: @escaping @Sendable (FrameSourceStateChange) -> Void
    ) -> ObservationToken {
        let id = state.withLock { $0.stateListeners.add(listener) }
        return ObservationToken { [weak self] in self?.state.withLock { $0.stateListeners.remove(id) } }
    }

    /// Calls `listener` with every frame the source hands to its context, until the returned token is released.
    ///
    /// The listener runs on the context's thread, before the context's own listeners and processors; keep it short.
    public func addFrameListener(_ listener: @escaping @Sendable (Frame) -> Void) -> ObservationToken {
        let id = state.withLock { $0.frameListeners.add(listener) }
        return ObservationToken { [weak self] in self?.state.withLock { $0.frameListeners.remove(id) } }
    }
}

extension FrameSourceEngine {
    private typealias Effects = FrameSourceStateMachine.Effects

    private enum Operation {
        case request(FrameSourceState, FrameSourceStateMachine.Completion?)
        case finish(FrameSourceTransition, (any Error)?)
        case fail(any Error)
    }

    /// Updates the machine under the lock, then completes requests, tells listeners and starts the next transition.
    private func apply(_ operation: Operation) {
        var operation = operation
        while true {
            let (effects, announce, consumer) = state.withLock { state -> (Effects, Bool, CaptureWorker?) in
                let effects: Effects
                switch operation {
                case .request(let desiredState, let completion):
                    effects = state.machine.request(desiredState, completion: completion)
                case .finish(let transition, let error):
                    effects = state.machine.finish(transition, error: error)
                case .fail(let error):
                    effects = state.machine.reportFailure(error)
                }
                state.announcements.append(contentsOf: effects.changes)
                let announce = !state.isAnnouncing && !state.announcements.isEmpty
                if announce { state.isAnnouncing = true }
                isOn.store(state.machine.currentState == .on, ordering: .relaxed)
                // Pairs with the fence in `takeFrameOrWait`: either the context sees the new state, or this sees it waiting.
                atomicMemoryFence(ordering: .sequentiallyConsistent)
                return (effects, announce, consumerToWake(state))
            }
            consumer?.wake()
            if announce { announceChanges() }
            for (completion, result) in effects.completions {
                completion(result)
            }
            guard let transition = effects.transition else { return }
            guard let backend else {
                operation = .finish(transition, nil)
                continue
            }
            Task {
                do {
                    try await backend.perform(transition, for: self)
                    self.apply(.finish(transition, nil))
                } catch {
                    self.apply(.finish(transition, error))
                }
            }
            return
        }
    }

    /// Tells the state listeners every queued change; called by the one thread that set `isAnnouncing`.
    private func announceChanges() {
        while true {
            let batch: ([StateListener], [FrameSourceStateChange])? = state.withLock { state in
                guard !state.announcements.isEmpty else {
                    state.isAnnouncing = false
                    return nil
                }
                defer { state.announcements.removeAll(keepingCapacity: true) }
                return (state.stateListeners.listeners, state.announcements)
            }
            guard let (listeners, changes) = batch else { return }
            for change in changes {
                for listener in listeners { listener(change) }
            }
        }
    }
}
