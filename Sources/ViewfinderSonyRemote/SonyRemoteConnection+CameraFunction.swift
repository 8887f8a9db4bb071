import ViewfinderCore

extension SonyRemoteConnection {
    /// The camera function of shooting: the shutter, live view, the settings.
    static let remoteShooting = "Remote Shooting"
    /// The camera function of reaching the card through the `avContent` service.
    static let contentsTransfer = "Contents Transfer"

    /// Whether the camera serves its card: it names an `avContent` service and offers `setCameraFunction`.
    var servesCard: Bool {
        avContentURL != nil && state.withLock { $0.offeredMethods.contains("setCameraFunction") }
    }

    /// Calls a shooting call: switches the camera back from its card first, then calls `method` where the camera
    /// lists it.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list `method` now; what switching
    ///   back and the call throw.
    func shootingCall(_ method: String, _ params: [JSONValue] = []) async throws -> [JSONValue] {
        try await enterRemoteShooting()
        guard isAvailable(method) else {
            throw ViewfinderError(.notAvailable, "\(peer) does not offer \(method) now")
        }
        return try await call(method, params)
    }

    /// Switches a camera serving its card back to shooting; a camera shooting is left as it is.
    func enterRemoteShooting() async throws {
        try await switchCameraFunction(to: Self.remoteShooting)
    }

    /// Switches the camera to serving its card, ending live view, which the camera stops.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a camera that does not serve its card; what the switch
    ///   throws.
    func enterContentsTransfer() async throws {
        guard servesCard else {
            throw ViewfinderError(.notAvailable, "\(peer) serves no card over its Camera Remote API")
        }
        try await switchCameraFunction(to: Self.contentsTransfer)
    }

    /// Switches the camera function with `setCameraFunction` and waits, within the configured time, until the
    /// camera's events say it serves `target`.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera does not list `setCameraFunction` now;
    ///   `protocolFailure` when it says the switch failed; `timeout` when it does not switch in time; what the calls
    ///   throw.
    private func switchCameraFunction(to target: String) async throws {
        guard state.withLock({ $0.cameraFunction }) != target else { return }
        guard isAvailable("setCameraFunction") else {
            throw ViewfinderError(.notAvailable, "\(peer) cannot switch to \(target) now")
        }
        if target == Self.contentsTransfer {
            let liveView = state.withLock { state in
                defer { state.liveView = nil }
                return state.liveView
            }
            liveView?.close()
        }
        state.withLock { state in
            state.cameraFunctionResult = nil
            state.modeSwitches += 1
        }
        _ = try await call("setCameraFunction", [.string(target)])
        let deadline = ContinuousClock.now + configuration.cameraFunctionTimeout
        while true {
            try await readEvent()
            let (function, result, status) = state.withLock { ($0.cameraFunction, $0.cameraFunctionResult, $0.status) }
            if result == "Failure" {
                throw ViewfinderError(.protocolFailure, "\(peer) failed to switch to \(target)")
            }
            if function == target, status != "NotReady" { return }
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(
                    .timeout, "\(peer) did not switch to \(target) within \(configuration.cameraFunctionTimeout)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Switches a camera serving its card back to shooting, as it was found, before the connection closes on
    /// request; a camera that does not switch in time is left as it is.
    public func prepareToClose() async {
        try? await enterRemoteShooting()
    }

    /// For a camera that serves its card, its card or shooting (and video where it records), whichever it serves
    /// now; `nil` for one that serves no card, as it serves all it offers at once.
    public var currentCommandCategories: CameraCommandCategories? {
        guard servesCard else { return nil }
        if state.withLock({ $0.cameraFunction }) == Self.contentsTransfer { return .fileAccess }
        return functionality.contains(.videoRecording) ? [.stillsShooting, .videoRecording] : .stillsShooting
    }

    /// Switches the camera to its card (`Contents Transfer`) or back to shooting (`Remote Shooting`).
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for the card with shooting, which the camera serves one at
    ///   a time; what the switch throws.
    public func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        if categories.contains(.fileAccess) {
            guard categories == .fileAccess else {
                throw ViewfinderError(
                    .invalidArgument, "\(peer) serves remote shooting or its card, one at a time, not both")
            }
            try await enterContentsTransfer()
        } else {
            try await enterRemoteShooting()
        }
    }
}
