import ViewfinderCore

extension FujiDialect {
    /// How long the camera may take to focus, and to show the new picture.
    static let focusTimeout = Duration.seconds(10)
    /// The pause between looks at the focus and for the new picture.
    static let pollInterval = Duration.milliseconds(50)

    /// Takes a picture as libgphoto2's Fuji capture does: CameraAction 0x0200 and InitiateCapture to focus, then
    /// AFStatus until the camera has focused, when asked to focus; CameraAction 0x0304 and InitiateCapture to shoot;
    /// then the new file, from its ObjectAdded event or from the camera's list of objects.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera could not focus, `ViewfinderError/Code/timeout`
    ///   when it neither focuses nor shows the picture in time.
    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        try await enterRemoteShooting()
        let session = connection.session
        let before = Set(try await session.objectHandles())
        if engageAutoFocus {
            try await act(.focus)
            try await waitForFocus()
        }
        try await act(.shoot)
        let deadline = ContinuousClock.now + connection.captureRequestTimeout
        while true {
            try checkNotEnded()
            if state.withLock({ !$0.reported.subtracting(before).isEmpty }) {
                return
            }
            let added = Set(try await session.objectHandles()).subtracting(before)
            if let handle = added.max() {
                await report(handle)
                return
            }
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(
                    .timeout, "\(connection.model) showed no new picture within \(connection.captureRequestTimeout)")
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Sets CameraAction and starts it with InitiateCapture(0, 0).
    private func act(_ action: FujiCodes.Action) async throws {
        let session = connection.session
        try await session.setPropertyValue(.fujiCameraAction, to: action.value)
        try await session.initiateCapture(timeout: connection.captureRequestTimeout)
    }

    /// Reads AFStatus until the camera has finished focusing.
    private func waitForFocus() async throws {
        let deadline = ContinuousClock.now + Self.focusTimeout
        while true {
            try checkNotEnded()
            let status = try await connection.session.propertyValue(.fujiAFStatus, of: .uint16).integerValue
            if status == Int64(FujiCodes.Focus.failed.rawValue) {
                throw ViewfinderError(
                    .notAvailable, "\(connection.model) could not focus; no picture was taken (is it in manual focus?)")
            }
            if status != Int64(FujiCodes.Focus.busy.rawValue) { return }
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(
                    .timeout, "\(connection.model) did not finish focusing within \(Self.focusTimeout)")
            }
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    private func checkNotEnded() throws {
        if let ended = state.withLock({ $0.ended }) { throw ended }
    }

    // MARK: Live view

    /// How often CurrentState is read while live view streams, rather than every 200 ms: each question takes the
    /// command connection's round trip and the CPU of a frame or so, so a change made on the camera reaches observers
    /// within this interval (plus the question's and the property's round trips) while frames stream.
    static let liveViewPollInterval = Duration.seconds(1)

    /// Opens the JPEG stream over WiFi; over USB, starts remote capture, whose frames the live view object holds; reads
    /// CurrentState less often until live view ends.
    func startLiveView() async throws {
        try await enterRemoteShooting()
        poller.pace(Self.liveViewPollInterval)
        if let channels {
            try await channels.openLiveView()
            return
        }
        guard !state.withLock({ $0.openCapture }) else { return }
        _ = try await connection.session.transaction(.initiateOpenCapture, parameters: [0, 0])
        state.withLock { $0.openCapture = true }
    }

    /// Reads CurrentState at its usual pace again; the JPEG stream, or remote capture over USB, stays open for the
    /// next start.
    func endLiveView() async {
        poller.pace(nil)
    }

    /// The WiFi transport's live view thread, where the JPEG stream is read; none over USB.
    var liveViewExecutor: (any TaskExecutor)? { channels?.liveViewExecutor }

    /// The newest frame of the JPEG stream over WiFi; over USB, the live view object's JPEG, asked for again every
    /// 5 ms while the camera has none ready, then deleted so the camera makes the next.
    func liveViewImage() async throws -> [UInt8] {
        if let channels {
            return try await channels.liveViewFrame()
        }
        let session = connection.session
        let deadline = ContinuousClock.now + Self.focusTimeout
        while true {
            do {
                let frame = try await session.transaction(.getObject, parameters: [FujiCodes.liveViewObject]).data
                _ = try? await session.transaction(.deleteObject, parameters: [FujiCodes.liveViewObject])
                return frame
            } catch let error as ViewfinderError
                where error.responseCode == PTPResponseCode.invalidObjectHandle.rawValue
                && ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }
}
