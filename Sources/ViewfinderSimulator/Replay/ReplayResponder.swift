import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Answers a client as the camera of a ``RecordedCamera`` did.
///
/// - GetDeviceInfo gets the recorded DeviceInfo; OpenSession and CloseSession get what the log shows, or OK when it
///   shows nothing (many logs start after the session opened).
/// - A request gets the recorded data and response of a transaction with the same operation and parameters
///   (trailing zero parameters aside), or of one whose request the log does not show; the transaction IDs are the
///   client's. Several recordings of one request are played in order, the last one again after that.
/// - Polls (Canon's GetEvent, Nikon's CheckEvent) get the recorded answers in order, then answers that hold
///   nothing new.
/// - Anything else gets OperationNotSupported.
///
/// What the replay played is counted per operation (``played``), for checks. A new session (OpenSession, or a new
/// connection) starts the recording again from its beginning.
final class ReplayResponder: SimulatorResponder {
    let recording: RecordedCamera
    let deviceInfo: PTPDeviceInfo
    private let deviceInfoBytes: [UInt8]
    private let pollOperations: Set<PTPOperationCode>
    private let dataOutOperations: Set<UInt16>
    private let cursors = Locked<[Request: Int]>([:])
    /// How many requests came in all, how many of each operation got recorded answers, and how many got
    /// OperationNotSupported.
    let played = Locked<(requests: Int, answered: [PTPOperationCode: Int], refused: [PTPOperationCode: Int])>(
        (0, [:], [:]))

    init(recording: RecordedCamera) throws(ViewfinderError) {
        self.recording = recording
        deviceInfo = recording.deviceInfo
        if let recorded = recording.transactions.first(where: { $0.operation == .getDeviceInfo && $0.dataIn != nil }),
            !recording.deviceInfoIsFromListing, let bytes = recorded.dataIn
        {
            deviceInfoBytes = bytes
        } else {
            deviceInfoBytes = try deviceInfo.encoded()
        }
        let vendor = deviceInfo.manufacturer.lowercased()
        var polls: Set<PTPOperationCode> = []
        if deviceInfo.vendorExtensionID == 0x0B || vendor.contains("canon") { polls.insert(.canonEOSGetEvent) }
        if deviceInfo.vendorExtensionID == 0x0A || vendor.contains("nikon") { polls.insert(.nikonCheckEvent) }
        pollOperations = polls
        dataOutOperations = Set(recording.transactions.filter { $0.dataOut != nil }.map(\.operation.rawValue))
            .union(SimulatorUSBFunction.dataOutOperations)
    }

    func expectsDataOut(_ code: UInt16) -> Bool {
        dataOutOperations.contains(code)
    }

    func respond(to request: SimulatorRequest, in context: any SimulatorSessionContext) -> SimulatorReply {
        played.withLock { $0.requests += 1 }
        switch request.code {
        case .getDeviceInfo:
            return .data(deviceInfoBytes)
        case .openSession:
            // A new session plays the recording from its start, over USB too, where one device serves many.
            endSession()
            return recorded(request) ?? .ok
        case .closeSession:
            return recorded(request) ?? .ok
        default:
            if let reply = recorded(request) { return reply }
            if pollOperations.contains(request.code) { return count(request, emptyPoll(request.code)) }
            played.withLock { $0.refused[request.code, default: 0] += 1 }
            return SimulatorReply(code: .operationNotSupported)
        }
    }

    func endSession() {
        cursors.withLock { $0 = [:] }
    }

    /// The recorded answer to `request`, moving on to the next recording of the same request.
    private func recorded(_ request: SimulatorRequest) -> SimulatorReply? {
        let asked = Self.trimmed(request.parameters)
        let matches = recording.transactions.filter { transaction in
            transaction.operation == request.code && (transaction.parameters.map(Self.trimmed) ?? asked) == asked
        }
        guard !matches.isEmpty else { return nil }
        let isPoll = pollOperations.contains(request.code)
        let key = Request(code: request.code, parameters: asked)
        let index = cursors.withLock { cursors in
            let next = cursors[key, default: 0]
            cursors[key] = next + 1
            return next
        }
        if index >= matches.count && isPoll { return nil }
        let transaction = matches[min(index, matches.count - 1)]
        let reply = SimulatorReply(
            code: transaction.response ?? .ok, parameters: transaction.responseParameters,
            data: transaction.dataIn.map { SimulatorPayload.bytes($0) })
        return count(request, reply)
    }

    private func count(_ request: SimulatorRequest, _ reply: SimulatorReply) -> SimulatorReply {
        played.withLock { $0.answered[request.code, default: 0] += 1 }
        return reply
    }

    /// The answer to a poll when nothing new happened.
    private func emptyPoll(_ code: PTPOperationCode) -> SimulatorReply {
        switch code {
        case .canonEOSGetEvent: .data([8, 0, 0, 0, 0, 0, 0, 0])
        default: .data([0, 0])
        }
    }

    /// A request, as the replay tells recordings apart.
    private struct Request: Hashable {
        var code: PTPOperationCode
        var parameters: [UInt32]
    }

    private static func trimmed(_ parameters: [UInt32]) -> [UInt32] {
        Array(parameters.reversed().drop { $0 == 0 }.reversed())
    }
}
