import Dispatch
import ViewfinderCore

extension CameraSource {
    // MARK: Starting

    /// Starts capture from a device in a format chosen for it.
    ///
    /// The format is about 640x480 at 30 fps, preferring formats Viewfinder uses without conversion. Capture starts
    /// asynchronously after this returns.
    public func startCapture(device: CaptureDevice) {
        startCapture(device: device, completion: nil)
    }

    /// Starts capture from a device in a format chosen for it, and reports the outcome to `completion`.
    ///
    /// - Parameters:
    ///   - device: The device to capture from.
    ///   - completionQueue: The queue `completion` runs on.
    ///   - completion: Called once capture has started, with the format in use, or failed to start, with the error.
    public func startCapture(
        device: CaptureDevice, completionQueue: DispatchQueue = .global(), completion: StartedCompletion?
    ) {
        report(on: completionQueue, to: completion, device: device) {
            await $0.begin(device: device, format: nil, replacing: false)
        }
    }

    /// Starts capture from a device in a given format, and reports the outcome to `completion`.
    ///
    /// Fails with `alreadyRunning` while capturing, `noValidFormat` when the device does not offer the format,
    /// `deviceBusy` when another program captures from it, `permissionDenied` or `deviceRemoved`.
    ///
    /// - Parameters:
    ///   - device: The device to capture from.
    ///   - format: One of ``supportedFormats(for:)``.
    ///   - completionQueue: The queue `completion` runs on.
    ///   - completion: Called once capture has started, with the format in use, or failed to start, with the error.
    public func startCapture(
        device: CaptureDevice, format: VideoFormat, completionQueue: DispatchQueue = .global(),
        completion: StartedCompletion?
    ) {
        report(on: completionQueue, to: completion, device: device) {
            await $0.begin(device: device, format: format, replacing: false)
        }
    }

    /// Starts capture from a device in a format chosen for it; returns the format in use.
    @discardableResult
    public func startCapture(device: CaptureDevice) async throws(ViewfinderError) -> VideoFormat {
        try await operations.run { await self.begin(device: device, format: nil, replacing: false) }.get()
    }

    /// Starts capture from a device in a given format; returns the format in use.
    @discardableResult
    public func startCapture(device: CaptureDevice, format: VideoFormat) async throws(ViewfinderError) -> VideoFormat {
        try await operations.run { await self.begin(device: device, format: format, replacing: false) }.get()
    }

    // MARK: Selecting

    /// Switches capture to another device (or starts it), in a format chosen for it.
    public func selectCaptureDevice(_ device: CaptureDevice) {
        selectCaptureDevice(device, completion: nil)
    }

    /// Switches capture to another device (or starts it), in a format chosen for it, and reports the outcome.
    ///
    /// - Parameters:
    ///   - device: The device to capture from.
    ///   - completionQueue: The queue `completion` runs on.
    ///   - completion: Called once capture runs from `device`, with the format in use, or failed, with the error.
    public func selectCaptureDevice(
        _ device: CaptureDevice, completionQueue: DispatchQueue = .global(), completion: StartedCompletion?
    ) {
        report(on: completionQueue, to: completion, device: device) {
            await $0.begin(device: device, format: nil, replacing: true)
        }
    }

    /// Switches capture to another device and/or format (or starts it), and reports the outcome.
    ///
    /// - Parameters:
    ///   - device: The device to capture from.
    ///   - format: One of ``supportedFormats(for:)``.
    ///   - completionQueue: The queue `completion` runs on.
    ///   - completion: Called once capture runs from `device`, with the format in use, or failed, with the error.
    public func selectCaptureDevice(
        _ device: CaptureDevice, format: VideoFormat, completionQueue: DispatchQueue = .global(),
        completion: StartedCompletion?
    ) {
        report(on: completionQueue, to: completion, device: device) {
            await $0.begin(device: device, format: format, replacing: true)
        }
    }

