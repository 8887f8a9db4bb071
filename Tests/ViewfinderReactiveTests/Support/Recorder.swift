import ViewfinderSystem

/// A list that callbacks on any thread append to.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])

    init() {}

    /// Everything recorded so far.
    var values: [Element] { elements.withLock { $0 } }

    /// Appends an element.
    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }
}
