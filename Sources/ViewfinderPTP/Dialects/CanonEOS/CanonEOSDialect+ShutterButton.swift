import ViewfinderCore

extension CanonEOSDialect {
    /// Presses the shutter button half down with autofocus, RemoteReleaseOn(1, 0) as libgphoto2's `eosremoterelease`
    /// "Press Half AF" does, and keeps it there until ``disengageAutoFocus()``; the camera focuses as it holds it.
    func engageAutoFocus() async throws {
        _ = try await connection.session.transaction(.canonEOSRemoteReleaseOn, parameters: [1, 0])
        state.withLock { $0.halfPressed = true }
        // The camera reports what it focused on in its next events.
        _ = try? await poll()
    }

    /// Lets the half-pressed shutter button go, RemoteReleaseOff(1) as libgphoto2's "Release Half" does.
    func disengageAutoFocus() async throws {
        _ = try await connection.session.transaction(.canonEOSRemoteReleaseOff, parameters: [1])
        state.withLock { $0.halfPressed = false }
    }

    /// Presses the shutter button fully down and keeps it there until ``disengageShutter()``: the full press alone,
    /// RemoteReleaseOn(2, 0), while ``engageAutoFocus()`` holds the half press, and otherwise both buttons without
    /// autofocus, RemoteReleaseOn(3, 1) as libgphoto2's `eosremoterelease` "Press Full MF" does.
    ///
    /// - Throws: ``ViewfinderError/Code/alreadyRunning`` while the shutter is held,
    ///   ``ViewfinderError/Code/deviceBusy`` while a picture is being taken, or what the camera answered.
    func engageShutter() async throws {
        try state.withLock { state throws(ViewfinderError) in
            if let ended = state.ended { throw ended }
            guard state.shutterHeldAfter == nil else {
                throw ViewfinderError(.alreadyRunning, "the shutter is already held; let go of it first")
            }
            guard !state.isCapturing else {
                throw ViewfinderError(.deviceBusy, "a picture is being taken; wait for it before holding the shutter")
            }
            state.isCapturing = true
            state.shutterHeldAfter = state.filesAdded
        }
        let focused = state.withLock { $0.halfPressed }
        do {
            _ = try await connection.session.transaction(
                .canonEOSRemoteReleaseOn, parameters: focused ? [2, 0] : [3, 1])
        } catch let error as ViewfinderError {
            state.withLock { state in
                state.isCapturing = false
                state.shutterHeldAfter = nil
            }
            throw StandardCapture.captureError(error, connection: connection)
        }
    }

    /// Lets the full press go, and the half press with it unless ``engageAutoFocus()`` holds it (RemoteReleaseOff(2)
    /// or (3), as libgphoto2's "Release Full" and "Release" do), and waits for the picture's file.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the shutter is not held,
    ///   ``ViewfinderError/Code/timeout`` when no file appears in time, or what the camera answered.
    func disengageShutter() async throws {
        guard let marker = state.withLock({ $0.shutterHeldAfter }) else {
            throw ViewfinderError(.notAvailable, "the shutter is not held; hold it with engageShutter() first")
        }
        defer {
            state.withLock { state in
                state.isCapturing = false
                state.shutterHeldAfter = nil
            }
        }
        let focused = state.withLock { $0.halfPressed }
        _ = try await connection.session.transaction(.canonEOSRemoteReleaseOff, parameters: [focused ? 2 : 3])
        try await waitForFile(after: marker, focusing: false)
    }
}
