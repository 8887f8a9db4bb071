extension Camera {
    /// Connects to the camera, then does what `options` ask: sets its clock to the computer's with
    /// ``CameraConnectionOptions/synchronizeClock``.
    ///
    /// What could not be done leaves the camera connected and is returned as a warning: a camera that offers no way
    /// to set its clock, or did not take the time.
    ///
    /// ```swift
    /// for warning in try await camera.connect(options: .synchronizeClock) {
    ///     print("connected, but: \(warning)")
    /// }
    /// ```
    ///
    /// - Throws: What ``connect()`` throws.
    @discardableResult
    public func connect(options: CameraConnectionOptions) async throws -> [CameraConnectionWarning] {
        try await connect()
        return await warnings(connectingWith: options)
    }

    /// Connects as ``connect(options:)`` does, telling `userIntervention` when the camera waits for its user, such as
    /// a camera that asks on its screen before it lets a computer it does not know connect over WiFi.
    ///
    /// The handler hears ``CameraUserInterventionEvent/required(_:)`` with what to show and a way to cancel, then
    /// ``CameraUserInterventionEvent/resolved`` once the wait is over; a camera that knows the computer connects
    /// without either. Handlers are called on the connecting thread: hand the work to your UI's own queue.
    ///
    /// ```swift
    /// try await camera.connect { event in
    ///     switch event {
    ///     case .required(let intervention): print(intervention.message)  // keep it to call cancel()
    ///     case .resolved: print("done")
    ///     }
    /// }
    /// ```
    ///
    /// A connection already being made when this is called is shared, with the handler of the call that began it.
    ///
    /// - Throws: What ``connect()`` throws; ``ViewfinderError/Code/cancelled`` once the intervention is cancelled,
    ///   and ``ViewfinderError/Code/timeout`` when the user does not answer by its deadline.
    @discardableResult
    public func connect(
        options: CameraConnectionOptions = [],
        userIntervention: @escaping @Sendable (CameraUserInterventionEvent) -> Void
    ) async throws -> [CameraConnectionWarning] {
        try await CameraUserInterventionHandler.$box.withValue(CameraUserInterventionHandler.Box(userIntervention)) {
            try await connect()
        }
        return await warnings(connectingWith: options)
    }

    /// Does what `options` ask of a camera that has just connected, and returns what could not be done.
    private func warnings(connectingWith options: CameraConnectionOptions) async -> [CameraConnectionWarning] {
        var warnings: [CameraConnectionWarning] = []
        if options.contains(.synchronizeClock) {
            if !supportedFunctionality.contains(.clockUpdate) {
                let model = deviceInfo?.model ?? "the camera"
                warnings.append(.init(.clockSyncNotSupported, "\(model) offers no way to set its clock"))
            } else {
                do {
                    try await updateClock(to: .now())
                } catch {
                    warnings.append(.init(.clockSyncFailed, "the camera's clock was not set: \(error)"))
                }
            }
        }
        return warnings
    }
}
