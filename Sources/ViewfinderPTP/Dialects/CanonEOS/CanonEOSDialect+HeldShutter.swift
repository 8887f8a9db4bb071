import ViewfinderCore

extension CanonEOSDialect {
    /// Presses both shutter buttons down without autofocus, RemoteReleaseOn(3, 1) as libgphoto2's `eosremoterelease`
    /// "Press Full MF" does, and keeps them down until ``disengageShutter()``.
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
        do {
            _ = try await connection.session.transaction(.canonEOSRemoteReleaseOn, parameters: [3, 1])
        } catch let error as ViewfinderError {
            state.withLock { state in
                state.isCapturing = false
                state.shutterHeldAfter = nil
            }
            throw StandardCapture.captureError(error, connection: connection)
        }
    }

    /// Lets both shutter buttons go, RemoteReleaseOff(3) as libgphoto2's "Release" does, and waits for the picture's
    /// file.
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
        _ = try await connection.session.transaction(.canonEOSRemoteReleaseOff, parameters: [3])
        try await waitForFile(after: marker, focusing: false)
    }
}
