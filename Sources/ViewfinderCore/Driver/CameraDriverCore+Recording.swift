/// A video recording under way, with the task that ticks its timer once a second.
struct Recording {
    let start: ContinuousClock.Instant
    let ticker: Task<Void, Never>
}

extension CameraDriverCore {
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

    /// Starts recording a movie through the connection.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot record through its connection,
    ///   ``ViewfinderError/Code/alreadyRunning`` while it records, or what the camera answered.
    public func startVideoRecording() async throws {
        let connection = try connection(.videoRecording, for: "start recording video")
        guard state.withLock({ $0.recording == nil }) else {
            throw ViewfinderError(.alreadyRunning, "the camera is already recording video")
        }
        do {
            try await connection.startRecording()
        } catch let error as ViewfinderError {
            throw passingOn(error, from: connection, while: "start recording video")
        }
    }

    /// Stops recording; the camera finishes writing the movie by itself.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot record through its connection, or
    ///   when it is not recording.
    public func stopVideoRecording() async throws {
        try await withConnection(.videoRecording, for: "stop recording video") { try await $0.stopRecording() }
    }

    /// Records that the camera records, unless that is known already, and starts the timer's ticks.
    func beginRecording() {
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

    /// Records that the camera stopped recording.
    func endRecording() {
        let recording = state.withLock { state in
            defer { state.recording = nil }
            return state.recording
        }
        guard let recording else { return }
        recording.ticker.cancel()
        recordingObservers.notify(.notRecording)
    }
}
