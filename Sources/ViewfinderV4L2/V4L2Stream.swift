import CV4L2
import Synchronization
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A filled driver buffer lent to the consumer: the mapped bytes and what the driver said about them.
///
/// The bytes stay valid, and the buffer stays out of the driver's queue, until ``lease`` is released (explicitly or
/// when its last reference goes). Nothing is copied.
package struct V4L2CapturedBuffer {
    /// The start of the mapped buffer.
    package var base: UnsafeMutableRawPointer
    /// How many bytes the driver filled.
    package var bytesUsed: Int
    /// The driver's frame counter; gaps mean the driver dropped frames.
    package var sequence: UInt32
    /// When the driver captured the frame, in nanoseconds of `CLOCK_MONOTONIC`.
    package var timestampNanoseconds: UInt64
    /// The format the stream was started with.
    package var format: V4L2PixelFormat
    /// Returns the buffer to the driver when released.
    package var lease: V4L2BufferLease
}

/// Counts of what happened to the frames of a stream.
package struct V4L2StreamStatistics: Hashable, Sendable {
    /// Frames handed to the consumer.
    package var delivered = 0
    /// Frames the driver skipped, from gaps in its sequence numbers.
    package var droppedByDriver = 0
    /// Frames given straight back because the consumer held every other buffer.
    package var droppedForBackpressure = 0
    /// Buffers the driver marked with `V4L2_BUF_FLAG_ERROR`, given straight back.
    package var corrupted = 0

    /// Every frame that did not reach the consumer.
    package var dropped: Int { droppedByDriver + droppedForBackpressure + corrupted }
}

/// What a stream reports on its capture thread.
package enum V4L2StreamEvent {
    /// A filled buffer, lent to the consumer.
    case buffer(V4L2CapturedBuffer)
    /// The stream ended by itself: the device went away (`ENODEV`) or the driver failed (`EIO`, …).
    case failed(V4L2Error)
}

