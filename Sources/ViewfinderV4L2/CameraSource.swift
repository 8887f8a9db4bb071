import Dispatch
import ViewfinderCore
import ViewfinderSystem

/// A frame source that captures from a V4L2 device: look devices up, list their formats, start, switch and stop.
///
/// A camera source is a `FrameSource`: set it on a `DataCaptureContext` and its frames reach the context's
/// processors and the source's frame listeners, one frame in flight. When the context is busy, the newest frame
/// waits and older ones go straight back to the driver, so a slow processor costs frames, never latency or memory.
///
/// ```swift
/// let source = CameraSource()
/// let context = DataCaptureContext()
/// context.addProcessor { frame in print("frame \(frame.sequenceNumber)") }
/// await context.setFrameSource(source)
///
/// guard let device = CameraSource.captureDevice(for: .unspecified) else { return }
/// let format = try await source.startCapture(device: device)
/// print("capturing \(format) from \(device)")
/// await source.stopCapture()
/// ```
///
/// ``startCapture(device:completionQueue:completion:)`` and ``stopCapture(completionQueue:completion:)`` switch the
/// source `FrameSourceState/on` and `FrameSourceState/off`; `FrameSource/switch(toDesiredState:)` does the
/// same with the device selected last (or the first capture device), and `FrameSourceState/standby` keeps the
/// device open and set up without streaming. Start, stop and select run one after another, in call order, off the
/// caller's thread. Frames are the driver's own memory-mapped buffers, lent without a copy and given back to the
/// driver when the last reference to the frame goes, unless ``Options/convertsToNV12FullRange`` converts them.
public final class CameraSource: FrameSource {
    /// Called when capture started (with the device and the format in use) or failed to start (with the error).
    public typealias StartedCompletion = @Sendable (CaptureDevice, VideoFormat?, ViewfinderError?) -> Void
    /// Called when capture stopped; the error is set when a later request kept the source from stopping.
    public typealias StoppedCompletion = @Sendable (ViewfinderError?) -> Void

    /// How a ``CameraSource`` captures.
    public struct Options: Sendable {
        /// How many driver buffers to map, from 2 to 32; a count outside that is brought inside it.
        ///
        /// One buffer always stays with the driver; the context holds up to two (the frame it processes and the
        /// newest frame, waiting). More buffers let processors keep frames for longer without dropping.
        public var bufferCount: Int

        /// ``bufferCount`` brought into 2...32.
        var mappedBufferCount: Int { min(max(bufferCount, 2), 32) }
        /// The queue delegate calls run on; `nil` uses a private serial queue.
        public var delegateQueue: DispatchQueue?
        /// Whether the delegate hears about capture devices that appear or disappear.
        public var announcesDeviceChanges: Bool
        /// How long to watch a removed device for its return before giving up on ending the interruption.
        public var recoveryTimeout: Duration
        /// Whether frames are converted to `PixelFormat/nv12FullRange` before they are delivered.
        ///
        /// Conversion writes into a pool of ``bufferCount`` buffers made once per capture, so it allocates nothing
        /// per frame; a frame that finds every pooled buffer in use is dropped. MJPEG frames, which most USB webcams
        /// send at their larger sizes, are decoded into the pool; a frame that does not decode is dropped and
        /// counted in ``CameraSourceStatistics/undecodable``. The automatic format choice takes an uncompressed
        /// format over MJPEG where both give the same size and frame rate.
        public var convertsToNV12FullRange: Bool

        /// Options with the defaults: four buffers, a private delegate queue, no device-change announcements,
        /// thirty seconds of watching for a removed device's return, and frames in the device's own format.
        public init(
            bufferCount: Int = 4,
            delegateQueue: DispatchQueue? = nil,
            announcesDeviceChanges: Bool = false,
            recoveryTimeout: Duration = .seconds(30),
            convertsToNV12FullRange: Bool = false
        ) {
            self.bufferCount = bufferCount
            self.delegateQueue = delegateQueue
            self.announcesDeviceChanges = announcesDeviceChanges
            self.recoveryTimeout = recoveryTimeout
            self.convertsToNV12FullRange = convertsToNV12FullRange
        }
    }

    /// The engine that runs the source's states, listeners and frame queue.
    public let frameSourceEngine: FrameSourceEngine
    /// The options the source was created with.
    public let options: Options
    let backend: CaptureBackend
    let operations = SerialTasks()
    private let delegateQueue: DispatchQueue
    private let state = Locked(State())

