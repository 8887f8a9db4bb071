import CV4L2
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A video output device, such as a v4l2loopback node that video-call apps read as a webcam, shown frames at a
/// steady rate.
///
/// The output writes a frame every 1/``Configuration/framesPerSecond`` seconds, whatever its source does: the
/// newest frame given to ``show(_:)``, again when no newer one came (a camera slower than the output), and black
/// before the first. ``show(_:)`` never waits for the device: it scales the frame to fit the output's size (with
/// black bars where the shapes differ), converts it to the output's pixel format, and keeps it as the newest; a
/// device that does not take frames in time makes the output skip writes, never holds up the source.
///
/// ```swift
/// let output = try VideoOutput(path: "/dev/video10", configuration: .init(size: .init(width: 1280, height: 720)))
/// try output.start()
/// let watching = camera.liveViewPublisher(options: [.skipImageDecoding: true])
///     .sinkWithReadyHandler { _ in } receiveValue: { frame, ready in
///         try? output.show(jpeg: frame.jpegData)
///         ready()
///     }
/// // … later
/// output.stop()
/// ```
public final class VideoOutput: Sendable {
    /// The size, rate and pixel format of the output.
    public struct Configuration: Sendable, Hashable {
        /// The frame size the device is asked for; the device may settle on another (see ``VideoOutput/size``).
        public var size: Dimensions
        /// How many frames a second are written.
        public var framesPerSecond: Int
        /// The pixel format written: YUYV, which every webcam reader takes, or NV12 or I420.
        public var pixelFormat: PixelFormat
        /// How many driver buffers are used, from 2 to 8.
        public var bufferCount: Int
        /// Whether frames smaller than the output are scaled up to fill it; when off, they keep their size, framed in
        /// black, shown pixel for pixel.
        public var enlargesFrames: Bool
        /// How ``VideoOutput/show(jpeg:)`` decodes JPEG images, or `nil` (the default) for the cheaper way.
        ///
        /// Without a way, both are timed on the first images of each size and the one that costs less is kept.
        /// Scaling while packing needs a YUYV output; other outputs decode in the transform.
        public var jpegDecoding: JPEGDecoding?

        /// A configuration; 30 frames a second of YUYV by default.
        public init(
            size: Dimensions, framesPerSecond: Int = 30, pixelFormat: PixelFormat = .yuyv, bufferCount: Int = 3,
            enlargesFrames: Bool = true, jpegDecoding: JPEGDecoding? = nil
        ) {
            self.size = size
            self.framesPerSecond = framesPerSecond
            self.pixelFormat = pixelFormat
            self.bufferCount = bufferCount
            self.enlargesFrames = enlargesFrames
            self.jpegDecoding = jpegDecoding
        }
    }

    /// What an output has done so far.
    public struct Statistics: Sendable, Hashable {
        /// Frames written to the device, repeats included.
        public var framesWritten = 0
        /// Writes that repeated the frame written before, because no newer one came in time.
        public var framesRepeated = 0
        /// Ticks without a write because the device held every buffer.
        public var writesSkipped = 0
        /// Frames given to ``VideoOutput/show(_:)`` and prepared.
        public var framesShown = 0
        /// Frames given to ``VideoOutput/show(_:)`` that were dropped because every prepared buffer was in use.
        public var framesDropped = 0
        /// Why the writing thread stopped, when a device error stopped it.
        public var failure: String?
        /// How ``VideoOutput/show(jpeg:)`` decodes images of the newest size, once it has measured; `nil` before.
        public var jpegDecoding: JPEGDecoding?
    }

    /// How JPEG images are decoded and fitted to the output.
    public enum JPEGDecoding: String, Sendable, Hashable {
        /// At the largest JPEG scale that fits, which libjpeg-turbo enlarges in its inverse DCT, and shown at that
        /// size framed in black.
        case inTheTransform
        /// At full size, or the smallest reduction that fits, and scaled to fit as it is packed.
        case whilePacking
    }

    /// The device's path, such as `/dev/video10`.
    public let path: String
    /// The configuration the output was opened with.
    public let configuration: Configuration
    /// The frame size the device settled on.
    public let size: Dimensions
    /// The bytes from one row to the next in the device's buffers.
    let bytesPerRow: Int
    let device: V4L2Device
    let frames: VideoOutputFrames
    private let jpegFrames: VideoOutputJPEGFrames
    private let buffers: [MappedBuffer]
    private let state = Locked(WriterState())

