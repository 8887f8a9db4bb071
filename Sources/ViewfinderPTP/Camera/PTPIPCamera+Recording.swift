import ViewfinderCore

/// A video recording under way, with the task that ticks its timer once a second.
struct Recording {
    let start: ContinuousClock.Instant
    let ticker: Task<Void, Never>
}

extension PTPIPCamera {
    /// Whether the camera records video, with the time recorded so far as its timer.
    public var videoRecordingState: VideoRecordingState {
        guard let start = state.withLock({ $0.recording?.start }) else { return .notRecording }
        return .recording(timer: .countingUp(.seconds(start.duration(to: .now).components.seconds)))
    }

    /// Calls `observer` whenever ``videoRecordingState`` changes, each tick of the timer included, until the token is
    /// released.
    public func addVideoRecordingStateObserver(_ observer: @escaping @Sendable (VideoRecordingState) -> Void)
        -> ObservationToken
    {
        recordingObservers.addObserver(observer)
    }

    /// Starts recording a movie to the card, turning live view on first if it is off (Nikon cameras record only
    /// with live view on).
    ///
    /// ``videoRecordingState`` then shows the time recorded, updated once a second.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot record over PTP/IP,
    ///   ``ViewfinderError/Code/alreadyRunning`` while it records, or what the camera answered.
    public func startVideoRecording() async throws {
        let link = try requireLink(for: "start recording video")
        guard link.functionality.contains(.videoRecording) else {
            throw ViewfinderError(.notAvailable, "\(link.deviceInfo.model) cannot record video over PTP/IP")
        }
        guard state.withLock({ $0.recording == nil }) else {
            throw ViewfinderError(.alreadyRunning, "the camera is already recording video")
        }
        try await liveViewLease.acquire(
            .recording, on: link.session, readyTimeout: configuration.liveViewReadyTimeout)
        do {
            try await link.session.startNikonMovieRecording()
        } catch {
            await liveViewLease.release(.recording, on: link.session)
            throw Self.recordingError(error, starting: true)
        }
        beginRecording()
    }

    /// Stops recording; the camera finishes writing the movie to the card by itself.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot record over PTP/IP, or when it is not
    ///   recording.
    public func stopVideoRecording() async throws {
        let link = try requireLink(for: "stop recording video")
        guard link.functionality.contains(.videoRecording) else {
            throw ViewfinderError(.notAvailable, "\(link.deviceInfo.model) cannot record video over PTP/IP")
        }
        do {
            try await link.session.endNikonMovieRecording()
        } catch {
            throw Self.recordingError(error, starting: false)
        }
        await endRecording(on: link)
    }

    private static func recordingError(_ error: any Error, starting: Bool) -> any Error {
        guard let error = error as? ViewfinderError, error.code == .protocolFailure,
            error.responseCode == PTPResponseCode.nikonInvalidStatus.rawValue
        else { return error }
        return ViewfinderError(
            .notAvailable,
            starting
                ? "the camera cannot start recording now; check its mode and card"
                : "the camera is not recording video", responseCode: error.responseCode)
    }

    /// Records that the camera records, unless that is known already, and starts the timer's ticks.
    private func beginRecording() {
        let began = state.withLock { state -> Bool in
            guard state.recording == nil else { return false }
            let start = ContinuousClock.now
            let ticker = Task { [weak self] in
                var tick = 1
                while !Task.isCancelled {
                    try? await Task.sleep(until: start + .seconds(tick), clock: .continuous)
                    guard !Task.isCancelled, let self else { return }
                    self.recordingObservers.notify(self.videoRecordingState)
                    tick += 1
                }
            }
            state.recording = Recording(start: start, ticker: ticker)
            return true
        }
        if began {
            recordingObservers.notify(videoRecordingState)
        }
    }

    /// Records that the camera stopped recording, and lets live view end if nothing else needs it.
    private func endRecording(on link: Link) async {
        let recording = state.withLock { state in
            defer { state.recording = nil }
            return state.recording
        }
        guard let recording else { return }
        recording.ticker.cancel()
        recordingObservers.notify(.notRecording)
        await liveViewLease.release(.recording, on: link.session)
    }

    /// Reads whether the camera records (bit 10 of Nikon's movie recording prohibit conditions), to follow
    /// recordings started or ended on the camera itself.
    func refreshRecordingState(on link: Link) async {
        guard let value = try? await link.session.propertyValue(.nikonMovieRecordingProhibitCondition, of: .uint32),
            let bits = value.integerValue
        else { return }
        if bits & (1 << 10) != 0 {
            beginRecording()
        } else {
            await endRecording(on: link)
        }
    }
}
