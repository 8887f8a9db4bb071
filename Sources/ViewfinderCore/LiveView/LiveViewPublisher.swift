import ViewfinderReactive
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A camera's live view as a publisher of frames, fetched from the camera only as fast as subscribers ask for them.
///
/// Each camera has exactly one: ``Camera/liveViewPublisher`` and `liveViewPublisher(options:)` return the same
/// publisher every time, so options applied through either affect every subscriber. Live view starts at the first
/// demand from any subscriber and ends a short grace period (0.25 s by default) after the last subscriber leaves,
/// so rebuilding a subscription does not turn live view off and on again. A failed start is retried a few times.
///
/// Frames are fetched one at a time, and only while some subscriber has demand: without demand, nothing is fetched,
/// so a slow consumer means fewer frames fetched, never frames piling up. Each frame goes to every subscriber that
/// has demand at the time. Subscribe with
/// `ViewfinderReactive/Publisher/sinkWithReadyHandler(receiveCompletion:receiveValue:)`, which asks for the next
/// frame when the consumer is ready:
///
/// ```swift
/// let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
///     .receive(on: DispatchQueue.global(qos: .default))
///     .sinkWithReadyHandler { completion in
///         print("Live view ended with completion reason: \(completion)")
///     } receiveValue: { frame, readyForNextFrame in
///         process(frame)
///         readyForNextFrame()
///     }
/// ```
///
/// Frames reach subscribers on the thread the publisher's task runs on: the camera's I/O thread when its backend
/// names one (``LiveViewBackend/preferredExecutor``; PTP cameras do), so that a paced frame wakes one thread only.
/// Work longer than a frame's handling belongs elsewhere, as above with `receive(on:)`: calls to the same camera wait
/// behind it.
///
/// `sink` and `assign` ask for unlimited frames, which makes the publisher fetch as fast as the camera allows; the
/// first such subscriber makes it print a warning, once per publisher.
///
/// Live view ends for subscribers with ``LiveViewTerminationReason``: finished normally when the camera was
/// disconnected on purpose, or failed with the error when live view could not start or the camera went away.
public final class LiveViewPublisher: Publisher, Sendable {
    /// Live view frames.
    public typealias Output = LiveViewFrame
    /// Why live view ended, when it did not end normally.
    public typealias Failure = LiveViewTerminationReason

    /// How long live view waits and how often it retries.
    public struct Configuration: Sendable {
        /// How long live view stays on after the last subscriber leaves.
        public var gracePeriod: Duration
        /// How many times to try starting live view before failing the subscribers.
        public var startAttempts: Int
        /// The wait between attempts to start live view.
        public var retryDelay: Duration
        /// Receives the warning about unlimited demand; by default it is written to standard error.
        public var warningHandler: @Sendable (String) -> Void

        /// Creates a configuration.
        public init(
            gracePeriod: Duration = .milliseconds(250), startAttempts: Int = 4,
            retryDelay: Duration = .milliseconds(500),
            warningHandler: @escaping @Sendable (String) -> Void = LiveViewPublisher.writeToStandardError
        ) {
            self.gracePeriod = gracePeriod
            self.startAttempts = max(1, startAttempts)
            self.retryDelay = retryDelay
            self.warningHandler = warningHandler
        }
    }

    /// The warning given, once per publisher, when a subscriber asks for unlimited frames.
    public static let unlimitedDemandWarning = """
        Viewfinder: a subscriber asked a camera's live view publisher for unlimited frames, as sink and assign do. \
        Without demand to pace it, the publisher fetches frames as fast as the camera gives them, which costs \
        network, CPU and battery for frames the subscriber may drop. Subscribe with sinkWithReadyHandler and call \
        the ready handler when ready for the next frame. This warning is given once.
        """