    /// A driver buffer mapped into memory, with the generation of the frame it holds.
    private struct MappedBuffer: @unchecked Sendable {
        let address: UnsafeMutableRawPointer
        let length: Int
    }

    /// Where a buffer's black is: nowhere known yet, everywhere, or around a picture at a place and size.
    enum Framing: Equatable {
        case unknown
        case black
        case picture(x: Int, y: Int, width: Int, height: Int)

        /// Whether a buffer framed so is black around a picture framed as `other`.
        func isBlack(around other: Framing) -> Bool {
            self == .black || self == other
        }
    }

    struct WriterState {
        var statistics = Statistics()
        var stopping = false
        var thread: PlatformThread?
        /// The generation of the frame in each buffer; -1 for none yet.
        var generations: [Int] = []
        /// What each buffer holds around its picture.
        var framing: [Framing] = []
        /// Which buffers are with the driver.
        var queued: [Bool] = []
        /// When each buffer was last queued, counted in writes; -1 for never.
        var queuedAt: [Int] = []
        var lastWritten = -1

        /// The buffer to write next: a free one that holds `newest` already (queued again without a copy), else the
        /// free one queued longest ago, so that a reader of a loopback device, which reads the driver's buffers in
        /// place, has the most time before its buffer is written again; `nil` when the driver holds them all.
        func nextBuffer(newest: Int) -> Int? {
            let free = queued.indices.filter { !queued[$0] }
            return free.first { generations[$0] == newest } ?? free.min { queuedAt[$0] < queuedAt[$1] }
        }
    }

