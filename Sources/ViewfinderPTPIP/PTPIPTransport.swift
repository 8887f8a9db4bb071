import Synchronization
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// PTP over TCP (ISO 15740's PTP/IP): a command connection for transactions and an event connection for the
/// camera's events, opened with the PTP/IP handshake.
///
/// ``PTPIPEndpoint`` opens one for a `PTPCamera` or a `PTPSession`; the transport then moves the session's
/// containers as PTP/IP packets. Given an ``Configuration/eventProbeInterval``, it probes an event connection that
/// stays silent that long, so a camera that left the network without closing its connections ends the session with
/// `ViewfinderError/Code/timeout` instead of hanging it; a camera that never answered a probe is not probed again,
/// as real cameras that do not speak probes would otherwise be dropped.
///
/// Calls other than ``shutdown()`` come from the session's command thread, one at a time; the event connection has
/// a thread of its own, which closes it when it ends. Hence `@unchecked Sendable`: the mutable state belongs to the
/// command thread.
public final class PTPIPTransport: PTPTransport, @unchecked Sendable {
    /// The camera's address and port, such as `192.168.1.1:15740`.
    public let endpoint: String
    /// The configuration the transport was opened with.
    public let configuration: Configuration
    /// The camera's name, from its handshake.
    public let responderName: String
    /// The camera's identifier, from its handshake.
    public let responderGUID: PTPIPGUID
    /// The connection number the camera assigned.
    public let connectionNumber: UInt32

    /// `ptp` and the port, such as `ptp15740`; the event connection's thread is `ptp15740-events`.
    public var threadName: String { "ptp\(configuration.port)" }

    /// The longest packet the event connection accepts; an event packet has 26 bytes at most.
    public static let maximumEventPacketLength = 1 << 10

    private let command: PTPIPConnection
    private let events: PTPIPConnection
    private let eventsStarted = Locked(false)
    private let staleReplies = Atomic(0)
    /// How the event connection's probing stands, for checks.
    package let probing = Locked(Probing.starting)

    /// How the event connection's probing stands.
    package enum Probing: Hashable, Sendable {
        /// The event connection is not read yet.
        case starting
        /// No probing: none configured.
        case off
        /// Waiting through silence; a probe goes out once the interval passes.
        case listening
        /// A probe is out, and its answer awaited.
        case awaitingAnswer
        /// Stopped: the camera did not answer its first probe, so it is taken not to speak probes.
        case stopped
    }
    /// The data-in phase being received, on the command thread.
    private var dataPhase: DataPhase?
    /// A response that ended a data phase in place of EndData, for the next ``receivePhase(of:)``.
    private var pendingResponse: PTPResponse?

    /// Where a data-in phase is.
    private struct DataPhase {
        let transactionID: UInt32
        let total: Int?
        var received = 0
        /// Payload bytes of the current Data or EndData packet not read yet.
        var packetRemaining = 0
        /// Whether the current packet is the phase's last.
        var isLastPacket = false
        /// Whether the phase has ended.
        var ended = false
        var progressDeadline: ContinuousClock.Instant
    }

