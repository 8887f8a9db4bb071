import Dispatch
import ViewfinderConcurrency
import ViewfinderCore

/// A frame source that captures from a V4L2 device: look devices up, list their formats, start, switch and stop.
///
/// Start, stop and select run one after another, in call order, off the caller's thread; their completions and the
/// delegate's calls arrive in order on ``Options/callbackQueue``. Frames are the driver's own memory-mapped buffers,
/// lent without a copy and given back to the driver when the last reference to the frame goes. When the consumer
/// holds every buffer but one, new frames are dropped rather than stalling the driver.
///
/// ```swift
/// let source = CameraSource()
/// guard let device = CameraSource.captureDevice(for: .unspecified) else { return }
/// let format = try await source.startCapture(device: device)
/// print("capturing \(format) from \(device)")
/// await source.stopCapture()
/// ```
public final class CameraSource: Sendable {
    /// Called when capture started (with the device and the format in use) or failed to start (with the error).
    public typealias StartedCompletion = @Sendable (CaptureDevice, VideoFormat?, ViewfinderError?) -> Void
    /// Called when capture stopped; the error is set when stopping failed.
    public typealias StoppedCompletion = @Sendable (ViewfinderError?) -> Void

    /// How a ``CameraSource`` captures.
    public struct Options: Sendable {
        /// How many driver buffers to map; at least two.
        ///
        /// More buffers let a consumer hold more frames at once.
        public var bufferCount: Int
        /// The queue completions and delegate calls run on; `nil` uses a private serial queue.
        public var callbackQueue: DispatchQueue?
        /// Whether the delegate hears about capture devices that appear or disappear.
        public var announcesDeviceChanges: Bool
        /// How long to watch a removed device for its return before giving up on ending the interruption.
        public var recoveryTimeout: Duration

        /// Options with the defaults: four buffers, a private callback queue, no device-change announcements, and
        /// thirty seconds of watching for a removed device's return.
        public init(
            bufferCount: Int = 4,
            callbackQueue: DispatchQueue? = nil,
            announcesDeviceChanges: Bool = false,
            recoveryTimeout: Duration = .seconds(30)
        ) {
            self.bufferCount = bufferCount
            self.callbackQueue = callbackQueue
            self.announcesDeviceChanges = announcesDeviceChanges
            self.recoveryTimeout = recoveryTimeout
        }
    }

    /// The options the source was created with.
    public let options: Options
    let system: any V4L2System
    let directory: String
    let operations = DispatchQueue(label: "viewfinder.camera-source.operations")
    let callbacks: DispatchQueue
    let state = Locked(State())
    private let watcher = Locked<CaptureDeviceWatcher?>(nil)

    struct State {
        var session: CaptureSession?
        var device: CaptureDevice?
        var format: VideoFormat?
        weak var delegate: (any CameraSourceDelegate)?
        var frameHandler: (@Sendable (Frame) -> Void)?
        var interruptedPath: String?
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
        self.system = system
        self.directory = directory
        self.callbacks = options.callbackQueue ?? DispatchQueue(label: "viewfinder.camera-source.callbacks")
        state.withLock { $0.delegate = delegate }
        if options.announcesDeviceChanges {
            watchDevices()
        }
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        state.withLock { $0.session }?.stream.stop()
    }

    /// The source's delegate, held weakly.
    public var delegate: (any CameraSourceDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// The device being captured from: set when the started completion runs, `nil` just before the stopped one runs.
    public var device: CaptureDevice? { state.withLock { $0.device } }

    /// The format being captured, while capturing.
    public var format: VideoFormat? { state.withLock { $0.format } }

    /// Counts of delivered and dropped frames for the current capture, or zeros when not capturing.
    package var statistics: V4L2StreamStatistics {
        state.withLock { $0.session?.stream.statistics } ?? V4L2StreamStatistics()
    }

    /// Sets the closure that receives every captured frame, on the capture thread, while capture runs.
    ///
    /// The closure should return quickly; a frame it keeps holds a driver buffer until the frame's last reference goes.
    package func setFrameHandler(_ handler: (@Sendable (Frame) -> Void)?) {
        state.withLock { $0.frameHandler = handler }
    }

    /// Runs a delegate call on the callback queue, if there is a delegate.
    func notifyDelegate(_ call: @escaping @Sendable (any CameraSourceDelegate) -> Void) {
        callbacks.async { [self] in
            if let delegate = state.withLock({ $0.delegate }) {
                call(delegate)
            }
        }
    }

    private func watchDevices() {
        let created = try? CaptureDeviceWatcher(directory: directory, system: system) { [weak self] event in
            guard let self else { return }
            switch event {
            case .added(let device): notifyDelegate { $0.cameraSource(self, didAddDevice: device) }
            case .removed(let device): notifyDelegate { $0.cameraSource(self, didRemoveDevice: device) }
            }
        }
        watcher.withLock { $0 = created }
    }
}
