import Dispatch
import ViewfinderCore
import ViewfinderSystem

/// Carries out a ``CameraSource``'s transitions on a V4L2 device and hands its frames to the source's engine.
///
/// Standby is a device opened and set up (format and frame rate) without streaming; on adds a stream. Device calls
/// run on a serial queue of their own, so a slow driver never holds up a thread of the concurrency pool.
final class CaptureBackend: FrameSourceBackend {
    let options: CameraSource.Options
    let system: any V4L2System
    let directory: String
    private let operations = DispatchQueue(label: "viewfinder.camera-source.operations")
    private let state = Locked(State())

    private struct State {
        var selection: CaptureSelection?
        var prepared: PreparedCapture?
        var session: CaptureSession?
        /// The node of a removed device that is watched for its return.
        var interruptedPath: String?
        weak var source: CameraSource?
    }

    init(options: CameraSource.Options, system: any V4L2System, directory: String) {
        self.options = options
        self.system = system
        self.directory = directory
    }

    /// The source whose delegate hears about interruptions and failures.
    var source: CameraSource? {
        get { state.withLock { $0.source } }
        set { state.withLock { $0.source = newValue } }
    }

    /// The running stream, if any.
    var session: CaptureSession? { state.withLock { $0.session } }

    /// Chooses what the next start or wake-up captures from.
    func select(_ selection: CaptureSelection) {
        state.withLock { $0.selection = selection }
    }

    /// Stops streaming and closes the device, without telling the engine; for the source's `deinit`.
    func shutDown() {
        let session = state.withLock { state in
            defer {
                state.session = nil
                state.prepared = nil
            }
            return state.session
        }
        session?.stream.stop()
    }

    func perform(_ transition: FrameSourceTransition, for engine: FrameSourceEngine) async throws {
        let result: Result<Void, ViewfinderError> = await withCheckedContinuation { continuation in
            operations.async { [self] in
                continuation.resume(
                    returning: Result { () throws(ViewfinderError) in try carryOut(transition, engine) })
            }
        }
        try result.get()
    }

    /// Carries out a transition on the operations queue.
    private func carryOut(_ transition: FrameSourceTransition, _ engine: FrameSourceEngine) throws(ViewfinderError) {
        switch transition {
        case .bootUp:
            _ = try prepare()
        case .wakeUp:
            try startStreaming(try prepare(), engine: engine)
        case .start:
            do {
                try startStreaming(try prepare(), engine: engine)
            } catch {
                state.withLock { $0.prepared = nil }
                throw error
            }
        case .goToSleep:
            stopStreaming(engine)
        case .stop:
            stopStreaming(engine)
            state.withLock { $0.prepared = nil }
        case .shutDown:
            state.withLock { $0.prepared = nil }
        }
    }

    /// The device set up for the current selection (or the first capture device), opening it if needed.
    private func prepare() throws(ViewfinderError) -> PreparedCapture {
        let (selected, prepared) = state.withLock { ($0.selection, $0.prepared) }
        if let prepared, selected.map(prepared.matches) ?? true { return prepared }
        guard
            let selection = selected
                ?? CaptureDevice.all(in: directory, system: system).first.map({
                    CaptureSelection(device: $0, format: nil)
                })
        else {
            throw ViewfinderError(
                .notFound, "no capture device was selected and none was found in \(directory); connect a camera")
        }
        state.withLock { $0.prepared = nil }
        let made = try makePrepared(selection)
        state.withLock { $0.prepared = made }
        return made
    }

    /// Opens a device, sets its format and frame rate, and prepares conversion if the options ask for it.
    private func makePrepared(_ selection: CaptureSelection) throws(ViewfinderError) -> PreparedCapture {
        let captureDevice = selection.device
        do {
            let device = try V4L2Device(path: captureDevice.path, system: system)
            guard try device.capability().canCaptureVideo else {
                throw ViewfinderError(.notAvailable, "\(captureDevice) does not capture video through streaming")
            }
            let wanted = try selection.format ?? chooseFormat(on: device)
            guard let width = UInt32(exactly: wanted.dimensions.width),
                let height = UInt32(exactly: wanted.dimensions.height),
                width > 0, height > 0
            else {
                throw ViewfinderError(
                    .invalidArgument,
                    "\(wanted.dimensions) is not a frame size; pick one of CameraSource.supportedFormats(for:)")
            }
            let size = V4L2Size(width: width, height: height)
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
                interval.flatMap { FrameRate(frames: $0.denominator, seconds: $0.numerator) } ?? wanted.frameRate
            let format = VideoFormat(dimensions: wanted.dimensions, frameRate: frameRate, pixelFormat: pixelFormat)
            let conversion =
                options.convertsToNV12FullRange
                ? try FrameConversion(format: format, capacity: options.mappedBufferCount) : nil
            return PreparedCapture(
                captureDevice: captureDevice, requestedFormat: selection.format, device: device, format: format,
                layout: layout, conversion: conversion)
        } catch let error as V4L2Error {
            throw error.viewfinderError
        } catch let error as ViewfinderError {
            throw error
        } catch {
            throw ViewfinderError(.io, "could not start capture from \(captureDevice): \(error)")
        }
    }

