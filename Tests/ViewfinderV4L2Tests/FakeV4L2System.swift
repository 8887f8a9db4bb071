import CV4L2
import ViewfinderCore
import ViewfinderSystem

@testable import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// An in-memory V4L2 driver behind the system-call protocol: enough of QUERYCAP, format enumeration, controls and
/// mmap streaming to drive the device code, with frames produced on request and faults injected on request.
final class FakeV4L2System: V4L2System {
    /// A node's configuration.
    struct Node {
        var card = "Fake Camera"
        var driver = "fakecam"
        var bus = "usb-0000:00:14.0-1"
        var capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
        var formats: [(FourCharacterCode, V4L2FrameSizes, [V4L2Fraction])] = [
            (
                .v4l2YUYV, .discrete([.init(width: 640, height: 480), .init(width: 1280, height: 720)]),
                [.fps(30), .fps(15)]
            ),
            (.v4l2NV12, .discrete([.init(width: 640, height: 480)]), [.fps(30)]),
        ]
        var controls: [V4L2ControlInfo] = []
        /// Automatic switches and the controls they make inactive while on, as a driver's auto clusters do.
        var automaticSwitches: [UInt32: [UInt32]] = [:]
        var openError: CInt = 0
    }

    struct Buffer: @unchecked Sendable {
        // Memory owned by the fake, freed in its deinit.
        var memory: UnsafeMutableRawPointer
        var length: Int
        var queued = false
    }

    struct Stream {
        var format = V4L2PixelFormat(
            size: .init(width: 640, height: 480), pixelFormat: .v4l2YUYV, bytesPerLine: 1280,
            sizeImage: 614_400)
        var interval = V4L2Fraction.fps(30)
        var buffers: [Buffer] = []
        /// Filled buffers waiting to be dequeued: index, sequence number, bytes used.
        var done: [(Int, UInt32, UInt32?)] = []
        var streaming = false
        var sequence: UInt32 = 0
        var values: [UInt32: Int32] = [:]
        var disconnected = false
        var fatalError = false
        var streamOnError = false
    }

    private struct State {
        var nodes: [String: Node] = [:]
        var streams: [String: Stream] = [:]
        var descriptors: [CInt: String] = [:]
        /// The controls each descriptor subscribed to, and the control events waiting on it.
        var subscriptions: [CInt: Set<UInt32>] = [:]
        var events: [CInt: [UInt32]] = [:]
        var nextDescriptor: CInt = 1000
        var freed: [Buffer] = []
        var calls: [String] = []
    }

    private let state = Locked(State())
    let directory: String

    init(directory: String = "/fake", nodes: [String: Node]) {
        self.directory = directory
        state.withLock {
            for (name, node) in nodes {
                $0.nodes[directory + "/" + name] = node
                $0.streams[directory + "/" + name] = Stream()
            }
        }
    }

    deinit {
        state.withLock { state in
            for buffer in state.streams.values.flatMap(\.buffers) + state.freed { buffer.memory.deallocate() }
        }
    }

    // MARK: Test controls

    /// The names of the ioctls made so far, such as `QBUF`.
    var calls: [String] { state.withLock { $0.calls } }
    /// How many descriptors are open.
    var openDescriptors: Int { state.withLock { $0.descriptors.count } }

    /// Fills up to `count` queued buffers of a node, as the driver does when frames arrive; returns how many.
    ///
    /// Every byte is 0x80 (mid-grey in YUYV and NV12) except the first, which is the frame's sequence number.
    @discardableResult
    func produce(_ count: Int = 1, at name: String, skippingSequence skipped: UInt32 = 0) -> Int {
        state.withLock { state in
            let path = directory + "/" + name
            guard var stream = state.streams[path], stream.streaming else { return 0 }
            var produced = 0
            stream.sequence += skipped
            for index in stream.buffers.indices where stream.buffers[index].queued && produced < count {
                stream.buffers[index].queued = false
                let memory = stream.buffers[index].memory
                memory.initializeMemory(as: UInt8.self, repeating: 0x80, count: stream.buffers[index].length)
                memory.storeBytes(of: UInt8(truncatingIfNeeded: stream.sequence), as: UInt8.self)
                stream.done.append((index, stream.sequence, nil))
                stream.sequence += 1
                produced += 1
            }
            state.streams[path] = stream
            return produced
        }
    }

