import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// Turns recorded connections into seed inputs for the fuzz targets.
///
/// The seeds go into one folder per target under ``directory``:
///
/// - `simulator`: what a client sent on a command connection, from its first packet;
/// - `ptp-client`: what the camera sent on a command connection after its InitCommandAck;
/// - `ptp-codec`: a selector byte (see `PTPCodecFuzzer.Decoder`) and each distinct packet, dataset, value, string
///   list, live view frame, Canon event data and whole stream;
/// - `canon-eos`: a Canon connection's GetEvent answers, each after its two-byte length.
///
/// Data phases longer than ``dataPhaseLimit`` are cut short (their StartData says so), so a downloaded photo becomes a
/// small seed and the streams stay within the fuzzers' input length.
struct CorpusWriter {
    /// The root of the corpora.
    let directory: String
    /// The longest data phase kept in a seed.
    static let dataPhaseLimit = 16 << 10

    /// The selector bytes of the codec fuzzer's decoders.
    enum Selector: UInt8 {
        case packet = 0
        case deviceInfo, propertyDescription, storageInfo, objectInfo, strings, value, liveViewFrame
        case stream
        case canonEOSEvents, canonEOSLiveViewFrame
    }

    /// Writes the seeds of one connection.
    ///
    /// - Returns: The number of new files.
    func write(_ connection: RecordedConnection) throws -> Int {
        let fromClient = Self.packets(connection.fromClient)
        let fromCamera = Self.packets(connection.fromCamera)
        let name = "\(connection.label)-\(connection.index)"
        var written = 0
        if case .initCommandRequest? = fromClient.first?.packet {
            written += try save(Self.compact(fromClient).flatMap(\.bytes), in: "simulator", named: name)
            var answers = fromCamera
            if case .initCommandAck? = answers.first?.packet { answers.removeFirst() }
            written += try save(Self.compact(answers).flatMap(\.bytes), in: "ptp-client", named: name)
            for seed in Self.datasets(requests: fromClient, answers: fromCamera) {
                written += try save(seed, in: "ptp-codec")
            }
            written += try save(
                Self.canonEOSEvents(requests: fromClient, answers: fromCamera), in: "canon-eos", named: name)
        }
        for stream in [fromClient, fromCamera] where !stream.isEmpty {
            let compacted = Self.compact(stream)
            for packet in compacted {
                written += try save([Selector.packet.rawValue] + packet.bytes, in: "ptp-codec")
            }
            written += try save([Selector.stream.rawValue, 0] + compacted.flatMap(\.bytes), in: "ptp-codec")
        }
        return written
    }

    /// A packet as it was on the wire, and decoded.
    struct Framed {
        var bytes: [UInt8]
        var packet: PTPIPPacket?
    }

