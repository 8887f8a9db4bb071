import Synchronization
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// A PTP/IP responder on loopback that follows a script, for tests of how the client copes with a peer that
/// misbehaves: silence, early closes, malformed packets.
///
/// It accepts one command and one event connection, performs the handshake, answers OpenSession and
/// GetDeviceInfo, then runs the script on its own thread.
///
/// Where it waits for the test's next step (a connection, a request, the client's close), it waits with
/// ``patience``, not with the short timeouts of a camera: the test runs on Swift's few cooperative threads, which a
/// busy machine can keep from it for many seconds, and a peer that gave up on a slow test would fail it for the
/// machine's load. Waits for the client's own I/O threads keep the short timeout.
final class ScriptedResponder: Sendable {
    /// How long the responder waits for the test to take its next step.
    static let patience = Duration.seconds(300)

    /// The responder's side of a session.
    final class Peer: @unchecked Sendable {
        let command: PTPIPConnection
        let events: PTPIPConnection
        /// The transaction IDs of the requests read so far.
        private(set) var transactionIDs: [UInt32] = []

        init(command: PTPIPConnection, events: PTPIPConnection) {
            self.command = command
            self.events = events
        }

        /// Waits, with ``ScriptedResponder/patience``, until the client sends something on the command connection.
        func waitForClient() throws {
            guard command.bufferedCount == 0 else { return }
            try command.waitForData(timeout: patience, while: "waiting for the client")
        }

        /// The transactions the client sent a Cancel packet for, which the peer takes no notice of, as a camera that
        /// does not honour Cancel.
        private(set) var cancelled: [UInt32] = []

        /// Reads the next operation request, passing over Cancel packets.
        func expectRequest(
            _ expected: PTPOperationCode? = nil
        ) throws -> (code: PTPOperationCode, transactionID: UInt32, parameters: [UInt32]) {
            try waitForClient()
            var packet = try command.readPacket(while: "test")
            while case .cancel(let id) = packet {
                cancelled.append(id)
                try waitForClient()
                packet = try command.readPacket(while: "test")
            }
            guard case .operationRequest(_, let code, let id, let parameters) = packet else {
                throw ViewfinderError(.malformedData, "the client sent something other than a request")
            }
            if let expected, expected != code {
                throw ViewfinderError(.malformedData, "expected \(expected), got \(code)")
            }
            transactionIDs.append(id)
            return (code, id, parameters)
        }

        /// Answers a transaction.
        func respond(_ code: PTPResponseCode = .ok, _ transactionID: UInt32, parameters: [UInt32] = []) throws {
            try command.send(
                .operationResponse(code: code, transactionID: transactionID, parameters: parameters), while: "test")
        }

        /// Sends a data-in phase in chunks, then OK.
        func sendData(_ bytes: [UInt8], _ transactionID: UInt32, chunkSize: Int = 1 << 16) throws {
            try bytes.withUnsafeBytes {
                try command.sendDataPhase(transactionID: transactionID, $0, chunkSize: chunkSize, while: "test")
            }
            try respond(.ok, transactionID)
        }

        /// Sends an event.
        func sendEvent(_ code: PTPEventCode, parameters: [UInt32] = []) throws {
            try events.send(.event(code: code, transactionID: 0xFFFF_FFFF, parameters: parameters), while: "test")
        }
    }

    let port: UInt16
    private let listener: Socket
    private let failures = Locked<[String]>([])
    private let finished = Atomic(false)
    private let scriptDone = Atomic(false)

    static let deviceInfo = PTPDeviceInfo(
        operationsSupported: [.getDeviceInfo, .openSession, .closeSession, .getObject],
        eventsSupported: [.objectAdded], devicePropertiesSupported: [.batteryLevel], captureFormats: [],
        imageFormats: [.exifJPEG], manufacturer: "Scripted", model: "Responder", deviceVersion: "1",
        serialNumber: "42")

    /// Starts listening and runs `script` once a client has connected and opened a session.
    ///
    /// - Parameters:
    ///   - initFail: When set, the command connection is refused with this reason.
    ///   - script: What the responder does after the session opened; errors are recorded.
    init(
        initFail: PTPIPInitFailReason? = nil, deviceInfo: PTPDeviceInfo = ScriptedResponder.deviceInfo,
        script: @escaping @Sendable (Peer) throws -> Void
    ) throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        try IOThread.detach(name: "responder\(port)") { [self] in
            do {
                try serve(initFail: initFail, deviceInfo: deviceInfo, script: script)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            finished.store(true, ordering: .releasing)
        }
    }

    private func serve(initFail: PTPIPInitFailReason?, deviceInfo: PTPDeviceInfo, script: (Peer) throws -> Void)
        throws
    {
        defer { listener.close() }
        guard let commandSocket = try listener.accept(timeout: Self.patience) else { return }
        let command = PTPIPConnection(socket: commandSocket, timeout: .seconds(10))
        defer { command.close() }
        guard case .initCommandRequest = try command.readPacket(while: "handshake") else {
            throw ViewfinderError(.malformedData, "no InitCommandRequest")
        }
        if let initFail {
            try command.send(.initFail(reason: initFail.rawValue), while: "refusing")
            return
        }
        try command.send(
            .initCommandAck(connectionNumber: 1, guid: .random(), name: "Scripted", version: 0x0001_0000),
            while: "handshake")
        guard let eventSocket = try listener.accept(timeout: .seconds(10)) else { return }
        let events = PTPIPConnection(socket: eventSocket, timeout: .seconds(10))
        defer { events.close() }
        guard case .initEventRequest(1) = try events.readPacket(while: "handshake") else {
            throw ViewfinderError(.malformedData, "no InitEventRequest for connection 1")
        }
        try events.send(.initEventAck, while: "handshake")
        let peer = Peer(command: command, events: events)
        let open = try peer.expectRequest(.openSession)
        try peer.respond(.ok, open.transactionID)
        let info = try peer.expectRequest(.getDeviceInfo)
        try peer.sendData(try deviceInfo.encoded(), info.transactionID)
        defer {
            // Keep both connections until the client lets go, so it sees the script's effects, not an early close.
            while (try? peer.waitForClient()) != nil, (try? command.readNext(while: "waiting for the close")) != nil {}
        }
        try script(peer)
        scriptDone.store(true, ordering: .releasing)
    }

    /// Waits until the script has finished and returns what went wrong in it.
    func recordedFailures() async throws -> [String] {
        try await waitUntil("the script to finish") {
            finished.load(ordering: .acquiring) || scriptDone.load(ordering: .acquiring)
        }
        return failures.withLock { $0 }
    }
}
