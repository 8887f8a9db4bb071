import ViewfinderReactive

/// A subscriber of a live view publisher, which crosses threads by the publisher contract although its type need not
/// be `Sendable`; only the publisher's pump calls it, one call at a time.
struct LiveViewSubscriberReference: @unchecked Sendable {
    let subscriber: AnySubscriber<LiveViewFrame, LiveViewTerminationReason>
}

/// The state of a ``LiveViewPublisher``: its subscribers and their demand, whether live view is on, and what its pump
/// should do next.
///
/// The pump — one task at a time — asks ``nextStep(now:gracePeriod:)`` what to do, does it without the lock, and
/// reports back. Subscribers' requests and cancellations only change the demand and wake the pump.
struct LiveViewPublisherState {
    struct Entry {
        let reference: LiveViewSubscriberReference
        var demand = Subscribers.Demand.none
    }

    /// What the pump does next.
    enum Step {
        /// Tell these subscribers that live view ended.
        case complete([(LiveViewSubscriberReference, LiveViewTerminationReason)])
        /// Start live view.
        case start(LiveViewSettings)
        /// Fetch one frame.
        case fetch(LiveViewSettings)
        /// Wait until woken, or until the deadline if there is one.
        case wait(until: ContinuousClock.Instant?)
        /// End live view: nobody has subscribed for the grace period.
        case stop
        /// Nothing to do: the pump ends.
        case exit
    }

    var entries: [UInt64: Entry] = [:]
    var nextID: UInt64 = 0
    var options: [LiveViewOption: LiveViewOptionValue] = [:] {
        didSet { settings = LiveViewSettings(options: options) }
    }
    /// What ``options`` resolve to, kept with them rather than resolved for every frame.
    private(set) var settings = LiveViewSettings(options: [:])
    /// Whether a pump task runs.
    var isPumping = false
    /// Whether live view is on at the camera.
    var isStreaming = false
    /// When the last subscriber left while live view was on.
    var emptySince: ContinuousClock.Instant?
    /// Subscribers whose end is yet to be told, with the reason.
    var terminations: [(LiveViewSubscriberReference, LiveViewTerminationReason)] = []
    var lastFetch: ContinuousClock.Instant?
    var hasWarnedOfUnlimitedDemand = false
    var statistics = LiveViewStatistics()

    /// Whether some subscriber wants a frame.
    var hasDemand: Bool { entries.values.contains { $0.demand > 0 } }

    /// Decides the pump's next step; ``Step/exit`` also marks the pump as ended.
    mutating func nextStep(now: ContinuousClock.Instant, gracePeriod: Duration) -> Step {
        if !terminations.isEmpty {
            defer { terminations = [] }
            return .complete(terminations)
        }
        guard isStreaming else {
            if hasDemand { return .start(settings) }
            isPumping = false
            return .exit
        }
        if entries.isEmpty {
            let since = emptySince ?? now
            emptySince = since
            return now >= since + gracePeriod ? .stop : .wait(until: since + gracePeriod)
        }
        guard hasDemand else { return .wait(until: nil) }
        if let rate = settings.maximumFramesPerSecond, let last = lastFetch {
            let next = last + .seconds(1 / rate)
            if now < next { return .wait(until: next) }
        }
        lastFetch = now
        return .fetch(settings)
    }

    /// Adds a subscriber with no demand yet.
    mutating func add(_ reference: LiveViewSubscriberReference) -> UInt64 {
        defer { nextID += 1 }
        entries[nextID] = Entry(reference: reference)
        emptySince = nil
        statistics.subscriberCount = entries.count
        return nextID
    }

    /// Removes a subscriber; when it was the last while live view is on, the grace period begins.
    mutating func remove(_ id: UInt64, now: ContinuousClock.Instant) {
        guard entries.removeValue(forKey: id) != nil else { return }
        if entries.isEmpty, isStreaming {
            emptySince = now
        }
        statistics.subscriberCount = entries.count
    }

    /// Takes one unit of demand from every subscriber that has some, for a frame to deliver to them.
    mutating func takeRecipients() -> [(UInt64, LiveViewSubscriberReference)] {
        statistics.framesFetched += 1
        var recipients: [(UInt64, LiveViewSubscriberReference)] = []
        // By index, changing the values in place: a loop over the entries while changing them copied the whole
        // dictionary at every frame.
        var index = entries.startIndex
        while index != entries.endIndex {
            if entries.values[index].demand > 0 {
                entries.values[index].demand -= 1
                recipients.append((entries.keys[index], entries.values[index].reference))
            }
            entries.formIndex(after: &index)
        }
        statistics.framesDelivered += recipients.count
        return recipients
    }

    /// Ends live view for every subscriber: they are told `reason` by the pump and removed.
    mutating func endAll(_ reason: LiveViewTerminationReason) {
        for (_, entry) in entries.sorted(by: { $0.key < $1.key }) {
            terminations.append((entry.reference, reason))
        }
        entries = [:]
        emptySince = nil
        statistics.subscriberCount = 0
    }
}

/// What a live view publisher has done, for monitoring and tests.
public struct LiveViewStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Frames fetched from the camera.
    public var framesFetched = 0
    /// Frames handed to subscribers, counting one per subscriber.
    public var framesDelivered = 0
    /// Times live view started.
    public var startCount = 0
    /// Attempts to start live view that failed, retried ones included.
    public var failedStartCount = 0
    /// Times live view ended after its last subscriber left, or after it failed.
    public var stopCount = 0
    /// Warnings given because a subscriber asked for unlimited frames: at most one per publisher.
    public var unlimitedDemandWarningCount = 0
    /// Subscribers attached now.
    public var subscriberCount = 0
    /// Whether live view is on at the camera.
    public var isStreaming = false
    /// Whether the publisher fetches nothing until a subscriber asks for a frame: no subscriber has demand, and no
    /// start, end of live view or paced frame is due.
    public var isWaitingForDemand = true

    /// Creates statistics with every count zero.
    public init() {}

    /// The counts, for people.
    public var description: String {
        "fetched \(framesFetched), delivered \(framesDelivered), started \(startCount) (failed \(failedStartCount)), "
            + "stopped \(stopCount), subscribers \(subscriberCount), streaming \(isStreaming), "
            + "waiting for demand \(isWaitingForDemand)"
    }
}