    /// The format to use when the app named none; with conversion, only formats that convert.
    private func chooseFormat(on device: V4L2Device) throws -> VideoFormat {
        var formats = try CameraSource.supportedFormats(of: device)
        if options.convertsToNV12FullRange {
            formats.removeAll { !FrameConversion.converts($0.pixelFormat) }
        }
        return try CameraSource.preferredFormat(among: formats)
    }

    private func startStreaming(_ prepared: PreparedCapture, engine: FrameSourceEngine) throws(ViewfinderError) {
        let stream = V4L2Stream(device: prepared.device, bufferCount: options.mappedBufferCount)
        let session = CaptureSession(prepared: prepared, stream: stream)
        state.withLock {
            $0.session = session
            $0.interruptedPath = nil
        }
        do {
            try stream.start { [weak self, weak session, weak engine] event in
                guard let self, let session, let engine else {
                    if case .buffer(let buffer) = event { buffer.lease.release() }
                    return
                }
                handle(event, from: session, engine: engine)
            }
        } catch {
            state.withLock { if $0.session === session { $0.session = nil } }
            throw error.viewfinderError
        }
    }

    private func stopStreaming(_ engine: FrameSourceEngine) {
        let session = state.withLock { state in
            defer { state.session = nil }
            return state.session
        }
        session?.stream.stop()
        engine.discardQueuedFrames()
    }

    /// Hands a captured buffer to the engine, or ends capture after a device failure; runs on the capture thread.
    private func handle(_ event: V4L2StreamEvent, from session: CaptureSession, engine: FrameSourceEngine) {
        switch event {
        case .buffer(let buffer):
            if let frame = session.frame(for: buffer) {
                engine.submit(frame)
            }
        case .failed(let error):
            fail(session, with: error, engine: engine)
        }
    }

    /// Ends a stream the device ended: the source goes off and the delegate hears why.
    private func fail(_ session: CaptureSession, with error: V4L2Error, engine: FrameSourceEngine) {
        let (isCurrent, source) = state.withLock { state -> (Bool, CameraSource?) in
            guard state.session === session else { return (false, nil) }
            state.session = nil
            state.prepared = nil
            if error.code == .noDevice { state.interruptedPath = session.prepared.captureDevice.path }
            return (true, state.source)
        }
        guard isCurrent else { return }
        engine.discardQueuedFrames()
        let failure = error.viewfinderError
        engine.reportFailure(failure)
        let reason: CameraSourceInterruptionReason
        switch error.code {
        case .noDevice: reason = .deviceRemoved
        case .busy: reason = .inUseByAnotherClient
        default: reason = .streamingError
        }
        if let source {
            source.notifyDelegate { $0.cameraSourceWasInterrupted(source, reason: reason) }
            source.notifyDelegate { $0.cameraSource(source, didFailWithError: failure) }
        }
        if reason == .deviceRemoved {
            watchForReturn(of: session.prepared.captureDevice.path, until: .now + options.recoveryTimeout)
        }
    }

    /// Checks every 200 ms whether a removed device is back, and reports the end of the interruption when it is.
    private func watchForReturn(of path: String, until deadline: ContinuousClock.Instant) {
        operations.asyncAfter(deadline: .now() + .milliseconds(200)) { [weak self] in
            guard let self, state.withLock({ $0.interruptedPath == path && $0.session == nil }) else { return }
            if CaptureDevice.identify(path: path, system: system) != nil {
                let (ended, source) = state.withLock { state -> (Bool, CameraSource?) in
                    guard state.interruptedPath == path else { return (false, nil) }
                    state.interruptedPath = nil
                    return (true, state.source)
                }
                if ended, let source {
                    source.notifyDelegate { $0.cameraSourceInterruptionEnded(source) }
                }
            } else if ContinuousClock.now < deadline {
                watchForReturn(of: path, until: deadline)
            }
        }
    }
}
