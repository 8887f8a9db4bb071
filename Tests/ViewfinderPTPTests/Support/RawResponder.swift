import ViewfinderCore
import ViewfinderSystem

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// A listener on loopback whose script gets the raw connections, for peers that break the protocol before a session
/// exists: silence, refusals, an event connection that is never accepted.
///
/// The script runs on a thread of its own with the listener; connections it accepts stay open until the client
/// closes them (or ``ScriptedResponder/patience`` passes), so the client sees the script's effects, not an early close.
final class RawResponder: Sendable {
    /// What the script gets.
    struct Peer {
        let listener: Socket

        /// Accepts the next connection.
        func accept() throws -> PTPIPConnection {
            guard let socket = try listener.accept(timeout: ScriptedResponder.patience) else {
                throw ViewfinderError(.timeout, "no client connected")
            }
            return PTPIPConnection(socket: socket, timeout: .seconds(10))
        }

        /// Accepts a command connection and answers its InitCommandRequest with an InitCommandAck for connection 1.
        func acceptCommandConnection(name: String = "Raw") throws -> PTPIPConnection {
            let command = try accept()
            guard case .initCommandRequest = try command.readPacket(while: "handshake") else {
                throw ViewfinderError(.malformedData, "no InitCommandRequest")
            }
            try command.send(
                .initCommandAck(connectionNumber: 1, guid: .random(), name: name, version: 0x0001_0000),
                while: "handshake")
            return command
        }

        /// Keeps `connection` open until the client closes it.
        func hold(_ connection: PTPIPConnection) {
            while (try? connection.waitForData(timeout: ScriptedResponder.patience, while: "hold"))
                != nil, (try? connection.skipPayload(1, while: "hold")) != nil
            {}
            connection.close()
        }
    }

    let port: UInt16
    private let failures = Locked<[String]>([])

    /// Starts listening and runs `script` on a thread of its own.
    init(_ script: @escaping @Sendable (Peer) throws -> Void) throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        port = listener.localPort
        try IOThread.detach(name: "responder\(port)") { [failures] in
            do {
                try script(Peer(listener: listener))
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            listener.close()
        }
    }

    /// What went wrong in the script so far.
    var recordedFailures: [String] { failures.withLock { $0 } }
}
