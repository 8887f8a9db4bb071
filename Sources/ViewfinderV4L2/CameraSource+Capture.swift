import Dispatch
import ViewfinderCore

/// One capture from one device: the open node, its stream and the format in use.
final class CaptureSession: Sendable {
    let captureDevice: CaptureDevice
    let stream: V4L2Stream
    let format: VideoFormat
    let layout: V4L2PixelFormat

    init(captureDevice: CaptureDevice, stream: V4L2Stream, format: VideoFormat, layout: V4L2PixelFormat) {
        self.captureDevice = captureDevice
        self.stream = stream
        self.format = format
        self.layout = layout
    }
}

extension CameraSource {
    /// Starts capture from a device in a format chosen for it.
    ///
    /// The format is about 640x480 at 30 fps, preferring formats Viewfinder uses without conversion. Capture starts asynchronously after this returns.
    public func startCapture(device: CaptureDevice) {
        begin(device: device, format: nil, replacing: false, completion: nil)
    }

    /// Starts capture from a device in a format chosen for it, and reports the outcome to `completion`.
    public func startCapture(device: CaptureDevice, completion: StartedCompletion?) {
        begin(device: device, format: nil, replacing: false, completion: completion)
    }

    /// Starts capture from a device in a given format, and reports the outcome to `completion`.
    ///
    /// Fails with `alreadyRunning` while capturing, `noValidFormat` when the device does not offer the format,
    /// `deviceBusy` when another program captures from it, `permissionDenied` or `deviceRemoved`.
    public func startCapture(device: CaptureDevice, format: VideoFormat, completion: StartedCompletion?) {
        begin(device: device, format: format, replacing: false, completion: completion)
    }

    /// Starts capture from a device in a format chosen for it; returns the format in use.
    @discardableResult
    public func startCapture(device: CaptureDevice) async throws(ViewfinderError) -> VideoFormat {
        try await awaitStart(device: device, format: nil, replacing: false)
    }

    /// Starts capture from a device in a given format; returns the format in use.
    @discardableResult
    public func startCapture(device: CaptureDevice, format: VideoFormat) async throws(ViewfinderError) -> VideoFormat {
        try await awaitStart(device: device, format: format, replacing: false)
    }

    /// Switches capture to another device (or starts it), in a format chosen for it.
    public func selectCaptureDevice(_ device: CaptureDevice) {
        begin(device: device, format: nil, replacing: true, completion: nil)
    }

    /// Switches capture to another device (or starts it), in a format chosen for it, and reports the outcome.
    public func selectCaptureDevice(_ device: CaptureDevice, completion: StartedCompletion?) {
        begin(device: device, format: nil, replacing: true, completion: completion)
    }

    /// Switches capture to another device and/or format (or starts it), and reports the outcome.
    public func selectCaptureDevice(_ device: CaptureDevice, format: VideoFormat, completion: StartedCompletion?) {
        begin(device: device, format: format, replacing: true, completion: completion)
    }

    /// Switches capture to another device (or starts it), in a format chosen for it; returns the format in use.
    @discardableResult
    public func selectCaptureDevice(_ device: CaptureDevice) async throws(ViewfinderError) -> VideoFormat {
        try await awaitStart(device: device, format: nil, replacing: true)
    }

    /// Switches capture to another device and/or format (or starts it); returns the format in use.
    @discardableResult
    public func selectCaptureDevice(_ device: CaptureDevice, format: VideoFormat) async throws(ViewfinderError)
        -> VideoFormat
    {
        try await awaitStart(device: device, format: format, replacing: true)
    }

    /// Stops capture asynchronously; the same as `stopCapture(completion: nil)`.
    public func stopCapture() {
        stopCapture(completion: nil)
    }

    /// Stops capture and calls `completion` once the device is released; stopping a stopped source succeeds.
    public func stopCapture(completion: StoppedCompletion?) {
        operations.async { [self] in
            let session = state.withLock { state in
                defer { state.session = nil }
                return state.session
            }
            session?.stream.stop()
            state.withLock {
                $0.device = nil
                $0.format = nil
            }
            callbacks.async { completion?(nil) }
        }
    }

    /// Stops capture and returns once the device is released.
    public func stopCapture() async {
        await withCheckedContinuation { continuation in
            stopCapture { _ in continuation.resume() }
        }
    }

