import Dispatch

extension TypedCameraProperty {
    /// Sets the property to one of its valid settable values and waits until the camera shows it.
    ///
    /// The value becomes ``pendingValue`` at once. The call returns when the camera reports it as its current
    /// value; a later set of the same property ends this one with ``ViewfinderError/Code/cancelled``.
    ///
    /// - Parameters:
    ///   - value: One of ``validSettableValues``.
    ///   - timeout: How long to wait for the camera to show the value; by default ``setValueTimeout``.
    /// - Throws: ``ViewfinderError`` with ``ViewfinderError/Code/notAvailable`` when the property cannot be set now,
    ///   ``ViewfinderError/Code/invalidPropertyValue`` for a value it does not accept, ``ViewfinderError/Code/timeout``
    ///   when the camera does not show the value in time, ``ViewfinderError/Code/cancelled`` when the task is
    ///   cancelled or a later set replaces this one, ``ViewfinderError/Code/notConnected`` without a camera, the
    ///   error the camera went away with (such as ``ViewfinderError/Code/disconnected``) until it reports the property
    ///   again, or what the camera answered.
    public func setValue(_ value: TypedCameraPropertyValue<Value>, timeout: Duration? = nil) async throws {
        guard let backend else {
            throw ViewfinderError(.notConnected, "\(localizedDisplayName) cannot be set: its camera is gone")
        }
        let (id, actions) = try state.withLock { state in
            try state.validate(value)
            return state.beginSetting(value)
        }
        perform(actions)
        do {
            try await backend.setRawValue(value.rawValue, forPropertyNamed: identifier.name)
        } catch {
            perform(state.withLock { $0.abandon(id) })
            throw error
        }
        try await waitUntilShown(id, timeout: timeout ?? setValueTimeout)
    }

    /// Sets the property to the valid settable value that means `commonValue`, and waits until the camera shows it.
    ///
    /// ```swift
    /// try await camera.property(for: .iso).setValue(.iso800)
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` when no valid settable value means `commonValue`, and
    ///   otherwise as ``setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)``.
    public func setValue(_ commonValue: Value, timeout: Duration? = nil) async throws {
        guard let value = validValue(matchingCommonValue: commonValue) else {
            try state.withLock { state throws(ViewfinderError) in try state.requireCamera() }
            let values = validSettableValues
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(commonValue.localizedDisplayValue) is not one of the values \(localizedDisplayName) accepts now: "
                    + (values.isEmpty ? "it has none" : values.summary))
        }
        try await setValue(value, timeout: timeout)
    }

    /// Sets the property to one of its valid settable values, calling `completionHandler` with `nil` once the camera
    /// shows it, or with the error.
    ///
    /// - Parameters:
    ///   - value: One of ``validSettableValues``.
    ///   - completionQueue: The queue `completionHandler` runs on.
    ///   - completionHandler: Called once, with the error as
    ///     ``setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)`` would throw it.
    public func setValue(
        _ value: TypedCameraPropertyValue<Value>,
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(on: completionQueue, { try await self.setValue(value) }, completion: completionHandler)
    }

    /// Sets the property to the valid settable value that means `commonValue`, calling `completionHandler` with `nil`
    /// once the camera shows it, or with the error.
    ///
    /// - Parameters:
    ///   - commonValue: The meaning of the value to set, such as ``ISOValue/iso800``.
    ///   - completionQueue: The queue `completionHandler` runs on.
    ///   - completionHandler: Called once, with the error as ``setValue(_:timeout:)-(Value,_)`` would throw it.
    public func setValue(
        _ commonValue: Value,
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        AsyncCompletion.run(
            on: completionQueue, { try await self.setValue(commonValue) }, completion: completionHandler)
    }

    /// Moves to the next of ``validSettableValues`` after the pending or current value, and waits until the camera
    /// shows it; a ``CameraPropertyValueSetType/stepping`` property asks the camera for a step up and waits until it
    /// shows another value.
    ///
    /// - Parameter timeout: How long to wait for the camera to show the new value; by default ``setValueTimeout``.
    /// - Returns: The value the camera shows now.
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` at the last value, and otherwise as
    ///   ``setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)``.
    @discardableResult
    public func increment(timeout: Duration? = nil) async throws -> TypedCameraPropertyValue<Value> {
        try await step(up: true, timeout: timeout)
    }

    /// Moves to the previous of ``validSettableValues`` before the pending or current value, and waits until the
    /// camera shows it; a ``CameraPropertyValueSetType/stepping`` property asks the camera for a step down and waits
    /// until it shows another value.
    ///
    /// - Parameter timeout: How long to wait for the camera to show the new value; by default ``setValueTimeout``.
    /// - Returns: The value the camera shows now.
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` at the first value, and otherwise as
    ///   ``setValue(_:timeout:)-(TypedCameraPropertyValue<Value>,_)``.
    @discardableResult
    public func decrement(timeout: Duration? = nil) async throws -> TypedCameraPropertyValue<Value> {
        try await step(up: false, timeout: timeout)
    }

    private func step(up: Bool, timeout: Duration?) async throws -> TypedCameraPropertyValue<Value> {
        guard valueSetType == .stepping else {
            let target = try state.withLock { try $0.validValue(offsetBy: up ? 1 : -1) }
            try await setValue(target, timeout: timeout)
            return target
        }
        guard let backend else {
            throw ViewfinderError(.notConnected, "\(localizedDisplayName) cannot be stepped: its camera is gone")
        }
        let (id, actions) = try state.withLock { try $0.beginStepping(up: up) }
        perform(actions)
        do {
            try await backend.stepValue(forPropertyNamed: identifier.name, by: up ? 1 : -1)
        } catch {
            perform(state.withLock { $0.abandon(id) })
            throw error
        }
        try await waitUntilShown(id, timeout: timeout ?? setValueTimeout)
        guard let shown = currentValue else {
            throw ViewfinderError(.notAvailable, "\(localizedDisplayName) has no value after the step")
        }
        return shown
    }

    /// Waits for the camera to show the value of request `id`, until `timeout` or the task's cancellation.
    private func waitUntilShown(_ id: UInt64, timeout: Duration) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CameraPropertyState<Value>.Continuation) in
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled, let self else { return }
                    self.perform(self.state.withLock { $0.fail(id, because: .timedOut(after: timeout)) })
                }
                perform(state.withLock { $0.wait(for: id, continuation: continuation, timer: timer) })
            }
        } onCancel: {
            perform(state.withLock { $0.fail(id, because: .cancelled) })
        }
    }
}
