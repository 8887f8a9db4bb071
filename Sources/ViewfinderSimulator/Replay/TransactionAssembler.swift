import ViewfinderCore
import ViewfinderPTP

/// Puts a log's hexdumps together into transactions: USB containers or PTP/IP packets first, then requests, data
/// phases and responses matched by their transaction IDs.
///
/// Only what is whole is kept. A transaction whose data phase is cut short, or whose bytes the log left out, is
/// dropped and noted; one whose request the log does not show is kept when its USB data container names the
/// operation (its parameters are then unknown).
struct TransactionAssembler {
    private(set) var transactions: [RecordedTransaction] = []
    private(set) var notes: [String] = []
    /// The transaction each transaction ID belongs to, until its response.
    private var open: [UInt32: Int] = [:]
    /// Transactions whose data phase the log does not hold whole.
    private var broken: Set<Int> = []

    /// The longest container or packet believed: anything longer in a log is not a camera's container.
    static let maximumLength = 1 << 28

    /// The transactions, without the broken ones.
    var wholeTransactions: [RecordedTransaction] {
        transactions.indices.filter { !broken.contains($0) }.map { transactions[$0] }
    }

    // MARK: USB

    /// Reads USB containers: a 12-byte header (length, type, code, transaction ID), then parameters or data.
    ///
    /// A data container may span several reads, each dumped on its own.
    mutating func readUSB(_ items: [GPhotoDebugLog.Item]) {
        var pending: (direction: GPhotoDebugLog.Direction, length: Int, bytes: [UInt8], line: Int)?
        for case .dump(let dump) in items {
            var bytes = dump.bytes[...]
            if var container = pending {
                pending = nil
                let sameWay =
                    dump.direction == container.direction || dump.direction == .unknown
                    || container.direction == .unknown
                if sameWay && dump.isWhole {
                    let count = min(bytes.count, container.length - container.bytes.count)
                    container.bytes += bytes.prefix(count)
                    bytes = bytes.dropFirst(count)
                    guard container.bytes.count == container.length else {
                        pending = container
                        continue
                    }
                    usbContainer(container.bytes[...], direction: container.direction, line: container.line)
                } else {
                    markBroken(usbHeaderOf: container.bytes[...])
                    note(container.line, "a container of \(container.length) bytes ends after \(container.bytes.count)")
                    if sameWay { continue }
                }
            }
            while !bytes.isEmpty {
                guard let (length, type) = Self.usbHeader(bytes) else {
                    note(dump.line, "\(bytes.count) bytes start no container (the log leaves out where they begin)")
                    break
                }
                guard dump.isWhole else {
                    markBroken(usbHeaderOf: bytes)
                    note(dump.line, "the hexdump is not whole")
                    break
                }
                let direction: GPhotoDebugLog.Direction =
                    switch type {
                    case 1: .toCamera
                    case 2: dump.direction == .unknown ? .fromCamera : dump.direction
                    default: .fromCamera
                    }
                guard bytes.count >= length else {
                    pending = (direction, length, Array(bytes), dump.line)
                    break
                }
                usbContainer(bytes.prefix(length), direction: direction, line: dump.line)
                bytes = bytes.dropFirst(length)
            }
        }
        if let container = pending {
            markBroken(usbHeaderOf: container.bytes[...])
            note(container.line, "a container of \(container.length) bytes ends after \(container.bytes.count)")
        }
    }

    /// The length and type of the USB container `bytes` start with, if they start one.
    static func usbHeader(_ bytes: ArraySlice<UInt8>) -> (length: Int, type: UInt16)? {
        guard bytes.count >= 12 else { return nil }
        let length = Int(bytes.littleEndian(UInt32.self, at: 0))
        let type = bytes.littleEndian(UInt16.self, at: 4)
        guard (1...4).contains(type), length >= 12, length <= maximumLength else { return nil }
        if type != 2, length > 12 + 4 * PTPRequest.maximumParameterCount || length % 4 != 0 { return nil }
        return (length, type)
    }

    private mutating func usbContainer(
        _ bytes: ArraySlice<UInt8>, direction: GPhotoDebugLog.Direction, line: Int
    ) {
        let type = bytes.littleEndian(UInt16.self, at: 4)
        let code = bytes.littleEndian(UInt16.self, at: 6)
        let id = bytes.littleEndian(UInt32.self, at: 8)
        let payload = bytes.dropFirst(12)
        switch type {
        case 1: request(code, id, parameters: Self.words(payload), line: line)
        case 2: data(of: code, id, Array(payload), direction: direction, line: line)
        case 3: response(code, id, parameters: Self.words(payload))
        default: break
        }
    }

    private mutating func markBroken(usbHeaderOf bytes: ArraySlice<UInt8>) {
        guard let (_, type) = Self.usbHeader(bytes), type == 2 else { return }
        let code = bytes.littleEndian(UInt16.self, at: 6)
        let id = bytes.littleEndian(UInt32.self, at: 8)
        if let index = open[id], transactions[index].operation.rawValue == code {
            broken.insert(index)
        } else {
            transactions.append(
                RecordedTransaction(operation: PTPOperationCode(rawValue: code), parameters: nil, line: 0))
            broken.insert(transactions.count - 1)
            open[id] = transactions.count - 1
        }
    }

    // MARK: PTP/IP

