import CV4L2
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension V4L2Stream {
    /// The capture loop: waits for filled buffers or a wake-up, and ends the stream on a device failure.
    func run(wakeDescriptor: CInt, handler: @Sendable (V4L2StreamEvent) -> Void) {
        let errorEvents = Int16(POLLERR | POLLHUP | POLLNVAL)
        while true {
            var descriptors = [
                pollfd(fd: device.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let result = device.system.poll(&descriptors, timeout: -1)
            if result < 0 {
                return finish(V4L2Error(operation: "poll", path: device.path, code: .init(rawValue: -result)), handler)
            }
            if descriptors[1].revents != 0 { return }
            let events = descriptors[0].revents
            guard events != 0 else { continue }
            switch dequeueAll(handler) {
            case .failed(let error):
                return finish(error, handler)
            case .drained(let count) where count == 0 && events & errorEvents != 0:
                // The driver flagged an error but has no buffer to explain it: treat a hang-up as an unplug.
                let code: Errno = events & Int16(POLLHUP) != 0 ? .noDevice : .ioError
                return finish(V4L2Error(operation: "poll", path: device.path, code: code), handler)
            case .drained:
                continue
            }
        }
    }

    private enum DequeueOutcome {
        case drained(Int)
        case failed(V4L2Error)
    }

    /// Dequeues every filled buffer, handing each to `handler` or straight back to the driver.
    private func dequeueAll(_ handler: @Sendable (V4L2StreamEvent) -> Void) -> DequeueOutcome {
        var count = 0
        while true {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            let result = withUnsafeMutableBytes(of: &buffer) {
                device.system.ioctl(device.descriptor, cv4l2_VIDIOC_DQBUF, $0.baseAddress!)
            }
            if result < 0 {
                let code = Errno(rawValue: -result)
                if code == .wouldBlock { return .drained(count) }
                return .failed(V4L2Error(operation: "VIDIOC_DQBUF", path: device.path, code: code))
            }
            count += 1
            if let captured = accept(buffer) {
                handler(.buffer(captured))
            }
        }
    }

    /// Accounts for a dequeued buffer and decides whether the consumer gets it or the driver gets it back.
    private func accept(_ buffer: v4l2_buffer) -> V4L2CapturedBuffer? {
        let index = Int(buffer.index)
        enum Decision {
            case deliver(MappedBuffer, V4L2PixelFormat)
            case requeue
            case ignore
        }
        let decision: Decision = state.withLock { state in
            guard index < state.buffers.count, let format = state.format else { return .ignore }
            state.queued -= 1
            if let last = state.lastSequence, buffer.sequence > last &+ 1 {
                state.statistics.droppedByDriver += Int(buffer.sequence &- last &- 1)
            }
            state.lastSequence = buffer.sequence
            let isCorrupted = buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0
            guard case .streaming = state.phase, !isCorrupted, state.queued >= minimumQueued else {
                if isCorrupted {
                    state.statistics.corrupted += 1
                } else {
                    state.statistics.droppedForBackpressure += 1
                }
                guard case .streaming = state.phase else { return .ignore }
                state.queued += 1
                return .requeue
            }
            state.lent += 1
            state.statistics.delivered += 1
            return .deliver(state.buffers[index], format)
        }
        switch decision {
        case .ignore:
            return nil
        case .requeue:
            try? queue(index)
            return nil
        case .deliver(let mapped, let format):
            let seconds = UInt64(max(buffer.timestamp.tv_sec, 0))
            let microseconds = UInt64(max(buffer.timestamp.tv_usec, 0))
            return V4L2CapturedBuffer(
                base: mapped.address,
                bytesUsed: min(Int(buffer.bytesused), mapped.length),
                sequence: buffer.sequence,
                // Wrapping: a driver's wild timestamp makes a wrong time, never a trap.
                timestampNanoseconds: seconds &* 1_000_000_000 &+ microseconds &* 1_000,
                format: format,
                lease: V4L2BufferLease(stream: self, index: index)
            )
        }
    }

    /// Ends a stream that failed by itself, unless a stop got there first, then reports the failure.
    private func finish(_ error: V4L2Error, _ handler: @Sendable (V4L2StreamEvent) -> Void) {
        if end() {
            handler(.failed(error))
        }
    }
}