    /// Opens a video output device and sets its format and buffers; ``start()`` starts writing.
    ///
    /// - Throws: `ViewfinderError` with code `notFound` or `permissionDenied` when the device cannot be opened,
    ///   `notAvailable` when it is not a video output device, `unsupportedPixelFormat` when it does not take the
    ///   pixel format, and `invalidArgument` for a configuration out of range.
    public init(path: String, configuration: Configuration) throws {
        guard configuration.size.width >= 2, configuration.size.height >= 2, configuration.size.width <= 8192,
            configuration.size.height <= 8192, (1...240).contains(configuration.framesPerSecond),
            (2...8).contains(configuration.bufferCount)
        else {
            throw ViewfinderError(
                .invalidArgument,
                "a video output takes 2x2 to 8192x8192 pixels at 1 to 240 frames a second with 2 to 8 buffers")
        }
        guard [PixelFormat.yuyv, .nv12VideoRange, .i420].contains(configuration.pixelFormat) else {
            throw ViewfinderError(.unsupportedPixelFormat, "a video output writes YUYV, NV12 or I420")
        }
        self.path = path
        self.configuration = configuration
        let loopbackHint =
            "a webcam for other programs is a v4l2loopback device (modprobe v4l2loopback exclusive_caps=1)"
        let device: V4L2Device
        do {
            device = try V4L2Device(path: path)
        } catch  where error.code.rawValue == ENOENT {
            throw ViewfinderError(
                .notFound, "there is no device at \(path); \(loopbackHint)", errno: error.code.rawValue)
        } catch {
            throw error.viewfinderError
        }
        self.device = device
        let capability: V4L2Capability
        do {
            capability = try device.capability()
        } catch  where error.code.rawValue == ENOTTY {
            throw ViewfinderError(
                .notAvailable, "\(path) is not a video device; \(loopbackHint)", errno: error.code.rawValue)
        } catch {
            throw error.viewfinderError
        }
        guard capability.capabilities & UInt32(V4L2_CAP_VIDEO_OUTPUT) != 0,
            capability.capabilities & UInt32(V4L2_CAP_STREAMING) != 0
        else {
            throw ViewfinderError(
                .notAvailable,
                "\(path) (\(capability.card)) is not a video output device; \(loopbackHint)")
        }
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        format.fmt.pix.width = UInt32(configuration.size.width)
        format.fmt.pix.height = UInt32(configuration.size.height)
        format.fmt.pix.pixelformat = configuration.pixelFormat.fourCC.rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        format.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB.rawValue
        try Self.call { () throws(V4L2Error) in try device.control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format) }
        guard format.fmt.pix.pixelformat == configuration.pixelFormat.fourCC.rawValue else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "\(path) does not take \(configuration.pixelFormat.name); it offers "
                    + FourCharacterCode(rawValue: format.fmt.pix.pixelformat).description)
        }
        size = Dimensions(width: Int(format.fmt.pix.width), height: Int(format.fmt.pix.height))
        let planeRow = configuration.pixelFormat == .yuyv ? 2 * size.width : size.width
        bytesPerRow = max(Int(format.fmt.pix.bytesperline), planeRow)
        Self.setFrameRate(configuration.framesPerSecond, on: device)
        buffers = try Self.mapBuffers(configuration.bufferCount, of: device)
        frames = try VideoOutputFrames(
            size: size, format: configuration.pixelFormat, enlarges: configuration.enlargesFrames)
        jpegFrames = VideoOutputJPEGFrames(frames: frames, way: configuration.jpegDecoding)
        state.withLock { state in
            state.generations = Array(repeating: -1, count: buffers.count)
            state.framing = Array(repeating: .unknown, count: buffers.count)
            state.queued = Array(repeating: false, count: buffers.count)
            state.queuedAt = Array(repeating: -1, count: buffers.count)
        }
    }

    deinit {
        stop()
        for buffer in buffers { device.system.munmap(buffer.address, length: buffer.length) }
    }

    /// What the output has done so far.
    public var statistics: Statistics {
        var statistics = state.withLock { $0.statistics }
        (statistics.framesShown, statistics.framesDropped) = frames.counts
        statistics.jpegDecoding = jpegFrames.chosenWay
        return statistics
    }

    /// Shows `buffer` from the next write on: scaled to fit the output, converted, and kept until a newer one comes.
    ///
    /// Returns at once; call it from the source's own thread. A frame that finds every prepared buffer in use (the
    /// output busy copying the others) is dropped.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` for a format that cannot be converted, such as
    ///   JPEG data (``show(jpeg:)`` takes it).
    public func show(_ buffer: PixelBuffer) throws {
        try frames.prepare(buffer)
    }

    /// Shows a JPEG image, such as a network camera's live view frame, from the next write on: decoded, fitted and
    /// converted as ``show(_:)`` does, the way that costs this machine less CPU.
    ///
    /// For a YUYV output the first images of a size are decoded two ways in turn and timed: at the largest JPEG scale
    /// that fits (shown at that size, framed in black), and at full size scaled to fit as it is packed; the cheaper is
    /// kept. Call it from the source's own thread, one image at a time.
    ///
    /// - Throws: `ViewfinderError` with code `malformedData` for data that is not a JPEG image.
    public func show(jpeg: some Collection<UInt8>) throws {
        try jpegFrames.show(jpeg)
    }

    /// Starts writing frames on a thread of its own: black until the first ``show(_:)``.
    ///
    /// - Throws: `ViewfinderError` when the device does not start streaming.
    public func start() throws {
        guard state.withLock({ $0.thread == nil && !$0.stopping }) else { return }
        try write(into: 0)
        var type = CInt(V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)
        try Self.call { () throws(V4L2Error) in
            try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        }
        let thread = try PlatformThread(name: "video-output") { [self] in run() }
        state.withLock { $0.thread = thread }
    }

    /// Stops writing and streaming, and waits for the writing thread; safe to call more than once.
    public func stop() {
        let thread = state.withLock { state in
            state.stopping = true
            defer { state.thread = nil }
            return state.thread
        }
        guard let thread else { return }
        thread.join()
        var type = CInt(V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)
        _ = try? device.control(cv4l2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
    }

    /// Writes a frame at each tick of the frame rate, until stopped or the device fails.
    private func run() {
        let interval = 1_000_000_000 / configuration.framesPerSecond
        var next = Self.monotonicNanoseconds() + interval
        while !state.withLock({ $0.stopping }) {
            Self.sleep(untilMonotonicNanoseconds: next)
            next += interval
            // A thread that fell behind (a stopped machine) starts its ticks anew rather than catching up.
            let now = Self.monotonicNanoseconds()
            if now > next + interval { next = now + interval }
            do {
                try reclaimBuffers()
                let newest = frames.newest.generation
                guard let free = state.withLock({ $0.nextBuffer(newest: newest) }) else {
                    state.withLock { $0.statistics.writesSkipped += 1 }
                    continue
                }
                try write(into: free)
            } catch {
                state.withLock { $0.statistics.failure = error.message }
                return
            }
        }
    }

    /// Takes back the buffers the device has shown.
    ///
    /// A device with nothing to give back says so (`EAGAIN`); a v4l2loopback device never does, and hands back its
    /// newest buffer again and again, so taking back stops at a buffer that is free already, and after as many
    /// buffers as there are.
    private func reclaimBuffers() throws(ViewfinderError) {
        for _ in buffers.indices {
            var buffer = Self.makeBuffer(0)
            do throws(V4L2Error) {
                try device.control(cv4l2_VIDIOC_DQBUF, "VIDIOC_DQBUF", &buffer)
            } catch {
                if error.code.rawValue == EAGAIN { return }
                throw error.viewfinderError
            }
            let index = Int(buffer.index)
            let wasQueued = state.withLock { state in
                guard state.queued.indices.contains(index), state.queued[index] else { return false }
                state.queued[index] = false
                return true
            }
            guard wasQueued else { return }
        }
    }

    /// Puts the newest frame into buffer `index`, unless it holds it already, and queues the buffer.
    private func write(into index: Int) throws(ViewfinderError) {
        let (generation, frame) = frames.newest
        let (holds, framed) = state.withLock { ($0.generations[index] == generation, $0.framing[index]) }
        if !holds {
            let target = buffers[index]
            // The black around a picture stays in the buffer: it is written again only when the picture moves.
            let framing =
                frame.map { Framing.picture(x: $0.x, y: $0.y, width: $0.size.width, height: $0.size.height) }
                ?? .black
            if let frame {
                frames.copy(
                    frame, to: target.address, bytesPerRow: bytesPerRow, length: target.length,
                    drawsBorders: !framed.isBlack(around: framing))
            } else {
                frames.fillBlack(target.address, bytesPerRow: bytesPerRow, length: target.length)
            }
            state.withLock { $0.framing[index] = framing }
        }
        var buffer = Self.makeBuffer(UInt32(index))
        buffer.bytesused = UInt32(frames.byteCount(bytesPerRow: bytesPerRow))
        buffer.field = V4L2_FIELD_NONE.rawValue
        let now = Self.monotonicNanoseconds()
        buffer.timestamp = timeval(tv_sec: now / 1_000_000_000, tv_usec: (now % 1_000_000_000) / 1000)
        try Self.call { () throws(V4L2Error) in try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer) }
        state.withLock { state in
            state.generations[index] = generation
            state.queued[index] = true
            state.queuedAt[index] = state.statistics.framesWritten
            state.statistics.framesWritten += 1
            if state.lastWritten == generation { state.statistics.framesRepeated += 1 }
            state.lastWritten = generation
        }
    }

    // MARK: Device set-up

    private static func makeBuffer(_ index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }

    /// Tells the device the frame rate, as readers of a loopback device see it; devices without it ignore it.
    private static func setFrameRate(_ framesPerSecond: Int, on device: V4L2Device) {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        parameters.parm.output.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(framesPerSecond))
        _ = try? device.control(cv4l2_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parameters)
    }

    private static func mapBuffers(_ count: Int, of device: V4L2Device) throws -> [MappedBuffer] {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try call { () throws(V4L2Error) in try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request) }
        guard request.count >= 2 else {
            throw ViewfinderError(.notAvailable, "\(device.path) granted \(request.count) buffers; two are needed")
        }
        var mapped: [MappedBuffer] = []
        for index in 0..<request.count {
            var buffer = makeBuffer(index)
            try call { () throws(V4L2Error) in
                try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
            }
            switch device.system.mmap(device.descriptor, length: Int(buffer.length), offset: Int64(buffer.m.offset)) {
            case .success(let address):
                mapped.append(MappedBuffer(address: address, length: Int(buffer.length)))
            case .failure(let code):
                for done in mapped { device.system.munmap(done.address, length: done.length) }
                throw V4L2Error(operation: "mmap", path: device.path, code: code).viewfinderError
            }
        }
        return mapped
    }

    @discardableResult
    private static func call<Result>(_ body: () throws(V4L2Error) -> Result) throws(ViewfinderError) -> Result {
        do {
            return try body()
        } catch {
            throw error.viewfinderError
        }
    }

    private static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    private static func sleep(untilMonotonicNanoseconds deadline: Int) {
        var target = timespec(tv_sec: deadline / 1_000_000_000, tv_nsec: deadline % 1_000_000_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