    /// Reads PTP/IP packets: an 8-byte header (length, type), then the payload.
    ///
    /// gphoto2 dumps a packet's header and payload apart, so each direction's dumps are read as one stream; a dump
    /// that is not whole loses the stream until a dump starts a packet again.
    mutating func readPTPIP(_ items: [GPhotoDebugLog.Item]) {
        var streams: [GPhotoDebugLog.Direction: (bytes: [UInt8], line: Int, lost: Bool)] = [:]
        var dataPhases: [UInt32: [UInt8]] = [:]
        for item in items {
            switch item {
            case .statedResponse(let code, let id, _):
                if dataPhases.removeValue(forKey: id) != nil, let index = open[id] { broken.insert(index) }
                response(code, id, parameters: [])
            case .dump(let dump):
                let direction = dump.direction == .unknown ? GPhotoDebugLog.Direction.fromCamera : dump.direction
                var stream = streams[direction] ?? ([], dump.line, false)
                guard dump.isWhole else {
                    note(dump.line, "the hexdump is not whole")
                    stream = ([], dump.line, true)
                    streams[direction] = stream
                    continue
                }
                if stream.lost {
                    guard Self.ptpipHeader(dump.bytes[...]) != nil else {
                        note(dump.line, "\(dump.bytes.count) bytes start no packet")
                        continue
                    }
                    stream.lost = false
                }
                if stream.bytes.isEmpty { stream.line = dump.line }
                stream.bytes += dump.bytes
                while let (length, type) = Self.ptpipHeader(stream.bytes[...]), stream.bytes.count >= length {
                    let payload = stream.bytes[8..<length]
                    ptpipPacket(type, payload, direction: direction, line: stream.line, dataPhases: &dataPhases)
                    stream.bytes.removeFirst(length)
                    stream.line = dump.line
                }
                if stream.bytes.count >= 8, Self.ptpipHeader(stream.bytes[...]) == nil {
                    note(stream.line, "\(stream.bytes.count) bytes start no packet")
                    stream = ([], dump.line, true)
                }
                streams[direction] = stream
            }
        }
    }

    /// The length and type of the PTP/IP packet `bytes` start with, if they start one.
    static func ptpipHeader(_ bytes: ArraySlice<UInt8>) -> (length: Int, type: UInt32)? {
        guard bytes.count >= 8 else { return nil }
        let length = Int(bytes.littleEndian(UInt32.self, at: 0))
        let type = bytes.littleEndian(UInt32.self, at: 4)
        guard (1...14).contains(type), length >= 8, length <= maximumLength else { return nil }
        return (length, type)
    }

    private mutating func ptpipPacket(
        _ type: UInt32, _ payload: ArraySlice<UInt8>, direction: GPhotoDebugLog.Direction, line: Int,
        dataPhases: inout [UInt32: [UInt8]]
    ) {
        switch type {
        case 6 where payload.count >= 10:
            let code = payload.littleEndian(UInt16.self, at: 4)
            let id = payload.littleEndian(UInt32.self, at: 6)
            request(code, id, parameters: Self.words(payload.dropFirst(10)), line: line)
        case 7 where payload.count >= 6:
            let code = payload.littleEndian(UInt16.self, at: 0)
            let id = payload.littleEndian(UInt32.self, at: 2)
            if dataPhases.removeValue(forKey: id) != nil, let index = open[id] { broken.insert(index) }
            response(code, id, parameters: Self.words(payload.dropFirst(6)))
        case 9 where payload.count >= 4:
            dataPhases[payload.littleEndian(UInt32.self, at: 0)] = []
        case 10 where payload.count >= 4:
            let id = payload.littleEndian(UInt32.self, at: 0)
            dataPhases[id]? += payload.dropFirst(4)
        case 12 where payload.count >= 4:
            let id = payload.littleEndian(UInt32.self, at: 0)
            guard let bytes = dataPhases.removeValue(forKey: id) else { return }
            data(of: nil, id, bytes + payload.dropFirst(4), direction: direction, line: line)
        default:
            break
        }
    }

    // MARK: Transactions

    private mutating func request(_ code: UInt16, _ id: UInt32, parameters: [UInt32], line: Int) {
        transactions.append(
            RecordedTransaction(operation: PTPOperationCode(rawValue: code), parameters: parameters, line: line))
        open[id] = transactions.count - 1
    }

    private mutating func data(
        of code: UInt16?, _ id: UInt32, _ bytes: [UInt8], direction: GPhotoDebugLog.Direction, line: Int
    ) {
        let index: Int
        if let known = open[id], code.map({ $0 == transactions[known].operation.rawValue }) ?? true {
            index = known
        } else if let code {
            transactions.append(
                RecordedTransaction(operation: PTPOperationCode(rawValue: code), parameters: nil, line: line))
            index = transactions.count - 1
            open[id] = index
        } else {
            note(line, "a data phase of transaction \(id), whose request the log does not show")
            return
        }
        if direction == .toCamera {
            transactions[index].dataOut = bytes
        } else {
            transactions[index].dataIn = bytes
        }
    }

    private mutating func response(_ code: UInt16, _ id: UInt32, parameters: [UInt32]) {
        guard let index = open.removeValue(forKey: id) else { return }
        transactions[index].response = PTPResponseCode(rawValue: code)
        transactions[index].responseParameters = parameters
    }

    private mutating func note(_ line: Int, _ text: String) {
        notes.append("line \(line): \(text); skipped")
    }

    private static func words(_ bytes: ArraySlice<UInt8>) -> [UInt32] {
        stride(from: 0, to: bytes.count - 3, by: 4).map { bytes.littleEndian(UInt32.self, at: $0) }
    }
}

extension ArraySlice<UInt8> {
    /// The little-endian integer at `offset` from the slice's start; the caller checks the length.
    fileprivate func littleEndian<Integer: FixedWidthInteger>(_ type: Integer.Type, at offset: Int) -> Integer {
        var value: Integer = 0
        for index in 0..<MemoryLayout<Integer>.size {
            value |= Integer(self[startIndex + offset + index]) << (8 * index)
        }
        return value
    }
}
