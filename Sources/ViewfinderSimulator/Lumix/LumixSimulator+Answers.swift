import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderImaging
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension LumixSimulator {
    /// The model the simulated camera gives.
    static let model = "DC-TZ90"
    /// The UDN it announces and describes itself by.
    static let udn = "uuid:4D454930-0100-1000-8001-A8C1FE000001"
    /// The lens answer: f/8 to f/3.3, 1/2000 to 4 s, as the recorded TZ90's.
    static let lens = "ok,1536/256,882/256,2816/256,-512/256,0,off,720,24,off,128/1024,on"

    /// The menu settings: their type, the item that owns them, and their choices.
    static let menus: [(type: String, owner: String, choices: [String])] = [
        (
            "iso", "sensitivity",
            ["auto"] + [80, 100, 125, 160, 200, 250, 320, 400, 640, 800, 1600, 3200].map(String.init)
        ),
        ("exposure", "exposure3", (-15...15).map { $0 % 3 == 0 ? String($0 / 3) : "\($0)/3" }),
        ("whitebalance", "whitebalance", ["auto", "daylight", "cloudy", "shade", "halogen", "flash", "white_set1"]),
        ("focusmode", "focusmode", ["af", "afmacro", "mf"]),
        ("drivemode", "drivemode", ["normal", "burst", "selftimer"]),
    ]

    private static func xml(_ inner: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<camrply><result>\(inner)</camrply>\n".utf8)
    }

    private static let ok = xml("ok</result>")

    private static func error(_ word: String) -> [UInt8] { xml("\(word)</result>") }

    /// Answers one `cam.cgi` command.
    func answerCommand(_ request: SimulatedHTTPRequest) -> SimulatedHTTPAnswer {
        guard request.path == "/cam.cgi" else {
            return SimulatedHTTPAnswer(
                status: "404 Not Found", contentType: "text/plain", body: Array("not found".utf8))
        }
        let query = request.query
        switch query["mode"] ?? "" {
        case "accctrl":
            return SimulatedHTTPAnswer(
                contentType: "text/plain",
                body: query["type"] == "req_acc" ? Array("ok,\(Self.model),remote".utf8) : Self.error("err_non_support")
            )
        case "getinfo":
            return SimulatedHTTPAnswer(body: info(query["type"] ?? ""))
        case "getstate":
            return SimulatedHTTPAnswer(body: stateAnswer(keepingStreamFrom: request.peer))
        case "getsetting":
            let type = query["type"] ?? ""
            guard let value = state.withLock({ $0.settings[type] }) else {
                return SimulatedHTTPAnswer(body: Self.error("err_non_support"))
            }
            return SimulatedHTTPAnswer(
                body: Self.xml("ok</result><settingvalue \(type)=\"\(XMLElements.escaped(value))\"></settingvalue>"))
        case "setsetting":
            return SimulatedHTTPAnswer(body: set(query["type"] ?? "", to: query["value"] ?? ""))
        case "camcmd":
            return SimulatedHTTPAnswer(body: command(query["value"] ?? ""))
        case "get_content_info":
            let count = state.withLock { $0.pictures.count }
            return SimulatedHTTPAnswer(
                body: Self.xml(
                    "ok</result><current_position>\(count)</current_position><total_content_number>\(count)"
                        + "</total_content_number><content_number>\(count)</content_number>"))
        case "startstream":
            guard let port = query["value"].flatMap({ UInt16($0) }), port > 0,
                let address = try? SocketAddress(numeric: request.peer, port: port)
            else { return SimulatedHTTPAnswer(body: Self.error("err_param")) }
            state.withLock { $0.stream = (address, .now + .seconds(10)) }
            configuration.log("live view to \(address)")
            return SimulatedHTTPAnswer(body: Self.ok)
        case "stopstream":
            state.withLock { $0.stream = nil }
            return SimulatedHTTPAnswer(body: Self.ok)
        default:
            return SimulatedHTTPAnswer(body: Self.error("err_non_support"))
        }
    }

    private func info(_ type: String) -> [UInt8] {
        switch type {
        case "capability":
            return Self.xml(
                "ok</result><comm_proto_ver>1.6</comm_proto_ver><productinfo><modelname>\(Self.model)</modelname>"
                    + "</productinfo><camspeclist><camspec>oneshot_af_enable</camspec></camspeclist>")
        case "lens":
            return Array(Self.lens.utf8)
        case "allmenu":
            let items = Self.menus.map { menu in
                "<item id=\"menu_item_id_\(menu.owner)\" func_type=\"select\"><group>"
                    + menu.choices.map {
                        "<item id=\"menu_item_id_\(menu.owner)_\($0)\" cmd_mode=\"setsetting\" cmd_type=\"\(menu.type)\" "
                            + "cmd_value=\"\($0)\"/>"
                    }.joined() + "</group></item>"
            }
            return Self.xml(
                "ok</result><menuset><photosettings><menu>\(items.joined())</menu></photosettings></menuset>")
        case "curmenu":
            let settings = state.withLock { $0.settings }
            let items = Self.menus.map { menu in
                "<item id=\"menu_item_id_\(menu.owner)\" enable=\"yes\" value=\"\(settings[menu.type] ?? "")\"/>"
                    + menu.choices.map { "<item id=\"menu_item_id_\(menu.owner)_\($0)\" enable=\"yes\"/>" }.joined()
            }
            return Self.xml("ok</result><menuinfo><photosettings>\(items.joined())</photosettings></menuinfo>")
        default:
            return Self.error("err_non_support")
        }
    }

    private func stateAnswer(keepingStreamFrom peer: String) -> [UInt8] {
        let (mode, recording, count) = state.withLock { state in
            if let stream = state.stream, stream.address.host == peer {
                state.stream = (stream.address, .now + .seconds(10))
            }
            return (state.mode, state.recording, state.pictures.count)
        }
        return Self.xml(
            "ok</result><state><batt>3/3</batt><cammode>\(mode)</cammode><remaincapacity>\(max(0, 1000 - count))"
                + "</remaincapacity><sdcardstatus>write_enable</sdcardstatus><rec>\(recording ? "on" : "off")</rec>"
                + "<sd_access>off</sd_access><version>1.0</version></state>")
    }

    /// Sets a setting the menus list, or an aperture or shutter speed within the lens's limits.
    private func set(_ type: String, to value: String) -> [UInt8] {
        let allowed: Bool
        if let menu = Self.menus.first(where: { $0.type == type }) {
            allowed = menu.choices.contains(value)
        } else if type == "focal" || type == "shtrspeed" {
            let parts = value.split(separator: "/")
            let limits = type == "focal" ? 882...1536 : -512...2816
            allowed = parts.count == 2 && parts[1] == "256" && Int(parts[0]).map(limits.contains) == true
        } else {
            allowed = type == "quality" || type == "device_name" || type == "liveviewsize"
        }
        guard allowed else { return Self.error("err_param") }
        state.withLock { $0.settings[type] = value }
        configuration.log("set \(type) \(value)")
        return Self.ok
    }

    private func command(_ value: String) -> [UInt8] {
        switch value {
        case "recmode", "playmode":
            state.withLock { $0.mode = value == "recmode" ? "rec" : "play" }
            return Self.ok
        case "capture":
            guard state.withLock({ $0.mode }) == "rec" else { return Self.error("err_reject") }
            do {
                try addPicture()
            } catch {
                return Self.error("err_critical")
            }
            configuration.log("captured picture \(state.withLock { $0.pictures.count })")
            return Self.ok
        case "capture_cancel", "oneshot_af":
            return Self.ok
        case "video_recstart", "video_recstop":
            state.withLock { $0.recording = value == "video_recstart" }
            configuration.log(value == "video_recstart" ? "recording started" : "recording stopped")
            return Self.ok
        default:
            return Self.error("err_non_support")
        }
    }

    // MARK: Content directory

    /// Answers the content directory's Browse, the pictures' GETs and, unless it has a port of its own, the device
    /// description.
    func answerContent(_ request: SimulatedHTTPRequest) -> SimulatedHTTPAnswer {
        let path = request.path
        if request.head.startWords.first == "POST", path == "/Server0/CDS_control" {
            return SimulatedHTTPAnswer(contentType: "text/xml; charset=\"utf-8\"", body: browse(request))
        }
        if configuration.descriptionPort == nil, path == SSDPSearcher.lumixDescriptionPath {
            return SimulatedHTTPAnswer(contentType: "text/xml; charset=\"utf-8\"", body: description(request))
        }
        let name = path.dropFirst()
        guard name.count > 6, ["DO", "DT", "DL"].contains(String(name.prefix(2))), name.hasSuffix(".JPG"),
            let id = Int(name.dropFirst(2).dropLast(4)),
            let jpeg = state.withLock({ $0.pictures.first { $0.id == id }?.jpeg })
        else {
            return SimulatedHTTPAnswer(
                status: "404 Not Found", contentType: "text/plain", body: Array("no such file".utf8))
        }
        return SimulatedHTTPAnswer(contentType: "image/jpeg", body: jpeg)
    }

    private func browse(_ request: SimulatedHTTPRequest) -> [UInt8] {
        let document = try? XMLElements(request.body, from: "a Browse request", maximumLength: 65536)
        let start = document?.first("StartingIndex").flatMap { Int($0.text) } ?? 0
        let count = document?.first("RequestedCount").flatMap { Int($0.text) } ?? 0
        let pictures = state.withLock { $0.pictures }
        let chosen = pictures.dropFirst(max(0, start)).prefix(max(0, count))
        let base = contentBase(for: request)
        let items = chosen.map { picture in
            let id = picture.id
            func res(_ prefix: String, _ kind: String, _ pn: String) -> String {
                "<res protocolInfo=\"http-get:*:image/jpeg:DLNA.ORG_PN=\(kind);PANASONIC.COM_PN=\(pn)\" "
                    + "size=\"\(picture.jpeg.count)\">\(base)/\(prefix)\(id).JPG</res>"
            }
            return "<item id=\"\(id)\" parentID=\"0\" restricted=\"0\"><dc:title>\(id)</dc:title>"
                + "<upnp:class>object.item.imageItem</upnp:class>" + res("DO", "JPEG_LRG", "CAM_ORG")
                + res("DT", "JPEG_TN", "CAM_TN") + res("DL", "JPEG_MED", "CAM_LRGTN") + "</item>"
        }
        let didl =
            "<DIDL-Lite xmlns=\"urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/\" "
            + "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:upnp=\"urn:schemas-upnp-org:metadata-1-0/upnp/\">"
            + items.joined() + "</DIDL-Lite>"
        return Array(
            ("<?xml version=\"1.0\" encoding=\"utf-8\"?><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" "
                + "s:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\"><s:Body><u:BrowseResponse "
                + "xmlns:u=\"urn:schemas-upnp-org:service:ContentDirectory:1\"><Result>\(XMLElements.escaped(didl))</Result>"
                + "<NumberReturned>\(chosen.count)</NumberReturned><TotalMatches>\(pictures.count)</TotalMatches>"
                + "<UpdateID>1</UpdateID></u:BrowseResponse></s:Body></s:Envelope>").utf8)
    }

    /// `http://HOST:PORT` of the content directory, at the host the request was sent to.
    private func contentBase(for request: SimulatedHTTPRequest) -> String {
        let host = request.head["host"].map { String($0.prefix { $0 != ":" }) } ?? configuration.bindAddress
        let port = state.withLock { $0.contentPort } ?? configuration.contentPort
        return "http://\(host):\(port)"
    }

    // MARK: Device description

    /// Answers the server of the description's own port: the description, or 404.
    func answerDescriptionServer(_ request: SimulatedHTTPRequest) -> SimulatedHTTPAnswer {
        guard request.path == SSDPSearcher.lumixDescriptionPath else {
            return SimulatedHTTPAnswer(
                status: "404 Not Found", contentType: "text/plain", body: Array("not found".utf8))
        }
        return SimulatedHTTPAnswer(contentType: "text/xml; charset=\"utf-8\"", body: description(request))
    }

    /// The device description: a media server whose content directory takes its Browse at `/Server0/CDS_control`,
    /// named by its path when the description is served beside it, by its whole URL when on a port of its own.
    private func description(_ request: SimulatedHTTPRequest) -> [UInt8] {
        let control =
            (configuration.descriptionPort == nil ? "" : contentBase(for: request)) + "/Server0/CDS_control"
        return Array(
            ("<?xml version=\"1.0\"?>\n<root xmlns=\"urn:schemas-upnp-org:device-1-0\" "
                + "xmlns:pana=\"urn:schemas-panasonic-com:pana\"><specVersion><major>1</major><minor>0</minor>"
                + "</specVersion><device><deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType>"
                + "<friendlyName>\(Self.model)</friendlyName><manufacturer>Panasonic</manufacturer>"
                + "<modelName>\(Self.model)</modelName><UDN>\(Self.udn)</UDN><serviceList><service>"
                + "<serviceType>urn:schemas-upnp-org:service:ConnectionManager:1</serviceType>"
                + "<serviceId>urn:upnp-org:serviceId:ConnectionManager</serviceId><SCPDURL>/Server0/CMS_SCPD</SCPDURL>"
                + "<controlURL>/Server0/CMS_control</controlURL><eventSubURL>/Server0/CMS_event</eventSubURL>"
                + "</service><service><serviceType>urn:schemas-upnp-org:service:ContentDirectory:1</serviceType>"
                + "<serviceId>urn:upnp-org:serviceId:ContentDirectory</serviceId><SCPDURL>/Server0/CDS_SCPD</SCPDURL>"
                + "<controlURL>\(control)</controlURL><eventSubURL>/Server0/CDS_event</eventSubURL></service>"
                + "</serviceList></device></root>\n").utf8)
    }

    // MARK: Live view

    /// Sends a frame of the test scene ten times a second to the client that asked for live view, until it stops
    /// asking (ten seconds without `startstream` or `getstate`) or the simulator stops.
    ///
    /// Each datagram is a 32-byte header of the simulator's own (a big-endian frame number, then zeros: the layout
    /// of a real body's header is not known) followed by one whole JPEG, as clients expect. They come from the address
    /// the simulator listens on, as a camera's come from its own, so that a client that hears its camera alone takes
    /// them wherever the simulator listens (such as 127.0.0.2, with ports 80 and 60606 of its own).
    func streamLiveView() {
        guard let socket = try? Socket.udp(bindingTo: configuration.bindAddress) else { return }
        defer { socket.close() }
        var frame: UInt32 = 0
        while !state.withLock({ $0.stopping }) {
            let target = state.withLock { state -> SocketAddress? in
                guard let stream = state.stream, stream.until > .now else { return nil }
                return stream.address
            }
            if let target,
                let picture = try? TestScene.render(
                    width: 320, height: 240, lighting: .init(), time: Double(frame) / 10),
                let jpeg = try? encoder.encode(picture, quality: 70)
            {
                frame &+= 1
                let header = withUnsafeBytes(of: frame.bigEndian) { Array($0) } + [UInt8](repeating: 0, count: 28)
                try? socket.send(header + jpeg, to: target, timeout: .milliseconds(100), while: "sending live view")
            }
            usleep(100_000)
        }
    }
}