    private init(
        endpoint: String, configuration: Configuration, command: PTPIPConnection, events: PTPIPConnection,
        handshake: (name: String, guid: PTPIPGUID, number: UInt32)
    ) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.command = command
        self.events = events
        responderName = handshake.name
        responderGUID = handshake.guid
        connectionNumber = handshake.number
    }

    /// Wraps connections whose handshake is done, for harnesses that drive the transport over socket pairs.
    package convenience init(
        command: PTPIPConnection, events: PTPIPConnection, configuration: Configuration, endpoint: String = "harness"
    ) {
        self.init(
            endpoint: endpoint, configuration: configuration, command: command, events: events,
            handshake: ("harness", .zero, 1))
    }

    deinit {
        command.close()
        if !eventsStarted.withLock({ $0 }) {
            events.close()
        }
    }

    /// Connects both channels and performs the PTP/IP handshake; blocks, so call it from a thread of its own.
    ///
    /// - Throws: `ViewfinderError/Code/connectionFailed` when the camera cannot be reached,
    ///   `ViewfinderError/Code/deviceBusy` when it serves another client, `ViewfinderError/Code/pairingRequired` when
    ///   it refuses a client it has not been paired with, and `ViewfinderError/Code/timeout`, also when it leaves the
    ///   handshake unanswered, as a camera does while it asks its user to accept the computer (the message says so).
    ///
    /// A camera that refuses the connection as busy is tried again, after 100 ms and then pauses that double, for up
    /// to ``Configuration/busyRetryTimeout``: a camera still ending a previous client's session, or waking, says so.
    ///
    /// Given `userIntervention`, a handshake left unanswered for ``Configuration/userInterventionDelay`` is taken as
    /// the camera asking its user, which the handler is told (see
    /// ``awaitHandshakeAnswer(on:endpoint:configuration:userIntervention:)``).
    static func connect(
        to host: String, configuration: Configuration,
        userIntervention: (@Sendable (CameraUserInterventionEvent) -> Void)? = nil
    ) throws(ViewfinderError) -> PTPIPTransport {
        let deadline = ContinuousClock.now + configuration.busyRetryTimeout
        var pause = Duration.milliseconds(100)
        while true {
            do {
                return try connectOnce(to: host, configuration: configuration, userIntervention: userIntervention)
            } catch  where error.code == .deviceBusy && ContinuousClock.now + pause < deadline {
                var time = timespec(
                    tv_sec: Int(pause.components.seconds), tv_nsec: Int(pause.components.attoseconds / 1_000_000_000))
                var left = timespec()
                while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
                pause *= 2
            }
        }
    }

    private static func connectOnce(
        to host: String, configuration: Configuration,
        userIntervention: (@Sendable (CameraUserInterventionEvent) -> Void)?
    ) throws(ViewfinderError) -> PTPIPTransport {
        let command = try PTPIPConnection.connect(
            to: host, port: configuration.port, connectTimeout: configuration.connectTimeout,
            timeout: configuration.responseTimeout, maximumControlPacketLength: configuration.maximumControlPacketLength
        )
        let endpoint = command.socket.endpoint
        do throws(ViewfinderError) {
            command.readDeadline = .now + configuration.responseTimeout
            try command.send(
                .initCommandRequest(
                    guid: configuration.clientGUID, name: configuration.clientName,
                    version: PTPIPPacket.protocolVersion),
                while: "opening the command connection to \(endpoint)")
            let handshake: (name: String, guid: PTPIPGUID, number: UInt32)
            let answer: PTPIPPacket
            if let userIntervention {
                try awaitHandshakeAnswer(
                    on: command, endpoint: endpoint, configuration: configuration, userIntervention: userIntervention)
                command.readDeadline = .now + configuration.responseTimeout
            }
            do {
                answer = try command.readPacket(while: "waiting for \(endpoint) to accept the connection")
            } catch  where error.code == .timeout {
                throw unanswered(endpoint: endpoint, configuration: configuration)
            }
            switch answer {
            case .initCommandAck(let number, let guid, let name, _):
                handshake = (name, guid, number)
            case .initFail(let reason):
                throw refusal(PTPIPInitFailReason(rawValue: reason), endpoint: endpoint, configuration: configuration)
            case let packet:
                throw ViewfinderError(.malformedData, "\(endpoint) answered the handshake with \(packet.type)")
            }
            command.readDeadline = nil
            let events = try openEvents(host: host, number: handshake.number, configuration: configuration)
            return PTPIPTransport(
                endpoint: endpoint, configuration: configuration, command: command, events: events,
                handshake: handshake)
        } catch {
            command.close()
            throw error
        }
    }

    private static func openEvents(host: String, number: UInt32, configuration: Configuration) throws(ViewfinderError)
        -> PTPIPConnection
    {
        let events = try PTPIPConnection.connect(
            to: host, port: configuration.port, connectTimeout: configuration.connectTimeout,
            timeout: configuration.responseTimeout, maximumControlPacketLength: maximumEventPacketLength)
        let socket = events.socket
        do throws(ViewfinderError) {
            events.readDeadline = .now + configuration.responseTimeout
            try events.send(
                .initEventRequest(connectionNumber: number), while: "opening the event connection to \(socket.endpoint)"
            )
            switch try events.readPacket(while: "waiting for \(socket.endpoint) to accept the event connection") {
            case .initEventAck:
                events.readDeadline = nil
                return events
            case .initFail(let reason):
                let reason = PTPIPInitFailReason(rawValue: reason)
                throw ViewfinderError(
                    reason == .busy ? .deviceBusy : .connectionFailed,
                    "\(socket.endpoint) refused the event connection: \(reason); close other clients and retry")
            case let packet:
                throw ViewfinderError(
                    .malformedData, "\(socket.endpoint) answered InitEventRequest with \(packet.type)")
            }
        } catch {
            events.close()
            throw error
        }
    }

    /// The error for a handshake the camera left unanswered: cameras that pair (Sony bodies) answer only once their
    /// user accepts the computer on the camera's screen.
    private static func unanswered(endpoint: String, configuration: Configuration) -> ViewfinderError {
        ViewfinderError(
            .timeout,
            "\(endpoint) did not accept the connection within \(configuration.responseTimeout). A camera that asks "
                + "before it lets a new computer in (Sony bodies show 'Connect with \(configuration.clientName)?' or a "
                + "pairing prompt) waits for its user: accept on the camera's screen, then connect again; the camera "
                + "remembers this computer (identifier \(configuration.clientGUID)) afterwards. A camera that shows no "
                + "prompt is busy or is not a PTP/IP camera")
    }

    /// The error for an InitFail packet: busy with another client, or a client the camera does not know yet.
    private static func refusal(_ reason: PTPIPInitFailReason, endpoint: String, configuration: Configuration)
        -> ViewfinderError
    {
        switch reason {
        case .busy:
            return ViewfinderError(
                .deviceBusy, "\(endpoint) refused the connection: \(reason); close other clients and retry")
        default:
            return ViewfinderError(
                .pairingRequired,
                "\(endpoint) refused the connection (\(reason)): the camera does not know this computer yet. Pair it "
                    + "on the camera: open its Wi-Fi or network menu, choose to connect to a computer, and accept "
                    + "'\(configuration.clientName)' when the camera asks; the camera remembers this computer "
                    + "(identifier \(configuration.clientGUID)) afterwards")
        }
    }

    // MARK: Transactions

    /// Sends an OperationRequest packet on the command connection.
    public func send(_ request: PTPRequest, hasDataOut: Bool) throws(ViewfinderError) {
        dataPhase = nil
        pendingResponse = nil
        try command.send(
            .operationRequest(
                dataPhase: hasDataOut ? .dataOut : .noDataOrDataIn, code: request.code,
                transactionID: request.transactionID, parameters: request.parameters),
            more: hasDataOut, while: "sending \(request.code) (transaction \(request.transactionID))")
    }

    /// Sends StartData, then Data packets of ``Configuration/dataOutChunkSize``, the last piece in EndData.
    public func sendData(_ bytes: UnsafeRawBufferPointer, transactionID: UInt32) throws(ViewfinderError) {
        func activity() -> String { "sending the data of transaction \(transactionID)" }
        try command.send(
            .startData(transactionID: transactionID, totalLength: UInt64(bytes.count)), more: true, while: activity())
        var offset = 0
        repeat {
            let count = min(configuration.dataOutChunkSize, bytes.count - offset)
            let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
            offset += count
            try command.sendData(
                transactionID: transactionID, piece, isLast: offset == bytes.count, more: offset < bytes.count,
                while: activity())
        } while offset < bytes.count
    }

    /// How many replies to transactions that had ended (a response or data phase a camera sent late, after a
    /// timeout) were read and dropped.
    public var staleRepliesSkipped: Int { staleReplies.load(ordering: .relaxed) }

    /// Whether a transaction the camera answers with `id` ended before the one with `current` began: IDs count up,
    /// so one up to half the ID space behind is older; one ahead is a future transaction.
    static func isOlder(_ id: UInt32, than current: UInt32) -> Bool {
        let behind = current &- id
        return behind != 0 && behind < 0x8000_0000
    }

    /// Reads StartData or OperationResponse, answering probes on the way; replies to transactions that ended
    /// before this one (a camera answering late, after a timeout) are skipped.
    public func receivePhase(of transactionID: UInt32) throws(ViewfinderError) -> PTPInboundPhase {
        if let response = pendingResponse {
            pendingResponse = nil
            return .response(response)
        }
        func activity() -> String { "the answer to transaction \(transactionID)" }
        var next = try readAnsweringProbes(while: "waiting for \(activity())")
        while let stale = Self.staleTransaction(of: next), Self.isOlder(stale, than: transactionID) {
            try skipStale(next, while: "waiting for \(activity())")
            next = try readAnsweringProbes(while: "waiting for \(activity())")
        }
        switch next {
        case .packet(.startData(let id, let announced)):
            guard id == transactionID else {
                throw ViewfinderError(
                    .malformedData, "\(endpoint) began the data of transaction \(id) in \(activity())")
            }
            let total: Int? = announced == .max ? nil : Int(exactly: announced)
            if announced != .max, total == nil {
                throw ViewfinderError(
                    .malformedData, "\(endpoint) announced \(announced) bytes of data in \(activity())")
            }
            dataPhase = DataPhase(transactionID: id, total: total, progressDeadline: .now + command.timeout)
            return .data(totalLength: total)
        case .packet(.operationResponse(let code, let id, let parameters)):
            return .response(PTPResponse(code: code, transactionID: id, parameters: parameters))
        case .packet(let packet):
            throw ViewfinderError(
                .malformedData, "expected \(activity()), but \(endpoint) sent a \(packet.type) packet")
        case .data(let isLast, _, _):
            throw ViewfinderError(
                .malformedData,
                "expected \(activity()), but \(endpoint) sent \(isLast ? "an EndData" : "a Data") packet without StartData"
            )
        }
    }

    /// The transaction a reply belongs to, for replies that may come late.
    private static func staleTransaction(of incoming: PTPIPConnection.Incoming) -> UInt32? {
        switch incoming {
        case .packet(.startData(let id, _)), .packet(.operationResponse(_, let id, _)), .data(_, let id, _): id
        default: nil
        }
    }

    /// Reads and drops a late reply: a response, or a data phase to its end.
    private func skipStale(_ incoming: PTPIPConnection.Incoming, while activity: @autoclosure () -> String)
        throws(ViewfinderError)
    {
        staleReplies.add(1, ordering: .relaxed)
        var packet = incoming
        while true {
            switch packet {
            case .data(let isLast, _, let count):
                try command.skipPayload(count, while: activity())
                if isLast { return }
            case .packet(.startData):
                break
            default:
                return
            }
            packet = try readAnsweringProbes(while: activity())
        }
    }

    /// Reads the payloads of Data and EndData packets straight into `buffer`; a response in place of EndData ends the
    /// phase, as some responders send it.
    public func receiveData(into buffer: UnsafeMutableRawBufferPointer) throws(ViewfinderError) -> Int {
        guard var phase = dataPhase else { return 0 }
        defer { dataPhase = phase.ended ? nil : phase }
        let transactionID = phase.transactionID
        func activity() -> String { "receiving the data of transaction \(transactionID)" }
        while true {
            if phase.packetRemaining > 0, buffer.count > 0 {
                let count = min(buffer.count, phase.packetRemaining)
                try command.readPayload(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), while: activity())
                phase.packetRemaining -= count
                phase.received += count
                return count
            }
            if phase.packetRemaining == 0, phase.isLastPacket {
                phase.ended = true
            }
            if phase.ended { return 0 }
            switch try readAnsweringProbes(while: activity()) {
            case .data(let isLast, let id, let count):
                guard id == phase.transactionID else {
                    throw ViewfinderError(
                        .malformedData, "\(endpoint) sent data of transaction \(id) while \(activity())")
                }
                if count > 0 {
                    phase.progressDeadline = .now + command.timeout
                } else if !isLast {
                    try Self.checkProgress(before: phase.progressDeadline, timeout: command.timeout, while: activity())
                }
                if let total = phase.total, count > total - phase.received {
                    throw ViewfinderError(
                        .malformedData,
                        "the camera sent more than the \(total) bytes it announced for transaction \(id)")
                }
                phase.packetRemaining = count
                phase.isLastPacket = isLast
            case .packet(.operationResponse(let code, let id, let parameters)):
                // Some responders end the phase with the response instead of an EndData packet.
                pendingResponse = PTPResponse(code: code, transactionID: id, parameters: parameters)
                phase.ended = true
            case .packet(let packet):
                throw ViewfinderError(
                    .malformedData,
                    "unexpected \(packet.type) packet in the data phase of transaction "
                        + "\(phase.transactionID)")
            }
        }
    }

    /// Asks the camera to stop the data phase under way with a PTP/IP Cancel packet; the session still reads what
    /// the camera sends until the phase ends (at once, for a camera that honours Cancel) and its response, so the
    /// connection stays in step.
    ///
    /// - Returns: `false`: the phase and the response are still to be read.
    public func cancelDataIn(of transactionID: UInt32) throws(ViewfinderError) -> Bool {
        guard let phase = dataPhase, !phase.ended, phase.transactionID == transactionID else { return false }
        try command.send(.cancel(transactionID: transactionID), while: "cancelling transaction \(transactionID)")
        return false
    }

    /// Reads the next packet on the command connection, answering probes on the way.
    ///
    /// Probes are no progress: a camera that sends nothing else for longer than the connection's timeout fails with
    /// `ViewfinderError/Code/timeout`, as a silent one does.
    private func readAnsweringProbes(while activity: @autoclosure () -> String) throws(ViewfinderError)
        -> PTPIPConnection.Incoming
    {
        let deadline = ContinuousClock.now + command.timeout
        while true {
            let incoming = try command.readNext(while: activity())
            guard incoming == .packet(.probeRequest) else { return incoming }
            try Self.checkProgress(before: deadline, timeout: command.timeout, while: activity())
            try command.send(.probeResponse, while: "answering a probe")
        }
    }

    /// Fails with `ViewfinderError/Code/timeout` once `deadline`, the end of the wait for progress, has passed.
    private static func checkProgress(
        before deadline: ContinuousClock.Instant, timeout: Duration, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) {
        guard ContinuousClock.now < deadline else {
            throw ViewfinderError(
                .timeout, "no progress within \(timeout) while \(activity()); the camera sends only empty packets")
        }
    }

    // MARK: Events

    /// Starts the thread that reads the event connection, probing it when it stays silent.
    public func startEvents(_ sink: any PTPEventSink) throws(ViewfinderError) {
        let events = events
        let configuration = configuration
        let probing = probing
        do {
            try IOThread.detach(name: "\(threadName)-events") {
                Self.readEvents(from: events, configuration: configuration, probing: probing, into: sink)
                events.close()
            }
        } catch {
            throw ViewfinderError(.io, "cannot start the thread that reads the camera's events: \(error)")
        }
        eventsStarted.withLock { $0 = true }
    }

    /// Reads the event connection until it closes or fails, probing it when it stays silent.
    private static func readEvents(
        from connection: PTPIPConnection, configuration: Configuration, probing: Locked<Probing>,
        into sink: any PTPEventSink
    ) {
        var probeInterval = configuration.eventProbeInterval
        var isProbing = false
        var answersProbes = false
        while true {
            do throws(ViewfinderError) {
                if connection.bufferedCount == 0 {
                    let stands: Probing =
                        probeInterval == nil
                        ? (configuration.eventProbeInterval == nil ? .off : .stopped)
                        : (isProbing ? .awaitingAnswer : .listening)
                    probing.withLock { $0 = stands }
                    // Events come whenever the camera has one; a silence longer than the probe interval is answered
                    // with a probe. A camera that has answered one must answer each in time; one that never has may
                    // not speak probes at all, so probing stops for it.
                    let wait = isProbing ? configuration.responseTimeout : probeInterval ?? .seconds(60)
                    do {
                        try connection.waitForData(timeout: wait, while: "waiting for events")
                    } catch  where error.code == .timeout {
                        if isProbing {
                            guard answersProbes else {
                                (isProbing, probeInterval) = (false, nil)
                                continue
                            }
                            throw ViewfinderError(
                                .timeout,
                                "the camera did not answer a probe within \(configuration.responseTimeout.inSeconds) s "
                                    + "after \((probeInterval ?? .zero).inSeconds) s of silence; it may have left the "
                                    + "network or been switched off")
                        }
                        if probeInterval != nil {
                            try connection.send(.probeRequest, while: "probing the camera on the event connection")
                            isProbing = true
                        }
                        continue
                    }
                }
                let packet = try connection.readPacket(while: "reading an event")
                // Any packet shows the camera is there.
                isProbing = false
                switch packet {
                case .event(let code, let transactionID, let parameters):
                    sink.receive(PTPEvent(code: code, transactionID: transactionID, parameters: parameters))
                case .probeRequest:
                    try connection.send(.probeResponse, while: "answering a probe on the event connection")
                case .probeResponse:
                    answersProbes = true
                case let packet:
                    throw ViewfinderError(.malformedData, "unexpected \(packet.type) packet on the event connection")
                }
            } catch {
                sink.fail(
                    ViewfinderError(error.code, "the event connection failed: \(error.message)", errno: error.errno))
                return
            }
        }
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

    /// Whether nothing of a packet has been read halfway and no data phase is under way.
    public var isInStep: Bool {
        command.bufferedCount == 0 && dataPhase == nil && !command.isMidPayload
    }

    /// Shuts both connections down, waking the threads that wait on them.
    public func shutdown() {
        command.socket.shutdown()
        events.socket.shutdown()
    }

    /// Closes the command connection, after waiting briefly for the camera to close its side when `gracefully`; the
    /// event connection's thread closes that one.
    public func close(gracefully: Bool) {
        if gracefully {
            // Let the camera see the end of the connection and let go of it, so the next client finds it free.
            command.finish(timeout: min(command.timeout, .seconds(2)))
        }
        command.close()
        if !eventsStarted.withLock({ $0 }) {
            events.close()
        }
    }
}
