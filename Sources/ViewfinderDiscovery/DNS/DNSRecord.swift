import ViewfinderCore

/// A resource record of a DNS message: a name, its type's data, and how long it may be kept.
package struct DNSRecord: Hashable, Sendable {
    /// The data of a record, by type.
    package enum Data: Hashable, Sendable {
        /// An IPv4 address (type A), four bytes in network order.
        case ipv4([UInt8])
        /// An IPv6 address (type AAAA), sixteen bytes.
        case ipv6([UInt8])
        /// A pointer to another name (type PTR): in DNS-SD, from a service type to an instance.
        case pointer(DNSName)
        /// Where a service instance listens (type SRV).
        case service(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
        /// Key-value strings of a service instance (type TXT), each at most 255 bytes; a record that announces
        /// nothing holds one empty string (RFC 6763 §6.1).
        case text([[UInt8]])
        /// Any other type, as it came.
        case other(type: UInt16, bytes: [UInt8])

        /// The record type on the wire.
        package var type: UInt16 {
            switch self {
            case .ipv4: DNSRecordType.a
            case .ipv6: DNSRecordType.aaaa
            case .pointer: DNSRecordType.ptr
            case .service: DNSRecordType.srv
            case .text: DNSRecordType.txt
            case .other(let type, _): type
            }
        }
    }

    /// The owner name.
    package var name: DNSName
    /// The data.
    package var data: Data
    /// The class, IN (1) for everything here, without mDNS's cache-flush bit.
    package var recordClass: UInt16
    /// mDNS's cache-flush bit: this record replaces every other of its name and type (RFC 6762 §10.2).
    package var flushesCache: Bool
    /// Seconds the record may be kept; 0 in an mDNS goodbye, which withdraws it.
    package var timeToLive: UInt32

    /// A record of class IN.
    package init(
        name: DNSName, data: Data, timeToLive: UInt32, flushesCache: Bool = false, recordClass: UInt16 = 1
    ) {
        self.name = name
        self.data = data
        self.timeToLive = timeToLive
        self.flushesCache = flushesCache
        self.recordClass = recordClass
    }

    /// The TXT strings as keys and values (`key=value`, a lone `key` maps to an empty value), first occurrence
    /// winning and keys compared without case (RFC 6763 §6.4); empty for a record of another type.
    package var textValues: [String: String] {
        guard case .text(let strings) = data else { return [:] }
        var values: [String: String] = [:]
        for string in strings where !string.isEmpty {
            let separator = string.firstIndex(of: UInt8(ascii: "=")) ?? string.endIndex
            guard separator > string.startIndex else { continue }
            let key = String(decoding: string[..<separator], as: UTF8.self).lowercased()
            guard values[key] == nil else { continue }
            let value = separator < string.endIndex ? string[(separator + 1)...] : []
            values[key] = String(decoding: value, as: UTF8.self)
        }
        return values
    }
}

/// The record types Viewfinder reads.
package enum DNSRecordType {
    static let a: UInt16 = 1
    static let ptr: UInt16 = 12
    static let txt: UInt16 = 16
    static let aaaa: UInt16 = 28
    static let srv: UInt16 = 33
    /// A question for every type.
    static let any: UInt16 = 255
}

/// A question of a DNS message: a name and the type of record wanted.
package struct DNSQuestion: Hashable, Sendable {
    /// The name asked about.
    package var name: DNSName
    /// The record type wanted.
    package var type: UInt16
    /// mDNS's unicast-response bit: the asker would take a unicast answer (RFC 6762 §5.4).
    package var wantsUnicastResponse: Bool

    /// A question of class IN.
    package init(name: DNSName, type: UInt16, wantsUnicastResponse: Bool = false) {
        self.name = name
        self.type = type
        self.wantsUnicastResponse = wantsUnicastResponse
    }
}
