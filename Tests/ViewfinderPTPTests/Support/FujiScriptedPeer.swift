import Synchronization
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// A Fujifilm WiFi camera on loopback that follows a script: it accepts the command connection and runs the script
/// from there (the init included), listening on the event and live view ports only when the script says.
///
/// Waits for the test's next step use ``ScriptedResponder/patience``, as ScriptedResponder's do.
final class FujiScriptedPeer: Sendable {
    /// The camera's side of the connections.
    final class Peer: @unchecked Sendable {
        let command: PTPIPConnection
        /// The event and live view ports, bound and not listening until the script says.
        let reserved: (event: Socket, liveView: Socket)
        private(set) var events: PTPIPConnection?
        private(set) var liveView: PTPIPConnection?

        init(command: PTPIPConnection, reserved: (event: Socket, liveView: Socket)) {
            self.command = command
            self.reserved = reserved
        }

        deinit {
            events?.close()
            liveView?.close()
        }

        /// Reads an init request: its length word, then as many bytes as it says (at most 1 KiB).
        func readInit() throws -> [UInt8] {
            try command.waitForData(timeout: ScriptedResponder.patience, while: "waiting for the init")
            let head = try FujiWiFiTransport.read(4, from: command, while: "reading the init")
            let length = Int(head.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian })
            guard length >= 4, length <= 1 << 10 else { throw ViewfinderError(.malformedData, "init of \(length)") }
            return head + (try FujiWiFiTransport.read(length - 4, from: command, while: "reading the init"))
        }

        /// Accepts the init with an acknowledgement zero-padded to `length` bytes, as the cameras send it.
        func acknowledge(name: String = "X-T4", paddedTo length: Int = 68) throws {
            var writer = PTPDataWriter()
            writer.append(UInt32(length))
            writer.append(UInt32(2))
            writer.append(UInt32(1))
            writer.append(bytes: [UInt8](repeating: 0x5A, count: 16))
            for unit in name.utf16 { writer.append(unit) }
            var bytes = writer.bytes
            bytes += [UInt8](repeating: 0, count: max(0, length - bytes.count))
            try send(bytes, on: command)
        }

        /// Refuses the init with an InitFail packet.
        func refuse(_ reason: PTPIPInitFailReason) throws {
            var writer = PTPDataWriter()
            for word in [12, 5, reason.rawValue] as [UInt32] { writer.append(word) }
            try send(writer.bytes, on: command)
        }

        /// Reads the next container on the command connection, with its payload.
        func expect(_ kind: FujiWiFiPacket.Kind, _ code: PTPOperationCode? = nil) throws -> (
            header: FujiWiFiPacket.Header, payload: [UInt8]
        ) {
            try command.waitForData(timeout: ScriptedResponder.patience, while: "waiting for the client")
            let header = try FujiWiFiTransport.readHeader(from: command, while: "test")
            let payload = try FujiWiFiTransport.read(header.payloadLength, from: command, while: "test")
            guard header.kind == kind, code == nil || code?.rawValue == header.code else {
                throw ViewfinderError(.malformedData, "expected \(kind) \(code.map { "\($0)" } ?? ""), got \(header)")
            }
            return (header, payload)
        }

        /// Reads a command container and returns its transaction ID.
        func expectRequest(_ code: PTPOperationCode) throws -> UInt32 {
            try expect(.command, code).header.transactionID
        }

        /// Answers a transaction.
        func respond(_ code: PTPResponseCode = .ok, _ transactionID: UInt32, parameters: [UInt32] = []) throws {
            try send(
                FujiWiFiPacket.container(
                    .response, code: code.rawValue, transactionID: transactionID, parameters: parameters),
                on: command)
        }

        /// Sends a data-in phase as one data container, then OK.
        func sendData(_ bytes: [UInt8], _ code: PTPOperationCode, _ transactionID: UInt32) throws {
            let header = FujiWiFiPacket.Header(
                length: 12 + bytes.count, kind: .data, code: code.rawValue, transactionID: transactionID)
            try send(header.bytes + bytes, on: command)
            try respond(.ok, transactionID)
        }

        /// Answers OpenSession and GetDeviceInfo.
        func openSession(deviceInfo: PTPDeviceInfo = ScriptedResponder.deviceInfo) throws {
            try respond(.ok, try expectRequest(.openSession))
            try sendData(try deviceInfo.encoded(), .getDeviceInfo, try expectRequest(.getDeviceInfo))
        }

