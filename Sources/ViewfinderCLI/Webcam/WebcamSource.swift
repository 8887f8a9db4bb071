import Viewfinder
import ViewfinderSystem

/// Where `viewfinder webcam` takes its frames: a network camera's live view (the built-in simulated camera unless the
/// target options name one), or a capture device through a capture context.
final class WebcamSource: Sendable {
    /// What the frames show, for people, such as `Nikon Corporation Simulated DSLR`.
    let title: String
    private let stopping: @Sendable () async -> Void

    private init(title: String, stopping: @escaping @Sendable () async -> Void) {
        self.title = title
        self.stopping = stopping
    }

    /// Starts the source the command line asks for, handing each frame to `show` on the source's own thread.
    ///
    /// Live view is asked for at most `rate` frames a second, one at a time: the next frame is fetched once `show`
    /// has returned.
    static func start(
        _ arguments: ParsedArguments, rate: Int, show: @escaping @Sendable (PixelBuffer) -> Void
    ) async throws -> WebcamSource {
        if let named = arguments.value("device") {
            return try await capture(from: try DeviceLookup.device(named: named), show: show)
        }
        let target = try await TargetCamera.connect(try CameraTarget(arguments))
        // The frames are decoded here, to planar 4:2:0 (I420), which scales and packs into the output's formats
        // in fewer passes than the NV12 live view decodes to by default.
        let decoder = LiveViewDecoder()
        let watching = target.camera.liveViewPublisher(
            options: [.maximumFramesPerSecond: .number(Double(rate)), .skipImageDecoding: true]
        )
        .sinkWithReadyHandler { completion in
            if case .failure(let reason) = completion {
                Console.printToError("webcam: live view ended: \(reason)")
            }
        } receiveValue: { frame, ready in
            if let image = decoder.decode(frame) { show(image) }
            ready()
        }
        return WebcamSource(title: "\(target.model) (\(target.place))") {
            watching.cancel()
            await target.close()
        }
    }

    /// Frames of a capture device, through a capture context.
    private static func capture(from device: CaptureDevice, show: @escaping @Sendable (PixelBuffer) -> Void)
        async throws -> WebcamSource
    {
        let source = CameraSource()
        let context = DataCaptureContext()
        let processor = context.addProcessor { frame in show(frame.pixelBuffer) }
        await context.setFrameSource(source)
        _ = try await source.startCapture(device: device)
        return WebcamSource(title: device.description) {
            await source.stopCapture()
            await context.setFrameSource(nil)
            withExtendedLifetime(processor) {}
        }
    }

    /// Stops the frames and lets go of the camera or device.
    func stop() async {
        await stopping()
    }
}

/// Decodes live view frames into a small pool of I420 buffers, made anew when the frame size changes.
private final class LiveViewDecoder: Sendable {
    private let decoder = JPEGDecoder(toleratesDamagedData: true)
    private let pool = Locked<PixelBufferPool?>(nil)

    /// The frame's picture, or `nil` when it does not decode or every buffer is in use.
    func decode(_ frame: LiveViewFrame) -> PixelBuffer? {
        let size = frame.pixelSize
        let pool = self.pool.withLock { pool -> PixelBufferPool? in
            if let pool, pool.width == size.width, pool.height == size.height { return pool }
            pool = try? PixelBufferPool(width: size.width, height: size.height, format: .i420, capacity: 3)
            return pool
        }
        guard let pool else { return nil }
        return try? decoder.decode(frame.jpegData, into: pool)
    }
}
