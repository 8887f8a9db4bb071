import Synchronization
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Fujifilm's WiFi protocol: an 82-byte init on the command port (55740), then USB-style containers over it, events on
/// a second port (55741) and JPEG live view frames pushed on a third (55742), both of which the camera opens only
/// once remote capture has started.
///
/// ``FujiWiFiEndpoint`` opens one for a `PTPCamera` or a `PTPSession`, ready for OpenSession. The dialect that drives
/// a Fujifilm camera starts remote capture (InitiateOpenCapture), then calls ``openEvents()`` and ``openLiveView()``;
/// events go to the session from then on, and ``liveViewFrame()`` reads the newest JPEG frame the camera pushed,
/// dropping those nobody asked for.
///
/// Calls other than ``shutdown()``, ``openEvents()`` and the live view's come from the session's command thread, one
/// at a time; the event connection has a thread of its own, which closes it when it ends, and the live view
/// connection is read by one caller at a time. Hence `@unchecked Sendable`: the command thread's state belongs to it,
/// and the channels opened later are behind a lock.
public final class FujiWiFiTransport: FujiWiFiChannels, @unchecked Sendable {
    /// The camera's address and command port, such as `192.168.0.1:55740`.
    public let endpoint: String
    /// The camera's host name or address.
    public let host: String
    /// The configuration the transport was opened with.
    public let configuration: Configuration
    /// The camera's answer to the init: its name, its identifier and the connection number it assigned.
    public let acceptance: FujiWiFiPacket.Acceptance

    /// `fx` and the command port, such as `fx55740`; the event connection's thread is `fx55740-events`, the live view
    /// thread `fx55740-lv`.
    public var threadName: String { "fx\(configuration.commandPort)" }

    /// The longest event container accepted.
    public static let maximumEventLength = 1 << 10
    /// The most 32-bit parameters a response or an event carries.
    static let maximumParameterCount = PTPRequest.maximumParameterCount

    let command: PTPIPConnection
    /// The event and live view connections, once the camera has opened them.
    let channels = Locked(Channels())
    private let staleReplies = Atomic(0)
    /// The live view frames read and dropped because a newer one had arrived before anybody asked.
    let droppedFrames = Atomic(0)
    /// The bytes of the data-in phase under way not read yet, on the command thread.
    private var dataRemaining: Int?
    /// The operation of the transaction under way, which its data-out container names.
    private var operation = PTPOperationCode(rawValue: 0)
    /// The DeviceInfo still to hand over in place of a camera's empty or missing one, on the command thread.
    private var standIn: [UInt8]?
    /// Whether the transaction under way is GetDeviceInfo and no data has come for it yet, on the command thread.
    private var awaitsDeviceInfo = false
    /// The response to GetDeviceInfo that came without data, held while the stand-in is handed over in its place.
    private var heldResponse: PTPResponse?

    /// The channels opened after the init, and where they stand.
    struct Channels {
        /// Where events go, once the session has asked for them.
        var sink: (any PTPEventSink)?
        /// Whether the event connection is open and its thread reads it.
        var eventsOpen = false
        /// The live view connection, once open.
        var liveView: PTPIPConnection?
        /// Whether a caller is reading the live view connection.
        var liveViewBusy = false
        /// Whether the transport was shut down: no channel opens any more.
        var isShutDown = false
        /// The event connection's socket, so that shutting down wakes its thread.
        var eventSocket: Socket?
        /// The thread that reads live view frames, once a caller asked for one.
        var liveViewThread: IOThread?
    }

    /// Wraps a command connection whose init the camera accepted; also for harnesses over socket pairs.
    package init(
        endpoint: String, host: String, configuration: Configuration, command: PTPIPConnection,
        acceptance: FujiWiFiPacket.Acceptance
    ) {
        (self.endpoint, self.host, self.configuration) = (endpoint, host, configuration)
        (self.command, self.acceptance) = (command, acceptance)
    }

