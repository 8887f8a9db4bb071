import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// One PTP/IP TCP connection: reads packets through a small buffer, streams data payloads straight into their
/// destination, and writes packets, with a timeout on every wait.
///
/// Used by one thread at a time; it moves between threads only through a hand-over that orders memory (a thread
/// start or a job queue), hence `@unchecked Sendable`.
package final class PTPIPConnection: @unchecked Sendable {
    /// What ``readNext(while:)`` found.
    package enum Incoming: Equatable {
        /// A whole packet other than Data and EndData.
        case packet(PTPIPPacket)
        /// The header of a Data or EndData packet; its payload must be consumed next with ``readPayload(into:while:)``
        /// or ``skipPayload(_:while:)``.
        case data(isLast: Bool, transactionID: UInt32, payloadLength: Int)
    }

    /// The socket; the connection closes it in ``close()``.
    package let socket: Socket
    /// The longest wait for the peer before an operation fails with `ViewfinderError/Code/timeout`.
    package var timeout: Duration
    /// When set, reads fail with `ViewfinderError/Code/timeout` once this instant has passed, however steadily the
    /// peer trickles bytes: a bound on a whole exchange, such as a handshake, on top of ``timeout``.
    package var readDeadline: ContinuousClock.Instant?
    /// Whether to acknowledge received data at once before each wait, for peers that keep Nagle's algorithm on.
    package var acknowledgesQuickly = false
    /// The longest packet other than Data or EndData this connection accepts.
    package let maximumControlPacketLength: Int
    /// The bound ``limitTimeout(to:)`` set, which ``useTimeout(_:)`` keeps.
    private var timeoutLimit: Duration?

    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0

    /// Wraps a connected socket.
    ///
    /// - Parameters:
    ///   - socket: The socket.
    ///   - timeout: The longest wait for the peer.
    ///   - maximumControlPacketLength: The longest packet other than Data or EndData to accept.
    ///   - bufferCapacity: The size of the read buffer.
    package init(
        socket: Socket, timeout: Duration, maximumControlPacketLength: Int = 1 << 20, bufferCapacity: Int = 1 << 16
    ) {
        self.socket = socket
        self.timeout = timeout
        self.maximumControlPacketLength = maximumControlPacketLength
        buffer = .allocate(byteCount: max(bufferCapacity, 64), alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Connects to `host` on `port`, within `connectTimeout`, with Nagle's algorithm off.
    ///
    /// - Parameters:
    ///   - timeout: The longest wait for the peer once connected.
    ///   - maximumControlPacketLength: The longest packet other than Data or EndData to accept.
    package static func connect(
        to host: String, port: UInt16, connectTimeout: Duration, timeout: Duration, maximumControlPacketLength: Int
    ) throws(ViewfinderError) -> PTPIPConnection {
        let socket = try io { () throws(SocketError) in
            try Socket.connect(host: host, port: port, timeout: connectTimeout)
        }
        socket.setNoDelay()
        return PTPIPConnection(socket: socket, timeout: timeout, maximumControlPacketLength: maximumControlPacketLength)
    }

    /// Shortens ``timeout`` to at most `limit`, now and for every later ``useTimeout(_:)``, as a session that closes
    /// asks.
    package func limitTimeout(to limit: Duration) {
        timeoutLimit = min(timeoutLimit ?? limit, limit)
        timeout = min(timeout, limit)
    }

    /// Sets ``timeout`` to `wanted`, within the bound ``limitTimeout(to:)`` set.
    package func useTimeout(_ wanted: Duration) {
        timeout = timeoutLimit.map { min($0, wanted) } ?? wanted
    }

    /// Closes the socket.
    package func close() {
        socket.close()
    }

    /// Waits until the peer sends something, or `timeout` passes; returns at once when bytes are buffered.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when nothing arrives in time.
    package func waitForData(timeout: Duration, while activity: @autoclosure () -> String) throws(ViewfinderError) {
        guard bufferedCount == 0 else { return }
        try io { () throws(SocketError) in try socket.wait(for: Poll.readable, timeout: timeout, while: activity()) }
    }

    /// The number of received bytes not consumed yet.
    package var bufferedCount: Int { end - start }

    /// Whether a control packet's payload was being read when a read failed: the stream is then out of step.
    package private(set) var isMidPayload = false

    /// Makes sure `count` bytes (at most the buffer's capacity) are buffered.
    private func fill(_ count: Int, while activity: @autoclosure () -> String) throws(ViewfinderError) {
        while end - start < count {
            if start > 0, buffer.count - start < count || end == buffer.count {
                let pending = end - start
                if pending > 0 {
                    buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
                }
                start = 0
                end = pending
            }
            let free = UnsafeMutableRawBufferPointer(rebasing: buffer[end...])
            end += try receive(into: free, while: activity())
        }
    }

    /// Receives at least one byte, within ``timeout`` and before ``readDeadline``.
    private func receive(into free: UnsafeMutableRawBufferPointer, while activity: @autoclosure () -> String)
        throws(ViewfinderError)
        -> Int
    {
        guard let readDeadline else {
            return try io { () throws(SocketError) in
                try socket.receive(into: free, timeout: timeout, quickAck: acknowledgesQuickly, while: activity())
            }
        }
        let left = ContinuousClock.now.duration(to: readDeadline)
        do throws(ViewfinderError) {
            guard left > .zero else { throw ViewfinderError(.timeout, "the deadline has passed") }
            return try io { () throws(SocketError) in
                try socket.receive(
                    into: free, timeout: min(timeout, left), quickAck: acknowledgesQuickly, while: activity())
            }
        } catch  where error.code == .timeout && ContinuousClock.now >= readDeadline {
            throw ViewfinderError(
                .timeout, "\(socket.endpoint) did not finish sending in time while \(activity()); it sends too slowly")
        }
    }

    private func loadUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: start + offset, as: UInt32.self))
    }

    /// Reads the next packet, or the header of the next Data or EndData packet.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a length shorter than the header or a packet longer than
    ///   ``maximumControlPacketLength`` (checked before anything is allocated), and the socket's errors.
    package func readNext(while activity: @autoclosure () -> String) throws(ViewfinderError) -> Incoming {
        try fill(PTPIPPacket.headerLength, while: activity())
        let length = Int(loadUInt32(at: 0))
        let type = PTPIPPacketType(rawValue: loadUInt32(at: 4))
        guard length >= PTPIPPacket.headerLength else {
            throw ViewfinderError(
                .malformedData, "a PTP/IP packet from \(socket.endpoint) claims \(length) bytes, less than its header")
        }
        if type == .data || type == .endData {
            guard length >= PTPIPPacket.headerLength + 4 else {
                throw ViewfinderError(
                    .malformedData, "a PTP/IP \(type) packet of \(length) bytes has no transaction ID")
            }
            try fill(PTPIPPacket.headerLength + 4, while: activity())
            let transactionID = loadUInt32(at: 8)
            start += PTPIPPacket.headerLength + 4
            return .data(isLast: type == .endData, transactionID: transactionID, payloadLength: length - 12)
        }
        let payloadLength = length - PTPIPPacket.headerLength
        guard payloadLength <= maximumControlPacketLength else {
            throw ViewfinderError(
                .malformedData,
                "a PTP/IP \(type) packet of \(length) bytes from \(socket.endpoint) is longer than the "
                    + "\(maximumControlPacketLength) bytes allowed")
        }
        var payload: [UInt8]
        if length <= buffer.count {
            try fill(length, while: activity())
            payload = Array(UnsafeRawBufferPointer(rebasing: buffer[(start + 8)..<(start + length)]))
            start += length
        } else {
            start += PTPIPPacket.headerLength
            payload = [UInt8](repeating: 0, count: payloadLength)
            isMidPayload = true
            try typedThrows {
                try payload.withUnsafeMutableBytes { try readPayload(into: $0, while: activity()) }
            }
            isMidPayload = false
        }
        return .packet(try PTPIPPacket.decode(type: type, payload: payload))
    }

    /// Reads the next packet, which must not be Data or EndData.
    package func readPacket(while activity: @autoclosure () -> String) throws(ViewfinderError) -> PTPIPPacket {
        switch try readNext(while: activity()) {
        case .packet(let packet):
            return packet
        case .data(let isLast, _, _):
            throw ViewfinderError(
                .malformedData,
                "unexpected \(isLast ? "EndData" : "Data") packet from \(socket.endpoint) while \(activity())")
        }
    }

    /// Fills `destination` with the next payload bytes, taking buffered bytes first and receiving the rest directly.
    package func readPayload(into destination: UnsafeMutableRawBufferPointer, while activity: @autoclosure () -> String)
        throws(ViewfinderError)
    {
        var filled = min(end - start, destination.count)
        if filled > 0 {
            destination.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: filled)
            start += filled
        }
        while filled < destination.count {
            let missing = destination.count - filled
            if missing < buffer.count / 2 {
                // A short tail: receive it through the buffer, so what follows often arrives in the same call.
                start = 0
                end = 0
                try fill(missing, while: activity())
                destination.baseAddress!.advanced(by: filled).copyMemory(from: buffer.baseAddress!, byteCount: missing)
                start = missing
                return
            }
            let rest = UnsafeMutableRawBufferPointer(rebasing: destination[filled...])
            filled += try receive(into: rest, while: activity())
        }
    }

    /// Reads and drops `count` payload bytes.
    package func skipPayload(_ count: Int, while activity: @autoclosure () -> String) throws(ViewfinderError) {
        var left = count
        while left > 0 {
            if end == start {
                start = 0
                end = 0
            }
            try fill(1, while: activity())
            let taken = min(left, end - start)
            start += taken
            left -= taken
        }
    }

    /// Says the end of the stream to the peer and waits, at most `timeout`, until the peer closes its side too, dropping
    /// whatever it still sends; a graceful close, after which the peer has let go of the connection.
    package func finish(timeout: Duration) {
        socket.shutdownSending()
        start = 0
        end = 0
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let wait = ContinuousClock.now.duration(to: deadline)
            guard (try? socket.receive(into: buffer, timeout: wait, while: "closing")) != nil else { return }
        }
    }

    /// Sends a packet.
    ///
    /// - Parameter more: Whether another packet follows at once: the system may then hold back a part-filled
    ///   segment until it comes, so the peer gets both at one wake-up. The last packet of a burst must not say so.
    package func send(_ packet: PTPIPPacket, more: Bool = false, while activity: @autoclosure () -> String)
        throws(ViewfinderError)
    {
        let bytes = try packet.encoded()
        try io { () throws(SocketError) in try socket.send(bytes, timeout: timeout, more: more, while: activity()) }
    }

    /// Sends `payload` as one Data packet, or as the EndData packet when `isLast`, without copying it.
    ///
    /// - Parameter more: Whether another packet follows at once, as for ``send(_:more:while:)``.
    package func sendData(
        transactionID: UInt32, _ payload: UnsafeRawBufferPointer, isLast: Bool, more: Bool = false,
        while activity: @autoclosure () -> String
    ) throws(ViewfinderError) {
        guard let length = UInt32(exactly: payload.count + 12) else {
            throw ViewfinderError(.invalidArgument, "a PTP/IP data packet carries less than 4 GiB")
        }
        let type: PTPIPPacketType = isLast ? .endData : .data
        let header: (UInt32, UInt32, UInt32) = (
            length.littleEndian, type.rawValue.littleEndian, transactionID.littleEndian
        )
        try withUnsafeBytes(of: header) { (raw) throws(ViewfinderError) in
            try io { () throws(SocketError) in
                try socket.send([raw, payload], timeout: timeout, more: more, while: activity())
            }
        }
    }
}

/// Runs a socket operation, turning its failure into the `ViewfinderError` it stands for.
package func io<Result>(_ body: () throws(SocketError) -> Result) throws(ViewfinderError) -> Result {
    do {
        return try body()
    } catch {
        throw ViewfinderError(error)
    }
}
