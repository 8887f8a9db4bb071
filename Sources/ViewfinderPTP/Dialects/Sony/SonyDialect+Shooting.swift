import ViewfinderCore

extension SonyDialect {
    /// How often properties are read while a capture or a recording waits for the camera.
    static let activePollInterval = Duration.milliseconds(20)
    /// How many times a live view frame the camera is not ready with (AccessDenied) is asked for again, every 5 ms.
    private static let notReadyRetries = 200

    // MARK: Shutter

    /// Takes a picture with the shutter buttons and returns once the camera reports it: in its memory (ObjectInMemory
    /// from 0x8000 on, the picture at object 0xFFFFC001) or on its card (ObjectAdded).
    ///
    /// With autofocus, and the camera not in manual focus, the button is pressed half (S1) and held until the camera
    /// reports focus found, then fully (S2); without, both at once. Both are let go before the wait for the picture.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera could not focus, in which case no picture is
    ///   taken, ``ViewfinderError/Code/deviceBusy`` while another picture is being taken,
    ///   ``ViewfinderError/Code/timeout`` when no picture appears within the capture timeout.
    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        let filesBefore = try state.withLock { state throws(ViewfinderError) -> Int in
            if let ended = state.ended { throw ended }
            guard !state.isCapturing else {
                throw ViewfinderError(.deviceBusy, "a picture is being taken; wait for it before taking the next")
            }
            state.isCapturing = true
            return state.filesAdded
        }
        defer { state.withLock { $0.isCapturing = false } }
        let memoryBefore = properties.value(of: .sonyObjectInMemory) ?? 0
        do {
            try await press(.sonyHalfPress)
            if engageAutoFocus, properties.value(of: .focusMode) != 1 {
                try await waitForFocus()
            }
            try await press(.sonyFullPress)
            try await release(.sonyFullPress)
            try await release(.sonyHalfPress)
        } catch let error as ViewfinderError {
            throw StandardCapture.captureError(error, connection: connection)
        }
        let inMemory = try await waitForPicture(memoryBefore: memoryBefore, filesBefore: filesBefore)
        if inMemory {
            await connection.reportNewObject(PTPSonyLiveViewFrame.pictureHandle)
        }
    }

    private func press(_ button: PTPDevicePropertyCode) async throws {
        try await properties.control(button, .uint16(2), activity: "press the shutter button")
    }

    private func release(_ button: PTPDevicePropertyCode) async throws {
        try await properties.control(button, .uint16(1), activity: "let go of the shutter button")
    }

    /// Holds the half-pressed button until FocusFound says focused (2, or 3 on some bodies), within the focus
    /// timeout; lets it go and fails when the camera does not focus.
    private func waitForFocus() async throws {
        let focused = try await poll(upTo: connection.configuration.focusTimeout) {
            [2, 3].contains(properties.value(of: .sonyFocusFound))
        }
        guard focused else {
            try? await release(.sonyHalfPress)
            throw ViewfinderError(
                .notAvailable,
                "the camera could not focus, so it took no picture; point it at something with contrast, or take the "
                    + "picture without autofocus")
        }
    }

    /// Waits within the capture timeout for a new picture: in the camera's memory, or a file on its card.
    ///
    /// - Returns: Whether the picture is in the camera's memory.
    private func waitForPicture(memoryBefore: Int64, filesBefore: Int) async throws -> Bool {
        var inMemory = false
        let arrived = try await poll(upTo: connection.configuration.captureTimeout) {
            let memory = properties.value(of: .sonyObjectInMemory) ?? 0
            inMemory = memory >= 0x8000 && (memoryBefore < 0x8000 || memory > memoryBefore)
            return inMemory || state.withLock { $0.filesAdded > filesBefore }
        }
        guard arrived else {
            throw ViewfinderError(
                .timeout,
                "the camera reported no picture within \(connection.configuration.captureTimeout) after the shutter "
                    + "release; it may not have found focus, or its mode may not allow a picture from the computer")
        }
        return inMemory
    }

    /// Reads the properties until `condition` holds or `timeout` passes; returns whether it held.
    func poll(upTo timeout: Duration, until condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            try await properties.refresh()
            if condition() { return true }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: Self.activePollInterval)
        }
    }

    // MARK: Live view

    /// Waits until the camera has a live view frame at 0xFFFFC002.
    ///
    /// GetObjectInfo answers InvalidObjectHandle until it has one. Sony bodies have live view on whenever the
    /// computer controls them; there is nothing to start.
    func startLiveView() async throws {
        let timeout = connection.configuration.liveViewReadyTimeout
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                // What the camera says of the frame does not matter, only that it has one.
                _ = try await connection.session.transaction(.getObjectInfo, parameters: [PTPSonyLiveViewFrame.handle])
                return
            } catch let error as ViewfinderError
                where error.responseCode == PTPResponseCode.invalidObjectHandle.rawValue
            {
                guard ContinuousClock.now < deadline else {
                    throw ViewfinderError(.timeout, "the camera's live view did not start within \(timeout)")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// The current frame: GetObject of 0xFFFFC002, its header dropped in place; asked again while the camera answers
    /// AccessDenied (asked too soon after the last frame).
    func liveViewImage() async throws -> [UInt8] {
        var notReady = 0
        while true {
            do {
                var data = try await connection.session.transaction(
                    .getObject, parameters: [PTPSonyLiveViewFrame.handle]
                ).data
                let jpeg = try PTPSonyLiveViewFrame.jpegRange(in: data)
                data.removeSubrange(jpeg.upperBound...)
                data.removeSubrange(..<jpeg.lowerBound)
                return data
            } catch let error as ViewfinderError
                where error.responseCode == PTPResponseCode.accessDenied.rawValue && notReady < Self.notReadyRetries
            {
                notReady += 1
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    // MARK: Recording

    func startRecording() async throws {
        try await pressMovieButton(starting: true)
    }

    func stopRecording() async throws {
        try await pressMovieButton(starting: false)
    }

    /// Presses the movie button (2 starts, 1 stops), then waits for MovieRecordingState to follow where the camera
    /// reports it.
    private func pressMovieButton(starting: Bool) async throws {
        do {
            try await properties.control(
                .sonyMovieButton, .uint16(starting ? 2 : 1), activity: starting ? "start recording" : "stop recording")
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                starting
                    ? "the camera cannot start recording now; switch it to movie mode, or check its card"
                    : "the camera is not recording", responseCode: error.responseCode)
        }
        guard properties.lists(.sonyMovieRecordingState) else {
            if starting { connection.recordingStarted() } else { connection.recordingStopped() }
            return
        }
        let followed = try await poll(upTo: .seconds(3)) { isRecording.withLock { $0 } == starting }
        guard followed else {
            throw ViewfinderError(.timeout, "the camera did not \(starting ? "start" : "stop") recording within 3 s")
        }
    }
}