    /// Fills one queued buffer of a node with each payload in turn, as a compressed stream's driver does, and
    /// reports as used only the payload's bytes; returns how many it filled.
    @discardableResult
    func produce(_ payloads: [[UInt8]], at name: String) -> Int {
        state.withLock { state in
            let path = directory + "/" + name
            guard var stream = state.streams[path], stream.streaming else { return 0 }
            var produced = 0
            for index in stream.buffers.indices where stream.buffers[index].queued && produced < payloads.count {
                let payload = payloads[produced]
                guard payload.count <= stream.buffers[index].length else { break }
                stream.buffers[index].queued = false
                stream.buffers[index].memory.copyMemory(from: payload, byteCount: payload.count)
                stream.done.append((index, stream.sequence, UInt32(payload.count)))
                stream.sequence += 1
                produced += 1
            }
            state.streams[path] = stream
            return produced
        }
    }

    /// How many buffers of a node the driver holds (queued, not yet filled).
    func queuedCount(at name: String) -> Int {
        state.withLock { $0.streams[directory + "/" + name]?.buffers.filter(\.queued).count ?? 0 }
    }

    /// Makes a node act unplugged (`ENODEV` everywhere) or plugged back in, with streaming off.
    func setDisconnected(_ disconnected: Bool, at name: String) {
        state.withLock { state in
            let path = directory + "/" + name
            state.streams[path]?.disconnected = disconnected
            if !disconnected { state.streams[path]?.streaming = false }
        }
    }

    /// Makes a streaming node fail with `EIO`, as a driver does after a fatal error.
    func injectFatalError(at name: String) {
        state.withLock { $0.streams[directory + "/" + name]?.fatalError = true }
    }

    /// Makes the next `VIDIOC_STREAMON` on a node fail with `EINVAL`.
    func injectStreamOnError(at name: String) {
        state.withLock { $0.streams[directory + "/" + name]?.streamOnError = true }
    }

    /// Changes a control as another program would, telling every descriptor that subscribed to it, or as a driver
    /// changes a volatile control, telling nobody.
    func changeControl(_ id: UInt32, to value: Int32, at name: String, announcing: Bool = true) {
        state.withLock { state in
            let path = directory + "/" + name
            state.streams[path]?.values[id] = value
            if announcing { Self.announce([id], at: path, in: &state) }
        }
    }

    /// How many control events wait on all descriptors.
    var waitingEvents: Int { state.withLock { $0.events.values.map(\.count).reduce(0, +) } }

    /// Adds a node, as a driver does when a device is plugged in.
    func add(_ name: String, _ node: Node = Node()) {
        state.withLock {
            $0.nodes[directory + "/" + name] = node
            $0.streams[directory + "/" + name] = Stream()
        }
    }

    /// Changes a node's configuration.
    func update(_ name: String, _ change: (inout Node) -> Void) {
        state.withLock { change(&$0.nodes[directory + "/" + name]!) }
    }

    // MARK: V4L2System

    func open(_ path: String, flags: CInt) -> CInt {
        state.withLock { state in
            guard let node = state.nodes[path] else { return -ENOENT }
            if node.openError != 0 { return -node.openError }
            if state.streams[path]!.disconnected { return -ENODEV }
            let descriptor = state.nextDescriptor
            state.nextDescriptor += 1
            state.descriptors[descriptor] = path
            return descriptor
        }
    }

    func close(_ descriptor: CInt) {
        state.withLock {
            _ = $0.descriptors.removeValue(forKey: descriptor)
            $0.subscriptions[descriptor] = nil
            $0.events[descriptor] = nil
        }
    }

    func mmap(_ descriptor: CInt, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, Errno> {
        state.withLock { state in
            guard let path = state.descriptors[descriptor], let stream = state.streams[path] else {
                return .failure(.init(rawValue: EBADF))
            }
            let index = Int(offset / 4096)
            guard index < stream.buffers.count, stream.buffers[index].length == length else {
                return .failure(.invalidArgument)
            }
            return .success(stream.buffers[index].memory)
        }
    }

    func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        state.withLock { $0.calls.append("munmap") }
    }

