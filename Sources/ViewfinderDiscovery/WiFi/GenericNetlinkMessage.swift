/// A generic netlink message (`linux/genetlink.h`): the netlink header, the family's command and its attributes.
///
/// Requests are encoded here, and the kernel's answers decoded with every length checked against what was received,
/// so a malformed answer is an error, never a read past the datagram.
struct GenericNetlinkMessage: Equatable {
    /// The netlink message type: the family's ID, or one of the control types below.
    var type: UInt16
    /// The netlink flags (`NLM_F_*`).
    var flags: UInt16
    /// The sequence number that pairs an answer with its request.
    var sequence: UInt32
    /// The family's command.
    var command: UInt8
    /// The attributes, in order, as type and payload.
    var attributes: [(type: UInt16, payload: [UInt8])]

    /// The control family's fixed ID (`GENL_ID_CTRL`), which resolves other families' IDs by name.
    static let controlFamily: UInt16 = 0x10
    /// `CTRL_CMD_GETFAMILY`.
    static let getFamilyCommand: UInt8 = 3
    /// `CTRL_ATTR_FAMILY_ID`, a u16.
    static let familyIDAttribute: UInt16 = 1
    /// `CTRL_ATTR_FAMILY_NAME`, a NUL-terminated string.
    static let familyNameAttribute: UInt16 = 2
    /// `NLMSG_ERROR`: an error, or with code 0 an acknowledgement.
    static let errorType: UInt16 = 2
    /// `NLMSG_DONE`: the end of a dump.
    static let doneType: UInt16 = 3
    /// `NLM_F_REQUEST`.
    static let requestFlag: UInt16 = 0x1
    /// `NLM_F_DUMP` (`NLM_F_ROOT | NLM_F_MATCH`): every object, in as many answers as it takes.
    static let dumpFlag: UInt16 = 0x300

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.flags == rhs.flags && lhs.sequence == rhs.sequence && lhs.command == rhs.command
            && lhs.attributes.map(\.type) == rhs.attributes.map(\.type)
            && lhs.attributes.map(\.payload) == rhs.attributes.map(\.payload)
    }

    /// The first attribute of `type`'s payload.
    func attribute(_ type: UInt16) -> [UInt8]? {
        attributes.first { $0.type == type }?.payload
    }

    /// The message as sent: the 16-byte netlink header, the 4-byte generic header and the attributes, each padded to
    /// four bytes.
    var encoded: [UInt8] {
        let body = [command, 1, 0, 0] + Self.encode(attributes)
        var bytes: [UInt8] = []
        Self.append(UInt32(16 + body.count), to: &bytes)
        Self.append(type, to: &bytes)
        Self.append(flags, to: &bytes)
        Self.append(sequence, to: &bytes)
        Self.append(UInt32(0), to: &bytes)
        return bytes + body
    }

    /// Attributes as a message or a nested attribute holds them: each a length (including its 4-byte header), a type
    /// and a payload padded to four bytes.
    static func encode(_ attributes: [(type: UInt16, payload: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for attribute in attributes {
            append(UInt16(4 + attribute.payload.count), to: &bytes)
            append(attribute.type, to: &bytes)
            bytes += attribute.payload
            bytes += [UInt8](repeating: 0, count: padding(attribute.payload.count))
        }
        return bytes
    }

    /// The attributes nested in an attribute's payload.
    ///
    /// - Throws: `GenericNetlinkMessage.MalformedError` (at the offset in the payload) when a length runs past it.
    static func nestedAttributes(in payload: [UInt8]) throws(MalformedError) -> [(type: UInt16, payload: [UInt8])] {
        try attributes(in: payload[...], at: 0)
    }

    /// What one datagram from the kernel holds: its messages in order.
    enum Part: Equatable {
        /// A message of a family.
        case message(GenericNetlinkMessage)
        /// An error (a negative errno) or, with 0, an acknowledgement, for the request with `sequence`.
        case error(code: Int32, sequence: UInt32)
        /// The end of a dump.
        case done(sequence: UInt32)
    }

    /// The messages in a datagram the kernel sent.
    ///
    /// - Throws: `GenericNetlinkMessage.MalformedError` when a length runs past the datagram or is shorter than its
    ///   header.
    static func decode(_ datagram: some Collection<UInt8>) throws(MalformedError) -> [Part] {
        let bytes = Array(datagram)
        var parts: [Part] = []
        var offset = 0
        while bytes.count - offset >= 16 {
            let length = Int(readUInt32(bytes, offset))
            guard length >= 16, length <= bytes.count - offset else { throw MalformedError(offset: offset) }
            let type = readUInt16(bytes, offset + 4)
            let flags = readUInt16(bytes, offset + 6)
            let sequence = readUInt32(bytes, offset + 8)
            let body = Array(bytes[(offset + 16)..<(offset + length)])
            switch type {
            case errorType:
                guard body.count >= 4 else { throw MalformedError(offset: offset) }
                parts.append(.error(code: Int32(bitPattern: readUInt32(body, 0)), sequence: sequence))
            case doneType:
                parts.append(.done(sequence: sequence))
            default:
                guard body.count >= 4 else { throw MalformedError(offset: offset) }
                parts.append(
                    .message(
                        GenericNetlinkMessage(
                            type: type, flags: flags, sequence: sequence, command: body[0],
                            attributes: try attributes(in: body.dropFirst(4), at: offset + 20))))
            }
            offset += length + padding(length)
        }
        return parts
    }

    /// The attributes in `bytes`, each a length (including its 4-byte header), a type and a payload padded to four
    /// bytes; the nested and byte-order flags of the type are dropped.
    private static func attributes(in bytes: ArraySlice<UInt8>, at base: Int) throws(MalformedError)
        -> [(type: UInt16, payload: [UInt8])]
    {
        let bytes = Array(bytes)
        var attributes: [(type: UInt16, payload: [UInt8])] = []
        var offset = 0
        while bytes.count - offset >= 4 {
            let length = Int(readUInt16(bytes, offset))
            guard length >= 4, length <= bytes.count - offset else { throw MalformedError(offset: base + offset) }
            attributes.append((readUInt16(bytes, offset + 2) & 0x3FFF, Array(bytes[(offset + 4)..<(offset + length)])))
            offset += length + padding(length)
        }
        return attributes
    }

    /// A kernel answer whose lengths do not fit the bytes received.
    struct MalformedError: Error, Equatable {
        /// Where in the datagram the bad length is.
        var offset: Int
    }

    private static func padding(_ count: Int) -> Int {
        (4 - count % 4) % 4
    }

    private static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}
