import Testing
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// UDP over real loopback: datagrams with their senders, truncation, timeouts, shared ports and multicast.
@Suite struct UDPSocketTests {
    /// The next datagram on `socket` with its bytes, or `nil` when none arrives within `timeout`.
    static func receive(on socket: Socket, capacity: Int = 2048, within timeout: Duration = .seconds(5)) throws
        -> (bytes: [UInt8], datagram: Socket.ReceivedDatagram)?
    {
        var buffer = [UInt8](repeating: 0, count: capacity)
        let datagram = try buffer.withUnsafeMutableBytes { raw in
            try Result { () throws(SocketError) in
                try socket.receiveDatagram(into: raw, until: .now + timeout, while: "test")
            }.get()
        }
        return datagram.map { (Array(buffer[..<$0.count]), $0) }
    }

    @Test func addressesCompareByFamilyHostAndPort() throws {
        let camera = try SocketAddress(numeric: "192.168.0.10", port: 0)
        #expect(camera.hasSameHost(as: try SocketAddress(numeric: "192.168.0.10", port: 40000)))
        #expect(!camera.hasSameHost(as: try SocketAddress(numeric: "192.168.0.11", port: 0)))
        #expect(!camera.hasSameHost(as: try SocketAddress(numeric: "::ffff:192.168.0.10", port: 0)))
        let link = try SocketAddress(numeric: "fe80::1", port: 80)
        #expect(link.hasSameHost(as: try SocketAddress(numeric: "fe80::1", port: 8080)))
        #expect(!link.hasSameHost(as: try SocketAddress(numeric: "fe80::2", port: 80)))
        #expect(link == (try SocketAddress(numeric: "fe80:0::1", port: 80)))
        #expect(link != (try SocketAddress(numeric: "fe80::1", port: 8080)))
        let addresses: Set = [camera, try SocketAddress(numeric: "192.168.0.10", port: 0), link]
        #expect(addresses.count == 2)
    }

    @Test func datagramsArriveWithTheirSenderAndLongOnesAreCutToTheBuffer() throws {
        let receiver = try Socket.udp(bindingTo: "127.0.0.1")
        let sender = try Socket.udp(bindingTo: "127.0.0.1")
        defer {
            receiver.close()
            sender.close()
        }
        let target = try SocketAddress(numeric: "127.0.0.1", port: receiver.localPort)
        for text in ["M-SEARCH", "NOTIFY"] {
            try sender.send(Array(text.utf8), to: target, timeout: .seconds(1), while: "test")
        }
        for text in ["M-SEARCH", "NOTIFY"] {
            let received = try #require(try Self.receive(on: receiver))
            #expect(received.bytes == Array(text.utf8))
            #expect(received.datagram.sender.port == sender.localPort)
            #expect(received.datagram.sender.host == "127.0.0.1")
            #expect(!received.datagram.isTruncated)
        }
        try sender.send([UInt8](repeating: 7, count: 3000), to: target, timeout: .seconds(1), while: "test")
        let cut = try #require(try Self.receive(on: receiver, capacity: 100))
        #expect(cut.bytes == [UInt8](repeating: 7, count: 100))
        #expect(cut.datagram.isTruncated)
        // Nothing more: the wait ends at its deadline.
        #expect(try Self.receive(on: receiver, within: .milliseconds(50)) == nil)
    }

    @Test func aSharedPortTakesSeveralListenersAndAnUnsharedOneRefusesTheSecond() throws {
        let first = try Socket.udp(sharingPort: true)
        defer { first.close() }
        let second = try Socket.udp(port: first.localPort, sharingPort: true)
        second.close()
        let alone = try Socket.udp()
        defer { alone.close() }
        let error = #expect(throws: SocketError.self) { try Socket.udp(port: alone.localPort) }
        #expect(error?.description.contains("Address already in use") == true, "\(String(describing: error))")
    }

    /// IPv4 multicast works on loopback when both ends name 127.0.0.1 as their interface.
    @Test func aMemberOfAGroupReceivesWhatIsSentToIt() throws {
        let group = try SocketAddress(numeric: "239.255.77.\(Int.random(in: 1...254))", port: 0)
        let member = try Socket.udp(bindingTo: "0.0.0.0", sharingPort: true)
        defer { member.close() }
        try member.joinMulticastGroup(group, interface: "127.0.0.1")
        let sender = try Socket.udp(bindingTo: "127.0.0.1")
        defer { sender.close() }
        try sender.setMulticastSending(from: "127.0.0.1")
        var target = group
        target.port = member.localPort
        try sender.send(Array("hello group".utf8), to: target, timeout: .seconds(1), while: "test")
        let received = try #require(try Self.receive(on: member))
        #expect(received.bytes == Array("hello group".utf8))
        #expect(received.datagram.sender.port == sender.localPort)
        // A socket on the same port that did not join hears nothing of the group; the member still does.
        let stranger = try Socket.udp(bindingTo: "0.0.0.0", port: member.localPort, sharingPort: true)
        defer { stranger.close() }
        try sender.send(Array("again".utf8), to: target, timeout: .seconds(1), while: "test")
        #expect(try Self.receive(on: member)?.bytes == Array("again".utf8))
        #expect(try Self.receive(on: stranger, within: .milliseconds(100)) == nil)
    }

    @Test func anIPv6GroupIsJoinedByInterfaceIndex() throws {
        guard let member = try? Socket.udp(bindingTo: "::", sharingPort: true) else {
            try Test.cancel("this machine has no IPv6")
        }
        defer { member.close() }
        try member.joinMulticastGroup(try SocketAddress(numeric: "ff02::fb", port: 0), interfaceIndex: 1)
        let error = #expect(throws: SocketError.self) {
            try member.joinMulticastGroup(try SocketAddress(numeric: "ff02::fb", port: 0), interfaceIndex: 999_999)
        }
        #expect(error != nil)
    }
}