    /// Switches capture to another device (or starts it), in a format chosen for it; returns the format in use.
    @discardableResult
    public func selectCaptureDevice(_ device: CaptureDevice) async throws(ViewfinderError) -> VideoFormat {
        try await operations.run { await self.begin(device: device, format: nil, replacing: true) }.get()
    }

    /// Switches capture to another device and/or format (or starts it); returns the format in use.
    @discardableResult
    public func selectCaptureDevice(_ device: CaptureDevice, format: VideoFormat) async throws(ViewfinderError)
        -> VideoFormat
    {
        try await operations.run { await self.begin(device: device, format: format, replacing: true) }.get()
    }

    // MARK: Stopping

    /// Stops capture asynchronously; the same as `stopCapture(completion: nil)`.
    public func stopCapture() {
        stopCapture(completion: nil)
    }

    /// Stops capture and calls `completion` once the device is released; stopping a stopped source succeeds.
    ///
    /// - Parameters:
    ///   - completionQueue: The queue `completion` runs on.
    ///   - completion: Called once the source is off, with `nil`, or with the error when a later request, such as
    ///     `FrameSource/switch(toDesiredState:)`, kept it from stopping.
    public func stopCapture(completionQueue: DispatchQueue = .global(), completion: StoppedCompletion?) {
        operations.add { [self] in
            let error = await end()
            if let completion {
                completionQueue.async { completion(error) }
            }
        }
    }

    /// Stops capture and returns once the device is released, or once a later request kept the source on.
    public func stopCapture() async {
        _ = await operations.run { await self.end() }
    }

    // MARK: Carrying out

    /// Runs a start in order with the other operations and reports its outcome on `queue`.
    private func report(
        on queue: DispatchQueue, to completion: StartedCompletion?, device: CaptureDevice,
        _ start: @escaping @Sendable (CameraSource) async -> Result<VideoFormat, ViewfinderError>
    ) {
        operations.add { [self] in
            let result = await start(self)
            guard let completion else { return }
            queue.async {
                switch result {
                case .success(let format): completion(device, format, nil)
                case .failure(let error): completion(device, nil, error)
                }
            }
        }
    }

    /// Selects the device and switches the source on; with `replacing`, a running capture is stopped first,
    /// without it, a running capture is an error.
    private func begin(device: CaptureDevice, format: VideoFormat?, replacing: Bool) async -> Result<
        VideoFormat, ViewfinderError
    > {
        let isRunning = frameSourceEngine.desiredState == .on
        if isRunning && !replacing {
            let running = self.device.map { "\($0)" } ?? "a device"
            return .failure(
                ViewfinderError(
                    .alreadyRunning, "already capturing from \(running); stop capture or select another device"))
        }
        backend.select(CaptureSelection(device: device, format: format))
        if isRunning, let error = Self.error(from: await frameSourceEngine.requestState(.off), switchingTo: .off) {
            return .failure(error)
        }
        if let error = Self.error(from: await frameSourceEngine.requestState(.on), switchingTo: .on) {
            return .failure(error)
        }
        // A failure reported while the start finished has already cleared the session.
        guard let session = backend.session, session.prepared.captureDevice == device else {
            return .failure(ViewfinderError(.disconnected, "capture from \(device) ended as soon as it started"))
        }
        return .success(session.prepared.format)
    }

    /// Switches the source off; returns the error when it did not get there.
    private func end() async -> ViewfinderError? {
        Self.error(from: await frameSourceEngine.requestState(.off), switchingTo: .off)
    }

    /// The error a switch request ended with, or `nil` when the source got there.
    private static func error(from result: FrameSourceSwitchResult, switchingTo state: FrameSourceState)
        -> ViewfinderError?
    {
        switch result {
        case .reached:
            return nil
        case .superseded:
            return ViewfinderError(
                .cancelled, "a later request to switch the source kept it from switching \(state)")
        case .failed(let error as ViewfinderError):
            return error
        case .failed(let error):
            return ViewfinderError(.io, "the camera source could not switch \(state): \(error)")
        }
    }
}