    deinit {
        command.close()
        let thread = channels.withLock { channels in
            channels.liveView?.close()
            return channels.liveViewThread
        }
        thread?.stop()
    }

    /// Connects to the command port and sends the init, once more on the same connection when the camera refuses the
    /// first (as Fujifilm's own software does); blocks, so call it from a thread of its own.
    ///
    /// - Throws: `ViewfinderError/Code/connectionFailed` when the camera cannot be reached,
    ///   `ViewfinderError/Code/deviceBusy` or `ViewfinderError/Code/permissionDenied` when it refuses twice,
    ///   `ViewfinderError/Code/disconnected` when it closes the connection on the init, and
    ///   `ViewfinderError/Code/timeout` when it leaves the init unanswered.
    static func connect(to host: String, configuration: Configuration) throws(ViewfinderError) -> FujiWiFiTransport {
        let command = try PTPIPConnection.connect(
            to: host, port: configuration.commandPort, connectTimeout: configuration.connectTimeout,
            timeout: configuration.responseTimeout, maximumControlPacketLength: FujiWiFiPacket.maximumInitAnswerLength)
        let endpoint = command.socket.endpoint
        do throws(ViewfinderError) {
            var answer = try initialize(command, endpoint: endpoint, configuration: configuration)
            if case .refused = answer {
                _ = try? Poll.wait([], until: .now + configuration.initRetryPause)
                answer = try initialize(command, endpoint: endpoint, configuration: configuration)
            }
            switch answer {
            case .accepted(let acceptance):
                return FujiWiFiTransport(
                    endpoint: endpoint, host: host, configuration: configuration, command: command,
                    acceptance: acceptance)
            case .refused(let reason):
                throw ViewfinderError(
                    reason == .busy ? .deviceBusy : .permissionDenied,
                    "\(endpoint) refused the connection twice (\(reason)); close other clients, and choose remote "
                        + "shooting or PC connection on the camera")
            }
        } catch {
            command.close()
            throw error
        }
    }

    /// Sends the init request and reads the camera's answer, within the configuration's response timeout.
    package static func initialize(_ command: PTPIPConnection, endpoint: String, configuration: Configuration)
        throws(ViewfinderError) -> FujiWiFiPacket.InitAnswer
    {
        let request = FujiWiFiPacket.initRequest(guid: configuration.clientGUID, name: configuration.clientName)
        command.readDeadline = .now + configuration.responseTimeout
        defer { command.readDeadline = nil }
        do throws(ViewfinderError) {
            try io { () throws(SocketError) in
                try command.socket.send(request, timeout: command.timeout, while: "sending the init to \(endpoint)")
            }
            let head = try read(8, from: command, while: "waiting for \(endpoint) to answer the init")
            var reader = PTPDataReader(head, reading: "Fujifilm init answer")
            let length = Int(try reader.read(UInt32.self))
            let type = try reader.read(UInt32.self)
            guard length >= 8, length <= FujiWiFiPacket.maximumInitAnswerLength else {
                throw reader.malformed("the answer claims \(length) bytes")
            }
            let payload = try read(length - 8, from: command, while: "reading \(endpoint)'s answer to the init")
            return try FujiWiFiPacket.decodeInitAnswer(type: type, payload: payload)
        } catch  where error.code == .timeout {
            throw ViewfinderError(
                .timeout,
                "\(endpoint) did not answer the init within \(configuration.responseTimeout): a Fujifilm camera answers "
                    + "only while it waits for a computer or phone (remote shooting or PC connection in its menu)")
        } catch  where error.code == .disconnected {
            throw ViewfinderError(
                .disconnected,
                "\(endpoint) closed the connection on the init: it is not a Fujifilm camera waiting for a client, "
                    + "or it did not accept the init's \(FujiWiFiPacket.initRequestLength) bytes")
        }
    }

