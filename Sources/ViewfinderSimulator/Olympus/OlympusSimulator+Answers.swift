import ViewfinderDiscovery
import ViewfinderSystem

extension OlympusSimulator {
    /// The model the simulated camera gives.
    static let model = "E-M10MarkII"
    /// The folder the pictures are in.
    static let folder = "/DCIM/100OLYMP"
    /// Every picture's date and time, 2026-12-06 12:00:00, in the FAT form the listing gives.
    static let fatDate = (2026 - 1980) << 9 | 12 << 5 | 6
    static let fatTime = 12 << 11

    /// The properties: name, value at start and the values they take, as listed in `desclist`.
    static let properties: [(name: String, value: String, values: [String])] = [
        ("takemode", "P", ["iAuto", "P", "A", "S", "M", "ART", "movie"]),
        (
            "isospeedvalue", "Auto",
            ["Auto"] + [200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 3200, 6400].map(String.init)
        ),
        (
            "shutspeedvalue", "250",
            ["60\"", "30\"", "15\"", "8\"", "4\"", "2\"", "1\""]
                + [2, 4, 8, 15, 30, 60, 125, 250, 500, 1000, 2000, 4000]
                .map(String.init)
        ),
        (
            "focalvalue", "5.6",
            ["3.5", "4.0", "4.5", "5.0", "5.6", "6.3", "7.1", "8.0", "9.0", "10", "11", "13", "16", "22"]
        ),
        (
            "expcomp", "0.0",
            (-9...9).map { thirds in
                let value = Double(thirds) / 3
                let text = String(Double((abs(value) * 10).rounded()) / 10)
                return thirds == 0 ? "0.0" : (thirds < 0 ? "-" : "+") + text
            }
        ),
        ("wbvalue", "0", ["0", "18", "16", "17", "20", "35", "64", "23", "256", "257", "258", "259", "512"]),
        ("drivemode", "normal", ["normal", "continuous-H", "continuous-L", "selftimer"]),
    ]

