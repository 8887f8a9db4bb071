/// A frame source for frames the app already has: it emits the frames added with ``add(_:)``.
///
/// Use it when your application, not Viewfinder, owns the camera: frames from a capture pipeline of your own, a
/// decoder, or a file. The source never opens, selects or configures a camera; it only forwards the frames you push.
/// Set it as a context's frame source, switch it on once, then add frames in your frame loop:
///
/// ```swift
/// let source = SequenceFrameSource()
/// let context = DataCaptureContext()
/// context.addProcessor { frame in detectBarcodes(in: frame) }
/// await context.setFrameSource(source)
/// await source.switch(toDesiredState: .on)
///
/// for frame in myCamera.frames {       // NV12 full range only
///     source.add(frame)                 // never blocks
/// }
/// ```
///
/// Frames reach the context only while ``currentState`` is ``FrameSourceState/on`` and the source is set on a
/// context. A frame added before both are true waits in a short queue and is emitted as soon as they are; when the
/// queue is full the oldest frame is dropped first. Switching the source off stops processing and keeps the queue.
///
/// One frame is in flight at a time: the next queued frame is emitted once the context has finished the previous
/// one, so pushing frames faster than they are processed drops frames instead of building up latency.
///
/// Only ``PixelFormat/nv12FullRange`` frames are accepted; ``add(_:)`` rejects anything else with a
/// ``ViewfinderError/Code/unsupportedPixelFormat`` error. Create one source and switch it on once, outside the frame
/// loop; do not create a source per frame, and do not feed a stream through an ``ImageFrameSource``.
public final class SequenceFrameSource: FrameSource {
    /// The number of frames the queue holds unless told otherwise.
    public static let defaultQueueCapacity = 3
    /// The largest queue capacity a source accepts.
    public static let maximumQueueCapacity = 64

    /// The engine that runs the source's states and queue.
    public let frameSourceEngine: FrameSourceEngine
    /// Where the camera the frames come from faces; frames from a ``CaptureDevicePosition/front`` camera are
    /// marked mirrored.
    public let captureDevicePosition: CaptureDevicePosition
    /// The position of the camera's lens, from 0 (closest focus) to 1 (furthest), as the app reported it.
    public let lensPosition: Double

    /// Creates a source with an unspecified capture device position and a lens position of 1.
    ///
    /// Frames from a source with an unspecified position are never marked mirrored; use
    /// ``init(captureDevicePosition:lensPosition:)`` for frames from a user-facing camera.
    public convenience init() {
        self.init(captureDevicePosition: .unspecified, lensPosition: 1)
    }

    /// Creates a source for frames from a camera at `captureDevicePosition`.
    ///
    /// The position neither selects nor opens a camera; it says how to interpret the frames you push: frames from a
    /// user-facing (``CaptureDevicePosition/front``) camera are marked mirrored.
    public convenience init(captureDevicePosition: CaptureDevicePosition, lensPosition: Double) {
        self.init(
            captureDevicePosition: captureDevicePosition, lensPosition: lensPosition,
            checkedQueueCapacity: Self.defaultQueueCapacity)
    }

    /// Creates a source whose queue holds `queueCapacity` frames.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` unless `queueCapacity` is from 1 to
    ///   ``maximumQueueCapacity``.
    public convenience init(
        captureDevicePosition: CaptureDevicePosition = .unspecified, lensPosition: Double = 1, queueCapacity: Int
    ) throws {
        guard (1...Self.maximumQueueCapacity).contains(queueCapacity) else {
            throw ViewfinderError(
                .invalidArgument,
                "a sequence frame source queues 1 to \(Self.maximumQueueCapacity) frames, not \(queueCapacity)")
        }
        self.init(
            captureDevicePosition: captureDevicePosition, lensPosition: lensPosition,
            checkedQueueCapacity: queueCapacity)
    }

    private init(captureDevicePosition: CaptureDevicePosition, lensPosition: Double, checkedQueueCapacity: Int) {
        self.captureDevicePosition = captureDevicePosition
        self.lensPosition = lensPosition
        self.frameSourceEngine = FrameSourceEngine(
            queueCapacity: checkedQueueCapacity, acceptedPixelFormat: .nv12FullRange)
    }

    /// Adds a frame; if the source is on, attached to a context and the context is idle, it is the next frame to be
    /// processed.
    ///
    /// Otherwise the frame waits behind the older queued frames, and when the queue is full the oldest one is
    /// dropped to make room, released on the calling thread. Never waits for processing. The frame is marked mirrored
    /// when the source's position is ``CaptureDevicePosition/front``.
    ///
    /// - Returns: Whether the frame was queued, and whether the oldest queued frame was dropped for it. A frame that
    ///   is not ``PixelFormat/nv12FullRange`` is rejected with a ``ViewfinderError/Code/unsupportedPixelFormat``
    ///   error and counted in ``statistics``.
    @discardableResult
    public func add(_ frame: consuming Frame) -> FrameSubmissionResult {
        frame.isMirrored = captureDevicePosition == .front
        return frameSourceEngine.submit(frame)
    }

    /// The counts of frames received, delivered, dropped, rejected and queued.
    public var statistics: FrameSourceStatistics { frameSourceEngine.statistics }
}
