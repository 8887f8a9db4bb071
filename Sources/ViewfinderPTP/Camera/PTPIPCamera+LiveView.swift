import ViewfinderConcurrency
import ViewfinderCore
import ViewfinderImaging

extension PTPIPCamera {
    /// The camera's live view, the same publisher for every call: Nikon live view over PTP/IP.
    ///
    /// See ``LiveViewPublisher``: live view starts at the first demand, frames are fetched with GetLiveViewImg one
    /// per unit of demand and decoded unless ``LiveViewOption/skipImageDecoding`` is set, and live view ends
    /// ``LiveViewPublisher/Configuration/gracePeriod`` after the last subscriber leaves. On a camera without live
    /// view, subscribers fail with ``ViewfinderError/Code/notAvailable``.
    public var liveViewPublisher: LiveViewPublisher {
        liveView.withLock { liveView in
            if let existing = liveView {
                return existing.publisher
            }
            let backend = PTPIPLiveView(camera: self)
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

/// Starts, fetches and ends a PTP/IP camera's live view for its publisher, and decodes the frames.
final class PTPIPLiveView: LiveViewBackend {
    private struct State {
        var sequenceNumber: UInt64 = 0
        var pool: PixelBufferPool?
    }

    private weak let camera: PTPIPCamera?
    private let decoder = JPEGDecoder(toleratesDamagedData: true)
    private let state = Locked(State())
    /// How often a frame that is not ready yet (DeviceBusy) is asked for again before live view fails.
    private static let busyRetries = 200

    init(camera: PTPIPCamera) {
        self.camera = camera
    }

    private func link(for activity: String) throws -> (PTPIPCamera, PTPIPCamera.Link) {
        guard let camera else { throw ViewfinderError(.notConnected, "cannot \(activity): the camera is gone") }
        return (camera, try camera.requireLink(for: activity))
    }

    func startLiveView(settings: LiveViewSettings) async throws {
        let (camera, link) = try link(for: "start live view")
        guard link.functionality.contains(.liveView) else {
            throw ViewfinderError(
                .notAvailable,
                "\(link.deviceInfo.model) offers no live view over PTP/IP; Viewfinder drives Nikon-style live view")
        }
        try await camera.liveViewLease.acquire(
            .liveView, on: link.session, readyTimeout: camera.configuration.liveViewReadyTimeout)
        state.withLock { $0.sequenceNumber = 0 }
    }

    func liveViewFrame(settings: LiveViewSettings) async throws -> LiveViewFrame {
        let (camera, link) = try link(for: "fetch a live view frame")
        var busy = 0
        let data: PTPNikonLiveViewFrame
        while true {
            do {
                data = try await link.session.nikonLiveViewFrame()
                break
            } catch let error as ViewfinderError
                where error.responseCode == PTPResponseCode.deviceBusy.rawValue && busy < Self.busyRetries
            {
                // The camera has no new frame yet; it has one a few milliseconds later.
                busy += 1
                try await Task.sleep(for: .milliseconds(5))
            } catch let error as ViewfinderError {
                throw camera.lostSessionError(error, of: link, while: "fetch a live view frame")
            }
        }
        let timestamp = MonotonicTimestamp.now()
        let jpeg = Array(data.jpeg)
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

    func endLiveView() async {
        guard let camera, let link = try? camera.requireLink(for: "end live view") else { return }
        await camera.liveViewLease.release(.liveView, on: link.session)
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