    private func awaitStart(device: CaptureDevice, format: VideoFormat?, replacing: Bool) async throws(ViewfinderError)
        -> VideoFormat
    {
        let result: Result<VideoFormat, ViewfinderError> = await withCheckedContinuation { continuation in
            begin(device: device, format: format, replacing: replacing) { _, format, error in
                if let format, error == nil {
                    continuation.resume(returning: .success(format))
                } else {
                    continuation.resume(
                        returning: .failure(error ?? ViewfinderError(.notAvailable, "capture did not start")))
                }
            }
        }
        return try result.get()
    }

    private func begin(device: CaptureDevice, format: VideoFormat?, replacing: Bool, completion: StartedCompletion?) {
        operations.async { [self] in
            let result = open(device: device, format: format, replacing: replacing)
            callbacks.async {
                switch result {
                case .success(let format): completion?(device, format, nil)
                case .failure(let error): completion?(device, nil, error)
                }
            }
        }
    }

    /// Opens the device, sets the format and starts streaming; runs on the operations queue.
    private func open(device: CaptureDevice, format: VideoFormat?, replacing: Bool) -> Result<
        VideoFormat, ViewfinderError
    > {
        let running = state.withLock { $0.session }
        if let running {
            guard replacing else {
                return .failure(
                    ViewfinderError(
                        .alreadyRunning,
                        "already capturing from \(running.captureDevice); stop capture or select another device"))
            }
            state.withLock { $0.session = nil }
            running.stream.stop()
        }
        do throws(ViewfinderError) {
            let session = try makeSession(device: device, format: format)
            state.withLock {
                $0.session = session
                $0.interruptedPath = nil
            }
            do {
                try session.stream.start { [weak self, weak session] event in
                    guard let self, let session else { return }
                    handle(event, from: session)
                }
            } catch {
                state.withLock { if $0.session === session { $0.session = nil } }
                throw error.viewfinderError
            }
            // A failure reported between STREAMON and here has already cleared the session.
            let stillRunning = state.withLock { state in
                guard state.session === session else { return false }
                state.device = device
                state.format = session.format
                return true
            }
            guard stillRunning else {
                throw ViewfinderError(.disconnected, "capture from \(device) ended as soon as it started")
            }
            return .success(session.format)
        } catch {
            state.withLock {
                $0.device = nil
                $0.format = nil
            }
            return .failure(error)
        }
    }

    private func makeSession(device captureDevice: CaptureDevice, format: VideoFormat?) throws(ViewfinderError)
        -> CaptureSession
    {
        do {
            let device = try V4L2Device(path: captureDevice.path, system: system)
            guard try device.capability().canCaptureVideo else {
                throw ViewfinderError(.notAvailable, "\(captureDevice) does not capture video through streaming")
            }
            let wanted = try format ?? Self.preferredFormat(among: Self.supportedFormats(of: device))
            let size = V4L2Size(width: UInt32(wanted.dimensions.width), height: UInt32(wanted.dimensions.height))
            let layout = try device.setFormat(wanted.pixelFormat.v4l2Code, size: size)
            guard layout.pixelFormat == wanted.pixelFormat.v4l2Code, layout.size == size,
                let pixelFormat = PixelFormat(v4l2: layout.pixelFormat, fullRange: layout.isFullRange)
            else {
                throw ViewfinderError(
                    .noValidFormat,
                    "\(captureDevice) does not offer \(wanted) (it chose \(layout.size.width)x\(layout.size.height) "
                        + "\(layout.pixelFormat)); pick one of CameraSource.supportedFormats(for:)")
            }
            let requested = V4L2Fraction(numerator: wanted.frameRate.seconds, denominator: wanted.frameRate.frames)
            let interval = try device.setFrameInterval(requested)
            let frameRate =
                interval.map { FrameRate(frames: $0.denominator, seconds: $0.numerator) } ?? wanted.frameRate
            let chosen = VideoFormat(dimensions: wanted.dimensions, frameRate: frameRate, pixelFormat: pixelFormat)
            let stream = V4L2Stream(device: device, bufferCount: max(options.bufferCount, 2))
            return CaptureSession(captureDevice: captureDevice, stream: stream, format: chosen, layout: layout)
        } catch let error as V4L2Error {
            throw error.viewfinderError
        } catch let error as ViewfinderError {
            throw error
        } catch {
            throw ViewfinderError(.io, "could not start capture from \(captureDevice): \(error)")
        }
    }

