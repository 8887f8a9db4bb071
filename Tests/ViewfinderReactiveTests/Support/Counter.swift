import ViewfinderSystem

/// A counter shared between threads.
final class Counter: Sendable {
    private let count = Locked(0)

    init() {}

    /// The current count.
    var value: Int { count.withLock { $0 } }

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}
