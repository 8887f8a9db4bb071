import ViewfinderCore

extension SonyRemoteConnection {
    /// The name in the camera's calls of each property the driver reads and sets: `set` + name sets it.
    static let settingNames: [String: String] = [
        CameraPropertyIdentifier.iso.name: "IsoSpeedRate", CameraPropertyIdentifier.aperture.name: "FNumber",
        CameraPropertyIdentifier.shutterSpeed.name: "ShutterSpeed",
        CameraPropertyIdentifier.exposureCompensation.name: "ExposureCompensation",
        CameraPropertyIdentifier.whiteBalance.name: "WhiteBalance",
        CameraPropertyIdentifier.autoExposureMode.name: "ExposureMode",
        CameraPropertyIdentifier.focusMode.name: "FocusMode",
    ]

    /// Reads the white balance modes the camera takes now (which its events do not carry), the exposure and focus
    /// modes with their `getAvailable` calls, then the whole state with `getEvent [false]`, and passes them to the
    /// camera's properties.
    func readSettings() async throws(ViewfinderError) {
        if isAvailable("getAvailableWhiteBalance") {
            let result = try await call("getAvailableWhiteBalance")
            let modes = (result.dropFirst().first?.array ?? []).compactMap { $0["whiteBalanceMode"]?.string }
            state.withLock { $0.whiteBalanceModes = modes }
        }
        if isAvailable("getAvailableExposureMode") {
            let result = try await call("getAvailableExposureMode")
            report(.autoExposureMode, result, SonyRemotePropertyValues.exposureMode)
        }
        if isAvailable("getAvailableFocusMode") {
            report(.focusMode, try await call("getAvailableFocusMode"), SonyRemotePropertyValues.focusMode)
        }
        apply(event: try await call("getEvent", [.bool(false)]))
    }

