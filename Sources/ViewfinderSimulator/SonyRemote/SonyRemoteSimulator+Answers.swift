import ViewfinderCore
import ViewfinderImaging

#if canImport(Glibc)
import Glibc
#endif

extension SonyRemoteSimulator {
    /// The model the simulated camera gives.
    static let model = "ILCE-6000"

    /// The settings with string values: the name in their methods, the value at start and the values they take.
    static let settings: [(name: String, value: String, values: [String])] = [
        ("IsoSpeedRate", "AUTO", ["AUTO"] + [100, 200, 400, 800, 1600, 3200, 6400].map(String.init)),
        (
            "FNumber", "5.6",
            ["3.5", "4.0", "4.5", "5.0", "5.6", "6.3", "7.1", "8.0", "9.0", "10", "11", "13", "16", "18", "20", "22"]
        ),
        (
            "ShutterSpeed", "1/250",
            ["30\"", "15\"", "8\"", "4\"", "2\"", "1\""]
                + [2, 4, 8, 15, 30, 60, 125, 250, 500, 1000, 2000, 4000].map { "1/\($0)" }
        ),
        (
            "WhiteBalance", "Auto WB",
            ["Auto WB", "Daylight", "Shade", "Cloudy", "Incandescent", "Fluorescent: Warm White (-1)", "Flash"]
        ),
        (
            "ExposureMode", "Program Auto",
            ["Intelligent Auto", "Superior Auto", "Program Auto", "Aperture", "Shutter", "Manual"]
        ),
        ("FocusMode", "AF-S", ["AF-S", "AF-C", "DMF", "MF"]),
        ("ShootMode", "still", ["still", "movie"]),
        ("CameraFunction", remoteShooting, [remoteShooting, contentsTransfer]),
    ]
    /// The exposure compensation's range in steps of a third.
    static let exposureCompensationSteps = -9...9

    /// The calls listed before `startRecMode`.
    static let idleMethods = [
        "getVersions", "getMethodTypes", "getApplicationInfo", "getAvailableApiList", "getEvent", "startRecMode",
    ]

    /// The service type the camera announces over SSDP.
    static let serviceType = "urn:schemas-sony-com:service:ScalarWebAPI:1"
    /// The camera's UDN.
    static let udn = "uuid:00000000-0005-0010-8000-5AF3A0E1F0C2"

    /// Sony's device information: the API version and the `camera`, `system` and `avContent` services' action
    /// list URL, on the calls' `port`.
    func deviceInfo(port: UInt16) -> String {
        let base = baseURL(port: port) + "/sony"
        let services = ["camera", "system", "avContent"].map { service in
            "<av:X_ScalarWebAPI_Service><av:X_ScalarWebAPI_ServiceType>\(service)</av:X_ScalarWebAPI_ServiceType>"
                + "<av:X_ScalarWebAPI_ActionList_URL>\(base)</av:X_ScalarWebAPI_ActionList_URL>"
                + "<av:X_ScalarWebAPI_AccessType /></av:X_ScalarWebAPI_Service>"
        }
        return "<av:X_ScalarWebAPI_DeviceInfo xmlns:av=\"urn:schemas-sony-com:av\">"
            + "<av:X_ScalarWebAPI_Version>1.0</av:X_ScalarWebAPI_Version>"
            + "<av:X_ScalarWebAPI_ServiceList>\(services.joined())</av:X_ScalarWebAPI_ServiceList>"
            + "</av:X_ScalarWebAPI_DeviceInfo>"
    }

    /// The device description at its path: the name and Sony's device information.
    func deviceDescription() -> [UInt8] {
        let port = state.withLock { $0.server?.port } ?? 0
        return Array(
            ("<?xml version=\"1.0\"?>\r\n<root xmlns=\"urn:schemas-upnp-org:device-1-0\">"
                + "<specVersion><major>1</major><minor>0</minor></specVersion>"
                + "<device><deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>"
                + "<friendlyName>\(Self.model)</friendlyName><manufacturer>Sony Corporation</manufacturer>"
                + "<modelName>SonyImagingDevice</modelName><UDN>\(Self.udn)</UDN>"
                + deviceInfo(port: port) + "</device></root>\r\n").utf8)
    }

