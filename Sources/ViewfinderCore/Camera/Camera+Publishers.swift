import ViewfinderReactive

extension Camera {
    /// A publisher of a property, whenever its value, pending value or valid settable values change.
    ///
    /// ```swift
    /// let cancellable = camera.publisher(for: .shutterSpeed).sink { shutterSpeedProperty in
    ///     print(shutterSpeedProperty.currentValue?.localizedDisplayValue ?? "unknown")
    /// }
    /// ```
    ///
    /// Like every publisher here, it gives the current state when a subscriber first asks, and observes the camera
    /// only from then until the subscription is cancelled.
    public func publisher<Value>(for identifier: CameraPropertyIdentifier<Value>)
        -> AnyPublisher<TypedCameraProperty<Value>, Never>
    {
        property(for: identifier).publisher()
    }

    /// A publisher of a property's current value, whenever it changes.
    ///
    /// ```swift
    /// let cancellable = camera.valuePublisher(for: .shutterSpeed).sink { shutterSpeed in
    ///     print("The current shutter speed is: \(shutterSpeed?.localizedDisplayValue ?? "nil")")
    /// }
    /// ```
    public func valuePublisher<Value>(for identifier: CameraPropertyIdentifier<Value>)
        -> AnyPublisher<TypedCameraPropertyValue<Value>?, Never>
    {
        property(for: identifier).valuePublisher()
    }

    /// A publisher of the meaning of a property's current value, such as ``ISOValue/iso800``, whenever it changes.
    public func commonValuePublisher<Value>(for identifier: CameraPropertyIdentifier<Value>)
        -> AnyPublisher<Value?, Never>
    {
        property(for: identifier).commonValuePublisher()
    }

    /// A publisher of a property's effective value: its pending value while a set is under way, else its current
    /// value.
    public func effectiveValuePublisher<Value>(for identifier: CameraPropertyIdentifier<Value>)
        -> AnyPublisher<TypedCameraPropertyValue<Value>?, Never>
    {
        property(for: identifier).effectiveValuePublisher()
    }

    /// A publisher of the meaning of a property's effective value.
    public func effectiveCommonValuePublisher<Value>(for identifier: CameraPropertyIdentifier<Value>)
        -> AnyPublisher<Value?, Never>
    {
        property(for: identifier).effectiveCommonValuePublisher()
    }

    /// A publisher of a property's valid settable values, whenever they change.
    public func settableValuesPublisher<Value>(for identifier: CameraPropertyIdentifier<Value>)
        -> AnyPublisher<CameraPropertySettableValues<Value>, Never>
    {
        property(for: identifier).settableValuesPublisher()
    }

    /// A publisher of ``connectionState``, whenever it changes.
    public func connectionStatePublisher() -> AnyPublisher<CameraConnectionState, Never> {
        CameraStatePublisher(
            observe: { changed in self.addConnectionStateObserver { _ in changed() } },
            read: { self.connectionState }
        ).eraseToAnyPublisher()
    }

    /// A publisher of ``focusInfo``, whenever it changes.
    ///
    /// ```swift
    /// let cancellable = camera.focusInfoPublisher().sink { info in
    ///     print(info?.activePoints ?? [])
    /// }
    /// ```
    public func focusInfoPublisher() -> AnyPublisher<FocusInfo?, Never> {
        CameraStatePublisher(
            observe: { changed in self.addFocusInfoObserver { _ in changed() } },
            read: { self.focusInfo }
        ).eraseToAnyPublisher()
    }

    /// A publisher of ``autoFocusEngaged``, whenever it changes.
    public func autoFocusEngagedPublisher() -> AnyPublisher<Bool, Never> {
        CameraStatePublisher(
            observe: { changed in self.addAutoFocusEngagedObserver { _ in changed() } },
            read: { self.autoFocusEngaged }
        ).eraseToAnyPublisher()
    }

    /// A publisher of ``videoRecordingState``, whenever it changes.
    ///
    /// ```swift
    /// let cancellable = camera.videoRecordingStatePublisher().sink { recordingState in
    ///     switch recordingState {
    ///     case .notRecording: print("Not Recording")
    ///     case .recording(let timer?): print("Recording: \(timer.asMinutesAndSeconds)")
    ///     case .recording: print("Recording")
    ///     }
    /// }
    /// ```
    public func videoRecordingStatePublisher() -> AnyPublisher<VideoRecordingState, Never> {
        CameraStatePublisher(
            observe: { changed in self.addVideoRecordingStateObserver { _ in changed() } },
            read: { self.videoRecordingState }
        ).eraseToAnyPublisher()
    }
}