    /// Reads exactly `count` bytes from `connection`.
    package static func read(_ count: Int, from connection: PTPIPConnection, while activity: @autoclosure () -> String)
        throws(ViewfinderError) -> [UInt8]
    {
        var bytes = [UInt8](repeating: 0, count: count)
        try typedThrows {
            try bytes.withUnsafeMutableBytes { try connection.readPayload(into: $0, while: activity()) }
        }
        return bytes
    }

    /// Reads a container's header from `connection`.
    package static func readHeader(from connection: PTPIPConnection, while activity: @autoclosure () -> String)
        throws(ViewfinderError) -> FujiWiFiPacket.Header
    {
        try FujiWiFiPacket.Header(
            decoding: try read(FujiWiFiPacket.headerLength, from: connection, while: activity()))
    }

    /// Reads the parameters of a response or event container whose header was read.
    static func readParameters(
        of header: FujiWiFiPacket.Header, from connection: PTPIPConnection, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> [UInt32] {
        guard header.payloadLength <= 4 * maximumParameterCount else {
            throw ViewfinderError(
                .malformedData,
                "a \(header.kind) container of \(header.length) bytes from \(connection.socket.endpoint) holds more "
                    + "than \(maximumParameterCount) parameters")
        }
        return try FujiWiFiPacket.parameters(in: try read(header.payloadLength, from: connection, while: activity()))
    }

    // MARK: Transactions

    /// Sends a command container.
    public func send(_ request: PTPRequest, hasDataOut: Bool) throws(ViewfinderError) {
        guard request.parameters.count <= Self.maximumParameterCount else {
            throw ViewfinderError(
                .invalidArgument, "a request carries at most \(Self.maximumParameterCount) parameters")
        }
        dataRemaining = nil
        standIn = nil
        heldResponse = nil
        awaitsDeviceInfo = request.code == .getDeviceInfo
        operation = request.code
        let bytes = FujiWiFiPacket.container(
            .command, code: request.code.rawValue, transactionID: request.transactionID,
            parameters: request.parameters)
        try io { () throws(SocketError) in
            try command.socket.send(
                bytes, timeout: command.timeout, more: hasDataOut,
                while: "sending \(request.code) (transaction \(request.transactionID))")
        }
    }

    /// Sends the data-out phase as one data container.
    public func sendData(_ bytes: UnsafeRawBufferPointer, transactionID: UInt32) throws(ViewfinderError) {
        guard let length = UInt32(exactly: bytes.count + FujiWiFiPacket.headerLength) else {
            throw ViewfinderError(.invalidArgument, "a Fujifilm data container carries less than 4 GiB")
        }
        let header: (UInt32, UInt16, UInt16, UInt32) = (
            length.littleEndian, FujiWiFiPacket.Kind.data.rawValue.littleEndian, operation.rawValue.littleEndian,
            transactionID.littleEndian
        )
        try withUnsafeBytes(of: header) { (raw) throws(ViewfinderError) in
            try io { () throws(SocketError) in
                try command.socket.send(
                    [raw, bytes], timeout: command.timeout, while: "sending the data of transaction \(transactionID)")
            }
        }
    }

    /// How many replies to transactions that had ended (a camera answering late, after a timeout) were read and
    /// dropped.
    public var staleRepliesSkipped: Int { staleReplies.load(ordering: .relaxed) }

    /// Reads a data container's header or a response; replies to transactions that ended before this one are skipped.
    public func receivePhase(of transactionID: UInt32) throws(ViewfinderError) -> PTPInboundPhase {
        func activity() -> String { "waiting for the answer to transaction \(transactionID)" }
        if let remaining = dataRemaining, remaining > 0 {
            throw ViewfinderError(
                .malformedData, "the data phase of transaction \(transactionID) was not read to its end")
        }
        dataRemaining = nil
        if let response = heldResponse {
            heldResponse = nil
            return .response(response)
        }
        while true {
            let header = try Self.readHeader(from: command, while: activity())
            switch header.kind {
            case .data, .response:
                if header.transactionID != transactionID {
                    guard PTPIPTransport.isOlder(header.transactionID, than: transactionID) else {
                        throw ViewfinderError(
                            .malformedData,
                            "\(endpoint) answered transaction \(header.transactionID) while \(activity())")
                    }
                    try command.skipPayload(header.payloadLength, while: activity())
                    staleReplies.add(1, ordering: .relaxed)
                    continue
                }
                if header.kind == .data {
                    if header.payloadLength == 0, awaitsDeviceInfo {
                        // An X-T4 answers GetDeviceInfo over WiFi with no data (libgphoto2 says so, and makes one up).
                        return try handOverStandIn()
                    }
                    awaitsDeviceInfo = false
                    dataRemaining = header.payloadLength
                    return .data(totalLength: header.payloadLength)
                }
                let parameters = try Self.readParameters(of: header, from: command, while: activity())
                let response = PTPResponse(
                    code: PTPResponseCode(rawValue: header.code), transactionID: transactionID, parameters: parameters)
                if awaitsDeviceInfo, response.code == .ok {
                    // Nor does a body that answers it with no data phase at all go without one.
                    heldResponse = response
                    return try handOverStandIn()
                }
                return .response(response)
            case .command, .event:
                throw ViewfinderError(
                    .malformedData, "\(endpoint) sent a \(header.kind) container on the command connection")
            }
        }
    }

    /// Starts handing over the DeviceInfo that stands in for the camera's, made from its answer to the init.
    private func handOverStandIn() throws(ViewfinderError) -> PTPInboundPhase {
        let info = try FujiWiFiPacket.standInDeviceInfo(model: acceptance.name).encoded()
        standIn = info
        awaitsDeviceInfo = false
        return .data(totalLength: info.count)
    }

    /// Reads the data container's payload straight into `buffer`.
    public func receiveData(into buffer: UnsafeMutableRawBufferPointer) throws(ViewfinderError) -> Int {
        if let info = standIn {
            let count = min(buffer.count, info.count)
            buffer.copyBytes(from: info[..<count])
            standIn = info.count > count ? Array(info[count...]) : nil
            return count
        }
        guard let remaining = dataRemaining, remaining > 0, buffer.count > 0 else {
            dataRemaining = nil
            return 0
        }
        let count = min(buffer.count, remaining)
        try command.readPayload(
            into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), while: "receiving a data phase")
        dataRemaining = remaining - count
        return count
    }