    /// Answers one request: the description, a call, a postview picture, or a still on the card or its thumbnail.
    func answer(_ request: SimulatedHTTPRequest) -> SimulatedHTTPAnswer {
        let verb = request.head.startWords.first.map(String.init) ?? ""
        if verb == "GET", request.path == configuration.descriptionPath {
            return SimulatedHTTPAnswer(body: deviceDescription())
        }
        switch (verb, request.path) {
        case ("POST", "/sony/camera"), ("POST", "/sony/system"), ("POST", "/sony/avContent"):
            let reply: JSONValue
            do {
                let call = try JSONValue(parsing: request.body)
                reply = self.reply(to: call, service: String(request.path.dropFirst("/sony/".count)))
            } catch {
                reply = Self.error(5, "Illegal Request", id: .null)
            }
            return SimulatedHTTPAnswer(contentType: "application/json", body: Array(reply.text.utf8))
        case ("GET", let path) where path.hasPrefix("/postview/"):
            let name = String(path.dropFirst("/postview/".count))
            guard let jpeg = state.withLock({ $0.pictures[name] }) else { break }
            return SimulatedHTTPAnswer(contentType: "image/jpeg", body: jpeg)
        case ("GET", let path) where path.hasPrefix("/contents/") || path.hasPrefix("/thumbnail/"):
            if let answer = contentAnswer(path: path) { return answer }
        default:
            break
        }
        return SimulatedHTTPAnswer(status: "404 Not Found", contentType: "text/plain", body: Array("not found".utf8))
    }

    static func result(_ values: [JSONValue], id: JSONValue) -> JSONValue {
        .object([("result", .array(values)), ("id", id)])
    }

