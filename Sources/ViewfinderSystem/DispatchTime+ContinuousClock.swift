import Dispatch

extension DispatchTime {
    /// The Dispatch time of a continuous clock's instant: now, plus the time left until `deadline` (none once it has
    /// passed).
    package init(_ deadline: ContinuousClock.Instant) {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        self = .now() + .nanoseconds(Int(clamping: nanoseconds))
    }
}