    func contentsOfDirectory(_ path: String) -> [String] {
        state.withLock { state in
            state.nodes.keys.filter { $0.hasPrefix(path + "/") }.map { String($0.dropFirst(path.count + 1)) }
        }
    }

    func poll(_ descriptors: inout [pollfd], timeout milliseconds: CInt) -> CInt {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds < 0 ? 60_000 : Int(milliseconds))
        while true {
            var ready: CInt = 0
            for index in descriptors.indices {
                descriptors[index].revents = revents(for: descriptors[index])
                if descriptors[index].revents != 0 { ready += 1 }
            }
            if ready > 0 || ContinuousClock.now >= deadline { return ready }
            usleep(2000)
        }
    }

    /// What poll(2) reports for a descriptor: the events it asked for, plus errors and hang-ups, as the kernel's
    /// video nodes do (a node reports a streaming error only to a poll for frames).
    private func revents(for descriptor: pollfd) -> Int16 {
        let found = state.withLock { state in
            state.descriptors[descriptor.fd].map { (state.streams[$0], !(state.events[descriptor.fd] ?? []).isEmpty) }
        }
        guard let (stream, hasEvents) = found else {
            var copy = [pollfd(fd: descriptor.fd, events: descriptor.events, revents: 0)]
            return Glibc.poll(&copy, 1, 0) > 0 ? copy[0].revents : 0
        }
        guard let stream else { return Int16(POLLNVAL) }
        if stream.disconnected { return Int16(POLLERR | POLLHUP) }
        var events: Int16 = hasEvents ? Int16(POLLPRI) : 0
        if descriptor.events & Int16(POLLIN) != 0 {
            if stream.fatalError { return Int16(POLLERR) }
            if !stream.done.isEmpty { events |= Int16(POLLIN) }
        }
        return events & (descriptor.events | Int16(POLLERR | POLLHUP | POLLNVAL))
    }

    func ioctl(_ descriptor: CInt, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> CInt {
        state.withLock { state in
            guard let path = state.descriptors[descriptor], let node = state.nodes[path] else { return -EBADF }
            var stream = state.streams[path]!
            defer { state.streams[path] = stream }
            if stream.disconnected { return -ENODEV }
            if let result = Self.handleEvents(request, argument, descriptor: descriptor, state: &state) {
                return result
            }
            let (name, result) = Self.handle(request, argument, node: node, stream: &stream, freed: &state.freed)
            state.calls.append(name)
            if name == "S_CTRL" && result == 0 {
                // The control changed, and so did the flags of the controls its automatic switch governs.
                let id = argument.load(as: v4l2_control.self).id
                Self.announce([id] + (node.automaticSwitches[id] ?? []), at: path, in: &state)
            }
            return result
        }
    }

    /// Subscribes to control events and dequeues them; `nil` for other requests.
    private static func handleEvents(
        _ request: UInt, _ argument: UnsafeMutableRawPointer, descriptor: CInt, state: inout State
    ) -> CInt? {
        switch request {
        case cv4l2_VIDIOC_SUBSCRIBE_EVENT:
            let subscription = argument.load(as: v4l2_event_subscription.self)
            guard subscription.type == UInt32(V4L2_EVENT_CTRL) else { return -EINVAL }
            state.subscriptions[descriptor, default: []].insert(subscription.id)
            state.calls.append("SUBSCRIBE_EVENT")
            return 0
        case cv4l2_VIDIOC_DQEVENT:
            guard let id = state.events[descriptor]?.first else { return -ENOENT }
            state.events[descriptor]?.removeFirst()
            var event = v4l2_event()
            event.type = UInt32(V4L2_EVENT_CTRL)
            event.id = id
            argument.storeBytes(of: event, as: v4l2_event.self)
            return 0
        default:
            return nil
        }
    }

    /// Queues a control event for each descriptor of a node that subscribed to one of `ids`.
    private static func announce(_ ids: [UInt32], at path: String, in state: inout State) {
        for (descriptor, subscribed) in state.subscriptions where state.descriptors[descriptor] == path {
            state.events[descriptor, default: []] += ids.filter(subscribed.contains)
        }
    }
}
