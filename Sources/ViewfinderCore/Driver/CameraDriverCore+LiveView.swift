import ViewfinderSystem

extension CameraDriverCore {
    /// The camera's live view, the same publisher for every call, driven through the connection.
    ///
    /// See ``LiveViewPublisher``: live view starts at the first demand, frames are fetched one per unit of demand
    /// and decoded unless ``LiveViewOption/skipImageDecoding`` is set, and live view ends
    /// ``LiveViewPublisher/Configuration/gracePeriod`` after the last subscriber leaves. On a camera without live
    /// view, subscribers fail with ``ViewfinderError/Code/notAvailable``.
    public var liveViewPublisher: LiveViewPublisher {
        liveView.withLock { liveView in
            if let existing = liveView {
                return existing.publisher
            }
            let backend = CameraDriverLiveView(core: self)
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

/// Starts, fetches and ends a camera's live view for its publisher, through the core's connection, and decodes the
/// images.
final class CameraDriverLiveView<Connection: CameraDriverConnection>: LiveViewBackend {
    private weak let core: CameraDriverCore<Connection>?
    private let sequenceNumber = Locked<UInt64>(0)

    init(core: CameraDriverCore<Connection>) {
        self.core = core
    }

    private func core(for activity: String) throws -> CameraDriverCore<Connection> {
        guard let core else { throw ViewfinderError(.notConnected, "cannot \(activity): the camera is gone") }
        return core
    }

    func startLiveView(settings: LiveViewSettings) async throws {
        try await core(for: "start live view").withConnection(.liveView, for: "start live view") {
            try await $0.startLiveView()
        }
        sequenceNumber.withLock { $0 = 0 }
    }

    func liveViewFrame(settings: LiveViewSettings) async throws -> LiveViewFrame {
        let core = try core(for: "fetch a live view frame")
        let (image, geometry) = try await core.withConnection(.liveView, for: "fetch a live view frame") {
            try await $0.liveViewImageWithGeometry()
        }
        let timestamp = MonotonicTimestamp.now()
        let (size, pixels) = try core.configuration.liveViewDecoder.decode(image, settings: settings)
        let number = sequenceNumber.withLock { number in
            number += 1
            return number
        }
        return LiveViewFrame(
            jpegData: image, pixelSize: size, timestamp: timestamp, sequenceNumber: number, pixelBuffer: pixels,
            geometry: geometry)
    }

    /// The connection's executor, where each frame's request runs: the publisher's task waits and is resumed there,
    /// so a frame wakes no other thread.
    var preferredExecutor: (any TaskExecutor)? {
        (try? core(for: "run live view").connection(.liveView, for: "run live view"))?.liveViewExecutor
    }

    func endLiveView() async {
        guard let connection = try? core?.connection(for: "end live view") else { return }
        await connection.endLiveView()
    }
}
