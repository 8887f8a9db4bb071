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
