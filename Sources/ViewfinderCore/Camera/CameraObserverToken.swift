import ViewfinderConcurrency

/// Keeps an observation alive: the observer is removed when the token is released or invalidated.
///
/// Store the token for as long as the observer should be called:
///
/// ```swift
/// final class ISOLabel {
///     private var observation: CameraObserverToken?
///
///     func bind(to property: TypedCameraProperty<ISOValue>) {
///         observation = property.addObserver { property, changeType in
///             print(property.currentValue?.localizedDisplayValue ?? "–")
///         }
///     }
/// }
/// ```
///
/// Once ``invalidate()`` returns, the observer is not called again, except in a call another thread had already
/// begun: invalidation never waits for a call under way, so it is safe from inside the observer itself.
public final class CameraObserverToken: Sendable {
    private let removal: Locked<(@Sendable () -> Void)?>

    /// Creates a token that runs `removal` once, when it is invalidated or released.
    ///
    /// Camera implementations use this for observations of their own; ``CameraObserverRegistry`` makes tokens for
    /// the common case.
    public init(removal: @escaping @Sendable () -> Void) {
        self.removal = Locked(removal)
    }

    deinit {
        invalidate()
    }

    /// Whether the observation is still in place.
    public var isValid: Bool {
        removal.withLock { $0 != nil }
    }

    /// Removes the observer now; later calls do nothing.
    public func invalidate() {
        let removal = self.removal.withLock { removal in
            defer { removal = nil }
            return removal
        }
        removal?()
    }
}