        /// Reads the init, acknowledges it, and answers OpenSession and GetDeviceInfo.
        func accept(deviceInfo: PTPDeviceInfo = ScriptedResponder.deviceInfo) throws {
            _ = try readInit()
            try acknowledge()
            try openSession(deviceInfo: deviceInfo)
        }

        /// Starts listening on the event port, as the camera does once remote capture starts, runs `meanwhile`, and
        /// accepts the client.
        func acceptEvents(meanwhile: () throws -> Void = {}) throws {
            events = try accept(on: reserved.event, meanwhile: meanwhile)
        }

        /// Starts listening on the live view port and accepts the client.
        func acceptLiveView() throws {
            liveView = try accept(on: reserved.liveView)
        }

        /// Sends an event container.
        func sendEvent(_ code: PTPEventCode, parameters: [UInt32]) throws {
            guard let events else { throw ViewfinderError(.notConnected, "no event connection") }
            try send(
                FujiWiFiPacket.container(
                    .event, code: code.rawValue, transactionID: 0xFFFF_FFFF, parameters: parameters), on: events)
        }

        /// Pushes a live view frame: its length (or the one given), a 14-byte header, the JPEG.
        func sendFrame(_ jpeg: [UInt8], claiming length: UInt32? = nil) throws {
            guard let liveView else { throw ViewfinderError(.notConnected, "no live view connection") }
            var writer = PTPDataWriter()
            writer.append(length ?? UInt32(18 + jpeg.count))
            writer.append(bytes: [UInt8](repeating: 0, count: 12) + [0x01, 0x8A])
            writer.append(bytes: jpeg)
            try send(writer.bytes, on: liveView)
        }

        /// Waits until the client closes the command connection, answering CloseSession and dropping the rest.
        func waitForClose() {
            while let (header, _) = try? expect(.command) {
                if header.code == PTPOperationCode.closeSession.rawValue {
                    try? respond(.ok, header.transactionID)
                }
            }
        }

        private func accept(on listener: Socket, meanwhile: () throws -> Void = {}) throws -> PTPIPConnection {
            try listener.listen()
            defer { listener.close() }
            try meanwhile()
            guard let socket = try listener.accept(timeout: ScriptedResponder.patience) else {
                throw ViewfinderError(.timeout, "the client did not connect to port \(listener.localPort)")
            }
            return PTPIPConnection(socket: socket, timeout: .seconds(10))
        }

        private func send(_ bytes: [UInt8], on connection: PTPIPConnection) throws {
            try io { () throws(SocketError) in try connection.socket.send(bytes, timeout: .seconds(10), while: "test") }
        }
    }

    /// The command port.
    let port: UInt16
    /// The event and live view ports, on which nothing listens until the script says.
    let ports: (event: UInt16, liveView: UInt16)
    private let failures = Locked<[String]>([])
    private let finished = Atomic(false)

    /// The transport configuration for this peer, with short waits for a channel that does not open.
    func configuration(responseTimeout: Duration = .seconds(5)) -> FujiWiFiTransport.Configuration {
        FujiWiFiTransport.Configuration(
            commandPort: port, eventPort: ports.event, liveViewPort: ports.liveView, clientName: "Fuji peer tests",
            responseTimeout: responseTimeout, channelOpenTimeout: .seconds(1), initRetryPause: .milliseconds(10))
    }

    /// Starts listening on a free port and runs `script` once a client has connected.
    init(script: @escaping @Sendable (Peer) throws -> Void) throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        let reserved = (try Self.reservedPort(), try Self.reservedPort())
        ports = (reserved.0.localPort, reserved.1.localPort)
        try IOThread.detach(name: "fujipeer\(port)") { [self] in
            do {
                defer {
                    listener.close()
                    reserved.0.close()
                    reserved.1.close()
                }
                guard let socket = try listener.accept(timeout: ScriptedResponder.patience) else { return }
                let peer = Peer(
                    command: PTPIPConnection(socket: socket, timeout: .seconds(10)),
                    reserved: (event: reserved.0, liveView: reserved.1))
                defer { peer.command.close() }
                try script(peer)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            finished.store(true, ordering: .releasing)
        }
    }

    /// A free port, bound and not listening: connections to it are refused until the script listens, and no other
    /// socket (another test's camera, or a connection's own end) takes it meanwhile.
    private static func reservedPort() throws -> Socket {
        try Socket.bound(host: "127.0.0.1", port: 0, reusingAddress: false)
    }

    /// Waits until the script has finished and returns what went wrong in it.
    func recordedFailures() async throws -> [String] {
        try await waitUntil("the script to finish") { finished.load(ordering: .acquiring) }
        return failures.withLock { $0 }
    }
}
