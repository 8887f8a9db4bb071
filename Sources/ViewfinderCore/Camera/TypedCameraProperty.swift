import ViewfinderSystem

/// One property of a camera — its ISO, shutter speed, white balance… — with values of a known type.
///
/// Get a property from its camera; the camera keeps it, and returns the same object for every call:
///
/// ```swift
/// let isoProperty = camera.property(for: .iso)  // a TypedCameraProperty<ISOValue>
/// print("ISO is: \(isoProperty.currentValue?.localizedDisplayValue ?? "unknown")")
/// if isoProperty.commonValue == .iso100 { print("ISO 100!") }
///
/// // The observation ends when this token is released: keep it.
/// let observerToken = isoProperty.addObserver { property, changeType in
///     if changeType.contains(.value) {
///         print("ISO changed to: \(property.currentValue?.localizedDisplayValue ?? "unknown")")
///     }
/// }
/// try await isoProperty.setValue(.iso800)
/// ```
///
/// A property exists for every identifier, whether or not the camera has it: until the camera reports it,
/// ``currentValue`` is `nil` and ``validSettableValues`` is empty.
///
/// ## Threads
///
/// Every member may be used from any thread. Observers are called outside the property's lock, one at a time and in
/// order, on the thread that reported the change: the camera's event thread for changes from the camera, the thread
/// that called ``setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)`` for a new pending value. Keep observers
/// short, and hand longer work to a queue or task of your own.
///
/// ## For camera implementations
///
/// A property talks to its camera through a ``CameraPropertyBackend``. The backend passes on what the camera
/// reports with ``update(currentValue:validSettableValues:)``, ``update(currentValue:)`` and
/// ``update(validSettableValues:)``, and calls ``reset(failingRequestsWith:)`` when the camera goes away.
/// ``CameraPropertyStore`` makes and keeps one property per identifier.
public final class TypedCameraProperty<Value: CameraPropertyValue>: Sendable {
    /// An observer: the property and what changed about it.
    public typealias Observer =
        @Sendable (_ property: TypedCameraProperty<Value>, _ changeType: CameraPropertyChangeType)
        -> Void

    /// The identifier the property was made for.
    public let identifier: CameraPropertyIdentifier<Value>
    /// How long ``setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)`` waits by default for the camera to show
    /// a value it was sent.
    public let setValueTimeout: Duration

    weak let backend: (any CameraPropertyBackend)?
    let state: Locked<CameraPropertyState<Value>>
    private let observers = CameraObserverRegistry<CameraPropertyChangeType> { $0.union($1) }

    /// Creates a property with no values yet.
    ///
    /// - Parameters:
    ///   - identifier: The identifier the property is for.
    ///   - backend: The camera or device that sets values; held weakly, as it usually owns the property.
    ///   - setValueTimeout: How long a set waits by default for the camera to show the new value.
    public init(
        identifier: CameraPropertyIdentifier<Value>,
        backend: (any CameraPropertyBackend)?,
        setValueTimeout: Duration = .seconds(10)
    ) {
        self.identifier = identifier
        self.backend = backend
        self.setValueTimeout = setValueTimeout
        self.state = Locked(CameraPropertyState(displayName: identifier.localizedDisplayName))
    }

    /// The property's name for people, such as "ISO".
    public var localizedDisplayName: String { identifier.localizedDisplayName }

    /// The value the camera reports now; `nil` until it reports one, or when it does not have the property.
    public var currentValue: TypedCameraPropertyValue<Value>? {
        state.withLock { $0.currentValue }
    }

    /// The value most recently asked for that the camera does not show yet; `nil` when no set is under way.
    public var pendingValue: TypedCameraPropertyValue<Value>? {
        state.withLock { $0.pendingValue }
    }

    /// The values the property can be set to now, in the camera's order; empty when it cannot be set.
    public var validSettableValues: CameraPropertySettableValues<Value> {
        state.withLock { $0.validSettableValues }
    }

    /// How ``validSettableValues`` are given: a list, a stepped range, or none when the property cannot be set.
    public var valueSetType: CameraPropertyValueSetType {
        validSettableValues.valueSetType
    }

    /// The meaning of the current value, such as ``ISOValue/iso100``; `nil` when there is none or it is unknown.
    public var commonValue: Value? {
        currentValue?.commonValue
    }

    /// The valid settable value that means `commonValue`, if the camera offers one now.
    ///
    /// ```swift
    /// if let iso800 = isoProperty.validValue(matchingCommonValue: .iso800) {
    ///     try await isoProperty.setValue(iso800)
    /// }
    /// ```
    public func validValue(matchingCommonValue commonValue: Value) -> TypedCameraPropertyValue<Value>? {
        validSettableValues.first(matchingCommonValue: commonValue)
    }

    /// Whether anything observes the property, such as an observer or a publisher with demand.
    ///
    /// A backend that must poll the camera for changes can poll only the properties someone watches.
    public var hasObservers: Bool {
        observers.hasObservers
    }

    /// Calls `observer` whenever the current value, the pending value or the valid settable values change.
    ///
    /// - Returns: A token that keeps the observation: it ends when the token is released or cancelled.
    public func addObserver(_ observer: @escaping Observer) -> ObservationToken {
        observers.addObserver { [weak self] changeType in
            guard let self else { return }
            observer(self, changeType)
        }
    }

    /// Records the camera's current value and valid settable values, telling observers of what changed.
    ///
    /// For camera implementations. A set under way whose value the camera now shows completes.
    public func update(
        currentValue: TypedCameraPropertyValue<Value>?,
        validSettableValues: CameraPropertySettableValues<Value>
    ) {
        perform(
            state.withLock { $0.update(currentValue: .some(currentValue), validSettableValues: validSettableValues) })
    }

    /// Records the camera's current value, telling observers if it changed.
    ///
    /// For camera implementations. A set under way whose value the camera now shows completes.
    public func update(currentValue: TypedCameraPropertyValue<Value>?) {
        perform(state.withLock { $0.update(currentValue: .some(currentValue), validSettableValues: nil) })
    }

    /// Records the values the camera accepts now, telling observers if they changed.
    ///
    /// For camera implementations.
    public func update(validSettableValues: CameraPropertySettableValues<Value>) {
        perform(state.withLock { $0.update(currentValue: nil, validSettableValues: validSettableValues) })
    }

    /// Forgets every value, as when the camera disconnects; sets under way fail with `error`.
    ///
    /// For camera implementations.
    public func reset(failingRequestsWith error: ViewfinderError) {
        perform(state.withLock { $0.reset(failingRequestsWith: error) })
    }

    /// Carries out what a transition calls for, now that the lock is released.
    func perform(_ actions: CameraPropertyState<Value>.Actions) {
        for timer in actions.timersToCancel {
            timer.cancel()
        }
        if !actions.changes.isEmpty {
            observers.notify(actions.changes)
        }
        for (continuation, result) in actions.resumptions {
            continuation.resume(with: result)
        }
    }
}
