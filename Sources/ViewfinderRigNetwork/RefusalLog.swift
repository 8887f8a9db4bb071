import ViewfinderSystem

/// Logs refused messages without letting a flood of them flood the log: the first ``burst`` in full, then one line
/// per ``every`` refusals with the count so far.
final class RefusalLog: Sendable {
    /// How many refusals are logged one by one.
    let burst: Int
    /// After the burst, one refusal in this many is logged.
    let every: Int
    private let log: @Sendable (String) -> Void
    private let count = Locked(0)

    /// A log that writes its lines to `log`.
    init(burst: Int = 20, every: Int = 100, log: @escaping @Sendable (String) -> Void) {
        self.burst = burst
        self.every = every
        self.log = log
    }

    /// Logs that a message on `topic` was refused, and why.
    func refused(on topic: String, because reason: String) {
        let number = count.withLock { count in
            count += 1
            return count
        }
        guard number <= burst || number % every == 0 else { return }
        let tally = number > burst ? " (\(number) messages refused so far)" : ""
        log("refused a message on \(topic.prefix(200)): \(reason)\(tally)")
    }

    /// How many messages were refused.
    var total: Int { count.withLock { $0 } }
}
