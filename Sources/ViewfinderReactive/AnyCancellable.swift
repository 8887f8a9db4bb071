/// A cancellable that cancels when it is released.
///
/// Keep the `AnyCancellable` returned by `sink` and friends for as long as the subscription should live, typically
/// in a set with ``store(in:)-(Set<AnyCancellable>)``. Releasing it or calling ``cancel()`` ends the subscription.
public final class AnyCancellable: Cancellable, Hashable, Sendable {
    private let action: LockedState<(() -> Void)?>

    /// Creates a cancellable that runs `cancel` once, when cancelled or released.
    public init(_ cancel: @escaping () -> Void) {
        self.action = LockedState(cancel)
    }

    /// Creates a cancellable that cancels `canceller` once, when cancelled or released.
    public init<C: Cancellable>(_ canceller: C) {
        self.action = LockedState(canceller.cancel)
    }

    deinit {
        cancel()
    }

    /// Cancels the work; the second and later calls do nothing.
    public func cancel() {
        let action = self.action.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Stores this cancellable in a set, keeping the subscription alive as long as the set holds it.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Stores this cancellable in a collection, keeping the subscription alive as long as the collection holds it.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Two cancellables are equal when they are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
