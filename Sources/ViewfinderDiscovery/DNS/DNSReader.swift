import ViewfinderCore

/// Reads the big-endian fields, names and records of a DNS message, each checked against the bytes there.
struct DNSReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func uint8() throws(ViewfinderError) -> UInt8 {
        try need(1, for: "a byte")
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(ViewfinderError) -> UInt16 {
        try need(2, for: "a 16-bit field")
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint32() throws(ViewfinderError) -> UInt32 {
        try need(4, for: "a 32-bit field")
        defer { offset += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }

    mutating func bytes(_ count: Int) throws(ViewfinderError) -> [UInt8] {
        try need(count, for: "\(count) bytes of data")
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads a name at the current offset, following compression pointers.
    ///
    /// A pointer must point before the label sequence it appears in, so each jump goes backwards and no chain of
    /// pointers can loop; the assembled name may not pass 255 bytes.
    mutating func name() throws(ViewfinderError) -> DNSName {
        var labels: [[UInt8]] = []
        var length = 1
        var position = offset
        var sequenceStart = offset
        var resumeAt: Int?
        while true {
            guard position < bytes.count else {
                throw ViewfinderError(.malformedData, "a DNS name runs past the end of the message at \(position)")
            }
            let byte = bytes[position]
            switch byte & 0xC0 {
            case 0x00 where byte == 0:
                offset = resumeAt ?? position + 1
                return DNSName(uncheckedLabels: labels)
            case 0x00:
                let count = Int(byte)
                guard position + 1 + count <= bytes.count else {
                    throw ViewfinderError(.malformedData, "a DNS label of \(count) bytes runs past the message")
                }
                length += 1 + count
                guard length <= DNSName.maximumLength else {
                    throw ViewfinderError(.malformedData, "a DNS name at \(offset) is longer than 255 bytes")
                }
                labels.append(Array(bytes[(position + 1)...(position + count)]))
                position += 1 + count
            case 0xC0:
                guard position + 1 < bytes.count else {
                    throw ViewfinderError(.malformedData, "a DNS compression pointer is cut off at \(position)")
                }
                let target = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < sequenceStart else {
                    throw ViewfinderError(
                        .malformedData, "a DNS compression pointer at \(position) points forward, to \(target)")
                }
                if resumeAt == nil { resumeAt = position + 2 }
                position = target
                sequenceStart = target
            default:
                throw ViewfinderError(
                    .malformedData, "a DNS label at \(position) has the reserved type 0x\(String(byte, radix: 16))")
            }
        }
    }

    /// Reads a resource record; its data must fill the length it declares exactly.
    mutating func record() throws(ViewfinderError) -> DNSRecord {
        let name = try name()
        let type = try uint16()
        let recordClass = try uint16()
        let timeToLive = try uint32()
        let length = Int(try uint16())
        try need(length, for: "a record's \(length) bytes of data")
        let end = offset + length
        let data: DNSRecord.Data
        switch type {
        case DNSRecordType.a where length == 4:
            data = .ipv4(try bytes(4))
        case DNSRecordType.aaaa where length == 16:
            data = .ipv6(try bytes(16))
        case DNSRecordType.a, DNSRecordType.aaaa:
            throw ViewfinderError(.malformedData, "an address record of \(name) holds \(length) bytes")
        case DNSRecordType.ptr:
            data = .pointer(try self.name())
        case DNSRecordType.srv:
            data = .service(priority: try uint16(), weight: try uint16(), port: try uint16(), target: try self.name())
        case DNSRecordType.txt:
            var strings: [[UInt8]] = []
            while offset < end {
                let count = Int(try uint8())
                guard offset + count <= end else {
                    throw ViewfinderError(.malformedData, "a TXT string of \(name) runs past its record")
                }
                strings.append(try bytes(count))
            }
            data = .text(strings)
        default:
            data = .other(type: type, bytes: try bytes(length))
        }
        guard offset == end else {
            throw ViewfinderError(
                .malformedData, "the data of a type \(type) record of \(name) does not fill its \(length) bytes")
        }
        return DNSRecord(
            name: name, data: data, timeToLive: timeToLive, flushesCache: recordClass & 0x8000 != 0,
            recordClass: recordClass & 0x7FFF)
    }

    private func need(_ count: Int, for what: String) throws(ViewfinderError) {
        guard count <= bytes.count - offset else {
            throw ViewfinderError(
                .malformedData, "a DNS message ends at \(bytes.count) bytes, before \(what) at \(offset)")
        }
    }
}
