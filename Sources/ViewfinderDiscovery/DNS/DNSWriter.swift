import ViewfinderCore

/// Writes a DNS message's fields, names (compressed against the names written before) and records.
struct DNSWriter {
    private(set) var bytes: [UInt8] = []
    /// Where each name suffix written so far starts, for compression pointers.
    private var suffixes: [DNSName: Int] = [:]

    mutating func append(_ value: UInt16) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    mutating func append(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Writes a name, ending in a pointer to the longest suffix already written.
    mutating func append(_ name: DNSName) {
        var labels = name.labels[...]
        while !labels.isEmpty {
            let suffix = DNSName(uncheckedLabels: Array(labels))
            if let start = suffixes[suffix] {
                append(UInt16(0xC000) | UInt16(start))
                return
            }
            if bytes.count < 0x4000 { suffixes[suffix] = bytes.count }
            let label = labels.removeFirst()
            bytes.append(UInt8(label.count))
            bytes += label
        }
        bytes.append(0)
    }

    mutating func append(_ record: DNSRecord) throws(ViewfinderError) {
        append(record.name)
        append(record.data.type)
        append(record.recordClass | (record.flushesCache ? 0x8000 : 0))
        append(record.timeToLive)
        let lengthAt = bytes.count
        append(UInt16(0))
        switch record.data {
        case .ipv4(let address) where address.count == 4:
            bytes += address
        case .ipv6(let address) where address.count == 16:
            bytes += address
        case .ipv4, .ipv6:
            throw ViewfinderError(.invalidArgument, "an address record of \(record.name) has the wrong length")
        case .pointer(let target):
            append(target)
        case .service(let priority, let weight, let port, let target):
            append(priority)
            append(weight)
            append(port)
            append(target)
        case .text(let strings):
            for string in strings {
                guard string.count <= 255 else {
                    throw ViewfinderError(.invalidArgument, "a TXT string holds at most 255 bytes, not \(string.count)")
                }
                bytes.append(UInt8(string.count))
                bytes += string
            }
        case .other(_, let data):
            bytes += data
        }
        let length = bytes.count - lengthAt - 2
        guard length <= 0xFFFF else {
            throw ViewfinderError(.invalidArgument, "a record of \(record.name) holds more than 65535 bytes")
        }
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }
}
