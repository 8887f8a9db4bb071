import ViewfinderCore

/// A DNS message (RFC 1035 §4) as multicast DNS uses it: a header, questions and three sections of records.
///
/// Decoding checks every length and count against the bytes there, so a hostile message costs no more than its
/// own size: a count is never used to allocate, a compression pointer may only point back to where an earlier
/// label started (which rules out loops), and a name may not pass 255 bytes however it is assembled.
package struct DNSMessage: Hashable, Sendable {
    /// The query ID; 0 in multicast DNS.
    package var id: UInt16
    /// The header flags: QR (0x8000, a response), opcode, AA (0x0400) and the rest.
    package var flags: UInt16
    /// What is asked.
    package var questions: [DNSQuestion]
    /// The answers.
    package var answers: [DNSRecord]
    /// Authority records (in mDNS, a prober's proposed records).
    package var authorities: [DNSRecord]
    /// Additional records, such as the SRV, TXT and addresses that go with a PTR answer.
    package var additionals: [DNSRecord]

    /// The flags of an mDNS response: a response, authoritative.
    package static let responseFlags: UInt16 = 0x8400
    /// The longest message read or written: an mDNS message may fill a 9000-byte jumbo frame (RFC 6762 §17).
    package static let maximumLength = 9000

    /// A message.
    package init(
        id: UInt16 = 0, flags: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSRecord] = [],
        authorities: [DNSRecord] = [], additionals: [DNSRecord] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// Whether the message answers (QR set) rather than asks.
    package var isResponse: Bool { flags & 0x8000 != 0 }

    /// Every record of the message, answers first.
    package var records: [DNSRecord] { answers + authorities + additionals }

    /// Reads a message.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` saying what is wrong and where.
    package init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        guard bytes.count <= Self.maximumLength else {
            throw ViewfinderError(.malformedData, "a DNS message of \(bytes.count) bytes is longer than 9000")
        }
        var reader = DNSReader(bytes)
        id = try reader.uint16()
        flags = try reader.uint16()
        let counts = [try reader.uint16(), try reader.uint16(), try reader.uint16(), try reader.uint16()]
        questions = []
        for _ in 0..<counts[0] {
            let name = try reader.name()
            let type = try reader.uint16()
            let questionClass = try reader.uint16()
            questions.append(
                DNSQuestion(name: name, type: type, wantsUnicastResponse: questionClass & 0x8000 != 0))
        }
        var sections: [[DNSRecord]] = [[], [], []]
        for section in 0..<3 {
            for _ in 0..<counts[section + 1] {
                sections[section].append(try reader.record())
            }
        }
        (answers, authorities, additionals) = (sections[0], sections[1], sections[2])
        guard reader.isAtEnd else {
            throw ViewfinderError(.malformedData, "a DNS message has \(reader.remaining) bytes after its records")
        }
    }

    /// The message's bytes, names compressed.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when a section holds more than 65535 entries, a TXT string
    ///   is longer than 255 bytes, an address has the wrong length or the message passes ``maximumLength``.
    package func encoded() throws(ViewfinderError) -> [UInt8] {
        var writer = DNSWriter()
        writer.append(id)
        writer.append(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            guard let count = UInt16(exactly: count) else {
                throw ViewfinderError(.invalidArgument, "a DNS section holds at most 65535 entries, not \(count)")
            }
            writer.append(count)
        }
        for question in questions {
            writer.append(question.name)
            writer.append(question.type)
            writer.append(UInt16(1) | (question.wantsUnicastResponse ? 0x8000 : 0))
        }
        for record in records {
            try writer.append(record)
        }
        guard writer.bytes.count <= Self.maximumLength else {
            throw ViewfinderError(
                .invalidArgument, "a DNS message of \(writer.bytes.count) bytes is longer than 9000")
        }
        return writer.bytes
    }
}
