#if canImport(Glibc)
import Glibc
#endif

/// A network interface that can send and receive IPv4 multicast: up, not loopback, with an address.
package struct MulticastInterface: Hashable, Sendable {
    /// The interface's name, such as `wlan0`.
    package var name: String
    /// Its IPv4 address.
    package var address: String

    /// The interface's index, for IPv6 multicast; 0 when it has none.
    package var index: UInt32 { if_nametoindex(name) }

    /// The interfaces that can take part in multicast now, in the order the system lists them.
    package static func all() -> [MulticastInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var interfaces: [MulticastInterface] = []
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            next = entry.pointee.ifa_next
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                flags & Int32(IFF_MULTICAST) != 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { internet in
                var raw = internet.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
            }
            guard converted else { continue }
            let name = String(cString: entry.pointee.ifa_name)
            let dotted = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            interfaces.append(MulticastInterface(name: name, address: dotted))
        }
        return interfaces
    }
}