    /// Sends a property's new value with its `set` call, then reads the state so the property shows it.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a property the camera does not set now;
    ///   `ViewfinderError/Code/invalidPropertyValue` for a value of the wrong kind or one the camera refuses (error
    ///   3); what a call throws.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await enterRemoteShooting()
        guard let setting = Self.settingNames[name], isAvailable("set" + setting) else {
            throw ViewfinderError(.notAvailable, "\(peer) does not set \(name) now")
        }
        let params: [JSONValue]
        switch (setting, rawValue) {
        case ("ExposureCompensation", .integer(let index)):
            params = [.number(Double(index))]
        case ("WhiteBalance", .string(let mode)):
            params = [.string(mode), .bool(false), .number(-1)]
        case (_, .string(let value)) where setting != "ExposureCompensation":
            params = [.string(value)]
        default:
            throw ViewfinderError(.invalidPropertyValue, "a Sony does not take \(rawValue) for \(name)")
        }
        _ = try await call("set" + setting, params)
        // The camera took the value: the property shows it now, or at the next event if this reading fails.
        if let event = try? await call("getEvent", [.bool(false)]) { apply(event: event) }
    }

    /// Passes an event's state to the camera's properties: each object found by its `type`, whatever its slot; a
    /// kind the event does not carry leaves its property as it was.
    ///
    /// - Parameter switches: For an event asked for on another connection, how many times the driver had asked the
    ///   camera to switch its function or shoot mode when it asked: an event asked for before a later switch and
    ///   answered after it was seen done tells of the function, status and calls the camera had before, and those
    ///   are left as the switch found them.
    func apply(event: [JSONValue], askedAfterSwitches switches: Int? = nil) {
        var objects: [String: JSONValue] = [:]
        for slot in event {
            for object in slot.array ?? [slot] {
                if let type = object["type"]?.string { objects[type] = objects[type] ?? object }
            }
        }
        if switches == nil || switches == state.withLock({ $0.modeSwitches }) {
            applyStatus(objects)
            if let names = objects["availableApiList"]?["names"]?.array {
                recordAvailable(names.compactMap(\.string))
            }
        }
        if let object = objects["isoSpeedRate"] {
            report(.iso, object, "currentIsoSpeedRate", "isoSpeedRateCandidates", SonyRemotePropertyValues.iso)
        }
        if let object = objects["fNumber"] {
            report(.aperture, object, "currentFNumber", "fNumberCandidates", SonyRemotePropertyValues.aperture)
        }
        if let object = objects["shutterSpeed"] {
            report(
                .shutterSpeed, object, "currentShutterSpeed", "shutterSpeedCandidates",
                SonyRemotePropertyValues.shutterSpeed)
        }
        if let object = objects["exposureMode"] {
            report(
                .autoExposureMode, object, "currentExposureMode", "exposureModeCandidates",
                SonyRemotePropertyValues.exposureMode)
        }
        if let object = objects["focusMode"] {
            report(.focusMode, object, "currentFocusMode", "focusModeCandidates", SonyRemotePropertyValues.focusMode)
        }
        if let object = objects["exposureCompensation"] {
            reportExposureCompensation(object)
        }
        if let object = objects["whiteBalance"], let mode = object["currentWhiteBalanceMode"]?.string {
            let modes = state.withLock { $0.whiteBalanceModes }
            context.update(
                .whiteBalance, currentValue: SonyRemotePropertyValues.whiteBalance(mode),
                validSettableValues: isAvailable("setWhiteBalance")
                    ? CameraPropertySettableValues(modes.map(SonyRemotePropertyValues.whiteBalance)) : [])
        }
    }

    /// Records the camera function, its status and shoot modes from an event's objects, and reports a movie
    /// recording's start and end as the status shows them.
    private func applyStatus(_ objects: [String: JSONValue]) {
        let function = objects["cameraFunction"]?["currentCameraFunction"]?.string
        let result = objects["cameraFunctionResult"]?["cameraFunctionResult"]?.string
        let status = objects["cameraStatus"]?["cameraStatus"]?.string
        let shootMode = objects["shootMode"]
        let (wasRecording, isRecording) = state.withLock { state in
            let wasRecording = state.status == "MovieRecording"
            if let function { state.cameraFunction = function }
            if let result { state.cameraFunctionResult = result }
            if let status { state.status = status }
            if let modes = shootMode?["shootModeCandidates"]?.array {
                state.shootModes = modes.prefix(32).compactMap(\.string)
            }
            return (wasRecording, state.status == "MovieRecording")
        }
        if isRecording, !wasRecording {
            context.recordingStarted()
        } else if wasRecording, !isRecording {
            context.recordingStopped()
        }
    }

    /// Passes a setting's current value and candidates (the values it takes now) to its property.
    private func report<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ object: JSONValue, _ current: String, _ candidates: String,
        _ decode: (String) -> TypedCameraPropertyValue<Value>
    ) {
        let value = object[current]?.string.map(decode)
        let values = (object[candidates]?.array ?? []).compactMap(\.string).map(decode)
        context.update(identifier, currentValue: value, validSettableValues: CameraPropertySettableValues(values))
    }

    /// Passes a `getAvailable` call's result, the current value and the values the setting takes now, to its
    /// property.
    private func report<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ result: [JSONValue],
        _ decode: (String) -> TypedCameraPropertyValue<Value>
    ) {
        let value = result.first?.string.map(decode)
        let values = (result.dropFirst().first?.array ?? []).compactMap(\.string).map(decode)
        context.update(identifier, currentValue: value, validSettableValues: CameraPropertySettableValues(values))
    }

    /// Passes the exposure compensation's index and its range, in the step the camera gives, to its property.
    private func reportExposureCompensation(_ object: JSONValue) {
        guard let index = object["currentExposureCompensation"]?.integer else { return }
        let step = object["stepIndexOfExposureCompensation"]?.integer ?? 1
        let lowest = object["minExposureCompensation"]?.integer ?? 0
        let highest = object["maxExposureCompensation"]?.integer ?? 0
        // A range out of form, or wider than five stops in thirds either way twice over, offers nothing.
        let range = lowest <= highest && lowest >= -30 && highest <= 30 ? Array(lowest...highest) : []
        context.update(
            .exposureCompensation, currentValue: SonyRemotePropertyValues.exposureCompensation(index, stepIndex: step),
            validSettableValues: CameraPropertySettableValues(
                range.map { SonyRemotePropertyValues.exposureCompensation($0, stepIndex: step) }))
    }
}
