import Synchronization
import ViewfinderSystem

/// A frame source that emits one image each time it is switched on, then switches itself off.
///
/// Use it to run a context's processors over a still image:
///
/// ```swift
/// let source = ImageFrameSource(image: photo)
/// await context.setFrameSource(source)
/// await source.switch(toDesiredState: .on)   // the processors see the image once, then the source is off
/// ```
///
/// It is meant for single images: feed a continuous stream through a ``SequenceFrameSource`` instead.
public final class ImageFrameSource: FrameSource {
    /// The engine that runs the source's states and queue.
    public let frameSourceEngine: FrameSourceEngine
    /// The image the source emits.
    public let image: PixelBuffer
    /// How the image is rotated relative to how it should be shown.
    public let orientation: Frame.Orientation

    /// Creates a source that emits `image`, in any pixel format, each time it is switched on.
    public init(image: PixelBuffer, orientation: Frame.Orientation = .up) {
        self.image = image
        self.orientation = orientation
        let emitter = ImageEmitter(image: image, orientation: orientation)
        self.frameSourceEngine = FrameSourceEngine(queueCapacity: 1, backend: emitter)
        emitter.switchOffAfterEachFrame(of: frameSourceEngine)
    }
}

/// Queues the image when the source switches on, and switches the source off once the image is emitted.
private final class ImageEmitter: FrameSourceBackend {
    private let image: PixelBuffer
    private let orientation: Frame.Orientation
    private let sequenceNumber = Atomic<UInt64>(0)
    private let emitted = Locked<ObservationToken?>(nil)

    init(image: PixelBuffer, orientation: Frame.Orientation) {
        self.image = image
        self.orientation = orientation
    }

    func switchOffAfterEachFrame(of engine: FrameSourceEngine) {
        let token = engine.addFrameListener { [weak engine] _ in
            engine?.requestState(.off, completion: nil)
        }
        emitted.withLock { $0 = token }
    }

    func perform(_ transition: FrameSourceTransition, for engine: FrameSourceEngine) async throws {
        guard transition.target == .on else { return }
        let number = sequenceNumber.wrappingAdd(1, ordering: .relaxed).newValue
        engine.submit(
            Frame(pixelBuffer: image, timestamp: .now(), sequenceNumber: number, orientation: orientation))
    }
}