    /// Hands a captured buffer to the frame handler, or ends capture after a device failure; runs on the capture
    /// thread.
    private func handle(_ event: V4L2StreamEvent, from session: CaptureSession) {
        switch event {
        case .buffer(let buffer):
            let handler = state.withLock { $0.session === session ? $0.frameHandler : nil }
            guard let handler, let frame = session.frame(wrapping: buffer) else {
                buffer.lease.release()
                return
            }
            handler(frame)
        case .failed(let error):
            let isCurrent = state.withLock { state in
                guard state.session === session else { return false }
                state.session = nil
                state.device = nil
                state.format = nil
                if error.code == .noDevice { state.interruptedPath = session.captureDevice.path }
                return true
            }
            guard isCurrent else { return }
            let reason: CameraSourceInterruptionReason
            switch error.code {
            case .noDevice: reason = .deviceRemoved
            case .busy: reason = .inUseByAnotherClient
            default: reason = .streamingError
            }
            let failure = error.viewfinderError
            notifyDelegate { $0.cameraSourceWasInterrupted(self, reason: reason) }
            notifyDelegate { $0.cameraSource(self, didFailWithError: failure) }
            if reason == .deviceRemoved {
                watchForReturn(of: session.captureDevice.path, until: .now + options.recoveryTimeout)
            }
        }
    }

    /// Checks every 200 ms whether a removed device is back, and reports the end of the interruption when it is.
    private func watchForReturn(of path: String, until deadline: ContinuousClock.Instant) {
        operations.asyncAfter(deadline: .now() + .milliseconds(200)) { [weak self] in
            guard let self, state.withLock({ $0.interruptedPath == path && $0.session == nil }) else { return }
            if CaptureDevice.identify(path: path, system: system) != nil {
                let ended = state.withLock { state in
                    defer { state.interruptedPath = nil }
                    return state.interruptedPath == path
                }
                if ended { notifyDelegate { $0.cameraSourceInterruptionEnded(self) } }
            } else if ContinuousClock.now < deadline {
                watchForReturn(of: path, until: deadline)
            }
        }
    }
}

extension CaptureSession {
    /// Wraps a lent buffer as a frame without copying; `nil` when the driver filled fewer bytes than the format needs.
    func frame(wrapping buffer: V4L2CapturedBuffer) -> Frame? {
        let pixelFormat = format.pixelFormat
        let (width, height) = (format.dimensions.width, format.dimensions.height)
        var planes: [PixelBuffer.Plane] = []
        if pixelFormat.isCompressed {
            guard buffer.bytesUsed > 0 else { return nil }
            planes = [
                .init(
                    baseAddress: buffer.base, bytesPerRow: buffer.bytesUsed, width: buffer.bytesUsed,
                    height: 1, byteCount: buffer.bytesUsed)
            ]
        } else {
            let firstRowBytes = pixelFormat.bytesPerRow(ofPlane: 0, width: width)
            let stride = max(Int(layout.bytesPerLine), firstRowBytes)
            var offset = 0
            for (index, plane) in pixelFormat.planes.enumerated() {
                let bytesPerRow = stride * pixelFormat.bytesPerRow(ofPlane: index, width: width) / firstRowBytes
                let rows = plane.rows(height: height)
                let byteCount = bytesPerRow * rows
                guard offset + byteCount <= buffer.bytesUsed else { return nil }
                planes.append(
                    .init(
                        baseAddress: buffer.base + offset, bytesPerRow: bytesPerRow,
                        width: plane.elementsPerRow(width: width), height: rows, byteCount: byteCount))
                offset += byteCount
            }
        }
        let lease = buffer.lease
        guard
            let pixelBuffer = try? PixelBuffer(
                width: width, height: height, format: pixelFormat, borrowing: planes, onRelease: { lease.release() })
        else { return nil }
        return Frame(
            pixelBuffer: pixelBuffer,
            timestamp: MonotonicTimestamp(nanoseconds: buffer.timestampNanoseconds),
            sequenceNumber: UInt64(buffer.sequence))
    }
}
