import ViewfinderCore

extension PTPIPCamera {
    /// The camera's property for an identifier, the same object for every call; `nil`-valued until the camera
    /// reports it.
    public func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
        properties.property(for: identifier, backend: self)
    }

    /// Sends a property's new value with SetDevicePropValue, then reads the property back.
    ///
    /// Reading back keeps the property current with cameras that do not report their own changes; those that do
    /// report them are read again when their DevicePropChanged event arrives, which changes nothing.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` when the camera answers InvalidDevicePropValue,
    ///   ``ViewfinderError/Code/notAvailable`` when it answers AccessDenied (its exposure mode sets the property)
    ///   or does not have the property, ``ViewfinderError/Code/deviceBusy``, ``ViewfinderError/Code/notConnected``,
    ///   or ``ViewfinderError/Code/disconnected`` or ``ViewfinderError/Code/timeout`` when the camera went away.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        guard let binding = PTPPropertyBinding.all.first(where: { $0.name == name }) else {
            throw ViewfinderError(.notAvailable, "PTP cameras have no property named \(name)")
        }
        let link = try requireLink(for: "set \(binding.displayName)")
        guard link.deviceInfo.supports(binding.code), link.deviceInfo.supports(.setDevicePropValue) else {
            throw ViewfinderError(
                .notAvailable, "\(link.deviceInfo.model) cannot set \(binding.displayName) (\(binding.code))")
        }
        let dataType = state.withLock { $0.dataTypes[binding.code] }
        guard let integer = rawValue.integerValue, let dataType, let value = PTPValue(integer: integer, as: dataType)
        else {
            if currentLink(link.generation) == nil {
                // The connection ended under this call, taking the property's data type with it: say why.
                _ = try requireLink(for: "set \(binding.displayName)")
            }
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(rawValue) is not a \(dataType.map(\.description) ?? "known") value for \(binding.displayName)")
        }
        do {
            try await link.session.setPropertyValue(binding.code, to: value)
        } catch let error as ViewfinderError {
            throw Self.settingError(
                lostSessionError(error, of: link, while: "set \(binding.displayName)"), binding: binding, value: value)
        }
        try? await refresh(binding, on: link)
    }

    /// What a refused set means, in the terms of the typed property.
    private static func settingError(
        _ error: ViewfinderError, binding: PTPPropertyBinding, value: PTPValue
    ) -> ViewfinderError {
        guard error.code == .protocolFailure, let code = error.responseCode.map(PTPResponseCode.init(rawValue:)) else {
            return error
        }
        let name = binding.displayName
        switch code {
        case .invalidDevicePropValue, .invalidDevicePropFormat:
            return ViewfinderError(
                .invalidPropertyValue,
                "the camera refused \(name) \(value): it is not a value the camera accepts now; choose one of the "
                    + "property's valid settable values", responseCode: code.rawValue)
        case .accessDenied:
            return ViewfinderError(
                .notAvailable,
                "the camera does not let \(name) be set now; its exposure mode or another setting may control it",
                responseCode: code.rawValue)
        case .deviceBusy:
            return ViewfinderError(
                .deviceBusy, "the camera is busy and did not set \(name); try again shortly",
                responseCode: code.rawValue)
        case .devicePropNotSupported:
            return ViewfinderError(.notAvailable, "the camera does not have \(name)", responseCode: code.rawValue)
        default:
            return error
        }
    }

    /// Reads a property's description and passes it on to its typed property.
    ///
    /// - Throws: Errors that end the session; a camera refusing to describe the property leaves it as it was.
    func refresh(_ binding: PTPPropertyBinding, on link: Link) async throws {
        let description: PTPDevicePropertyDescription
        do {
            description = try await link.session.propertyDescription(binding.code)
        } catch let error as ViewfinderError where error.code == .protocolFailure || error.code == .malformedData {
            return
        }
        state.withLock { $0.dataTypes[binding.code] = description.dataType }
        binding.apply(description, link.vendor, self)
    }

    /// Reads again the property a DevicePropChanged event names.
    func refreshProperty(_ code: PTPDevicePropertyCode, on link: Link) async {
        if let binding = PTPPropertyBinding.all.first(where: { $0.code == code }) {
            try? await refresh(binding, on: link)
        } else if code == .nikonMovieRecordingProhibitCondition {
            await refreshRecordingState(on: link)
        }
    }

    /// Reads how many more pictures fit on the first storage that says, into ``CameraPropertyIdentifier/shotsAvailable``.
    func refreshShotsAvailable(on link: Link) async throws {
        guard link.deviceInfo.supports(.getStorageIDs), link.deviceInfo.supports(.getStorageInfo) else { return }
        var shots: Int64?
        do {
            for id in try await link.session.storageIDs() {
                let free = try await link.session.storageInfo(id).freeSpaceInImages
                if free != 0xFFFF_FFFF {
                    shots = (shots ?? 0) + Int64(free)
                }
            }
        } catch let error as ViewfinderError where error.code == .protocolFailure || error.code == .malformedData {
            return
        }
        let value = shots.map { TypedCameraPropertyValue(ShotsAvailableValue(Int($0)), rawValue: .integer($0)) }
        property(for: .shotsAvailable).update(currentValue: value, validSettableValues: [])
    }
}
