import ViewfinderCore

/// A domain name as DNS carries it: labels of at most 63 bytes, at most 255 bytes in all on the wire.
///
/// Names compare without regard to ASCII case, as DNS compares them (RFC 1035 §2.3.3).
package struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// The labels, most particular first: `["Camera", "_ptp", "_tcp", "local"]`.
    package let labels: [[UInt8]]

    /// The longest label.
    package static let maximumLabelLength = 63
    /// The longest name on the wire, its length bytes and the root's included.
    package static let maximumLength = 255

    /// A name from its labels.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for an empty or over-long label, or a name too long.
    package init(labels: [[UInt8]]) throws(ViewfinderError) {
        for label in labels where label.isEmpty || label.count > Self.maximumLabelLength {
            throw ViewfinderError(
                .invalidArgument, "a DNS label holds 1 to \(Self.maximumLabelLength) bytes, not \(label.count)")
        }
        let length = labels.reduce(1) { $0 + 1 + $1.count }
        guard length <= Self.maximumLength else {
            throw ViewfinderError(.invalidArgument, "a DNS name holds at most 255 bytes, not \(length)")
        }
        self.labels = labels
    }

    /// A name from its dotted text, such as `_ptp._tcp.local`; a first label may hold dots when given apart.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for an empty or over-long label, or a name too long.
    package init(_ text: String, prefixedBy instance: String? = nil) throws(ViewfinderError) {
        var labels = text.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.utf8) }
        if labels.last?.isEmpty == true { labels.removeLast() }
        if let instance { labels.insert(Array(instance.utf8), at: 0) }
        try self.init(labels: labels)
    }

    /// The name without its first label: the service type of a service instance's name.
    package var parent: DNSName? {
        labels.isEmpty ? nil : DNSName(uncheckedLabels: Array(labels.dropFirst()))
    }

    /// The first label as text, such as a service instance's name.
    package var firstLabel: String? {
        labels.first.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the name ends with `suffix`: `Camera._ptp._tcp.local` ends with `_ptp._tcp.local`.
    package func hasSuffix(_ suffix: DNSName) -> Bool {
        guard suffix.labels.count <= labels.count else { return false }
        return zip(labels.suffix(suffix.labels.count), suffix.labels).allSatisfy { Self.sameLabel($0, $1) }
    }

    /// The dotted text, with dots inside labels and other bytes outside printable ASCII escaped as DNS-SD does.
    package var description: String {
        labels.map { label in
            label.map { byte -> String in
                switch byte {
                case UInt8(ascii: "."), UInt8(ascii: "\\"): "\\" + String(UnicodeScalar(byte))
                case 0x21...0x7E: String(UnicodeScalar(byte))
                default: "\\" + String(byte / 100) + String(byte / 10 % 10) + String(byte % 10)
                }
            }.joined()
        }.joined(separator: ".") + "."
    }

    package static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.labels.count == rhs.labels.count && zip(lhs.labels, rhs.labels).allSatisfy { sameLabel($0, $1) }
    }

    package func hash(into hasher: inout Hasher) {
        for label in labels {
            hasher.combine(label.count)
            for byte in label { hasher.combine(Self.lowercased(byte)) }
        }
    }

    init(uncheckedLabels labels: [[UInt8]]) {
        self.labels = labels
    }

    private static func sameLabel(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
