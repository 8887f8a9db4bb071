import ViewfinderCore
import ViewfinderHTTPMessage

/// An SSDP message (UPnP Device Architecture 2.0 §1): HTTP's start line and headers, carried in one UDP datagram.
///
/// Decoding is bounded: at most ``maximumLength`` bytes, ``maximumHeaderCount`` headers, and header names compared
/// without case; the first of a repeated header wins.
package struct SSDPMessage: Hashable, Sendable {
    /// What a message is.
    package enum Kind: Hashable, Sendable {
        /// `NOTIFY * HTTP/1.1`: a device says it is there (`ssdp:alive`) or leaving (`ssdp:byebye`).
        case notify
        /// `M-SEARCH * HTTP/1.1`: a control point asks who is there.
        case search
        /// `HTTP/1.1 200 OK`: a device answers a search.
        case response
    }

    /// What the message is.
    package var kind: Kind
    /// The headers, names in lower case.
    package var headers: [String: String]

    /// The longest datagram read.
    package static let maximumLength = 8192
    /// The most headers read.
    package static let maximumHeaderCount = 64

    /// The SSDP multicast group's port.
    package static let port: UInt16 = 1900
    /// The SSDP multicast group on IPv4.
    package static let ipv4Group = "239.255.255.250"

    /// A message.
    package init(kind: Kind, headers: [String: String]) {
        self.kind = kind
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// A search for `target` (an ST such as a service type URN, or `ssdp:all`), answered within `maximumWait`
    /// seconds.
    package static func search(for target: String, maximumWait: Int = 1) -> SSDPMessage {
        SSDPMessage(
            kind: .search,
            headers: [
                "HOST": "\(ipv4Group):\(port)", "MAN": "\"ssdp:discover\"", "MX": "\(max(1, min(maximumWait, 5)))",
                "ST": target,
            ])
    }

    /// The header `name`, however the message spelled its case.
    package subscript(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The type the message is about: NT in a notification, ST in a search or its answer.
    package var target: String? {
        kind == .notify ? self["NT"] : self["ST"]
    }

    /// The unique service name: the device's UDN, usually followed by `::` and the type.
    package var uniqueServiceName: String? { self["USN"] }

    /// The device's UDN (`uuid:…`), the part of the USN before `::`.
    package var deviceID: String? {
        uniqueServiceName.map { usn in
            usn.firstRange(of: "::").map { String(usn[..<$0.lowerBound]) } ?? usn
        }
    }

    /// Where the device's description is (LOCATION).
    package var location: String? { self["LOCATION"] }

    /// Whether a notification says the device is leaving.
    package var isByeBye: Bool { kind == .notify && self["NTS"]?.lowercased() == "ssdp:byebye" }

    /// The seconds the announcement holds, from `CACHE-CONTROL: max-age=N`; `nil` when it says none.
    package var maximumAge: Int? {
        guard let control = self["CACHE-CONTROL"]?.lowercased() else { return nil }
        for directive in control.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace }
            if parts.count == 2, parts[0] == "max-age", let seconds = Int(parts[1]), seconds >= 0 {
                return min(seconds, 86400)
            }
        }
        return nil
    }

    /// Reads a datagram.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a datagram that is too long, not text, without a known
    ///   start line, with a header line that has no colon, or with too many headers.
    package init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        guard bytes.count <= Self.maximumLength else {
            throw ViewfinderError(.malformedData, "an SSDP datagram of \(bytes.count) bytes is longer than 8192")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ViewfinderError(.malformedData, "an SSDP datagram is not UTF-8 text")
        }
        let head: HTTPHead
        do throws(HTTPHead.Failure) {
            head = try HTTPHead(parsing: bytes, maximumFieldCount: Self.maximumHeaderCount)
        } catch {
            switch error {
            case .tooManyFields:
                throw ViewfinderError(.malformedData, "an SSDP datagram has more than 64 headers")
            case .fieldWithoutName(let line):
                throw ViewfinderError(.malformedData, "an SSDP header line '\(line.prefix(40))' has no name")
            }
        }
        let start = head.startWords
        switch start.count >= 2 ? (start[0].uppercased(), String(start[1])) : ("", "") {
        case ("NOTIFY", "*"): kind = .notify
        case ("M-SEARCH", "*"): kind = .search
        case (let version, "200") where version.hasPrefix("HTTP/1."): kind = .response
        default:
            throw ViewfinderError(
                .malformedData, "an SSDP datagram starts with '\(start.joined(separator: " ").prefix(40))'")
        }
        var headers: [String: String] = [:]
        for field in head.fields {
            let name = field.name.trimmingWhitespace.lowercased()
            guard !name.isEmpty else {
                throw ViewfinderError(.malformedData, "an SSDP header line '\(field.name.prefix(40))' has no name")
            }
            if headers[name] == nil { headers[name] = field.value }
        }
        self.headers = headers
    }

    /// The datagram's bytes: the start line, the headers in name order (in upper case, as UPnP's examples and real
    /// devices write them and as clients that match `LOCATION` exactly, such as libsonyapi, need), and the empty
    /// line.
    package func encoded() -> [UInt8] {
        let start =
            switch kind {
            case .notify: "NOTIFY * HTTP/1.1"
            case .search: "M-SEARCH * HTTP/1.1"
            case .response: "HTTP/1.1 200 OK"
            }
        return HTTPHead(
            startLine: start, fields: headers.keys.sorted().map { HTTPHead.Field($0.uppercased(), headers[$0]!) }
        )
        .encoded()
    }
}

extension StringProtocol {
    /// The text without whitespace at either end.
    package var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
