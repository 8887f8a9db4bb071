import ViewfinderReactive

extension TypedCameraProperty {
    /// A publisher of the property itself, whenever its value, pending value or valid settable values change.
    ///
    /// Like every property publisher, it gives the current state when the subscriber first asks, and observes the
    /// property only from then until the subscription is cancelled.
    public func publisher() -> AnyPublisher<TypedCameraProperty<Value>, Never> {
        statePublisher(on: [.value, .pendingValue, .validSettableValues]) { $0 }
    }

    /// A publisher of ``currentValue``, whenever it changes.
    public func valuePublisher() -> AnyPublisher<TypedCameraPropertyValue<Value>?, Never> {
        statePublisher(on: .value) { $0.currentValue }
    }

    /// A publisher of ``commonValue``, the meaning of the current value, whenever the current value changes.
    public func commonValuePublisher() -> AnyPublisher<Value?, Never> {
        statePublisher(on: .value) { $0.commonValue }
    }

    /// A publisher of the effective value: ``pendingValue`` while a set is under way, else ``currentValue``.
    ///
    /// A control bound to it moves as soon as a value is set, rather than when the camera shows it.
    public func effectiveValuePublisher() -> AnyPublisher<TypedCameraPropertyValue<Value>?, Never> {
        statePublisher(on: [.value, .pendingValue]) { $0.pendingValue ?? $0.currentValue }
    }

    /// A publisher of the meaning of the effective value: the pending value while a set is under way, else the
    /// current value.
    public func effectiveCommonValuePublisher() -> AnyPublisher<Value?, Never> {
        statePublisher(on: [.value, .pendingValue]) { ($0.pendingValue ?? $0.currentValue)?.commonValue }
    }

    /// A publisher of ``validSettableValues``, whenever they change.
    public func settableValuesPublisher() -> AnyPublisher<CameraPropertySettableValues<Value>, Never> {
        statePublisher(on: .validSettableValues) { $0.validSettableValues }
    }

    private func statePublisher<Output>(
        on changeTypes: CameraPropertyChangeType,
        _ read: @escaping @Sendable (TypedCameraProperty<Value>) -> Output
    ) -> AnyPublisher<Output, Never> {
        CameraStatePublisher(
            observe: { changed in
                self.addObserver { _, changeType in
                    if !changeType.isDisjoint(with: changeTypes) { changed() }
                }
            },
            read: { read(self) }
        ).eraseToAnyPublisher()
    }
}
