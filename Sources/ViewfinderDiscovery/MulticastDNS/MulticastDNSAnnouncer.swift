import ViewfinderCore
import ViewfinderSystem

/// Announces a `_ptp._tcp` service over multicast DNS, as a Nikon camera does: unsolicited announcements at start,
/// answers to questions about the service, its instance and its host, and a goodbye at stop.
///
/// It runs until ``stop()``, which its owner must call. It answers without probing for its names first (RFC 6762 §8.1): the names are the caller's to make unique, as a
/// simulated camera's are.
package final class MulticastDNSAnnouncer: Sendable {
    /// What is announced.
    package struct Service: Sendable {
        /// The instance's name, such as `Nikon Z 6 (Study)`.
        package var name: String
        /// The host's name without `.local`, such as `nikon-z6`.
        package var hostName: String
        /// The IPv4 address the service is at, which must be an interface's address.
        package var address: String
        /// The PTP/IP port.
        package var port: UInt16
        /// The TXT record's keys and values.
        package var text: [String: String]

        /// A service.
        package init(name: String, hostName: String, address: String, port: UInt16, text: [String: String]) {
            self.name = name
            self.hostName = hostName
            self.address = address
            self.port = port
            self.text = text
        }
    }

    private let socket: Socket
    private let group: SocketAddress
    private let records: [DNSRecord]
    private let loop = Locked<SocketLoop?>(nil)

    /// Starts announcing `service` on the interface with its address.
    ///
    /// - Throws: `ViewfinderError` for names DNS cannot carry, or when port 5353 or the group cannot be joined.
    package init(_ service: Service) throws(ViewfinderError) {
        let instance = try DNSName(MulticastDNSCache.service.description, prefixedBy: service.name)
        let host = try DNSName("\(service.hostName).local")
        let addressBytes = service.address.split(separator: ".").compactMap { UInt8($0) }
        guard addressBytes.count == 4 else {
            throw ViewfinderError(.invalidArgument, "multicast DNS announces an IPv4 address, not \(service.address)")
        }
        let text = service.text.sorted { $0.key < $1.key }.map { Array("\($0.key)=\($0.value)".utf8) }
        records = [
            DNSRecord(name: MulticastDNSCache.service, data: .pointer(instance), timeToLive: 4500),
            DNSRecord(
                name: instance, data: .service(priority: 0, weight: 0, port: service.port, target: host),
                timeToLive: 120, flushesCache: true),
            DNSRecord(name: instance, data: .text(text.isEmpty ? [[]] : text), timeToLive: 4500, flushesCache: true),
            DNSRecord(name: host, data: .ipv4(addressBytes), timeToLive: 120, flushesCache: true),
        ]
        do throws(SocketError) {
            socket = try Socket.udp(bindingTo: "0.0.0.0", port: MulticastDNSSearcher.port, sharingPort: true)
        } catch {
            throw ViewfinderError(error)
        }
        do throws(SocketError) {
            group = try SocketAddress(numeric: MulticastDNSSearcher.group, port: MulticastDNSSearcher.port)
            try socket.joinMulticastGroup(group, interface: service.address)
            try socket.setMulticastSending(from: service.address, timeToLive: 255)
        } catch {
            socket.close()
            throw ViewfinderError(error)
        }
        let started = try SocketLoop(name: "mdns-announce", sockets: [socket]) { [self] loop in serve(until: loop) }
        loop.withLock { $0 = started }
    }

    /// Says goodbye, stops answering and closes the socket.
    package func stop() {
        loop.withLock { loop in
            defer { loop = nil }
            return loop
        }?.stop { [self] in
            var goodbye = records
            for index in goodbye.indices { goodbye[index].timeToLive = 0 }
            send(DNSMessage(flags: DNSMessage.responseFlags, answers: goodbye))
        }
    }

    /// Announces twice, a second apart, and answers questions until stopped.
    private func serve(until loop: SocketLoop) {
        var announcements = [ContinuousClock.now, .now + .seconds(1)]
        var buffer = [UInt8](repeating: 0, count: DNSMessage.maximumLength)
        while !loop.isStopping {
            if let next = announcements.first, next <= .now {
                announcements.removeFirst()
                send(DNSMessage(flags: DNSMessage.responseFlags, answers: records))
            }
            let received = buffer.withUnsafeMutableBytes { raw in
                try? socket.receiveDatagram(into: raw, until: .now + .milliseconds(100), while: "answering mDNS")
            }
            guard let datagram = received ?? nil, !datagram.isTruncated,
                let query = try? DNSMessage(decoding: Array(buffer[..<datagram.count])), !query.isResponse
            else { continue }
            let answers = records.filter { record in
                query.questions.contains { question in
                    question.name == record.name
                        && (question.type == record.data.type || question.type == DNSRecordType.any)
                }
            }
            guard !answers.isEmpty else { continue }
            let additionals = answers.contains { $0.data.type == DNSRecordType.ptr } ? Array(records.dropFirst()) : []
            send(DNSMessage(flags: DNSMessage.responseFlags, answers: answers, additionals: additionals))
        }
    }

    private func send(_ message: DNSMessage) {
        guard let bytes = try? message.encoded() else { return }
        try? socket.send(bytes, to: group, timeout: .milliseconds(100), while: "announcing over mDNS")
    }
}
