import ViewfinderCore

extension SonyRemoteSimulator {
    /// The camera function of shooting, and of reaching the card through the `avContent` service.
    static let remoteShooting = "Remote Shooting"
    static let contentsTransfer = "Contents Transfer"

    /// The calls listed in remote shooting whatever the shoot mode: `actTakePicture` in the `still` shoot mode, and
    /// `startMovieRec` or `stopMovieRec` in `movie`, come on top.
    static let shootingMethods =
        idleMethods.filter { $0 != "startRecMode" }
        + [
            "stopRecMode", "startLiveview", "stopLiveview", "actHalfPressShutter", "cancelHalfPressShutter",
            "setTouchAFPosition", "getTouchAFPosition", "cancelTouchAFPosition",
        ]
        + (settings.map(\.name) + ["ExposureCompensation"]).flatMap { name in
            ["get", "set", "getAvailable", "getSupported"].map { $0 + name }
        }
    /// The calls listed while the camera serves its card.
    static let contentsMethods =
        idleMethods.filter { $0 != "startRecMode" }
        + ["stopRecMode"] + ["get", "set", "getAvailable", "getSupported"].map { $0 + "CameraFunction" }
    /// Every call of the `camera` service.
    static let cameraMethods = Set(
        idleMethods + shootingMethods + contentsMethods + ["actTakePicture", "startMovieRec", "stopMovieRec"])

    /// The calls the camera lists in `state`, but for those the configuration leaves out.
    func listedMethods(_ state: State) -> [String] {
        let listed: [String]
        if !state.recording {
            listed = Self.idleMethods
        } else if state.values["CameraFunction"] != Self.remoteShooting || state.functionSwitch != nil {
            listed = Self.contentsMethods
        } else if state.values["ShootMode"] == "movie" {
            listed = Self.shootingMethods + [state.movieRecording ? "stopMovieRec" : "startMovieRec"]
        } else {
            listed = Self.shootingMethods + ["actTakePicture"]
        }
        return listed.filter { !configuration.omittedMethods.contains($0) }
    }

    /// What `cameraStatus` says in `state`.
    static func cameraStatus(_ state: State) -> String {
        if state.functionSwitch != nil { return "NotReady" }
        if state.values["CameraFunction"] == contentsTransfer { return "ContentsTransfer" }
        return state.movieRecording ? "MovieRecording" : "IDLE"
    }

    /// Completes a switch of the camera function whose time has come: the camera serves the new function, and the
    /// next event says so with `cameraFunctionResult`.
    func settleFunctionSwitch() {
        let settled = state.withLock { state -> String? in
            guard let (target, due) = state.functionSwitch, ContinuousClock.now >= due else { return nil }
            state.functionSwitch = nil
            state.values["CameraFunction"] = target
            state.functionResult = "Success"
            state.liveView = state.liveView && target == Self.remoteShooting
            state.changed = true
            return target
        }
        if let settled { configuration.log("camera function \(settled)") }
    }

    /// The answer to a call of the half press, touch AF, movie recording or the camera function; `nil` for another
    /// call.
    func shootingReply(_ method: String, params: [JSONValue], id: JSONValue) -> JSONValue? {
        switch method {
        case "actHalfPressShutter", "cancelHalfPressShutter":
            let pressed = method == "actHalfPressShutter"
            state.withLock { state in
                state.focusStatus = pressed ? "Focused" : "Not Focusing"
                state.changed = true
            }
            configuration.log(pressed ? "half press" : "half press released")
            return Self.result([.number(0)], id: id)
        case "setTouchAFPosition":
            guard params.count == 2, case .number(let x) = params[0], case .number(let y) = params[1],
                (0...100).contains(x), (0...100).contains(y)
            else { return Self.error(3, "Illegal Argument", id: id) }
            state.withLock { state in
                state.touchPosition = (x, y)
                state.focusStatus = "Focused"
                state.changed = true
            }
            configuration.log("touch AF at \(Int(x)),\(Int(y))")
            return Self.result(
                [.number(0), .object([("AFResult", .bool(true)), ("AFType", .string("Touch"))])], id: id)
        case "getTouchAFPosition":
            let position = state.withLock { $0.touchPosition }
            return Self.result(
                [
                    .object([
                        ("set", .bool(position != nil)),
                        ("touchCoordinates", .array(position.map { [.number($0.x), .number($0.y)] } ?? [])),
                    ])
                ], id: id)
        case "cancelTouchAFPosition":
            state.withLock { state in
                state.touchPosition = nil
                state.changed = true
            }
            configuration.log("touch AF cancelled")
            return Self.result([.number(0)], id: id)
        case "startMovieRec", "stopMovieRec":
            let recording = method == "startMovieRec"
            state.withLock { state in
                state.movieRecording = recording
                state.changed = true
            }
            configuration.log(recording ? "movie recording started" : "movie recording stopped")
            // stopMovieRec answers the movie's thumbnail URL, which the simulator does not make.
            return Self.result([recording ? .number(0) : .string("")], id: id)
        case "setShootMode" where state.withLock({ $0.movieRecording }):
            return Self.error(7, "Illegal State", id: id)
        case "setCameraFunction":
            guard let target = params.first?.string, [Self.remoteShooting, Self.contentsTransfer].contains(target)
            else { return Self.error(3, "Illegal Argument", id: id) }
            let switching = state.withLock { state in
                guard state.values["CameraFunction"] != target, state.functionSwitch == nil else { return false }
                state.functionSwitch = (target, ContinuousClock.now + configuration.functionSwitchTime)
                state.functionResult = nil
                state.changed = true
                return true
            }
            guard switching else { return Self.error(7, "Illegal State", id: id) }
            configuration.log("set CameraFunction \(target)")
            return Self.result([.number(0)], id: id)
        default:
            return nil
        }
    }
}
