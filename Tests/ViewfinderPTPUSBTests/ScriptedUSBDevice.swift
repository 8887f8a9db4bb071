import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

@testable import ViewfinderPTPUSB

#if canImport(Glibc)
import Glibc
#endif

/// A USB camera scripted for the transport's tests, in place of usbdevfs: what it writes to its bulk-in and interrupt
/// pipes, cut into packets as USB does, how it answers the class's requests, and a record of what the host did.
///
/// A bulk-in transfer takes whole packets until a short one (a zero-length packet too) or until its buffer is full,
/// as a URB does; a packet larger than the room left fails as an overflow. A pipe with nothing to send times the
/// transfer out at once, without waiting for the deadline. A stall halts the endpoint until the host clears it.
/// Reactions (``onCommand``, ``onClassRequest``) run outside the lock, so they may script more.
final class ScriptedUSBDevice: USBDeviceIO {
    let path = "/dev/bus/usb/001/009"
    let pipes: USBCameraDevice.Pipes
    private let state = Locked(State())

    /// Runs when the host sends a command container: its code, transaction ID and parameters.
    let onCommand = Locked<(@Sendable (Command) -> Void)?>(nil)
    /// Runs after a class request (0x64 Cancel, 0x66 Device Reset, 0x67 Get Device Status).
    let onClassRequest = Locked<(@Sendable (UInt8) -> Void)?>(nil)

    /// A command container the host sent.
    struct Command: Hashable, Sendable {
        var code: UInt16
        var transactionID: UInt32
        var parameters: [UInt32]
    }

    /// What the host did, in order.
    enum Step: Hashable, Sendable {
        case status
        case cancel(transactionID: UInt32)
        case reset
        case clearHalt(UInt8)
    }

    /// How the camera answers Get Device Status.
    enum StatusAnswer: Hashable, Sendable {
        case status(PTPResponseCode, halted: [UInt8] = [])
        /// It stalls the request, as a camera without it does.
        case refused
    }

    private struct State {
        var bulkIn: [Chunk] = []
        var interruptIn: [[UInt8]] = []
        var halted: Set<UInt8> = []
        var stallOut = 0
        var statuses: [StatusAnswer] = []
        var defaultStatus = StatusAnswer.status(.ok)
        var refusesCancel = false
        var steps: [Step] = []
        var sent: [[UInt8]] = []
        var bytesRead = 0
        var events: EventPipe?
        var closed = false
    }

