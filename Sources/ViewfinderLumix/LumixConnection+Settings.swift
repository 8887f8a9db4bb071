import ViewfinderCore
import ViewfinderHTTPClient

extension LumixConnection {
    /// The `setsetting` type of each property the driver sets.
    static let settingTypes: [String: String] = [
        CameraPropertyIdentifier.iso.name: "iso", CameraPropertyIdentifier.aperture.name: "focal",
        CameraPropertyIdentifier.shutterSpeed.name: "shtrspeed",
        CameraPropertyIdentifier.exposureCompensation.name: "exposure",
        CameraPropertyIdentifier.whiteBalance.name: "whitebalance",
        CameraPropertyIdentifier.focusMode.name: "focusmode", CameraPropertyIdentifier.driveMode.name: "drivemode",
    ]

    /// Sends a setting's new value with `setsetting`, then reads the settings again so the property shows it.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a property the camera does not set this way, or that it
    ///   refuses to change in its mode; `ViewfinderError/Code/invalidPropertyValue` for a value that is not text;
    ///   what a command throws.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        guard let type = Self.settingTypes[name] else {
            throw ViewfinderError(.notAvailable, "the Lumix has no setting Viewfinder knows for \(name)")
        }
        guard case .string(let value) = rawValue else {
            throw ViewfinderError(.invalidPropertyValue, "a Lumix takes \(name) as text, not \(rawValue)")
        }
        let query = "mode=setsetting&type=\(type)&value=\(HTTPClient.percentEncoded(value))"
        try await command(query).requireOK("setting \(name) to \(value)")
        // The camera took the value: the property shows it now, or at the next poll if this reading fails.
        try? await readSettings(state: try await command("mode=getstate"))
    }

    /// Reads the settings and the current menu, and passes them with the state in `reply` to the camera's properties.
    ///
    /// - Throws: `ViewfinderError` when the state is not ok, or a command fails.
    func readSettings(state reply: LumixReply) async throws(ViewfinderError) {
        try reply.requireOK("reading the camera's state")
        let state = reply.childTexts(of: "state")
        var current = LumixMenus.Current()
        if !menus.settings.isEmpty, let document = try await command("mode=getinfo&type=curmenu").document {
            current = LumixMenus.Current(document)
        }
        let iso = try await setting("iso") ?? menus.currentValue(of: "iso", in: current)
        let focusMode = try await setting("focusmode") ?? menus.currentValue(of: "focusmode", in: current)
        let aperture = try await setting("focal")
        let shutterSpeed = try await setting("shtrspeed")

        report(.iso, iso, menus.allowedValues(of: "iso", now: current), LumixPropertyValues.iso)
        report(.focusMode, focusMode, menus.allowedValues(of: "focusmode", now: current), LumixPropertyValues.focusMode)
        report(
            .exposureCompensation, menus.currentValue(of: "exposure", in: current),
            menus.allowedValues(of: "exposure", now: current), LumixPropertyValues.exposureCompensation)
        report(
            .whiteBalance, menus.currentValue(of: "whitebalance", in: current),
            menus.allowedValues(of: "whitebalance", now: current), LumixPropertyValues.whiteBalance)
        report(
            .driveMode, menus.currentValue(of: "drivemode", in: current),
            menus.allowedValues(of: "drivemode", now: current), LumixPropertyValues.driveMode)
        let apertures = capability.apertures.map { Self.thirds($0) } ?? []
        report(
            .aperture, aperture, apertures.map(LumixPropertyValues.apexText(sixths:)), LumixPropertyValues.aperture,
            matchingMeaning: true)
        let speeds = capability.shutterSpeeds.map { Self.thirds($0) } ?? []
        report(
            .shutterSpeed, shutterSpeed, speeds.map(LumixPropertyValues.apexText(sixths:)),
            LumixPropertyValues.shutterSpeed, matchingMeaning: true)
        reportState(state)
    }

    /// The value of the setting `type`, or `nil` when the camera gives none now (its mode has none: `err_reject`).
    private func setting(_ type: String) async throws(ViewfinderError) -> String? {
        let reply = try await command("mode=getsetting&type=\(type)")
        guard reply.result == "ok" else { return nil }
        return reply.settingValue(type)
    }

    /// Passes a setting to its property: its current value and the values allowed now.
    ///
    /// A setting without a value now has no values to set either. With `matchingMeaning`, a current value that means the same as an allowed one is shown as that one,
    /// so that a value the camera writes another way, such as `1365/256` for `1366/256` (f/6.3), is the one
    /// listed.
    private func report<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ raw: String?, _ allowed: [String],
        _ decode: (String) -> TypedCameraPropertyValue<Value>, matchingMeaning: Bool = false
    ) {
        guard var value = raw.map(decode) else {
            context.update(identifier, currentValue: nil, validSettableValues: [])
            return
        }
        let valid = value.isUnknown ? [] : CameraPropertySettableValues(allowed.map(decode))
        if matchingMeaning, let meaning = value.commonValue, let listed = valid.first(matchingCommonValue: meaning) {
            value = listed
        }
        context.update(identifier, currentValue: value, validSettableValues: valid)
    }

    /// The battery, the pictures that fit and whether the camera records, from `getstate`.
    private func reportState(_ state: [String: String]) {
        context.update(
            .batteryLevel, currentValue: state["batt"].flatMap(LumixPropertyValues.batteryLevel),
            validSettableValues: [])
        let shots = state["remaincapacity"].flatMap { Int($0) }.map {
            TypedCameraPropertyValue(ShotsAvailableValue($0), rawValue: .integer(Int64($0)))
        }
        context.update(.shotsAvailable, currentValue: shots, validSettableValues: [])
        guard let rec = state["rec"] else { return }
        let change = self.state.withLock { connection -> Bool? in
            let recording = rec == "on"
            guard recording != connection.recording else { return nil }
            connection.recording = recording
            return recording
        }
        switch change {
        case true?: context.recordingStarted()
        case false?: context.recordingStopped()
        case nil: break
        }
    }

    /// The whole thirds of a stop in `range` of sixths.
    private static func thirds(_ range: ClosedRange<Int>) -> [Int] {
        let first = range.lowerBound + (range.lowerBound & 1)
        return Array(stride(from: first, through: range.upperBound, by: 2))
    }
}
