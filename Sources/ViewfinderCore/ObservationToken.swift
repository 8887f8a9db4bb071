import ViewfinderSystem

/// Keeps a listener or observer registered for as long as the token is alive.
///
/// Registering a listener returns a token. The listener stays registered until the token is cancelled or released,
/// so a listener can never outlive the code that wanted it:
///
/// ```swift
/// final class StatusLine {
///     private var token: ObservationToken?
///
///     init(source: some FrameSource) {
///         token = source.addStateListener { change in print("source is \(change.state)") }
///     }
/// }   // releasing the StatusLine releases the token, which removes the listener
/// ```
public final class ObservationToken: Sendable, Hashable {
    private let removal: Locked<(@Sendable () -> Void)?>

    /// Creates a token that calls `remove` once, when it is cancelled or released.
    public init(remove: @escaping @Sendable () -> Void) {
        self.removal = Locked(remove)
    }

    /// Removes the listener now; later calls and the release of the token do nothing more.
    public func cancel() {
        let remove = removal.withLock { removal in
            defer { removal = nil }
            return removal
        }
        remove?()
    }

    /// Keeps the token in `tokens`, so the listener lives as long as that collection holds it.
    public func store(in tokens: inout [ObservationToken]) {
        tokens.append(self)
    }

    deinit {
        cancel()
    }

    /// Tokens are equal when they are the same token.
    public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool {
        lhs === rhs
    }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// Registered listeners in the order they were added, kept inside their owner's lock.
///
/// The listeners are held in their own array so that a snapshot for calling them outside the lock costs one retain.
package struct ListenerList<Listener: Sendable>: Sendable {
    private var nextID: UInt64 = 0
    private var ids: [UInt64] = []
    /// The listeners, in the order they were added.
    package private(set) var listeners: [Listener] = []

    /// Creates an empty list.
    package init() {}

    /// Adds a listener and returns the identifier that removes it.
    package mutating func add(_ listener: Listener) -> UInt64 {
        nextID += 1
        ids.append(nextID)
        listeners.append(listener)
        return nextID
    }

    /// Removes the listener added under `id`, if it is still there.
    package mutating func remove(_ id: UInt64) {
        guard let index = ids.firstIndex(of: id) else { return }
        ids.remove(at: index)
        listeners.remove(at: index)
    }
}
