import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

extension PTPCamera {
    /// The camera's live view, the same publisher for every call, driven by the camera's dialect.
    ///
    /// See `LiveViewPublisher`: live view starts at the first demand, frames are fetched one per unit of demand
    /// and decoded unless `LiveViewOption/skipImageDecoding` is set, and live view ends
    /// `LiveViewPublisher/Configuration/gracePeriod` after the last subscriber leaves. On a camera without live
    /// view, subscribers fail with `ViewfinderError/Code/notAvailable`.
    public var liveViewPublisher: LiveViewPublisher {
        liveView.withLock { liveView in
            if let existing = liveView {
                return existing.publisher
            }
            let backend = PTPLiveView(camera: self)
            let publisher = LiveViewPublisher(backend: backend, configuration: configuration.liveView)
            liveView = (backend, publisher)
            return publisher
        }
    }

    /// The live view publisher, if anything asked for it yet.
    var existingLiveViewPublisher: LiveViewPublisher? {
        liveView.withLock { $0?.publisher }
    }
}

/// Starts, fetches and ends a PTP camera's live view for its publisher, through the dialect, and decodes the
/// frames.
final class PTPLiveView: LiveViewBackend {
    private struct State {
        var sequenceNumber: UInt64 = 0
        var pool: PixelBufferPool?
    }

    private weak let camera: PTPCamera?
    private let decoder = JPEGDecoder(toleratesDamagedData: true)
    private let state = Locked(State())

    init(camera: PTPCamera) {
        self.camera = camera
    }

    private func link(for activity: String) throws -> (PTPCamera, PTPCamera.Link) {
        guard let camera else { throw ViewfinderError(.notConnected, "cannot \(activity): the camera is gone") }
        return (camera, try camera.requireLink(.liveView, for: activity))
    }

    func startLiveView(settings: LiveViewSettings) async throws {
        let (camera, link) = try link(for: "start live view")
        do {
            try await link.dialect.startLiveView()
        } catch let error as ViewfinderError {
            throw camera.lostSessionError(error, of: link, while: "start live view")
        }
        state.withLock { $0.sequenceNumber = 0 }
    }

    func liveViewFrame(settings: LiveViewSettings) async throws -> LiveViewFrame {
        let (camera, link) = try link(for: "fetch a live view frame")
        let jpeg: [UInt8]
        do {
            jpeg = try await link.dialect.liveViewImage()
        } catch let error as ViewfinderError {
            throw camera.lostSessionError(error, of: link, while: "fetch a live view frame")
        }
        let timestamp = MonotonicTimestamp.now()
        let header = try decoder.header(of: jpeg)
        let image =
            settings.skipsImageDecoding
            ? nil
            : try decode(
                jpeg, header: header, scale: settings.favorsHighFrameRate ? .half : .full,
                format: camera.configuration.liveViewPixelFormat)
        let number = state.withLock { state in
            state.sequenceNumber += 1
            return state.sequenceNumber
        }
        return LiveViewFrame(
            jpegData: jpeg, pixelSize: header.dimensions, timestamp: timestamp, sequenceNumber: number,
            pixelBuffer: image)
    }

    /// The session's command thread, where each frame's transaction runs: the publisher's task waits and is resumed
    /// there, so a frame wakes no other thread.
    var preferredExecutor: (any TaskExecutor)? {
        try? link(for: "run live view").1.session.core.commandThread
    }

    func endLiveView() async {
        guard let camera, let link = try? camera.requireLink(for: "end live view") else { return }
        await link.dialect.endLiveView()
    }

    /// Decodes into a small pool of buffers that are reused once consumers let go of them; when consumers hold on
    /// to every buffer, into a new one.
    private func decode(_ jpeg: [UInt8], header: JPEGHeader, scale: JPEGDecoder.Scale, format: PixelFormat) throws
        -> PixelBuffer
    {
        let size = header.dimensions(scaledBy: scale)
        let pool = try state.withLock { state in
            if let pool = state.pool, pool.width == size.width, pool.height == size.height, pool.format == format {
                return pool
            }
            let pool = try PixelBufferPool(width: size.width, height: size.height, format: format, capacity: 4)
            state.pool = pool
            return pool
        }
        if let buffer = try decoder.decode(jpeg, scale: scale, into: pool) {
            return buffer
        }
        return try decoder.decode(jpeg, to: format, scale: scale)
    }
}
