import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension Socket {
    /// A UDP socket bound to `host` (a numeric address; `0.0.0.0` or `::` for every interface) and `port` (0 picks a
    /// free one), which hears only the multicast groups it joins itself.
    ///
    /// - Parameter sharingPort: Whether other sockets may bind the same port (`SO_REUSEADDR` and `SO_REUSEPORT`),
    ///   as every listener on a multicast port such as SSDP's 1900 or mDNS's 5353 must.
    /// - Throws: ``SocketError/Reason/notNumeric`` for a name, or the system's error, such as `EADDRINUSE`.
    package static func udp(bindingTo host: String = "0.0.0.0", port: UInt16 = 0, sharingPort: Bool = false)
        throws(SocketError) -> Socket
    {
        let address = try SocketAddress(numeric: host, port: port)
        let socket = try Socket(family: address.family, type: SOCK_DGRAM, endpoint: address.description)
        // Only the groups this socket joins, not every group a socket of the host joined on its port; an IPv6
        // socket takes IPv6 alone, so that it and an IPv4 socket on the same port do not both hear IPv4.
        if address.isIPv6 {
            socket.setOption(IPV6_V6ONLY, level: CInt(IPPROTO_IPV6), to: 1)
        } else {
            socket.setOption(IP_MULTICAST_ALL, level: CInt(IPPROTO_IP), to: 0)
        }
        if sharingPort {
            socket.setOption(SO_REUSEADDR, to: 1)
            socket.setOption(SO_REUSEPORT, to: 1)
        }
        do {
            try socket.bind(to: address)
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Sends one datagram to `address`, waiting at most `timeout` for room in the send buffer.
    ///
    /// - Throws: ``SocketError/Reason/timedOut(_:)`` when the buffer stays full, or the system's error, such as
    ///   `ENETUNREACH`, or `EMSGSIZE` for a datagram too long to send.
    package func send(
        _ datagram: UnsafeRawBufferPointer, to address: SocketAddress, timeout: Duration,
        while activity: @autoclosure () -> String
    ) throws(SocketError) {
        while true {
            let result = valueOrErrno {
                address.withSockAddr {
                    sendto(descriptor, datagram.baseAddress, datagram.count, CInt(MSG_NOSIGNAL), $0, $1)
                }
            }
            switch result {
            case .success:
                return
            case .failure(let error) where error.rawValue == EAGAIN:
                try wait(for: Poll.writable, timeout: timeout, while: activity())
            case .failure(let error):
                throw SocketError(.system(error), while: activity(), endpoint: address.description)
            }
        }
    }

    /// Sends one datagram to `address`, waiting at most `timeout` for room in the send buffer.
    package func send(
        _ datagram: [UInt8], to address: SocketAddress, timeout: Duration, while activity: @autoclosure () -> String
    )
        throws(SocketError)
    {
        try datagram.withUnsafeBytes { raw in
            Result { () throws(SocketError) in try send(raw, to: address, timeout: timeout, while: activity()) }
        }.get()
    }

    /// One datagram a UDP socket received: its length, who sent it, and whether it was longer than the buffer.
    package struct ReceivedDatagram: Sendable {
        /// The bytes written into the buffer.
        package var count: Int
        /// The sender's address.
        package var sender: SocketAddress
        /// Whether the datagram was longer than the buffer, which holds only its start.
        package var isTruncated: Bool
    }

    /// Receives one datagram into `buffer`, waiting until `deadline` for one to arrive.
    ///
    /// A deadline already passed takes a datagram that has arrived, without a system call to wait. A datagram longer than `buffer` is cut to its length and marked ``ReceivedDatagram/isTruncated``, so a peer's
    /// oversized packet costs no more memory than the buffer.
    ///
    /// - Returns: The datagram, or `nil` when none arrived by `deadline`.
    package func receiveDatagram(
        into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant,
        while activity: @autoclosure () -> String
    ) throws(SocketError) -> ReceivedDatagram? {
        while true {
            let (received, sender) = SocketAddress.filling { address, length in
                let count = recvfrom(descriptor, buffer.baseAddress, buffer.count, CInt(MSG_TRUNC), address, &length)
                return CInt(clamping: count)
            }
            if received >= 0 {
                let length = Int(received)
                return ReceivedDatagram(
                    count: min(length, buffer.count), sender: sender, isTruncated: length > buffer.count)
            }
            let error = Errno.current
            guard error.rawValue == EAGAIN || error.rawValue == EINTR else {
                throw SocketError(.system(error), while: activity(), endpoint: endpoint)
            }
            if error.rawValue == EINTR { continue }
            // A deadline already passed asks for what has arrived alone: no poll to learn that nothing has.
            guard ContinuousClock.now < deadline else { return nil }
            let ready: Int16
            do {
                ready = try Poll.wait(descriptor, for: Poll.readable, until: deadline)
            } catch {
                throw SocketError(.system(error), while: activity(), endpoint: endpoint)
            }
            if ready == 0 { return nil }
        }
    }

    /// Joins the multicast group at `group`'s address on the IPv4 interface with address `interface` (any when
    /// `nil`), or, for an IPv6 group, on the interface with index `interfaceIndex` (the default when 0).
    ///
    /// - Throws: The system's error, such as `ENODEV` for an interface that does not exist.
    package func joinMulticastGroup(_ group: SocketAddress, interface: String? = nil, interfaceIndex: UInt32 = 0)
        throws(SocketError)
    {
        if group.isIPv6 {
            var request = ipv6_mreq()
            request.ipv6mr_interface = interfaceIndex
            group.withSockAddr { address, _ in
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    request.ipv6mr_multiaddr = $0.pointee.sin6_addr
                }
            }
            try setOption(IPV6_JOIN_GROUP, level: CInt(IPPROTO_IPV6), toStructure: request)
            return
        }
        var request = ip_mreq()
        request.imr_multiaddr.s_addr = (group.ipv4 ?? 0).bigEndian
        let local = try interface.map { (name) throws(SocketError) in try SocketAddress(numeric: name, port: 0) }
        request.imr_interface.s_addr = (local?.ipv4 ?? 0).bigEndian
        try setOption(IP_ADD_MEMBERSHIP, level: CInt(IPPROTO_IP), toStructure: request)
    }

    /// Sends IPv6 multicast datagrams from the interface with index `interfaceIndex`, with `hops` hops.
    package func setIPv6MulticastSending(fromInterfaceIndex interfaceIndex: UInt32, hops: CInt = 255) {
        setOption(IPV6_MULTICAST_IF, level: CInt(IPPROTO_IPV6), to: CInt(bitPattern: interfaceIndex))
        setOption(IPV6_MULTICAST_HOPS, level: CInt(IPPROTO_IPV6), to: hops)
        setOption(IPV6_MULTICAST_LOOP, level: CInt(IPPROTO_IPV6), to: 1)
    }

    /// Sends multicast datagrams from the IPv4 interface with address `interface`, with `timeToLive` hops, and
    /// delivers them to this host's own members too when `loopback`.
    package func setMulticastSending(from interface: String, timeToLive: CInt = 1, loopback: Bool = true)
        throws(SocketError)
    {
        let local = try SocketAddress(numeric: interface, port: 0)
        var address = in_addr()
        address.s_addr = (local.ipv4 ?? 0).bigEndian
        try setOption(IP_MULTICAST_IF, level: CInt(IPPROTO_IP), toStructure: address)
        setOption(IP_MULTICAST_TTL, level: CInt(IPPROTO_IP), to: timeToLive)
        setOption(IP_MULTICAST_LOOP, level: CInt(IPPROTO_IP), to: loopback ? 1 : 0)
    }
}
