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
        _ arguments: ParsedArguments, rate: Int, size: Dimensions, show: @escaping @Sendable (PixelBuffer) -> Void
    ) async throws -> WebcamSource {
        if let named = arguments.value("device") {
            return try await capture(from: try DeviceLookup.device(named: named), show: show)
        }
        let target = try await TargetCamera.connect(try CameraTarget(arguments))
        // The frames are decoded here, at the largest size that fits the output (JPEG decoding enlarges in its own
        // transform, for less than a separate scaling pass), to planar 4:2:0 (I420) with the JPEG's own full-range
        // samples, which pack into the output's formats, mapped to its range, in one pass.
        let decoder = LiveViewDecoder(bounds: size)
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

/// Decodes live view frames at the largest size that fits `bounds`, into a small pool of full-range I420 buffers made
/// anew when the frame size changes.
private final class LiveViewDecoder: Sendable {
    /// The pool for frames of one size, and the scale they are decoded at.
    private struct Pool {
        var frameSize: Dimensions
        var buffers: PixelBufferPool
        var scale: JPEGDecoder.Scale
    }

    private let bounds: Dimensions
    private let decoder = JPEGDecoder(toleratesDamagedData: true)
    private let pool = Locked<Pool?>(nil)

    init(bounds: Dimensions) {
        self.bounds = bounds
    }

    /// The frame's picture, or `nil` when it does not decode or every buffer is in use.
    func decode(_ frame: LiveViewFrame) -> PixelBuffer? {
        guard let current = pool(for: frame) else { return nil }
        do {
            return try decoder.decode(frame.jpegData, scale: current.scale, into: current.buffers)
        } catch let error as ViewfinderError where error.code == .invalidArgument {
            // A frame the pool does not suit (its sampling changed) makes the next frame choose again.
            pool.withLock { $0 = nil }
            return nil
        } catch {
            return nil
        }
    }

    /// The pool for frames like `frame`; its header is read only when the frame size changes.
    private func pool(for frame: LiveViewFrame) -> Pool? {
        if let current = pool.withLock({ $0 }), current.frameSize == frame.pixelSize { return current }
        guard let header = try? decoder.header(of: frame.jpegData) else { return nil }
        let scale = JPEGDecoder.Scale.largest(for: header.dimensions, fittingIn: bounds)
        // The size the decoder writes its planes at (a row or column more for an odd side of a 4:2:0 image), so they
        // are decoded in place, when that still fits.
        let padded = header.paddedDimensions(scaledBy: scale)
        let size =
            padded.width <= bounds.width && padded.height <= bounds.height ? padded : header.dimensions(scaledBy: scale)
        guard
            let buffers = try? PixelBufferPool(
                width: size.width, height: size.height, format: .i420FullRange, capacity: 3)
        else { return nil }
        let made = Pool(frameSize: frame.pixelSize, buffers: buffers, scale: scale)
        pool.withLock { $0 = made }
        return made
    }
}
