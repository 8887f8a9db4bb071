import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension FujiWiFiTransport {
    /// Keeps `sink` for the camera's events, which flow once ``openEvents()`` has opened the event connection.
    public func startEvents(_ sink: any PTPEventSink) throws(ViewfinderError) {
        channels.withLock { $0.sink = sink }
    }

    /// Opens the event connection, which the camera opens once remote capture has started (InitiateOpenCapture), and
    /// passes its events to the session from a thread of its own; does nothing when it is open already.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when the camera does not open its event port within
    ///   ``Configuration/channelOpenTimeout``, and the errors of connecting.
    public func openEvents() async throws {
        try await IOThread.run(name: "\(threadName)-open") { [self] in try openEventChannel() }
    }

    /// Opens the live view connection, on which the camera pushes JPEG frames once remote capture has started; does
    /// nothing when it is open already.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when the camera does not open its live view port within
    ///   ``Configuration/channelOpenTimeout``, and the errors of connecting.
    public func openLiveView() async throws {
        try await IOThread.run(name: "\(threadName)-open") { [self] in try openLiveViewChannel() }
    }

    /// The newest JPEG frame the camera has pushed on the live view connection: the frames that came since the last
    /// call but one are read and dropped, and when none has come, the next is awaited.
    ///
    /// Frames are read on the transport's live view thread (``liveViewExecutor``), started at the first call and
    /// kept until the transport closes.
    ///
    /// - Throws: `ViewfinderError/Code/notConnected` before ``openLiveView()``, `ViewfinderError/Code/alreadyRunning` while
    ///   another call reads, `ViewfinderError/Code/timeout` when no frame comes within
    ///   ``Configuration/responseTimeout``, `ViewfinderError/Code/malformedData` for a frame that is not a JPEG or
    ///   is longer than ``Configuration/maximumLiveViewFrameLength``.
    public func liveViewFrame() async throws -> [UInt8] {
        let thread = try liveViewThread()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
            let accepted = thread.submit { [self] in
                continuation.resume(with: Swift.Result { try nextLiveViewFrame() })
            }
            if !accepted {
                continuation.resume(throwing: ViewfinderError(.notConnected, "the connection to \(endpoint) has ended"))
            }
        }
    }

    /// The live view thread, where ``liveViewFrame()`` reads frames: a task that prefers it reads each frame on it
    /// and resumes there, so a frame wakes one thread and starts none.
    public var liveViewExecutor: (any TaskExecutor)? {
        try? liveViewThread()
    }

    /// The thread that reads live view frames, started at the first call; none once the transport was shut down.
    private func liveViewThread() throws(ViewfinderError) -> IOThread {
        try channels.withLock { (channels) throws(ViewfinderError) in
            guard !channels.isShutDown else {
                throw ViewfinderError(.notConnected, "the connection to \(endpoint) has ended")
            }
            if let thread = channels.liveViewThread { return thread }
            do {
                let thread = try IOThread(name: "\(threadName)-lv")
                channels.liveViewThread = thread
                return thread
            } catch {
                throw ViewfinderError(.io, "cannot start the thread that reads live view: \(error)")
            }
        }
    }

    /// How many live view frames were read and dropped because a newer one had come before anybody asked.
    public var droppedLiveViewFrames: Int { droppedFrames.load(ordering: .relaxed) }

    /// Opens the event connection and starts its thread; blocks.
    package func openEventChannel() throws(ViewfinderError) {
        guard !channels.withLock({ $0.eventsOpen }) else { return }
        let connection = try openChannel(port: configuration.eventPort, named: "event", limit: Self.maximumEventLength)
        let kept: (any PTPEventSink)?? = channels.withLock { channels in
            guard !channels.isShutDown, !channels.eventsOpen else { return nil }
            channels.eventsOpen = true
            channels.eventSocket = connection.socket
            return .some(channels.sink)
        }
        guard let sink = kept else {
            connection.close()
            return
        }
        do {
            try IOThread.detach(name: "\(threadName)-events") {
                Self.readEvents(from: connection, into: sink)
                connection.close()
            }
        } catch {
            connection.close()
            throw ViewfinderError(.io, "cannot start the thread that reads the camera's events: \(error)")
        }
    }

    /// Opens the live view connection; blocks.
    package func openLiveViewChannel() throws(ViewfinderError) {
        guard channels.withLock({ $0.liveView == nil }) else { return }
        let connection = try openChannel(port: configuration.liveViewPort, named: "live view", limit: 0)
        let kept = channels.withLock { channels in
            guard !channels.isShutDown, channels.liveView == nil else { return false }
            channels.liveView = connection
            return true
        }
        if !kept { connection.close() }
    }

    /// Takes `connection` as the live view connection, for harnesses that drive the transport over socket pairs.
    package func adoptLiveView(_ connection: PTPIPConnection) {
        channels.withLock { $0.liveView = connection }
    }

    /// Connects to `port`, trying again every 100 ms while the camera refuses, until
    /// ``Configuration/channelOpenTimeout`` has passed; `limit` is the longest container the channel takes whole.
    private func openChannel(port: UInt16, named name: String, limit: Int) throws(ViewfinderError) -> PTPIPConnection {
        let deadline = ContinuousClock.now + configuration.channelOpenTimeout
        while true {
            guard !channels.withLock({ $0.isShutDown }) else {
                throw ViewfinderError(.notConnected, "the connection to \(endpoint) has ended")
            }
            do {
                return try PTPIPConnection.connect(
                    to: host, port: port, connectTimeout: configuration.connectTimeout,
                    timeout: configuration.responseTimeout, maximumControlPacketLength: limit)
            } catch  where error.errno == ECONNREFUSED {
                guard ContinuousClock.now + .milliseconds(100) < deadline else {
                    throw ViewfinderError(
                        .timeout,
                        "\(HostPort.text(host, port: port)) did not open its \(name) port within "
                            + "\(configuration.channelOpenTimeout): a Fujifilm camera opens it only once remote "
                            + "capture has started")
                }
                _ = try? Poll.wait([], until: .now + .milliseconds(100))
            }
        }
    }

    /// Reads event containers until the connection closes or fails.
    private static func readEvents(from connection: PTPIPConnection, into sink: (any PTPEventSink)?) {
        while true {
            do throws(ViewfinderError) {
                do {
                    try connection.waitForData(timeout: .seconds(60), while: "waiting for events")
                } catch  where error.code == .timeout {
                    continue
                }
                let header = try readHeader(from: connection, while: "reading an event")
                guard header.kind == .event else {
                    throw ViewfinderError(.malformedData, "the camera sent a \(header.kind) container as an event")
                }
                let parameters = try readParameters(of: header, from: connection, while: "reading an event")
                sink?.receive(
                    PTPEvent(
                        code: PTPEventCode(rawValue: header.code), transactionID: header.transactionID,
                        parameters: parameters))
            } catch {
                sink?.fail(
                    ViewfinderError(error.code, "the event connection failed: \(error.message)", errno: error.errno))
                return
            }
        }
    }

    /// Reads frames until none is waiting, and returns the last; blocks.
    package func nextLiveViewFrame() throws(ViewfinderError) -> [UInt8] {
        let connection: PTPIPConnection = try channels.withLock { (channels) throws(ViewfinderError) in
            guard let connection = channels.liveView, !channels.isShutDown else {
                throw ViewfinderError(.notConnected, "live view from \(endpoint) is not open")
            }
            guard !channels.liveViewBusy else {
                throw ViewfinderError(.alreadyRunning, "another call reads live view from \(endpoint)")
            }
            channels.liveViewBusy = true
            return connection
        }
        defer { channels.withLock { $0.liveViewBusy = false } }
        var frame = try readFrame(from: connection)
        // Frames that came meanwhile are newer: read them, keep the last, and drop the rest, a bounded number at once.
        var dropped = 0
        while dropped < 64, connection.bufferedCount > 0 || Self.isReadable(connection.socket) {
            frame = try readFrame(from: connection)
            dropped += 1
        }
        droppedFrames.add(dropped, ordering: .relaxed)
        return frame
    }

    /// Whether `socket` has bytes to read at once.
    private static func isReadable(_ socket: Socket) -> Bool {
        let events = (try? Poll.wait(socket.descriptor, for: Poll.readable, until: .now)) ?? 0
        return events & Poll.readable != 0
    }

    /// Reads one frame: its 32-bit length (itself included), a 14-byte header and a JPEG, received straight into the
    /// returned array's memory.
    func readFrame(from connection: PTPIPConnection) throws(ViewfinderError) -> [UInt8] {
        func activity() -> String { "reading a live view frame from \(connection.socket.endpoint)" }
        var field: UInt32 = 0
        try withUnsafeMutableBytes(of: &field) { (raw) throws(ViewfinderError) in
            try connection.readPayload(into: raw, while: activity())
        }
        let length = Int(UInt32(littleEndian: field))
        let overhead = 4 + Self.liveViewHeaderLength
        guard length >= overhead + 4, length - overhead <= configuration.maximumLiveViewFrameLength else {
            throw ViewfinderError(
                .malformedData,
                "a live view frame of \(length) bytes from \(endpoint) is not between \(overhead + 4) and "
                    + "\(configuration.maximumLiveViewFrameLength + overhead) bytes")
        }
        try connection.skipPayload(Self.liveViewHeaderLength, while: activity())
        let count = length - overhead
        let jpeg = try typedThrows {
            try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                try connection.readPayload(into: UnsafeMutableRawBufferPointer(buffer), while: activity())
                initialized = count
            }
        }
        guard jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw ViewfinderError(.malformedData, "a live view frame from \(endpoint) does not hold a JPEG")
        }
        return jpeg
    }

    /// The header between a live view frame's length and its JPEG.
    static let liveViewHeaderLength = 14
}