    /// The transport's event reading: its buffer, which ``sendEvent(_:)`` fills on the test's thread before it calls
    /// the handler, as the kernel fills a URB's before the reaping thread does.
    private struct EventPipe: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer
        let handler: @Sendable (Result<Int, ViewfinderError>) -> Bool
    }

    /// What the camera has queued on its bulk-in pipe.
    private enum Chunk {
        /// One write: its bytes, how many went out, and whether a zero-length packet ends it when it fills its last
        /// packet.
        case write(Content, sent: Int, zeroPacket: Bool)
        case stall
    }

    /// A write's bytes: given, or `header` then a counting pattern (payload byte i is i modulo 256) up to `count`
    /// bytes in all, made as they are read.
    enum Content {
        static let period = (0..<256).map { UInt8($0) }

        case bytes([UInt8])
        case pattern(header: [UInt8], count: Int)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .pattern(_, let count): count
            }
        }

        func copy(_ range: Range<Int>, to destination: UnsafeMutableRawPointer) {
            switch self {
            case .bytes(let bytes):
                bytes.withUnsafeBytes {
                    destination.copyMemory(from: $0.baseAddress! + range.lowerBound, byteCount: range.count)
                }
            case .pattern(let header, _):
                var index = range.lowerBound
                while index < range.upperBound, index < header.count {
                    destination.storeBytes(of: header[index], toByteOffset: index - range.lowerBound, as: UInt8.self)
                    index += 1
                }
                Self.period.withUnsafeBytes { period in
                    while index < range.upperBound {
                        let phase = (index - header.count) % 256
                        let count = min(256 - phase, range.upperBound - index)
                        (destination + index - range.lowerBound).copyMemory(
                            from: period.baseAddress! + phase, byteCount: count)
                        index += count
                    }
                }
            }
        }
    }

    init(bulkPacketSize: UInt16 = 512, interruptPacketSize: UInt16 = 16) {
        pipes = USBCameraDevice.Pipes(
            interface: 0, bulkIn: 0x81, bulkOut: 0x02, interrupt: 0x83, bulkInPacketSize: bulkPacketSize,
            bulkOutPacketSize: bulkPacketSize, interruptPacketSize: interruptPacketSize)
    }

    /// The camera as `USBCameraDevice` describes it.
    var device: USBCameraDevice {
        USBCameraDevice(
            bus: 1, address: 9, vendorID: 0x04B0, productID: 0x0437, manufacturer: "Nikon", product: "DSC Test",
            serialNumber: nil, path: path, sysfsName: "1-1", pipes: pipes)
    }

    /// Opens a transport over this camera.
    func openTransport(timeout: Duration = .seconds(10)) throws(ViewfinderError) -> PTPUSBTransport {
        try PTPUSBTransport(
            device: device, pipes: pipes, configuration: PTPUSBTransport.Configuration(timeout: timeout), io: self)
    }

    // MARK: Scripting

    /// Queues one write to the bulk-in pipe.
    func write(_ bytes: [UInt8], zeroPacket: Bool = true) {
        state.withLock { $0.bulkIn.append(.write(.bytes(bytes), sent: 0, zeroPacket: zeroPacket)) }
    }

    /// Queues a data phase of transaction `transactionID` as one write: its header, which announces `announced`
    /// bytes (by default the container's length, or `0xFFFFFFFF` when 32 bits cannot hold it), then `payload` bytes of a counting pattern (byte i
    /// is i modulo 256).
    func writeDataPhase(transactionID: UInt32, code: UInt16 = 0x1009, payload: Int, announced: UInt32? = nil) {
        let header = Self.container(
            2, code: code, transactionID: transactionID,
            length: announced ?? UInt32(exactly: 12 + payload) ?? PTPUSBContainer.unknownLength)
        state.withLock {
            $0.bulkIn.append(.write(.pattern(header: header, count: 12 + payload), sent: 0, zeroPacket: true))
        }
    }

    /// The counting pattern's first `count` bytes, as ``writeDataPhase(transactionID:code:payload:announced:)``
    /// sends them.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) }
    }

    /// Queues a stall of the bulk-in pipe, after what is queued.
    func stallBulkIn() {
        state.withLock { $0.bulkIn.append(.stall) }
    }

    /// Stalls the next `count` bulk-out transfers.
    func stallBulkOut(times count: Int) {
        state.withLock { $0.stallOut = count }
    }

    /// Drops what the bulk-in pipe still has to send: the camera stopped.
    func stopSending() {
        state.withLock { $0.bulkIn = [] }
    }

    /// Queues a transfer on the interrupt pipe for a host that reads it directly (before events start).
    func queueInterrupt(_ bytes: [UInt8]) {
        state.withLock { $0.interruptIn.append(bytes) }
    }

    /// The answers to the next Get Device Status requests, then `then` for every later one.
    func answerStatus(_ answers: [StatusAnswer], then: StatusAnswer = .status(.ok)) {
        state.withLock {
            $0.statuses = answers
            $0.defaultStatus = then
        }
    }

    /// Makes the camera stall the Cancel request, as one without it does.
    func refuseCancel() {
        state.withLock { $0.refusesCancel = true }
    }

    /// Sends one transfer on the interrupt pipe to the transport's event reading.
    ///
    /// - Returns: Whether the transport reads on.
    @discardableResult
    func sendEvent(_ bytes: [UInt8]) -> Bool {
        guard let pipe = state.withLock({ $0.events }) else { return false }
        let count = min(bytes.count, pipe.buffer.count)
        bytes.withUnsafeBytes { pipe.buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
        return pipe.handler(.success(count))
    }

    /// Stalls the interrupt pipe once.
    ///
    /// - Returns: Whether the transport reads on.
    @discardableResult
    func stallEvents() -> Bool {
        guard let pipe = state.withLock({ $0.events }) else { return false }
        state.withLock { _ = $0.halted.insert(pipes.interrupt) }
        return pipe.handler(.failure(.stall(on: pipes.interrupt, path: path, while: "reading events")))
    }

    // MARK: What the host did

    /// The class requests and clears, in order.
    var steps: [Step] { state.withLock { $0.steps } }
    /// The bulk-out transfers that went through.
    var sent: [[UInt8]] { state.withLock { $0.sent } }
    /// The commands the host sent, in order.
    var commands: [Command] { sent.compactMap(Self.command) }
    /// The bulk-in bytes the host read.
    var bytesRead: Int { state.withLock { $0.bytesRead } }
    /// Whether the bulk-in pipe has nothing left to send.
    var bulkInIsEmpty: Bool { state.withLock { $0.bulkIn.isEmpty } }
    /// Whether the host closed the device.
    var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: USBDeviceIO

    func transfer(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer, zeroPacket: Bool,
        until deadline: ContinuousClock.Instant, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int {
        if endpoint == pipes.bulkOut {
            let stalled = state.withLock { state -> Bool in
                if state.stallOut > 0 {
                    state.stallOut -= 1
                    state.halted.insert(endpoint)
                }
                if state.halted.contains(endpoint) { return true }
                state.sent.append(Array(UnsafeRawBufferPointer(buffer)))
                return false
            }
            if stalled { throw .stall(on: endpoint, path: path, while: activity()) }
            if let command = Self.command(Array(UnsafeRawBufferPointer(buffer))),
                let reaction = onCommand.withLock({ $0 })
            {
                reaction(command)
            }
            return buffer.count
        }
        if endpoint == pipes.interrupt {
            let transfer = state.withLock { state -> [UInt8]? in
                state.interruptIn.isEmpty ? nil : state.interruptIn.removeFirst()
            }
            guard let transfer else { throw ViewfinderError(.timeout, "no event while \(activity())") }
            let count = min(transfer.count, buffer.count)
            transfer.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
            return count
        }
        return try state.withLock { state throws(ViewfinderError) -> Int in
            try Self.read(
                into: buffer, from: &state, packet: Int(pipes.bulkInPacketSize), endpoint: endpoint, path: path)
        }
    }

    /// Reads whole packets from the bulk-in pipe into `buffer` until a short packet or a full buffer.
    private static func read(
        into buffer: UnsafeMutableRawBufferPointer, from state: inout State, packet: Int, endpoint: UInt8,
        path: String
    ) throws(ViewfinderError) -> Int {
        guard !state.halted.contains(endpoint) else { throw .stall(on: endpoint, path: path, while: "reading") }
        var count = 0
        while count < buffer.count {
            guard let chunk = state.bulkIn.first else {
                // Nothing more comes before the deadline: the URB is discarded with what it had.
                throw ViewfinderError(.timeout, "the camera sent nothing more")
            }
            guard case .write(let content, let sent, let zeroPacket) = chunk else {
                state.bulkIn.removeFirst()
                state.halted.insert(endpoint)
                throw .stall(on: endpoint, path: path, while: "reading")
            }
            let size = min(packet, content.count - sent)
            guard size <= buffer.count - count else {
                throw ViewfinderError(.malformedData, "the camera sent more than asked for")
            }
            content.copy(sent..<sent + size, to: buffer.baseAddress! + count)
            count += size
            state.bytesRead += size
            let done = sent + size == content.count && (size < packet || !zeroPacket || content.count == 0)
            if done {
                state.bulkIn.removeFirst()
            } else {
                state.bulkIn[0] = .write(content, sent: sent + size, zeroPacket: zeroPacket)
            }
            if size < packet { return count }
        }
        return count
    }

    func repeatTransfer(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer,
        handler: @escaping @Sendable (Result<Int, ViewfinderError>) -> Bool
    ) throws(ViewfinderError) {
        state.withLock { $0.events = EventPipe(buffer: buffer, handler: handler) }
    }

    func control(
        requestType: UInt8, request: UInt8, value: UInt16, index: UInt16, data: UnsafeMutableRawBufferPointer,
        timeout: Duration, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int {
        let count = try state.withLock { state throws(ViewfinderError) -> Int in
            switch request {
            case 0x67:
                state.steps.append(.status)
                let answer = state.statuses.isEmpty ? state.defaultStatus : state.statuses.removeFirst()
                guard case .status(let code, let halted) = answer else {
                    throw ViewfinderError(.notAvailable, "the camera refused the request", errno: EPIPE)
                }
                var bytes: [UInt8] = []
                Self.append(UInt16(4 + 4 * halted.count), to: &bytes)
                Self.append(code.rawValue, to: &bytes)
                for endpoint in halted { Self.append(UInt32(endpoint), to: &bytes) }
                let count = min(bytes.count, data.count)
                bytes.withUnsafeBytes { data.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
                return count
            case 0x64:
                guard !state.refusesCancel else {
                    throw ViewfinderError(.notAvailable, "the camera refused the request", errno: EPIPE)
                }
                let raw = UnsafeRawBufferPointer(data)
                guard raw.count == 6, raw.loadUnaligned(as: UInt16.self).littleEndian == 0x4001 else {
                    throw ViewfinderError(.invalidArgument, "a Cancel request of \(Array(raw))")
                }
                state.steps.append(.cancel(transactionID: raw.loadUnaligned(fromByteOffset: 2, as: UInt32.self)))
                return 6
            case 0x66:
                state.steps.append(.reset)
                return 0
            default:
                throw ViewfinderError(.notAvailable, "request \(request)", errno: EPIPE)
            }
        }
        onClassRequest.withLock { $0 }?(request)
        return count
    }

    func clearHalt(endpoint: UInt8) throws(ViewfinderError) {
        state.withLock { state in
            state.halted.remove(endpoint)
            state.steps.append(.clearHalt(endpoint))
        }
    }

    func shutdown() {}

    func close() {
        // As closing a device file discards its URBs: the event buffer is the transport's to free.
        state.withLock { state in
            state.closed = true
            state.events = nil
        }
    }

    // MARK: Containers

    /// A container: its header, then `parameters`, then `payload`; `length` overrides the length field.
    static func container(
        _ type: UInt16, code: UInt16, transactionID: UInt32, parameters: [UInt32] = [], payload: [UInt8] = [],
        length: UInt32? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        append(length ?? UInt32(12 + 4 * parameters.count + payload.count), to: &bytes)
        append(type, to: &bytes)
        append(code, to: &bytes)
        append(transactionID, to: &bytes)
        for parameter in parameters { append(parameter, to: &bytes) }
        return bytes + payload
    }

    /// A response container.
    static func response(_ code: PTPResponseCode = .ok, transactionID: UInt32, parameters: [UInt32] = []) -> [UInt8] {
        container(3, code: code.rawValue, transactionID: transactionID, parameters: parameters)
    }

    /// An event container.
    static func event(_ code: UInt16, transactionID: UInt32 = 0xFFFF_FFFF, parameters: [UInt32] = []) -> [UInt8] {
        container(4, code: code, transactionID: transactionID, parameters: parameters)
    }

    private static func command(_ bytes: [UInt8]) -> Command? {
        guard bytes.count >= 12 else { return nil }
        return bytes.withUnsafeBytes { raw -> Command? in
            guard raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian == 1 else { return nil }
            let count = (min(Int(raw.loadUnaligned(as: UInt32.self).littleEndian), raw.count) - 12) / 4
            return Command(
                code: raw.loadUnaligned(fromByteOffset: 6, as: UInt16.self).littleEndian,
                transactionID: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian,
                parameters: (0..<max(0, count)).map {
                    raw.loadUnaligned(fromByteOffset: 12 + 4 * $0, as: UInt32.self).littleEndian
                })
        }
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
