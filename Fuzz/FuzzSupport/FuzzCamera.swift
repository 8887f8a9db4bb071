import Dispatch
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The camera side of a fuzzer that connects a `PTPCamera`: answers each operation request on one end of a socket
/// pair as `answer` says, reading data-out phases first.
///
/// ``connectAndLook(answer:)`` runs a whole connection against one:
///
/// ```swift
/// FuzzCamera.connectAndLook { operation, _ in
///     operation == .getDeviceInfo ? .data(try! info.encoded()) : .ok
/// }
/// ```
public final class FuzzCamera: Sendable {
    /// What the camera answers a request with.
    public enum Answer: Sendable {
        /// OK, without data.
        case ok
        /// A data-in phase, then OK.
        case data([UInt8])
        /// A response other than OK, without data.
        case refuse(PTPResponseCode)
        /// OK, then the camera leaves: the answer to CloseSession.
        case closing
    }

    private let connection: PTPIPConnection
    private let answer: @Sendable (PTPOperationCode, [UInt32]) -> Answer

    /// A camera on `socket` that answers with `answer`, given each request's operation and parameters.
    package init(socket: Socket, answer: @escaping @Sendable (PTPOperationCode, [UInt32]) -> Answer) {
        connection = PTPIPConnection(socket: socket, timeout: .seconds(2))
        self.answer = answer
    }

    /// Answers requests until the client closes the session or the connection, or sends something else.
    public func serve() {
        defer { connection.close() }
        while case .operationRequest(let phase, let code, let id, let parameters)? = try? connection.readPacket(
            while: "fuzzing")
        {
            do {
                if phase == .dataOut {
                    _ = try connection.receiveDataPhase(
                        transactionID: id, maximumLength: 1 << 16, while: "a data phase")
                }
                switch answer(code, parameters) {
                case .ok:
                    try respond(.ok, id)
                case .data(let bytes):
                    try bytes.withUnsafeBytes {
                        try connection.sendDataPhase(transactionID: id, $0, chunkSize: 1 << 16, while: "fuzzing")
                    }
                    try respond(.ok, id)
                case .refuse(let code):
                    try respond(code, id)
                case .closing:
                    try respond(.ok, id)
                    return
                }
            } catch {
                return
            }
        }
    }

    private func respond(_ code: PTPResponseCode, _ transactionID: UInt32) throws(ViewfinderError) {
        try connection.send(
            .operationResponse(code: code, transactionID: transactionID, parameters: []), while: "fuzzing")
    }
}

extension FuzzCamera {
    static let transportConfiguration = PTPIPTransport.Configuration(
        clientName: "fuzz", clientGUID: .random(), responseTimeout: .seconds(2), eventProbeInterval: nil)

    /// Connects a `PTPCamera` to a camera that answers as `answer` says, over a socket pair, reads every property a
    /// dialect maps as an app would, disconnects, and checks that the camera and its dialect are released.
    ///
    /// A connection may fail; it must fail with a `ViewfinderError` other than a timeout, as a finite input never
    /// leaves the client waiting.
    public static func connectAndLook(answer: @escaping @Sendable (PTPOperationCode, [UInt32]) -> Answer) {
        guard let (near, far) = try? Socket.pair(), let (events, eventsPeer) = try? Socket.pair() else { return }
        let transport = PTPIPTransport(
            command: PTPIPConnection(
                socket: near, timeout: transportConfiguration.responseTimeout,
                maximumControlPacketLength: transportConfiguration.maximumControlPacketLength),
            events: PTPIPConnection(socket: events, timeout: transportConfiguration.responseTimeout),
            configuration: transportConfiguration)
        let camera = FuzzCamera(socket: far, answer: answer)
        guard let responder = try? PlatformThread(name: "fuzz-camera", camera.serve) else { return }
        weak var released: PTPCamera?
        do {
            let client = PTPCamera(endpoint: HarnessEndpoint(transport: transport))
            released = client
            let done = DispatchSemaphore(value: 0)
            Task {
                await connectAndLook(client)
                done.signal()
            }
            done.wait()
        }
        // The task lets go of the camera just after it signals: each input ends with the camera and its dialect gone,
        // so that leak checks see only what an input left behind.
        let deadline = ContinuousClock.now + .seconds(5)
        while released != nil, ContinuousClock.now < deadline { usleep(100) }
        precondition(released == nil, "the camera outlived its connection by five seconds")
        responder.join()
        eventsPeer.close()
    }

    /// The answers an input holds: each a two-byte little-endian length and that many bytes (fewer at the end).
    public static func answers(in input: some Collection<UInt8>) -> [[UInt8]] {
        let input = Array(input)
        var answers: [[UInt8]] = []
        var offset = 0
        while offset + 2 <= input.count {
            let length = Int(input[offset]) | Int(input[offset + 1]) << 8
            offset += 2
            let end = min(offset + length, input.count)
            answers.append(Array(input[offset..<end]))
            offset = end
        }
        return answers
    }

    /// Connects, reads every property the dialects map, and disconnects.
    static func connectAndLook(_ camera: PTPCamera) async {
        do {
            try await camera.connect()
        } catch let error as ViewfinderError {
            precondition(error.code != .timeout, "a finite input timed out: \(error.message)")
            return
        } catch {
            preconditionFailure("connect threw something other than a ViewfinderError: \(error)")
        }
        look(camera.property(for: .iso))
        look(camera.property(for: .aperture))
        look(camera.property(for: .shutterSpeed))
        look(camera.property(for: .exposureCompensation))
        look(camera.property(for: .autoExposureMode))
        look(camera.property(for: .whiteBalance))
        look(camera.property(for: .driveMode))
        look(camera.property(for: .focusMode))
        look(camera.property(for: .batteryLevel))
        look(camera.property(for: .shotsAvailable))
        _ = camera.supportedFunctionality
        try? await camera.disconnect()
    }

    /// Reads a property's value and valid values as an app shows them; every value the camera offers has a name.
    static func look<Value>(_ property: TypedCameraProperty<Value>) {
        _ = property.currentValue?.localizedDisplayValue
        _ = property.commonValue
        for value in property.validSettableValues {
            precondition(!value.localizedDisplayValue.isEmpty, "a valid value of \(property) has no name")
        }
    }
}

/// An endpoint whose transport is already open: a fuzzer's side of a socket pair.
public struct HarnessEndpoint: PTPEndpoint {
    let transport: PTPIPTransport

    /// Wraps `transport`.
    public init(transport: PTPIPTransport) {
        self.transport = transport
    }

    /// The endpoint for messages.
    public var description: String { "the fuzz camera" }

    /// The transport, as it is.
    public func openTransport() async throws -> any PTPTransport { transport }
}
