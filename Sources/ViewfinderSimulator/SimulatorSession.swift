import Dispatch
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// One client's session with the simulator: reads requests on the command connection, answers them, and hands
/// events to its event pump.
///
/// ``run(configuration:)`` runs on the thread that accepted the command connection; only ``claimEvents()``,
/// ``attachEvents(_:)`` and ``end()`` are called from another thread.
final class SimulatorSession: Sendable {
    let number: UInt32
    let clientName: String
    private let command: PTPIPConnection
    private let camera: any SimulatorResponder
    private let pump: SimulatorEventPump
    /// While `true`, requests are read and left unanswered.
    private let silence: Locked<Bool>
    private let eventsClaimed = Locked(false)
    /// Signalled when the event connection is attached, or when the simulator stops.
    private let eventsAttached = DispatchSemaphore(value: 0)
    private let ended = Locked(false)

    /// The largest data-out phase the simulator accepts.
    private static let maximumDataOut = 1 << 20

    init(
        number: UInt32, clientName: String, command: PTPIPConnection, camera: any SimulatorResponder,
        pump: SimulatorEventPump,
        silence: Locked<Bool>
    ) {
        self.number = number
        self.clientName = clientName
        self.command = command
        self.camera = camera
        self.pump = pump
        self.silence = silence
    }

    /// Reserves the session's event connection slot; `false` when it has one already.
    func claimEvents() -> Bool {
        eventsClaimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }

    /// Hands the event connection to the session's pump.
    ///
    /// - Throws: ``PlatformThread/StartError`` when no thread could read it.
    func attachEvents(_ connection: PTPIPConnection) throws(PlatformThread.StartError) {
        try pump.attach(connection)
        eventsAttached.signal()
    }

    /// Ends a session that still waits for its event connection; the simulator calls it when it stops, after it shut
    /// the connections down, which ends a running session by itself.
    func end() {
        ended.withLock { $0 = true }
        eventsAttached.signal()
    }

    /// Sends events to the client.
    func emit(_ events: [PTPEvent]) {
        pump.emit(events)
    }

    /// Serves requests until the client leaves or stops following the protocol.
    ///
    /// - Returns: Why the session ended, for the log.
    func run(configuration: CameraSimulator.Configuration) -> String {
        defer {
            camera.endSession()
            pump.stop()
        }
        guard
            eventsAttached.wait(timeout: .now() + .nanoseconds(Int(configuration.replyTimeout.inSeconds * 1e9)))
                == .success
        else {
            return "the client did not open its event connection"
        }
        guard !ended.withLock({ $0 }) else { return "the simulator stopped" }
        camera.sessionBegan(in: pump)
        var lastTransaction: UInt32?
        do throws(ViewfinderError) {
            while true {
                try command.waitForData(timeout: configuration.idleTimeout, while: "waiting for a request")
                // A request, with its data, must arrive whole within the reply timeout, however slowly it trickles.
                command.readDeadline = .now + configuration.replyTimeout
                switch try command.readNext(while: "reading a request") {
                case .packet(.operationRequest(let phase, let code, let id, let parameters)):
                    var data: [UInt8]?
                    if phase == .dataOut || code == .setDevicePropValue {
                        data = try command.receiveDataPhase(
                            transactionID: id, maximumLength: Self.maximumDataOut, while: "receiving data for \(code)")
                    }
                    guard !silence.withLock({ $0 }) else { continue }
                    let request = SimulatorRequest(code: code, transactionID: id, parameters: parameters, data: data)
                    let reply = camera.respond(to: request, in: pump)
                    try send(reply, transactionID: id, configuration: configuration)
                    pump.emit(reply.events)
                    lastTransaction = id
                case .data(true, let id, 0) where id == lastTransaction:
                    // An empty EndData after a zero-length data-out phase that was complete without it.
                    continue
                case .packet(.probeRequest):
                    guard !silence.withLock({ $0 }), !configuration.strict else { continue }
                    try command.send(.probeResponse, while: "answering a probe")
                case .packet(.probeResponse), .packet(.cancel):
                    continue
                case let other:
                    return "the client sent \(other) where a request belongs"
                }
            }
        } catch {
            return error.code == .disconnected ? "the client disconnected" : error.message
        }
    }

    /// Whether the client has sent a Cancel packet for `transactionID` while its data phase is being sent; probes that
    /// come meanwhile are answered.
    private func cancelArrived(for transactionID: UInt32) throws(ViewfinderError) -> Bool {
        while (try? command.waitForData(timeout: .zero, while: "looking for a Cancel packet")) != nil {
            switch try command.readPacket(while: "reading a packet sent during a data phase") {
            case .cancel(let id) where id == transactionID:
                return true
            case .probeRequest:
                try command.send(.probeResponse, while: "answering a probe")
            case let packet:
                throw ViewfinderError(.malformedData, "the client sent \(packet.type) during a data phase")
            }
        }
        return false
    }

    private func send(_ reply: SimulatorReply, transactionID: UInt32, configuration: CameraSimulator.Configuration)
        throws(ViewfinderError)
    {
        let chunkSize = configuration.dataChunkSize
        let activity = "answering transaction \(transactionID)"
        switch reply.data {
        case .bytes(let bytes):
            try typedThrows {
                try bytes.withUnsafeBytes {
                    try command.sendDataPhase(transactionID: transactionID, $0, chunkSize: chunkSize, while: activity)
                }
            }
        case .object(let object, let range):
            try command.send(
                .startData(transactionID: transactionID, totalLength: range.upperBound - range.lowerBound), more: true,
                while: activity)
            var cancelled = false
            do {
                try typedThrows {
                    try object.forEachPiece(of: range, chunkSize: chunkSize) { piece, isLast in
                        if try cancelArrived(for: transactionID) {
                            cancelled = true
                            throw ViewfinderError(.cancelled, "the client cancelled transaction \(transactionID)")
                        }
                        try command.sendData(
                            transactionID: transactionID, piece, isLast: isLast, more: true, while: activity)
                    }
                }
            } catch  where cancelled {
                // The client gave the download up: the phase ends here, and the transaction as cancelled.
                configuration.log?("transaction \(transactionID) cancelled by the client during its data phase")
                try command.sendData(
                    transactionID: transactionID, UnsafeRawBufferPointer(start: nil, count: 0), isLast: true,
                    while: activity)
                try command.send(
                    .operationResponse(code: .transactionCancelled, transactionID: transactionID, parameters: []),
                    while: activity)
                return
            }
        case nil:
            break
        }
        try command.send(
            .operationResponse(code: reply.code, transactionID: transactionID, parameters: reply.parameters),
            while: activity)
    }
}