    /// Writes a line to standard error.
    public static let writeToStandardError: @Sendable (String) -> Void = { message in
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// How long live view waits and how often it retries.
    public let configuration: Configuration
    private weak let backend: (any LiveViewBackend)?
    let state = Locked(LiveViewPublisherState())
    let pump = LiveViewPump()

    /// Creates the publisher of a camera's live view.
    ///
    /// - Parameters:
    ///   - backend: Starts, fetches and ends live view; held weakly, as it usually owns the publisher.
    ///   - configuration: The grace period, retries and warning output.
    public init(backend: any LiveViewBackend, configuration: Configuration = Configuration()) {
        self.backend = backend
        self.configuration = configuration
    }

    /// The options in effect.
    public var options: [LiveViewOption: LiveViewOptionValue] {
        state.withLock { $0.options }
    }

    /// Sets options, keeping those not given; they apply to every subscriber from the next frame on.
    public func applyOptions(_ options: [LiveViewOption: LiveViewOptionValue]) {
        guard !options.isEmpty else { return }
        state.withLock { $0.options.merge(options) { $1 } }
        pump.wake()
    }

    /// What the publisher has done so far.
    public var statistics: LiveViewStatistics {
        let parked = pump.isParkedWithoutDeadline
        return state.withLock { state in
            var statistics = state.statistics
            statistics.isStreaming = state.isStreaming
            statistics.isWaitingForDemand = !state.isPumping || parked
            return statistics
        }
    }

    /// Attaches a subscriber; live view starts when some subscriber asks for a frame.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == LiveViewFrame, S.Failure == LiveViewTerminationReason {
        let reference = LiveViewSubscriberReference(subscriber: AnySubscriber(subscriber))
        let id = state.withLock { $0.add(reference) }
        subscriber.receive(subscription: LiveViewSubscription(publisher: self, id: id))
    }

    /// Ends live view for every subscriber, as when the camera is disconnected or goes away; for camera
    /// implementations.
    ///
    /// Live view is considered off at the camera afterwards: the backend is not asked to end it. New subscribers
    /// start it again.
    public func terminate(_ reason: LiveViewTerminationReason) {
        let startsPump = state.withLock { state in
            state.endAll(reason)
            state.isStreaming = false
            return state.beginPumping()
        }
        run(startingPump: startsPump)
    }

    func request(_ demand: Subscribers.Demand, for id: UInt64) {
        guard demand > 0 else { return }
        let (startsPump, warns) = state.withLock { state -> (Bool, Bool) in
            guard state.entries[id] != nil else { return (false, false) }
            state.entries[id]?.demand += demand
            var warns = false
            if demand == .unlimited, !state.hasWarnedOfUnlimitedDemand {
                state.hasWarnedOfUnlimitedDemand = true
                state.statistics.unlimitedDemandWarningCount += 1
                warns = true
            }
            return (state.beginPumping(), warns)
        }
        if warns {
            configuration.warningHandler(Self.unlimitedDemandWarning)
        }
        run(startingPump: startsPump)
    }

    func cancel(_ id: UInt64) {
        state.withLock { $0.remove(id, now: .now) }
        pump.wake()
    }

    /// Starts the pump task, or wakes the running one.
    private func run(startingPump: Bool) {
        if startingPump {
            let executor = currentBackend?.preferredExecutor
            Task(executorPreference: executor) { await self.runPump(on: executor) }
        } else {
            pump.wake()
        }
    }

    var currentBackend: (any LiveViewBackend)? { backend }
}

extension LiveViewPublisherState {
    /// Marks the pump as running; `true` when it was not, and the caller must start it.
    mutating func beginPumping() -> Bool {
        guard !isPumping else { return false }
        isPumping = true
        return true
    }
}

/// One subscriber's connection to a ``LiveViewPublisher``: its requests and cancellation go to the publisher.
final class LiveViewSubscription: Subscription, Sendable {
    private let publisher: LiveViewPublisher
    private let id: UInt64

    init(publisher: LiveViewPublisher, id: UInt64) {
        self.publisher = publisher
        self.id = id
    }

    func request(_ demand: Subscribers.Demand) {
        publisher.request(demand, for: id)
    }

    func cancel() {
        publisher.cancel(id)
    }
}