    static func error(_ code: Int, _ message: String, id: JSONValue) -> JSONValue {
        .object([("error", .array([.number(Double(code)), .string(message)])), ("id", id)])
    }

    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map { .string($0) })
    }

    /// The answer to one JSON-RPC call to `service`.
    func reply(to call: JSONValue, service: String) -> JSONValue {
        let id = call["id"] ?? .null
        guard let method = call["method"]?.string, let params = call["params"]?.array else {
            return Self.error(5, "Illegal Request", id: id)
        }
        if service == "system" {
            return method == "getVersions"
                ? Self.result([Self.strings(["1.0"])], id: id) : Self.error(12, "No Such Method", id: id)
        }
        settleFunctionSwitch()
        if service == "avContent" {
            return avContentReply(to: call, method: method, params: params, id: id)
        }
        let listed = state.withLock { listedMethods($0) }
        guard Self.cameraMethods.contains(method), !configuration.omittedMethods.contains(method) else {
            return Self.error(12, "No Such Method", id: id)
        }
        guard listed.contains(method) else {
            return Self.error(1, "Not Available Now", id: id)
        }
        switch method {
        case "getVersions":
            return Self.result([Self.strings(["1.0"])], id: id)
        case "getMethodTypes":
            let types = listed.map { name in
                JSONValue.array([.string(name), .array([]), .array([]), .string("1.0")])
            }
            return Self.result(types, id: id)
        case "getApplicationInfo":
            return Self.result([.string("Smart Remote Control"), .string("2.1.0")], id: id)
        case "getAvailableApiList":
            return Self.result([Self.strings(listed)], id: id)
        case "startRecMode", "stopRecMode":
            state.withLock { state in
                state.recording = method == "startRecMode"
                state.liveView = state.liveView && state.recording
                state.changed = true
            }
            configuration.log(method)
            return Self.result([.number(0)], id: id)
        case "getEvent":
            let longPoll = params.first == .bool(true)
            let answer = Self.result(event(longPoll: longPoll), id: id)
            if longPoll, configuration.longPollAnswerDelay > .zero {
                let (seconds, attoseconds) = configuration.longPollAnswerDelay.components
                usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            }
            return answer
        case "actTakePicture":
            return takePicture(id: id)
        case "startLiveview", "stopLiveview":
            state.withLock { $0.liveView = method == "startLiveview" }
            configuration.log(method)
            let port = state.withLock { $0.liveViewServer?.port }
            return Self.result(
                [method == "startLiveview" ? .string(baseURL(port: port) + Self.liveViewPath) : .number(0)], id: id)
        default:
            return shootingReply(method, params: params, id: id) ?? setting(method, params: params, id: id)
        }
    }

    /// The answer to a get, set, getAvailable or getSupported call of a setting.
    private func setting(_ method: String, params: [JSONValue], id: JSONValue) -> JSONValue {
        let verb = ["getAvailable", "getSupported", "get", "set"].first { method.hasPrefix($0) } ?? ""
        let name = String(method.dropFirst(verb.count))
        if name == "ExposureCompensation" {
            let steps = Self.exposureCompensationSteps
            let current = JSONValue.number(Double(state.withLock { $0.exposureCompensation }))
            switch verb {
            case "get": return Self.result([current], id: id)
            case "getAvailable":
                return Self.result(
                    [current, .number(Double(steps.upperBound)), .number(Double(steps.lowerBound)), .number(1)], id: id)
            case "getSupported":
                return Self.result(
                    [
                        .array([.number(Double(steps.upperBound))]), .array([.number(Double(steps.lowerBound))]),
                        .array([.number(1)]),
                    ], id: id)
            default:
                guard let value = params.first?.integer, steps.contains(value) else {
                    return Self.error(3, "Illegal Argument", id: id)
                }
                state.withLock { state in
                    state.exposureCompensation = value
                    state.changed = true
                }
                configuration.log("set ExposureCompensation \(value)")
                return Self.result([.number(0)], id: id)
            }
        }
        guard let setting = Self.settings.first(where: { $0.name == name }) else {
            return Self.error(12, "No Such Method", id: id)
        }
        let current = state.withLock { $0.values[name] } ?? setting.value
        let isWhiteBalance = name == "WhiteBalance"
        func value(_ text: String) -> JSONValue {
            isWhiteBalance
                ? .object([("whiteBalanceMode", .string(text)), ("colorTemperature", .number(-1))]) : .string(text)
        }
        func candidates() -> JSONValue {
            isWhiteBalance
                ? .array(
                    setting.values.map {
                        .object([("whiteBalanceMode", .string($0)), ("colorTemperatureRange", .array([]))])
                    })
                : Self.strings(setting.values)
        }
        switch verb {
        case "get": return Self.result([value(current)], id: id)
        case "getAvailable": return Self.result([value(current), candidates()], id: id)
        case "getSupported": return Self.result([candidates()], id: id)
        default:
            guard let new = params.first?.string, setting.values.contains(new) else {
                return Self.error(3, "Illegal Argument", id: id)
            }
            state.withLock { state in
                state.values[name] = new
                state.changed = true
            }
            configuration.log("set \(name) \(new)")
            return Self.result([.number(0)], id: id)
        }
    }

    /// Adds a picture of the test scene, answering its postview URL.
    private func takePicture(id: JSONValue) -> JSONValue {
        guard let picture = try? TestScene.render(width: 640, height: 480, lighting: .init(), time: 0),
            let jpeg = try? encoder.encode(picture, quality: 85)
        else { return Self.error(40400, "Shooting Fail", id: id) }
        let base = baseURL(port: state.withLock { $0.server?.port })
        let name = state.withLock { state in
            let name = "pict\(state.pictures.count + 1).JPG"
            state.pictures[name] = jpeg
            state.lastPicture = base + "/postview/" + name
            state.changed = true
            return name
        }
        configuration.log("new picture \(name)")
        return Self.result([Self.strings([base + "/postview/" + name])], id: id)
    }

    /// The state as `getEvent` answers it.
    ///
    /// One slot per kind, each object at the index version 1.0 gives it, `null` in the slots the simulator does not
    /// fill. A long poll waits, within the configured timeout, for a change since the last answer, which a call on
    /// another connection makes.
    private func event(longPoll: Bool) -> [JSONValue] {
        if longPoll, state.withLock({ !$0.changed }) {
            state.withLock { $0.pollsWaiting += 1 }
            let deadline = ContinuousClock.now + configuration.eventTimeout
            while ContinuousClock.now < deadline, state.withLock({ !$0.changed && !$0.stopping }) {
                usleep(20_000)
                settleFunctionSwitch()
            }
            state.withLock { $0.pollsWaiting -= 1 }
        }
        let state = self.state.withLock { state in
            defer { state.changed = false }
            return state
        }
        var slots = [JSONValue](repeating: .null, count: 36)
        func object(_ type: String, _ members: [(key: String, value: JSONValue)]) -> JSONValue {
            .object([("type", .string(type))] + members)
        }
        func setting(_ name: String, _ type: String, current: String, candidates: String) -> JSONValue {
            let values = Self.settings.first { $0.name == name }?.values ?? []
            return object(
                type, [(current, .string(state.values[name] ?? "")), (candidates, Self.strings(values))])
        }
        slots[0] = object("availableApiList", [("names", Self.strings(listedMethods(state)))])
        slots[1] = object("cameraStatus", [("cameraStatus", .string(Self.cameraStatus(state)))])
        slots[10] = setting(
            "CameraFunction", "cameraFunction", current: "currentCameraFunction", candidates: "cameraFunctionCandidates"
        )
        if let result = state.functionResult {
            slots[11] = object("cameraFunctionResult", [("cameraFunctionResult", .string(result))])
        }
        // Serving its card, the camera tells of nothing else.
        guard state.values["CameraFunction"] == Self.remoteShooting, state.functionSwitch == nil else { return slots }
        slots[3] = object("liveviewStatus", [("liveviewStatus", .bool(state.liveView))])
        if let lastPicture = state.lastPicture {
            slots[5] = .array([object("takePicture", [("takePictureUrl", Self.strings([lastPicture]))])])
        }
        slots[18] = setting(
            "ExposureMode", "exposureMode", current: "currentExposureMode", candidates: "exposureModeCandidates")
        slots[21] = setting("ShootMode", "shootMode", current: "currentShootMode", candidates: "shootModeCandidates")
        let steps = Self.exposureCompensationSteps
        slots[25] = object(
            "exposureCompensation",
            [
                ("currentExposureCompensation", .number(Double(state.exposureCompensation))),
                ("maxExposureCompensation", .number(Double(steps.upperBound))),
                ("minExposureCompensation", .number(Double(steps.lowerBound))),
                ("stepIndexOfExposureCompensation", .number(1)),
            ])
        slots[27] = setting("FNumber", "fNumber", current: "currentFNumber", candidates: "fNumberCandidates")
        slots[28] = setting("FocusMode", "focusMode", current: "currentFocusMode", candidates: "focusModeCandidates")
        slots[29] = setting(
            "IsoSpeedRate", "isoSpeedRate", current: "currentIsoSpeedRate", candidates: "isoSpeedRateCandidates")
        slots[32] = setting(
            "ShutterSpeed", "shutterSpeed", current: "currentShutterSpeed", candidates: "shutterSpeedCandidates")
        slots[33] = object(
            "whiteBalance",
            [
                ("currentWhiteBalanceMode", .string(state.values["WhiteBalance"] ?? "")),
                ("currentColorTemperature", .number(-1)),
            ])
        slots[34] = object(
            "touchAFPosition",
            [
                ("currentSet", .bool(state.touchPosition != nil)),
                ("currentTouchCoordinates", .array(state.touchPosition.map { [.number($0.x), .number($0.y)] } ?? [])),
            ])
        if let focusStatus = state.focusStatus {
            slots[35] = object("focusStatus", [("focusStatus", .string(focusStatus))])
        }
        return slots
    }
}