    /// Splits a recorded stream into packets, dropping an incomplete last one.
    static func packets(_ stream: [UInt8]) -> [Framed] {
        var packets: [Framed] = []
        var offset = 0
        while stream.count - offset >= PTPIPPacket.headerLength {
            let length = stream[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard length >= PTPIPPacket.headerLength, length <= stream.count - offset else { break }
            let bytes = Array(stream[offset..<offset + length])
            packets.append(Framed(bytes: bytes, packet: try? PTPIPPacket.decode(bytes)))
            offset += length
        }
        return packets
    }

    /// Cuts every data phase down to ``dataPhaseLimit`` bytes.
    static func compact(_ packets: [Framed]) -> [Framed] {
        var left: [UInt32: Int] = [:]
        var compacted: [Framed] = []
        for framed in packets {
            var packet = framed.packet
            switch framed.packet {
            case .startData(let id, let total):
                let kept = min(total, UInt64(dataPhaseLimit))
                left[id] = Int(kept)
                packet = .startData(transactionID: id, totalLength: kept)
            case .data(let id, let payload), .endData(let id, let payload):
                let room = left[id] ?? payload.count
                let kept = Array(payload.prefix(room))
                left[id] = room - kept.count
                if case .data = framed.packet {
                    guard !kept.isEmpty else { continue }
                    packet = .data(transactionID: id, payload: kept)
                } else {
                    packet = .endData(transactionID: id, payload: kept)
                }
            default:
                break
            }
            guard let packet, let bytes = try? packet.encoded() else {
                compacted.append(framed)
                continue
            }
            compacted.append(Framed(bytes: bytes, packet: packet))
        }
        return compacted
    }

    /// A command connection's transactions with a data-in phase, in order: the operation, its parameters and the data.
    static func dataInPhases(requests: [Framed], answers: [Framed]) -> [(
        operation: PTPOperationCode, parameters: [UInt32], data: [UInt8]
    )] {
        var operations: [UInt32: (PTPOperationCode, [UInt32])] = [:]
        for case .some(.operationRequest(_, let code, let id, let parameters)) in requests.map(\.packet) {
            operations[id] = (code, parameters)
        }
        var dataIn: [UInt32: [UInt8]] = [:]
        for case .some(let packet) in answers.map(\.packet) {
            if case .data(let id, let payload) = packet { dataIn[id, default: []] += payload }
            if case .endData(let id, let payload) = packet { dataIn[id, default: []] += payload }
        }
        return dataIn.keys.sorted().compactMap { id in
            guard let (operation, parameters) = operations[id], let data = dataIn[id] else { return nil }
            return (operation, parameters, data)
        }
    }

    /// The Canon EOS fuzzer's seed in a command connection: its GetEvent answers, each after its two-byte length.
    static func canonEOSEvents(requests: [Framed], answers: [Framed]) -> [UInt8] {
        dataInPhases(requests: requests, answers: answers).filter { $0.operation == .canonEOSGetEvent }.flatMap {
            let data = $0.data.prefix(0xFFFF)
            return [UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data
        }
    }

    /// The codec seeds in a command connection's data phases: datasets, values, strings, live view frames and Canon
    /// events.
    static func datasets(requests: [Framed], answers: [Framed]) -> [[UInt8]] {
        var operations: [UInt32: (PTPOperationCode, [UInt32])] = [:]
        var dataOut: [UInt32: [UInt8]] = [:]
        for case .some(let packet) in requests.map(\.packet) {
            switch packet {
            case .operationRequest(_, let code, let id, let parameters):
                operations[id] = (code, parameters)
            case .data(let id, let payload), .endData(let id, let payload):
                dataOut[id, default: []] += payload
            default:
                break
            }
        }
        var types: [UInt32: PTPDataType] = [:]
        var strings: [String] = []
        var seeds: [[UInt8]] = []
        for (operation, parameters, data) in dataInPhases(requests: requests, answers: answers) {
            switch operation {
            case .getDeviceInfo:
                seeds.append([Selector.deviceInfo.rawValue] + data)
                if let info = try? PTPDeviceInfo(decoding: data) {
                    strings += [info.manufacturer, info.model, info.deviceVersion, info.serialNumber]
                }
            case .getDevicePropDesc:
                seeds.append([Selector.propertyDescription.rawValue] + data)
                if let description = try? PTPDevicePropertyDescription(decoding: data) {
                    types[UInt32(description.code.rawValue)] = description.dataType
                }
            case .getStorageInfo:
                seeds.append([Selector.storageInfo.rawValue] + data)
                if let info = try? PTPStorageInfo(decoding: data) {
                    strings += [info.storageDescription, info.volumeLabel]
                }
            case .getObjectInfo:
                seeds.append([Selector.objectInfo.rawValue] + data)
                if let info = try? PTPObjectInfo(decoding: data) { strings += [info.filename, info.captureDate] }
            case .getDevicePropValue:
                if let code = parameters.first, let type = types[code] { seeds.append(value(data, of: type)) }
            case .nikonGetLiveViewImage where data.count <= dataPhaseLimit:
                seeds.append([Selector.liveViewFrame.rawValue] + data)
            case .canonEOSGetEvent:
                seeds.append([Selector.canonEOSEvents.rawValue] + data)
            case .canonEOSGetViewFinderData where data.count <= dataPhaseLimit:
                seeds.append([Selector.canonEOSLiveViewFrame.rawValue] + data)
            default:
                break
            }
        }
        for (id, data) in dataOut {
            if let (operation, parameters) = operations[id], operation == .setDevicePropValue,
                let code = parameters.first, let type = types[code]
            {
                seeds.append(value(data, of: type))
            }
        }
        var writer = PTPDataWriter()
        for string in Set(strings).sorted() {
            try? writer.append(string: string)
        }
        seeds.append([Selector.strings.rawValue] + writer.bytes)
        return seeds
    }

    private static func value(_ data: [UInt8], of type: PTPDataType) -> [UInt8] {
        [Selector.value.rawValue, UInt8(type.rawValue & 0xFF), UInt8(type.rawValue >> 8)] + data
    }

    /// Writes a seed unless an identical one exists; unnamed seeds are named after their content.
    ///
    /// - Returns: 1 for a new file, 0 otherwise.
    private func save(_ bytes: [UInt8], in target: String, named name: String? = nil) throws -> Int {
        guard !bytes.isEmpty else { return 0 }
        let folder = directory + "/" + target
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else {
            throw ViewfinderError.system(errno: errno, "creating \(folder)")
        }
        let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let path = folder + "/" + (name ?? String(hash, radix: 16))
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            guard errno == EEXIST else { throw ViewfinderError.system(errno: errno, "creating \(path)") }
            return 0
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw ViewfinderError.system(errno: errno, "writing \(path)") }
            written += count
        }
        return 1
    }
}
