/// A first-in, first-out queue with amortised constant-time operations.
///
/// Values are appended to `back` and taken from `front`, which holds the older values in reverse order; when
/// `front` runs out, `back` is reversed into it.
@usableFromInline
struct FIFO<Element> {
    @usableFromInline var front: [Element] = []
    @usableFromInline var back: [Element] = []

    @inlinable
    init() {}

    /// True when the queue holds no values.
    @inlinable
    var isEmpty: Bool { front.isEmpty && back.isEmpty }

    /// Appends a value at the end of the queue.
    @inlinable
    mutating func append(_ element: Element) {
        back.append(element)
    }

    /// Removes and returns the oldest value, or nil when the queue is empty.
    @inlinable
    mutating func popFirst() -> Element? {
        if front.isEmpty {
            if back.isEmpty { return nil }
            front = back.reversed()
            back.removeAll(keepingCapacity: true)
        }
        return front.popLast()
    }

    /// Removes every value.
    @inlinable
    mutating func removeAll() {
        front = []
        back = []
    }
}