    private static func xml(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\"?>\r\n\(body)\r\n".utf8)
    }

    /// The answer to a command the camera's mode does not serve: HTTP 520 with error code 1001.
    private static let wrongMode = SimulatedHTTPAnswer(
        status: "520 Unknown", body: xml("<error><errorcode>1001</errorcode></error>"))

    private static let notFound = SimulatedHTTPAnswer(
        status: "404 Not Found", contentType: "text/plain", body: Array("not found".utf8))

    private static let badRequest = SimulatedHTTPAnswer(
        status: "400 Bad Request", contentType: "text/plain", body: Array("bad request".utf8))

    private static let ok = SimulatedHTTPAnswer(body: [])

    /// The command list: every command the simulator answers, with its arguments and their values, which
    /// `olympuswifi` checks each request against.
    static let commandList: [UInt8] = {
        func command(_ name: String, _ method: String = "get", _ arguments: String = "") -> String {
            "<cgi name=\"\(name)\"><http_method type=\"\(method)\">\(arguments)</http_method></cgi>"
        }
        func values(_ level: Int, _ names: [String], then next: String = "") -> String {
            names.map { "<param\(level) name=\"\(XMLElements.escaped($0))\">\(next)</param\(level)>" }.joined()
        }
        let sizes = ["0320x0240", "0640x0480", "0800x0600", "1024x0768", "1280x0960"]
        let names = properties.map(\.name)
        let commands = [
            command("get_commandlist"), command("get_connectmode"), command("get_caminfo"),
            command(
                "switch_cammode", "get",
                "<cmd1 name=\"mode\">"
                    + values(1, ["rec"], then: "<cmd2 name=\"lvqty\">\(values(2, sizes))</cmd2>")
                    + values(1, ["play", "shutter"]) + "</cmd1>"),
            command(
                "get_camprop", "get",
                "<cmd1 name=\"com\">"
                    + values(1, ["desc"], then: "<cmd2 name=\"propname\">\(values(2, ["desclist"]))</cmd2>")
                    + values(1, ["get"], then: "<cmd2 name=\"propname\">\(values(2, names))</cmd2>") + "</cmd1>"),
            command(
                "set_camprop", "post",
                "<cmd1 name=\"com\">"
                    + values(1, ["set"], then: "<cmd2 name=\"propname\">\(values(2, names))</cmd2>") + "</cmd1>"),
            command("exec_shutter", "get", "<cmd1 name=\"com\">\(values(1, ["1st2ndpush", "2nd1strelease"]))</cmd1>"),
            command(
                "exec_takemotion", "get",
                "<cmd1 name=\"com\">" + values(1, ["takeready"], then: "<cmd2 name=\"point\"></cmd2>")
                    + values(1, ["starttake", "stoptake"]) + "</cmd1>"),
            command(
                "exec_takemisc", "get",
                "<cmd1 name=\"com\">" + values(1, ["startliveview"], then: "<cmd2 name=\"port\"></cmd2>")
                    + values(1, ["stopliveview"]) + "</cmd1>"),
            command("get_imglist", "get", "<cmd1 name=\"DIR\"></cmd1>"),
            command("get_thumbnail", "get", "<cmd1 name=\"DIR\"></cmd1>"),
        ]
        return xml(
            "<oishare><version>4.20</version><oitrackversion>3.10</oitrackversion><support func=\"web\"/>"
                + commands.joined() + "</oishare>")
    }()

    /// Answers one request.
    func answer(_ request: SimulatedHTTPRequest) -> SimulatedHTTPAnswer {
        let query = request.query
        switch request.path {
        case "/get_commandlist.cgi":
            return SimulatedHTTPAnswer(body: Self.commandList)
        case "/get_connectmode.cgi":
            return SimulatedHTTPAnswer(body: Self.xml("<connectmode>OPC</connectmode>"))
        case "/get_caminfo.cgi":
            return SimulatedHTTPAnswer(body: Self.xml("<caminfo><model>\(Self.model)</model></caminfo>"))
        case "/switch_cammode.cgi":
            guard let mode = query["mode"], ["play", "rec", "shutter"].contains(mode) else { return Self.badRequest }
            state.withLock { $0.mode = mode }
            configuration.log("mode \(mode)")
            return Self.ok
        case "/get_camprop.cgi":
            guard state.withLock({ $0.mode }) == "rec" else { return Self.wrongMode }
            return property(query)
        case "/set_camprop.cgi":
            guard state.withLock({ $0.mode }) == "rec" else { return Self.wrongMode }
            return setProperty(query["propname"] ?? "", body: request.body)
        case "/exec_takemisc.cgi":
            guard state.withLock({ $0.mode }) == "rec" else { return Self.wrongMode }
            return liveView(query, peer: request.peer)
        case "/exec_takemotion.cgi":
            guard state.withLock({ $0.mode }) == "rec" else { return Self.wrongMode }
            return takeMotion(query["com"] ?? "")
        case "/exec_shutter.cgi":
            guard state.withLock({ $0.mode }) == "shutter" else { return Self.wrongMode }
            return shutter(query["com"] ?? "")
        case "/get_imglist.cgi":
            guard state.withLock({ $0.mode }) == "play" else { return Self.wrongMode }
            return list(query["DIR"] ?? "")
        case "/get_thumbnail.cgi":
            guard state.withLock({ $0.mode }) == "play" else { return Self.wrongMode }
            return picture(at: query["DIR"] ?? "") == nil
                ? Self.notFound : SimulatedHTTPAnswer(contentType: "image/jpeg", body: thumbnail)
        default:
            guard let jpeg = picture(at: request.path) else { return Self.notFound }
            return SimulatedHTTPAnswer(contentType: "image/jpeg", body: jpeg)
        }
    }

    private func property(_ query: [String: String]) -> SimulatedHTTPAnswer {
        let values = state.withLock { $0.values }
        switch (query["com"], query["propname"]) {
        case ("desc", "desclist"):
            let descriptions = Self.properties.map { property in
                "<desc><propname>\(property.name)</propname><attribute>getset</attribute><value>"
                    + XMLElements.escaped(values[property.name] ?? property.value) + "</value><enum>"
                    + XMLElements.escaped(property.values.joined(separator: " ")) + "</enum></desc>"
            }
            return SimulatedHTTPAnswer(body: Self.xml("<desclist>\(descriptions.joined())</desclist>"))
        case ("get", let name?):
            guard let value = values[name] else { return Self.badRequest }
            return SimulatedHTTPAnswer(body: Self.xml("<get><value>\(XMLElements.escaped(value))</value></get>"))
        default:
            return Self.badRequest
        }
    }

    private func setProperty(_ name: String, body: [UInt8]) -> SimulatedHTTPAnswer {
        guard let property = Self.properties.first(where: { $0.name == name }),
            let document = try? XMLElements(body, from: "a set_camprop body", maximumLength: 4096),
            let value = document.first("value")?.text, property.values.contains(value)
        else { return Self.badRequest }
        state.withLock { $0.values[name] = value }
        configuration.log("set \(name) \(value)")
        return Self.ok
    }

    /// Starts live view to the client's `port`, answering the functions the packets' extension carries, or stops it.
    private func liveView(_ query: [String: String], peer: String) -> SimulatedHTTPAnswer {
        switch query["com"] {
        case "startliveview":
            guard let port = query["port"].flatMap({ UInt16($0) }), port > 0,
                let address = try? SocketAddress(numeric: peer, port: port)
            else { return Self.badRequest }
            state.withLock { $0.liveView = address }
            configuration.log("live view to \(address)")
            return SimulatedHTTPAnswer(body: Self.xml("<funcidlist><funcid name=\"orientation\"/></funcidlist>"))
        case "stopliveview":
            state.withLock { $0.liveView = nil }
            configuration.log("live view stopped")
            return Self.ok
        default:
            return Self.badRequest
        }
    }

    private func shutter(_ command: String) -> SimulatedHTTPAnswer {
        switch command {
        case "1st2ndpush":
            do {
                try addPicture()
            } catch {
                configuration.log("no picture: \(error)")
                return SimulatedHTTPAnswer(status: "500 Internal Server Error", contentType: "text/plain", body: [])
            }
            return Self.ok
        case "2nd1strelease":
            return Self.ok
        default:
            return Self.badRequest
        }
    }

    /// `exec_takemotion` in recording mode: `takeready` focuses, `starttake` takes a picture or, in movie mode,
    /// starts recording, which `stoptake` stops.
    private func takeMotion(_ command: String) -> SimulatedHTTPAnswer {
        switch command {
        case "takeready":
            configuration.log("focused")
            return Self.ok
        case "starttake":
            let movie = state.withLock { state in
                guard state.values["takemode"] == "movie" else { return false }
                state.isRecording = true
                return true
            }
            guard movie else { return shutter("1st2ndpush") }
            configuration.log("recording started")
            return Self.ok
        case "stoptake":
            let stopped = state.withLock { state in
                defer { state.isRecording = false }
                return state.isRecording
            }
            if stopped { configuration.log("recording stopped") }
            return Self.ok
        default:
            return Self.badRequest
        }
    }

    /// The listing of `directory`: `/DCIM` holds the picture folder, the folder the pictures; an empty or unknown
    /// folder answers 404, as the camera does.
    private func list(_ directory: String) -> SimulatedHTTPAnswer {
        let names = state.withLock { $0.pictures.map(\.name) }
        let sizes = state.withLock { $0.pictures.map(\.jpeg.count) }
        let lines: [String]
        switch directory {
        case "/DCIM":
            lines = ["/DCIM,100OLYMP,0,16,\(Self.fatDate),\(Self.fatTime)"]
        case Self.folder where !names.isEmpty:
            lines = zip(names, sizes).map { "\(Self.folder),\($0),\($1),0,\(Self.fatDate),\(Self.fatTime)" }
        default:
            return Self.notFound
        }
        return SimulatedHTTPAnswer(
            contentType: "text/plain", body: Array((["VER_100"] + lines).map { $0 + "\r\n" }.joined().utf8))
    }

    /// The JPEG of the picture at `path`, such as `/DCIM/100OLYMP/PC060001.JPG`.
    private func picture(at path: String) -> [UInt8]? {
        guard path.hasPrefix(Self.folder + "/") else { return nil }
        let name = path.dropFirst(Self.folder.count + 1)
        return state.withLock { $0.pictures.first { $0.name == name }?.jpeg }
    }
}
