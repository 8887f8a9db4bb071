import Synchronization

/// Detects overlapping calls: every call to ``enter()`` must be followed by ``leave()`` before the next.
final class OverlapDetector: Sendable {
    private let inside = Atomic(false)
    private let overlaps = Atomic(0)

    init() {}

    /// The number of calls that started while another was running.
    var count: Int { overlaps.load(ordering: .relaxed) }

    /// Marks the start of a call.
    func enter() {
        if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
    }

    /// Marks the end of a call.
    func leave() {
        inside.store(false, ordering: .releasing)
    }
}
