#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address: a host address and a port.
///
/// ```swift
/// let addresses = try SocketAddress.resolve("camera.local", port: 15740, type: SOCK_STREAM)
/// let group = try SocketAddress(numeric: "239.255.255.250", port: 1900)
/// print(group)  // 239.255.255.250:1900
/// ```
package struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    private var storage: sockaddr_storage
    /// The length of the address in ``storage``.
    package private(set) var length: socklen_t

    /// Wraps an address the system filled in.
    package init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// Parses a numeric IPv4 or IPv6 address, such as `127.0.0.1` or `::1`.
    ///
    /// - Throws: ``SocketError/Reason/notNumeric`` for a name or anything else that is not an address.
    package init(numeric host: String, port: UInt16) throws(SocketError) {
        let found = try Self.lookup(host, port: port, type: SOCK_DGRAM, flags: AI_NUMERICHOST | AI_PASSIVE)
        guard let first = found.first else {
            throw SocketError(.notNumeric, while: "parsing an address", endpoint: host)
        }
        self = first
    }

    /// The addresses a host name or address resolves to, for sockets of `type` (`SOCK_STREAM`, `SOCK_DGRAM`).
    ///
    /// - Throws: ``SocketError/Reason/unresolvable(_:)`` when the name does not resolve.
    package static func resolve(_ host: String, port: UInt16, type: __socket_type) throws(SocketError)
        -> [SocketAddress]
    {
        let found = try lookup(host, port: port, type: type, flags: 0)
        guard !found.isEmpty else {
            throw SocketError(.unresolvable("no usable address"), while: "resolving \(host)", endpoint: host)
        }
        return found
    }

    private static func lookup(_ host: String, port: UInt16, type: __socket_type, flags: CInt) throws(SocketError)
        -> [SocketAddress]
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = CInt(type.rawValue)
        hints.ai_flags = flags
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let reason: SocketError.Reason =
                flags & AI_NUMERICHOST != 0 ? .notNumeric : .unresolvable(String(cString: gai_strerror(status)))
            throw SocketError(reason, while: "resolving \(host)", endpoint: host)
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            guard let address = info.pointee.ai_addr, info.pointee.ai_addrlen <= MemoryLayout<sockaddr_storage>.size
            else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
            }
            addresses.append(SocketAddress(storage: storage, length: info.pointee.ai_addrlen))
        }
        return addresses
    }

    /// `AF_INET` or `AF_INET6`.
    package var family: CInt { CInt(storage.ss_family) }

    /// Whether this is an IPv6 address.
    package var isIPv6: Bool { family == AF_INET6 }

    /// The port.
    package var port: UInt16 {
        get {
            withUnsafeBytes(of: storage) { raw in
                // sin_port and sin6_port sit at the same offset, right after the family.
                UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
            }
        }
        set {
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.storeBytes(of: newValue.bigEndian, toByteOffset: 2, as: UInt16.self)
            }
        }
    }

    /// The host address as text, such as `192.168.1.1` or `fe80::1`.
    package var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafeBytes(of: storage) { raw in
            let offset =
                isIPv6
                ? MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                : MemoryLayout<sockaddr_in>.offset(
                    of: \.sin_addr)!
            _ = inet_ntop(family, raw.baseAddress! + offset, &text, socklen_t(text.count))
        }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Whether `other` is of the same family and has the same host address, whatever its port: the addresses'
    /// bytes compared, with no text made of them.
    package func hasSameHost(as other: SocketAddress) -> Bool {
        family == other.family && withHostBytes { mine in other.withHostBytes { mine.elementsEqual($0) } }
    }

    /// Calls `body` with the host address's bytes as they sit in the socket address: 16 for IPv6, 4 otherwise.
    private func withHostBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            let offset =
                isIPv6
                ? MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                : MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
            let count = isIPv6 ? MemoryLayout<in6_addr>.size : MemoryLayout<in_addr>.size
            return body(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + count)]))
        }
    }

    /// The host with its interface for an IPv6 link-local address (`fe80::1%wlan0`), which is reachable only through
    /// that interface; the plain ``host`` otherwise.
    package var scopedHost: String {
        guard isIPv6 else { return host }
        let scope = withUnsafeBytes(of: storage) { raw in
            raw.loadUnaligned(fromByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_scope_id)!, as: UInt32.self)
        }
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        guard scope != 0, if_indextoname(scope, &name) != nil else { return host }
        return host + "%" + name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The IPv4 address as a number in host order; `nil` for IPv6.
    package var ipv4: UInt32? {
        guard family == AF_INET else { return nil }
        return withUnsafeBytes(of: storage) { raw in
            UInt32(
                bigEndian: raw.loadUnaligned(
                    fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, as: UInt32.self))
        }
    }

    /// `host:port`, with brackets around an IPv6 host.
    package var description: String { HostPort.text(host, port: port) }

    /// Calls `body` with the address as the system calls take it.
    package func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result
    {
        try withUnsafeBytes(of: storage) { raw in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// Fills an address through `body`, as `accept`, `recvfrom` and `getsockname` do.
    package static func filling(_ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> CInt) -> (
        CInt, SocketAddress
    ) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutableBytes(of: &storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        return (result, SocketAddress(storage: storage, length: length))
    }

    package static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        lhs.port == rhs.port && lhs.hasSameHost(as: rhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(port)
        withHostBytes { hasher.combine(bytes: $0) }
    }
}