    // MARK: Ending

    /// Shortens the command connection's timeout.
    public func limitTimeouts(to limit: Duration) {
        command.limitTimeout(to: limit)
    }

    /// Waits up to `timeout` (or the configured ``Configuration/responseTimeout`` when `nil`) for the camera from the
    /// next transaction on, within any limit ``limitTimeouts(to:)`` set.
    public func useTimeout(_ timeout: Duration?) {
        command.useTimeout(timeout ?? configuration.responseTimeout)
    }

    /// Shuts every connection down, waking the threads that wait on them; no channel opens afterwards.
    public func shutdown() {
        command.socket.shutdown()
        let (events, liveView, thread) = channels.withLock { channels in
            channels.isShutDown = true
            return (channels.eventSocket, channels.liveView, channels.liveViewThread)
        }
        events?.shutdown()
        liveView?.socket.shutdown()
        thread?.stop()
    }

    /// Closes the command connection, after waiting briefly for the camera to close its side when `gracefully`, and
    /// the live view connection; the event connection's thread closes that one.
    public func close(gracefully: Bool) {
        if gracefully {
            command.finish(timeout: min(command.timeout, .seconds(2)))
        }
        command.close()
        let (events, liveView, thread) = channels.withLock { channels in
            channels.isShutDown = true
            return (channels.eventSocket, channels.liveView, channels.liveViewThread)
        }
        events?.shutdown()
        liveView?.socket.shutdown()
        // A frame being read on the live view thread ends with the shutdown; the connection closes after it.
        if let thread {
            thread.stop { liveView?.close() }
        } else {
            liveView?.close()
        }
    }
}