    private struct State {
        weak var delegate: (any CameraSourceDelegate)?
        var watcher: CaptureDeviceWatcher?
    }

    /// Creates a source with default options and no delegate.
    public convenience init() {
        self.init(options: Options(), delegate: nil)
    }

    /// Creates a source with default options.
    public convenience init(delegate: (any CameraSourceDelegate)?) {
        self.init(options: Options(), delegate: delegate)
    }

    /// Creates a source with options and a delegate.
    public convenience init(options: Options, delegate: (any CameraSourceDelegate)?) {
        self.init(options: options, delegate: delegate, system: LinuxV4L2System(), directory: "/dev")
    }

    /// Creates a source over a given system-call layer and device directory (for tests with a fake device).
    package init(options: Options, delegate: (any CameraSourceDelegate)?, system: any V4L2System, directory: String) {
        self.options = options
        self.delegateQueue = options.delegateQueue ?? DispatchQueue(label: "viewfinder.camera-source.delegate")
        backend = CaptureBackend(options: options, system: system, directory: directory)
        frameSourceEngine = FrameSourceEngine(
            queueCapacity: 1, acceptedPixelFormat: options.convertsToNV12FullRange ? .nv12FullRange : nil,
            backend: backend)
        state.withLock { $0.delegate = delegate }
        backend.source = self
        if options.announcesDeviceChanges {
            watchDevices(in: directory, system: system)
        }
    }

    deinit {
        state.withLock { $0.watcher }?.cancel()
        backend.shutDown()
    }

    /// The source's delegate, held weakly.
    public var delegate: (any CameraSourceDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// The device being captured from: set when the started completion runs, `nil` just before the stopped one runs.
    public var device: CaptureDevice? { backend.session?.prepared.captureDevice }

    /// The format the device captures in, while capturing.
    ///
    /// With ``Options/convertsToNV12FullRange`` frames arrive in `PixelFormat/nv12FullRange` at this size.
    public var format: VideoFormat? { backend.session?.prepared.format }

    /// Counts of captured and dropped frames for the current capture, or zeros when not capturing.
    ///
    /// Frames dropped because the context was busy are counted by ``frameSourceEngine``'s
    /// `FrameSourceEngine/statistics`.
    public var statistics: CameraSourceStatistics {
        backend.session?.statistics ?? CameraSourceStatistics()
    }

    /// Runs a delegate call on the delegate queue, if there is a delegate.
    func notifyDelegate(_ call: @escaping @Sendable (any CameraSourceDelegate) -> Void) {
        delegateQueue.async { [self] in
            if let delegate = state.withLock({ $0.delegate }) {
                call(delegate)
            }
        }
    }

    private func watchDevices(in directory: String, system: any V4L2System) {
        let created = try? CaptureDeviceWatcher(directory: directory, system: system) { [weak self] event in
            guard let self else { return }
            switch event {
            case .attached(let device): notifyDelegate { $0.cameraSource(self, didAddDevice: device) }
            case .detached(let device): notifyDelegate { $0.cameraSource(self, didRemoveDevice: device) }
            }
        }
        state.withLock { $0.watcher = created }
    }
}

/// Counts of what happened to the frames a ``CameraSource`` captured.
public struct CameraSourceStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Frames taken from the driver.
    public var captured = 0
    /// Frames the driver skipped, from gaps in its sequence numbers.
    public var droppedByDriver = 0
    /// Frames given straight back to the driver because frames still held used every other buffer.
    public var droppedWhileBuffersHeld = 0
    /// Buffers the driver marked as corrupted, given straight back.
    public var corrupted = 0
    /// Frames dropped because every buffer of the conversion pool was in use.
    public var droppedByConversion = 0
    /// Compressed frames, such as a webcam's JPEG, dropped during conversion because they did not decode.
    public var undecodable = 0

    /// Creates statistics with every count zero.
    public init() {}

    /// The counts, for people.
    public var description: String {
        "captured \(captured), dropped by the driver \(droppedByDriver), dropped while buffers were held "
            + "\(droppedWhileBuffersHeld), corrupted \(corrupted), dropped by conversion \(droppedByConversion), "
            + "undecodable \(undecodable)"
    }
}
