import FuzzSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// Fuzzes Fujifilm's WiFi framing and the Fuji dialect's property tables: what a camera sends on the command port
/// (its answer to the init, then containers), on the live view port (frames), the DevicePropDesc datasets the
/// dialect decodes, CurrentState's list of changed properties, which the dialect polls, and the answer to Fuji
/// GetDeviceInfo (0x902B), whose descriptions the dialect reads at connect.
///
/// The input is a sequence of parts, each a two-byte little-endian length and that many bytes: the first is the
/// command connection's stream, the second the live view connection's, the rest property descriptions. On the command
/// connection the client sends the init and, once accepted, GetDevicePropDesc requests until the stream ends, reading
/// each answer's data phase and response; on the live view connection it reads the newest frame until the stream
/// ends; each description is decoded with every Fuji binding's table, and read as a CurrentState value and as a 0x902B
/// answer too.
///
/// What must hold: a finite stream ends in a `ViewfinderError` other than a timeout; a frame returned is a JPEG no
/// longer than the limit; a data phase returns no more bytes than it announced; a value offered as settable is never
/// unknown; a CurrentState value lists as many properties as it counts, each in the bytes it has; a 0x902B answer read
/// has at least 8 bytes and no more descriptions than it counts, each entry in the bytes it has. Errors are expected;
/// crashes, hangs and leaks are bugs.
@main enum FujiFuzzer {
    static func main() {
        FuzzEntry.run(fuzz)
    }

    static let configuration = FujiWiFiTransport.Configuration(
        clientName: "fuzz", clientGUID: .zero, responseTimeout: .seconds(2), maximumLiveViewFrameLength: 1 << 16)

    static func fuzz(_ input: [UInt8]) {
        let parts = FuzzCamera.answers(in: input)
        guard let commandStream = parts.first else { return }
        guard let transport = transactions(over: commandStream) else { return }
        if parts.count > 1 {
            frames(from: parts[1], on: transport)
        }
        for description in parts.dropFirst(2) {
            decode(description)
            changedProperties(description)
            propertyDescriptions(description)
        }
        transport.close(gracefully: false)
    }

    /// Runs the init and GetDevicePropDesc transactions over a stream; returns the transport when the init was
    /// accepted.
    static func transactions(over stream: [UInt8]) -> FujiWiFiTransport? {
        guard let (near, far) = try? Socket.pair(), let feeder = try? StreamFeeder(far, sending: stream) else {
            return nil
        }
        defer { feeder.finish() }
        let command = PTPIPConnection(socket: near, timeout: configuration.responseTimeout)
        let answer: FujiWiFiPacket.InitAnswer
        do {
            answer = try FujiWiFiTransport.initialize(command, endpoint: "fuzz", configuration: configuration)
        } catch {
            precondition(error.code != .timeout, "the init over a finite stream timed out: \(error.message)")
            command.close()
            return nil
        }
        guard case .accepted(let acceptance) = answer else {
            command.close()
            return nil
        }
        let transport = FujiWiFiTransport(
            endpoint: "fuzz", host: "fuzz", configuration: configuration, command: command, acceptance: acceptance)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var id: UInt32 = 1
        do throws(ViewfinderError) {
            while true {
                try transport.send(
                    PTPRequest(code: .getDevicePropDesc, transactionID: id, parameters: [0x500F]), hasDataOut: false)
                if case .data(let total) = try transport.receivePhase(of: id) {
                    var received = 0
                    while true {
                        let count = try typedThrows {
                            try buffer.withUnsafeMutableBytes { try transport.receiveData(into: $0) }
                        }
                        if count == 0 { break }
                        received += count
                    }
                    precondition(total == nil || received == total, "\(received) bytes of a phase of \(total ?? -1)")
                    _ = try transport.receivePhase(of: id)
                }
                id += 1
            }
        } catch {
            precondition(error.code != .timeout, "transactions over a finite stream timed out: \(error.message)")
        }
        command.socket.shutdown()
        return transport
    }

    /// Reads live view frames from a stream until it ends.
    static func frames(from stream: [UInt8], on transport: FujiWiFiTransport) {
        guard let (near, far) = try? Socket.pair(), let feeder = try? StreamFeeder(far, sending: stream) else { return }
        defer { feeder.finish() }
        let connection = PTPIPConnection(socket: near, timeout: configuration.responseTimeout)
        transport.adoptLiveView(connection)
        do throws(ViewfinderError) {
            while true {
                let frame = try transport.nextLiveViewFrame()
                precondition(frame.count <= configuration.maximumLiveViewFrameLength, "a frame beyond the limit")
                precondition(frame.starts(with: [0xFF, 0xD8]), "a frame that is not a JPEG")
            }
        } catch {
            precondition(error.code != .timeout, "frames over a finite stream timed out: \(error.message)")
        }
        near.shutdown()
    }

    /// Reads a part as CurrentState's value, as the dialect reads each poll's answer.
    static func changedProperties(_ bytes: [UInt8]) {
        guard let listed = try? FujiPropertyValues.changedProperties(inCurrentState: bytes) else { return }
        let count = bytes.count >= 2 ? Int(bytes[0]) | Int(bytes[1]) << 8 : 0
        precondition(listed.count == count, "\(listed.count) properties of a list that counts \(count)")
        precondition(2 + 6 * count <= max(bytes.count, 2), "\(count) properties in \(bytes.count) bytes")
    }

    /// Reads a part as the answer to Fuji GetDeviceInfo (0x902B), as the dialect reads it at connect.
    static func propertyDescriptions(_ bytes: [UInt8]) {
        guard let described = try? FujiPropertyValues.propertyDescriptions(inDeviceInfo: bytes) else { return }
        precondition(bytes.count >= 8, "a 0x902B answer of \(bytes.count) bytes was read")
        let count = bytes.prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        precondition(described.count <= count, "\(described.count) descriptions of an answer that counts \(count)")
        precondition(4 + 4 * count <= bytes.count, "\(count) entries in \(bytes.count) bytes")
    }

    /// Decodes a description's current value and every value of its form with each of the Fuji tables.
    static func decode(_ bytes: [UInt8]) {
        guard let description = try? PTPDevicePropertyDescription(decoding: bytes) else { return }
        var raws = [description.currentValue.integerValue]
        if case .enumeration(let values) = description.form {
            raws += values.map(\.integerValue)
        }
        for raw in raws.compactMap({ $0 }) {
            precondition(!FujiPropertyValues.iso(raw).localizedDisplayValue.isEmpty, "an ISO without a name")
            precondition(!FujiPropertyValues.shutterSpeed(raw).localizedDisplayValue.isEmpty, "a time without a name")
            let film = FujiPropertyValues.filmSimulation(raw)
            precondition(film.isUnknown == (film.commonValue == nil), "a film simulation known without a meaning")
        }
        if case .string(let text) = description.currentValue, let percent = FujiPropertyValues.batteryPercent(text) {
            precondition((0...100).contains(percent), "a battery level of \(percent)")
        }
    }
}
