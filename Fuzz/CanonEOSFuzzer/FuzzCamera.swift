import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// The camera side of the Canon EOS fuzzer: answers a connection's operations, with GetEvent answers from the input.
final class FuzzCamera: Sendable {
    private let answers: Locked<[[UInt8]]>
    private let connection: PTPIPConnection

    /// A camera on `socket` whose GetEvent answers are `answers`, then empty event lists.
    init(answers: [[UInt8]], socket: Socket) {
        self.answers = Locked(answers.reversed())
        connection = PTPIPConnection(socket: socket, timeout: .seconds(2))
    }

    /// Answers requests until the client closes the session or the connection.
    func serve() {
        defer { connection.close() }
        while let (phase, code, transactionID) = nextRequest() {
            do {
                if phase == .dataOut {
                    _ = try connection.receiveDataPhase(
                        transactionID: transactionID, maximumLength: 1 << 16, while: "a property set")
                }
                switch code {
                case .openSession, .canonEOSSetRemoteMode, .canonEOSSetEventMode, .canonEOSSetDevicePropValueEx,
                    .canonEOSRemoteReleaseOn, .canonEOSRemoteReleaseOff:
                    try respond(.ok, transactionID)
                case .closeSession:
                    try respond(.ok, transactionID)
                    return
                case .getDeviceInfo:
                    try send(try CanonEOSFuzzer.deviceInfo.encoded(), transactionID)
                case .canonEOSGetEvent:
                    let answer = answers.withLock { $0.popLast() } ?? PTPCanonEOSEvent.encode([])
                    try send(answer, transactionID)
                default:
                    try respond(.operationNotSupported, transactionID)
                }
            } catch {
                return
            }
        }
    }

    /// The next operation request, or `nil` once the client has gone or sent something else.
    private func nextRequest() -> (PTPIPDataPhase, PTPOperationCode, UInt32)? {
        guard case .operationRequest(let phase, let code, let id, _)? = try? connection.readPacket(while: "fuzzing")
        else { return nil }
        return (phase, code, id)
    }

    private func respond(_ code: PTPResponseCode, _ transactionID: UInt32) throws(ViewfinderError) {
        try connection.send(
            .operationResponse(code: code, transactionID: transactionID, parameters: []), while: "fuzzing")
    }

    private func send(_ data: [UInt8], _ transactionID: UInt32) throws {
        try data.withUnsafeBytes { bytes in
            try connection.sendDataPhase(transactionID: transactionID, bytes, chunkSize: 1 << 16, while: "fuzzing")
        }
        try respond(.ok, transactionID)
    }
}
