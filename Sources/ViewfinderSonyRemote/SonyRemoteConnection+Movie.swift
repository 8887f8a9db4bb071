import ViewfinderCore

extension SonyRemoteConnection {
    /// Starts recording a movie with `startMovieRec`, first switching the shoot mode to `movie` with `setShootMode`
    /// where the camera does not list the call in the mode it is in; the recording is reported once the camera's
    /// status says `MovieRecording`.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not offer the call; `timeout` when it does
    ///   not list it in time after the switch; what the calls throw.
    public func startRecording() async throws {
        try await enterRemoteShooting()
        try await switchShootMode(to: "movie", toList: "startMovieRec")
        _ = try await shootingCall("startMovieRec")
        try await readEvent()
    }

    /// Stops recording with `stopMovieRec`; the end is reported once the camera's status no longer says
    /// `MovieRecording`.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list the call now (it records
    ///   nothing); what the call throws.
    public func stopRecording() async throws {
        _ = try await shootingCall("stopMovieRec")
        try await readEvent()
    }

    /// Switches the shoot mode to `mode` with `setShootMode` when the camera does not list `method` now but offers
    /// that mode, and waits until it lists `method`.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when the camera does not list `method` in time; what the calls
    ///   throw.
    func switchShootMode(to mode: String, toList method: String) async throws {
        let offered = state.withLock { $0.shootModes.contains(mode) }
        guard !isAvailable(method), offered, isAvailable("setShootMode") else { return }
        state.withLock { $0.modeSwitches += 1 }
        _ = try await call("setShootMode", [.string(mode)])
        let deadline = ContinuousClock.now + configuration.recModeTimeout
        while true {
            try await readAvailableMethods()
            if isAvailable(method) { return }
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(
                    .timeout,
                    "\(peer) did not list \(method) within \(configuration.recModeTimeout) of switching to \(mode)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Reads the whole state with `getEvent [false]` and passes it on.
    func readEvent() async throws(ViewfinderError) {
        apply(event: try await call("getEvent", [.bool(false)]))
    }
}
