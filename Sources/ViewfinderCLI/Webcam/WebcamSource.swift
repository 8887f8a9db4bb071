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

    /// Starts the source the command line asks for, showing each frame on `output` from the source's own thread.
    ///
    /// Live view is asked for at most `rate` frames a second, one at a time: the next frame is fetched once the
    /// output has taken the last.
    static func start(_ arguments: ParsedArguments, rate: Int, output: VideoOutput) async throws -> WebcamSource {
        if let named = arguments.value("device") {
            return try await capture(from: try DeviceLookup.device(named: named)) { try? output.show($0) }
        }
        let target = try await TargetCamera.connect(try CameraTarget(arguments))
        // The output decodes the JPEG frames itself, the way that costs this machine less.
        let watching = target.camera.liveViewPublisher(
            options: [.maximumFramesPerSecond: .number(Double(rate)), .skipImageDecoding: true]
        )
        .sinkWithReadyHandler { completion in
            if case .failure(let reason) = completion {
                Console.printToError("webcam: live view ended: \(reason)")
            }
        } receiveValue: { frame, ready in
            try? output.show(jpeg: frame.jpegData)
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
