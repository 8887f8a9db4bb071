import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The least a PTP/IP client can do for a transaction: the request's bytes, made once, sent on a connected socket,
/// and the answer read packet by packet with one copy of the payload, without any session machinery.
///
/// Its CPU per transaction is the floor the benchmark holds Viewfinder's session to.
final class FloorClient {
    private var command: Socket
    private var events: Socket?
    private var transactionID: UInt32 = 0
    /// Bytes read from the socket and not yet parsed.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    private var start = 0
    private var end = 0
    /// Where data-in payloads are copied to.
    private(set) var payload = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 << 20, alignment: 16)
    private(set) var payloadLength = 0
    /// The request packet, filled in place for each transaction.
    private let request = UnsafeMutableRawBufferPointer.allocate(byteCount: 40, alignment: 16)

    /// Connects, performs the handshake and opens a session.
    ///
    /// A camera still closing the previous client's session answers busy (InitFail): the client asks again for a
    /// few seconds.
    init(port: UInt16) throws {
        command = try Self.requestCommandConnection(port: port)
        var (type, ack) = try readPacket()
        var attempts = 0
        while type == 5 {
            attempts += 1
            guard attempts < 100 else { throw BenchmarkError("the camera stayed busy") }
            command.close()
            (start, end) = (0, 0)
            usleep(50_000)
            command = try Self.requestCommandConnection(port: port)
            (type, ack) = try readPacket()
        }
        guard type == 2, ack.count >= 4 else { throw BenchmarkError("no InitCommandAck (type \(type))") }
        let number = ack.load(as: UInt32.self)
        let events = try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5))
        self.events = events
        try events.send(
            PTPIPPacket.initEventRequest(connectionNumber: number).encoded(), timeout: .seconds(5),
            while: "handshake")
        var eventAck = [UInt8](repeating: 0, count: 8)
        var received = 0
        while received < 8 {
            received += try eventAck.withUnsafeMutableBytes {
                try events.receive(
                    into: UnsafeMutableRawBufferPointer(rebasing: $0[received...]), timeout: .seconds(5),
                    while: "handshake")
            }
        }
        guard try transact(.openSession, [1]) == 0x2001 else { throw BenchmarkError("OpenSession failed") }
    }

    deinit {
        command.close()
        events?.close()
        buffer.deallocate()
        payload.deallocate()
        request.deallocate()
    }

    /// A command connection with its InitCommandRequest sent.
    private static func requestCommandConnection(port: UInt16) throws -> Socket {
        let command = try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5))
        command.setNoDelay()
        try command.send(
            PTPIPPacket.initCommandRequest(guid: .random(), name: "floor", version: 0x0001_0000).encoded(),
            timeout: .seconds(5), while: "handshake")
        return command
    }

    /// Runs one transaction without a data-out phase; a data-in phase is copied to ``payload``.
    ///
    /// - Returns: The response code.
    @discardableResult
    func transact(_ operation: PTPOperationCode, _ parameters: [UInt32] = []) throws -> UInt16 {
        transactionID &+= 1
        let length = 18 + 4 * parameters.count
        request.storeBytes(of: UInt32(length).littleEndian, toByteOffset: 0, as: UInt32.self)
        request.storeBytes(of: UInt32(6).littleEndian, toByteOffset: 4, as: UInt32.self)
        request.storeBytes(of: UInt32(1).littleEndian, toByteOffset: 8, as: UInt32.self)
        request.storeBytes(of: operation.rawValue.littleEndian, toByteOffset: 12, as: UInt16.self)
        request.storeBytes(of: transactionID.littleEndian, toByteOffset: 14, as: UInt32.self)
        for (index, parameter) in parameters.enumerated() {
            request.storeBytes(of: parameter.littleEndian, toByteOffset: 18 + 4 * index, as: UInt32.self)
        }
        try command.send(
            [UnsafeRawBufferPointer(rebasing: request[..<length])], timeout: .seconds(5), while: "request")
        payloadLength = 0
        while true {
            let (type, body) = try readPacket()
            switch type {
            case 9:  // StartData: transaction ID, total length
                continue
            case 10, 12:  // Data, EndData: transaction ID, then the payload
                let piece = UnsafeRawBufferPointer(rebasing: body[4...])
                UnsafeMutableRawBufferPointer(rebasing: payload[payloadLength..<payloadLength + piece.count])
                    .copyMemory(from: piece)
                payloadLength += piece.count
            case 7:  // OperationResponse: the code first
                return body.loadUnaligned(as: UInt16.self)
            default:
                throw BenchmarkError("unexpected packet type \(type)")
            }
        }
    }

    /// The next packet on the command connection: its type and its body, valid until the next read.
    private func readPacket() throws -> (UInt32, UnsafeRawBufferPointer) {
        try fill(8)
        let length = Int(buffer.loadUnaligned(fromByteOffset: start, as: UInt32.self))
        let type = buffer.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self)
        guard length >= 8, length <= buffer.count else { throw BenchmarkError("packet of \(length) bytes") }
        try fill(length)
        let body = UnsafeRawBufferPointer(rebasing: buffer[(start + 8)..<(start + length)])
        start += length
        return (type, body)
    }

    /// Reads until at least `count` bytes are buffered, moving what is left to the front first when needed.
    private func fill(_ count: Int) throws {
        if end - start >= count { return }
        if start == end { (start, end) = (0, 0) }
        if start + count > buffer.count {
            let pending = end - start
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
            (start, end) = (0, pending)
        }
        while end - start < count {
            end += try command.receive(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]), timeout: .seconds(5), while: "reading")
        }
    }
}
