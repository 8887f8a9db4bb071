import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

extension SimulatedCamera {
    /// The properties the exposure program controls or unlocks.
    static let exposureProperties: [PTPDevicePropertyCode] = [
        .exposureTime, .fNumber, .exposureBiasCompensation, .exposureIndex, .exposureProgramMode,
    ]

    /// Answers GetDevicePropDesc, GetDevicePropValue, SetDevicePropValue and ResetDevicePropValue.
    func respondToProperty(_ request: SimulatorRequest) -> SimulatorReply {
        guard let raw = request.parameter(0), let code16 = UInt16(exactly: raw) else {
            return SimulatorReply(code: .invalidParameter)
        }
        let code = PTPDevicePropertyCode(rawValue: code16)
        let now = CameraClock.now()
        return state.withLock { state in
            guard var property = state.properties[code] else { return SimulatorReply(code: .devicePropNotSupported) }
            if code == .dateTime {
                property.value = .string(PTPDate.string(secondsSince1970: now + state.clockOffset))
            }
            switch request.code {
            case .getDevicePropDesc:
                return (try? property.description.encoded()).map(SimulatorReply.data)
                    ?? SimulatorReply(code: .generalError)
            case .getDevicePropValue:
                var writer = PTPDataWriter()
                guard (try? writer.append(value: property.value)) != nil else {
                    return SimulatorReply(code: .generalError)
                }
                return .data(writer.bytes)
            case .setDevicePropValue:
                guard let bytes = request.data, let value = property.decode(bytes) else {
                    return SimulatorReply(code: .invalidDevicePropFormat)
                }
                let verdict = property.validate(value)
                guard verdict == .ok else { return SimulatorReply(code: verdict) }
                return set(code, to: value, in: &state, now: now)
            default:
                guard property.isSettable else { return SimulatorReply(code: .accessDenied) }
                return set(code, to: property.factoryDefault, in: &state, now: now)
            }
        }
    }

    /// Sets a validated value and reports every property whose value or settability changed as a result.
    func set(
        _ code: PTPDevicePropertyCode, to value: PTPValue, in state: inout State, now: Int
    ) -> SimulatorReply {
        if code == .dateTime, case .string(let text) = value, let seconds = PTPDate.secondsSince1970(text) {
            state.clockOffset = seconds - now
            return SimulatorReply(code: .ok, events: [Self.changed(code)])
        }
        let before = state.properties
        state.properties[code]?.value = value
        var changed = Self.applyExposureProgram(&state, sceneEV: configuration.sceneEV)
        if before[code]?.value != value {
            changed.insert(code, at: 0)
        }
        return SimulatorReply(code: .ok, events: changed.map(Self.changed))
    }

    static func changed(_ code: PTPDevicePropertyCode) -> PTPEvent {
        PTPEvent(code: .devicePropChanged, parameters: [UInt32(code.rawValue)])
    }

    static func program(of state: State) -> ExposureProgram {
        state.properties[.exposureProgramMode]?.value.integerValue.flatMap { ExposureProgram(rawValue: UInt16($0)) }
            ?? .manual
    }

    /// The exposure the current settings give, with what the program chooses itself.
    static func exposureSettings(of state: State, sceneEV: Double) -> ExposureSettings {
        func value(_ code: PTPDevicePropertyCode) -> Int64 { state.properties[code]?.value.integerValue ?? 0 }
        return ExposureSettings(
            program: program(of: state), fNumberSetting: UInt16(value(.fNumber)),
            shutterSetting: UInt32(value(.exposureTime)), isoSetting: UInt16(value(.exposureIndex)),
            compensation: Double(value(.exposureBiasCompensation)) / 1000, sceneEV: sceneEV)
    }

    /// Makes the exposure properties follow the program: which can be set, and the values the camera chooses.
    ///
    /// - Returns: The exposure properties other than the program whose value or settability changed.
    static func applyExposureProgram(_ state: inout State, sceneEV: Double) -> [PTPDevicePropertyCode] {
        let before = state.properties
        let program = program(of: state)
        state.properties[.exposureTime]?.isSettable = program == .manual || program == .shutterPriority
        state.properties[.fNumber]?.isSettable = program == .manual || program == .aperturePriority
        state.properties[.exposureBiasCompensation]?.isSettable = program != .manual
        let settings = exposureSettings(of: state, sceneEV: sceneEV)
        if program == .program || program == .aperturePriority {
            state.properties[.exposureTime]?.value = .uint32(settings.shutterValue)
        }
        if program == .program || program == .shutterPriority {
            state.properties[.fNumber]?.value = .uint16(settings.apertureValue)
        }
        return exposureProperties.filter { code in
            code != .exposureProgramMode
                && (before[code]?.value != state.properties[code]?.value
                    || before[code]?.isSettable != state.properties[code]?.isSettable)
        }
    }

    /// Lowers the battery by one percent, down to 5 %, and reports the change.
    func drainBattery() -> [PTPEvent] {
        state.withLock { state in
            guard case .uint8(let level) = state.properties[.batteryLevel]?.value, level > 5 else { return [] }
            state.properties[.batteryLevel]?.value = .uint8(level - 1)
            return reported([Self.changed(.batteryLevel)], in: &state)
        }
    }

    /// The events the identity sends for changes of the camera model: a Canon none (it reports changes in its
    /// GetEvent records), a Sony its PropertyChanged, a Fujifilm none (it lists the properties in CurrentState, where
    /// they are kept), the others DevicePropChanged.
    func reported(_ events: [PTPEvent], in state: inout State) -> [PTPEvent] {
        switch configuration.identity {
        case .canon: return []
        case .fuji: return holdFujiChanges(events, in: &state)
        case _ where configuration.identity.isSony: return sonyEvents(events)
        default: return events
        }
    }
}
