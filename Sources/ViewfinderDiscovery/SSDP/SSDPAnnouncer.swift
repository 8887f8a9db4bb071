import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// Announces a UPnP device over SSDP, as a Canon camera does: its device description served over HTTP, NOTIFY
/// ssdp:alive at start and every 30 seconds, answers to M-SEARCH for its types, and ssdp:byebye at stop.
///
/// Only searches sent to the SSDP group are answered: its socket is bound to the group's address, so an M-SEARCH
/// sent to this host alone, whose sender address anyone can forge, never makes it send its answers to a third party.
///
/// It runs until ``stop()``, which its owner must call.
package final class SSDPAnnouncer: Sendable {
    /// What is announced.
    package struct Device: Sendable {
        /// The UDN, `uuid:…`.
        package var udn: String
        /// The notification types announced besides the root device, such as Canon's EOS service.
        package var types: [String]
        /// The maker, the model, the owner's name and the serial number, for the description.
        package var manufacturer: String
        package var modelName: String
        package var friendlyName: String
        package var serialNumber: String
        /// The IPv4 address to announce from and serve the description on.
        package var address: String
        /// Elements the description's device element holds besides UPnP's, as written, such as a Sony's
        /// `av:X_ScalarWebAPI_DeviceInfo`; none by default.
        package var vendorElements: String
        /// The path the description is served at.
        package var descriptionPath: String
        /// Where the device serves a description of its own (a Lumix's, on its UPnP server), which is then
        /// announced, and no description is served by the announcer; `nil` to serve one at ``descriptionPath``.
        package var servedLocation: String?

        /// A device.
        package init(
            udn: String, types: [String], manufacturer: String, modelName: String, friendlyName: String,
            serialNumber: String, address: String, vendorElements: String = "",
            descriptionPath: String = SSDPAnnouncer.path, servedLocation: String? = nil
        ) {
            self.udn = udn
            self.types = types
            self.manufacturer = manufacturer
            self.modelName = modelName
            self.friendlyName = friendlyName
            self.serialNumber = serialNumber
            self.address = address
            self.vendorElements = vendorElements
            self.descriptionPath = descriptionPath
            self.servedLocation = servedLocation
        }
    }

    /// Where the description is served.
    package let location: String

    private let device: Device
    private let multicast: Socket
    /// The socket the description is served on, unless the device serves its own.
    private let http: Socket?
    private let group: SocketAddress
    private let description: [UInt8]
    private let loop = Locked<SocketLoop?>(nil)

    /// How often ssdp:alive is sent, and how long it says it lasts.
    static let interval = Duration.seconds(30)
    static let maximumAge = 120
    /// The description's path, unless the device names another.
    package static let path = "/upnp/CameraDevDesc.xml"
    /// The path of its services' description, which lists no actions: a camera's services are reached over PTP/IP.
    static let servicePath = "/upnp/CameraService.xml"

    /// The services' description.
    static let serviceDescription = Array(
        """
        <?xml version="1.0"?>
        <scpd xmlns="urn:schemas-upnp-org:service-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>\
        <actionList/><serviceStateTable/></scpd>

        """.utf8)

    /// Starts serving the description and announcing `device`.
    ///
    /// - Throws: `ViewfinderError` when port 1900, the group or an HTTP port cannot be had.
    package init(_ device: Device) throws(ViewfinderError) {
        self.device = device
        do throws(SocketError) {
            http = device.servedLocation == nil ? try Socket.listen(host: device.address, port: 0) : nil
        } catch {
            throw ViewfinderError(error)
        }
        do throws(SocketError) {
            multicast = try Socket.udp(bindingTo: SSDPMessage.ipv4Group, port: SSDPMessage.port, sharingPort: true)
        } catch {
            http?.close()
            throw ViewfinderError(error)
        }
        do throws(SocketError) {
            group = try SocketAddress(numeric: SSDPMessage.ipv4Group, port: SSDPMessage.port)
            try multicast.joinMulticastGroup(group, interface: device.address)
            try multicast.setMulticastSending(from: device.address, timeToLive: 2)
        } catch {
            http?.close()
            multicast.close()
            throw ViewfinderError(error)
        }
        location =
            device.servedLocation ?? "http://\(device.address):\(http?.localPort ?? 0)\(device.descriptionPath)"
        description = Self.description(of: device)
        let sockets = [http, multicast].compactMap(\.self)
        let started = try SocketLoop(name: "ssdp-announce", sockets: sockets) { [self] loop in
            serve(until: loop)
        }
        loop.withLock { $0 = started }
    }

    /// Sends ssdp:byebye, stops answering and serving, and closes the sockets.
    package func stop() {
        loop.withLock { loop in
            defer { loop = nil }
            return loop
        }?.stop { [self] in
            for type in notificationTypes {
                send(notification(type, subtype: "ssdp:byebye"), to: group)
            }
        }
    }

    /// The root device, the UDN and each of the device's types, as UPnP announces them.
    private var notificationTypes: [String] { ["upnp:rootdevice", device.udn] + device.types }

    private func usn(for type: String) -> String { type == device.udn ? type : "\(device.udn)::\(type)" }

    private func notification(_ type: String, subtype: String) -> SSDPMessage {
        var headers = [
            "HOST": "\(SSDPMessage.ipv4Group):\(SSDPMessage.port)", "NT": type, "NTS": subtype, "USN": usn(for: type),
        ]
        if subtype == "ssdp:alive" {
            headers["CACHE-CONTROL"] = "max-age=\(Self.maximumAge)"
            headers["LOCATION"] = location
            headers["SERVER"] = "Linux UPnP/1.0 Viewfinder/1.0"
        }
        return SSDPMessage(kind: .notify, headers: headers)
    }

    private func serve(until loop: SocketLoop) {
        var nextAlive = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: SSDPMessage.maximumLength)
        while !loop.isStopping {
            if nextAlive <= .now {
                for type in notificationTypes { send(notification(type, subtype: "ssdp:alive"), to: group) }
                nextAlive = .now + Self.interval
            }
            let ready =
                (try? Poll.wait(
                    [Poll.Request(multicast.descriptor, for: Poll.readable)]
                        + (http.map { [Poll.Request($0.descriptor, for: Poll.readable)] } ?? []),
                    until: .now + .milliseconds(100))) ?? []
            if ready.first.map({ $0 != 0 }) == true {
                let received = buffer.withUnsafeMutableBytes { raw in
                    try? multicast.receiveDatagram(into: raw, until: .now, while: "answering SSDP")
                }
                if let datagram = received ?? nil, !datagram.isTruncated,
                    let message = try? SSDPMessage(decoding: Array(buffer[..<datagram.count]))
                {
                    answer(message, from: datagram.sender)
                }
            }
            if let http, ready.count == 2, ready[1] != 0, let client = try? http.acceptNow() {
                serveDescription(to: client)
            }
        }
    }

    /// Answers an M-SEARCH for one of the device's types, or for everything, with `HTTP/1.1 200 OK`.
    private func answer(_ message: SSDPMessage, from sender: SocketAddress) {
        guard message.kind == .search, let target = message.target else { return }
        let types = target == "ssdp:all" ? notificationTypes : notificationTypes.filter { $0 == target }
        for type in types {
            let response = SSDPMessage(
                kind: .response,
                headers: [
                    "CACHE-CONTROL": "max-age=\(Self.maximumAge)", "EXT": "", "LOCATION": location,
                    "SERVER": "Linux UPnP/1.0 Viewfinder/1.0", "ST": type, "USN": usn(for: type),
                ])
            send(response, to: sender)
        }
    }

    private func send(_ message: SSDPMessage, to address: SocketAddress) {
        try? multicast.send(message.encoded(), to: address, timeout: .milliseconds(100), while: "announcing over SSDP")
    }

    /// Reads a request's head (at most 8 KiB, within a second) and answers it with the description or a 404.
    private func serveDescription(to client: Socket) {
        defer { client.close() }
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        let deadline = ContinuousClock.now + .seconds(1)
        while request.count < 8192, HTTPHead.end(in: request, from: max(0, request.count - 4)) == nil {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero,
                let count = chunk.withUnsafeMutableBytes({ raw in
                    try? client.receive(into: raw, timeout: remaining, while: "reading a description request")
                })
            else { return }
            request += chunk[..<count]
        }
        let words = (try? HTTPHead(parsing: request))?.startWords ?? []
        let document: [UInt8]? =
            switch words.count >= 3 && words[0] == "GET" ? words[1] : "" {
            case device.descriptionPath[...]: description
            case Self.servicePath[...]: Self.serviceDescription
            default: nil
            }
        let body = document ?? Array("not found\n".utf8)
        let head = HTTPHead(
            startLine: document != nil ? "HTTP/1.1 200 OK" : "HTTP/1.1 404 Not Found",
            fields: [
                .init("Content-Type", "text/xml; charset=\"utf-8\""), .init("Content-Length", "\(body.count)"),
                .init("Connection", "close"),
            ])
        try? client.send(head.encoded() + body, timeout: .seconds(1), while: "serving the description")
    }

    /// The device description.
    private static func description(of device: Device) -> [UInt8] {
        let escaped = XMLElements.escaped
        let services = device.types.filter { $0.contains(":service:") }.enumerated().map { index, type in
            let id = type.split(separator: ":").dropLast().last.map(String.init) ?? "Service\(index)"
            return "<service><serviceType>\(escaped(type))</serviceType>"
                + "<serviceId>urn:upnp-org:serviceId:\(escaped(id))</serviceId><SCPDURL>\(servicePath)</SCPDURL>"
                + "<controlURL>/upnp/control/\(index)</controlURL><eventSubURL>/upnp/event/\(index)</eventSubURL>"
                + "</service>"
        }.joined()
        return Array(
            """
            <?xml version="1.0"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>\
            <device><deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>\
            <friendlyName>\(escaped(device.friendlyName))</friendlyName>\
            <manufacturer>\(escaped(device.manufacturer))</manufacturer>\
            <modelName>\(escaped(device.modelName))</modelName>\
            <serialNumber>\(escaped(device.serialNumber))</serialNumber>\
            <UDN>\(escaped(device.udn))</UDN><serviceList>\(services)</serviceList>\(device.vendorElements)</device></root>

            """.utf8)
    }
}