/// A memory-mapped capture stream on an open device: buffers, the capture thread and the return of lent buffers.
///
/// ``start(handler:)`` requests and maps the buffers, queues them, turns streaming on and starts a thread that waits
/// for filled buffers and hands each to `handler`. At least ``minimumQueued`` buffers always stay with the driver: when
/// the consumer holds all the others, a new frame is given straight back and counted as dropped, so a slow consumer
/// costs frames, never a stalled driver. ``stop()`` turns streaming off and waits for the thread; buffers still lent
/// stay mapped until their leases go.
package final class V4L2Stream: Sendable {
    /// The device the stream reads.
    package let device: V4L2Device
    /// How many buffers to ask the driver for.
    package let requestedBufferCount: Int
    /// How many buffers stay queued in the driver while the consumer holds the rest.
    package let minimumQueued: Int

    let state = Locked(State())

    struct State {
        enum Phase {
            case idle
            case streaming(WakeableThread)
            case ended
        }
        var phase = Phase.idle
        var buffers: [MappedBuffer] = []
        var format: V4L2PixelFormat?
        var queued = 0
        var lent = 0
        var lastSequence: UInt32?
        var statistics = V4L2StreamStatistics()
    }

    /// Prepares a stream; nothing touches the device until ``start(handler:)``.
    package init(device: V4L2Device, bufferCount: Int = 4, minimumQueued: Int = 1) {
        self.device = device
        self.requestedBufferCount = max(bufferCount, minimumQueued + 1)
        self.minimumQueued = minimumQueued
    }

    deinit {
        let buffers = state.withLock { $0.buffers }
        for buffer in buffers {
            device.system.munmap(buffer.address, length: buffer.length)
        }
    }

    /// The counts so far.
    package var statistics: V4L2StreamStatistics { state.withLock { $0.statistics } }

    /// Maps the driver's buffers, queues them, turns streaming on and starts the capture thread.
    ///
    /// Throws the failing call's error (`VIDIOC_REQBUFS`, `mmap`, `VIDIOC_QBUF`, `VIDIOC_STREAMON`, …), after undoing
    /// what was done. A stream starts once.
    package func start(handler: @escaping @Sendable (V4L2StreamEvent) -> Void) throws(V4L2Error) {
        let format = try device.format()
        let buffers = try mapBuffers()
        state.withLock {
            $0.buffers = buffers
            $0.format = format
        }
        do {
            for index in buffers.indices {
                try queue(index)
            }
            var type = CInt(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
            // The lock is held while the thread starts, so the loop sees the streaming phase from its first step.
            try state.withLock { (state) throws(V4L2Error) in
                state.queued = buffers.count
                state.phase = .streaming(
                    try WakeableThread.forV4L2(name: "v4l2-capture") { [self] wakeup in
                        run(wakeDescriptor: wakeup.descriptor, handler: handler)
                    }
                )
            }
        } catch {
            streamOff()
            state.withLock { $0.phase = .ended }
            throw error
        }
    }

    /// Turns streaming off and waits for the capture thread to return.
    ///
    /// Safe to call more than once and from the handler itself. Buffers still lent stay mapped until their leases are
    /// released.
    package func stop() {
        _ = end()
    }

    /// Ends streaming once: stops the capture thread and turns streaming off.
    ///
    /// Returns whether this call ended it.
    func end() -> Bool {
        let thread: WakeableThread? = state.withLock {
            guard case .streaming(let thread) = $0.phase else { return nil }
            $0.phase = .ended
            return thread
        }
        guard let thread else { return false }
        thread.stop()
        streamOff()
        return true
    }

    /// Gives a lent buffer back; the driver gets it again while the stream runs.
    func giveBack(_ index: Int) {
        let requeue = state.withLock {
            $0.lent -= 1
            guard case .streaming = $0.phase else { return false }
            $0.queued += 1
            return true
        }
        if requeue {
            try? queue(index)
        }
    }

    // MARK: - Buffers

    struct MappedBuffer: @unchecked Sendable {
        // The address of a shared device mapping; only read by consumers and unmapped once, by `deinit`.
        var address: UnsafeMutableRawPointer
        var length: Int
    }

    private func mapBuffers() throws(V4L2Error) -> [MappedBuffer] {
        var request = v4l2_requestbuffers()
        request.count = UInt32(requestedBufferCount)
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        guard request.count > UInt32(minimumQueued), request.count <= 64 else {
            releaseBuffers()
            throw V4L2Error(operation: "VIDIOC_REQBUFS", path: device.path, code: .init(rawValue: ENOMEM))
        }
        var buffers: [MappedBuffer] = []
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            do throws(V4L2Error) {
                try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
                let length = Int(buffer.length)
                switch device.system.mmap(device.descriptor, length: length, offset: Int64(buffer.m.offset)) {
                case .success(let address):
                    buffers.append(MappedBuffer(address: address, length: length))
                case .failure(let code):
                    throw V4L2Error(operation: "mmap", path: device.path, code: code)
                }
            } catch {
                for mapped in buffers {
                    device.system.munmap(mapped.address, length: mapped.length)
                }
                releaseBuffers()
                throw error
            }
        }
        return buffers
    }

    private func releaseBuffers() {
        var request = v4l2_requestbuffers()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        _ = try? device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
    }

    func queue(_ index: Int) throws(V4L2Error) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
    }

    /// Turns streaming off (which takes every buffer back from the driver) and frees the driver's side of the buffers;
    /// the mappings stay valid for leases still out.
    func streamOff() {
        var type = CInt(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        _ = try? device.control(cv4l2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
        releaseBuffers()
    }
}

/// A claim on one lent driver buffer; releasing it (or dropping its last reference) gives the buffer back.
package final class V4L2BufferLease: Sendable {
    private let stream: V4L2Stream
    private let index: Int
    private let released = Atomic(false)

    init(stream: V4L2Stream, index: Int) {
        self.stream = stream
        self.index = index
    }

    deinit {
        release()
    }

    /// Gives the buffer back now; later calls do nothing.
    package func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stream.giveBack(index)
    }
}
