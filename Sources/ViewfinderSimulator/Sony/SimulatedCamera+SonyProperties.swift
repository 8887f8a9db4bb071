import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

/// What the simulated Sony holds beyond the camera model every identity shares: the handshake, its buttons, where
/// pictures go and the pictures waiting in its memory.
struct SonyState: Sendable {
    /// The last SDIOConnect phase of this session; the SDIO operations answer only after phase 3.
    var phase: UInt32 = 0
    /// PriorityMode: 1 once the computer's settings win over the dials.
    var priorityMode: Int8 = 0
    /// StillImageStoreDestination: 1 the computer, 0x11 the card and the computer, 0x10 the card.
    var destination: UInt16 = 1
    /// FocusFound: 1 while not focused, 2 once focused.
    var focusFound: UInt8 = 1
    /// Whether the shutter button is held half down, and whether the camera is still focusing.
    var halfPressed = false
    var isFocusing = false
    /// A full press that waits for focus: the picture is taken once the camera focuses.
    var releaseWaitsForFocus = false
    /// Pictures in the camera's memory for the computer, oldest first, as files held off the card's listing.
    var pictures: [UInt32] = []
}

extension SimulatedCamera {
    /// The drive modes of the simulated Sony, as StillCaptureMode in protocol-200 codes: single, continuous Hi,
    /// continuous Lo and the 10 s self-timer.
    static let sonyDriveModes: [PTPValue] = [1, 2, 0x8012, 0x8004].map { .uint16($0) }

    /// The DeviceInfo of a simulated Sony: Sony's extension, the file operations and the SDIO ones, its events; its
    /// properties are listed in GetExtDeviceInfo, as Sony's are.
    static func sonyDeviceInfo(of identity: CameraSimulator.Identity, model: String) -> PTPDeviceInfo {
        let operations: [PTPOperationCode] = [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
            .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .getPartialObject, .sonySDIOConnect,
            .sonyGetExtDeviceInfo, .sonySetExtDevicePropValue, .sonyControlDevice, .sonyGetAllExtDevicePropInfo,
            .sonyHousekeeping, .sonyHousekeepingResult,
        ]
        return PTPDeviceInfo(
            standardVersion: 100, vendorExtensionID: 0x11, vendorExtensionVersion: 100,
            vendorExtensionDescription: "Sony PTP Extensions", operationsSupported: operations,
            eventsSupported: [.sonyObjectAdded, .sonyObjectRemoved, .sonyPropertyChanged],
            devicePropertiesSupported: [], captureFormats: [.exifJPEG], imageFormats: [.exifJPEG, .association],
            manufacturer: identity.manufacturer, model: model, deviceVersion: identity == .sony ? "1.00" : "3.01",
            serialNumber: "0000000000000000VF000000000000" + (identity == .sony ? "04" : "03"))
    }

    /// The controls the simulated Sony lists: S1, S2, the still-image button and the movie button.
    static let sonyControls: [PTPDevicePropertyCode] = [
        .sonyHalfPress, .sonyFullPress, PTPDevicePropertyCode(rawValue: 0xD2C7), .sonyMovieButton,
    ]

    /// What GetExtDeviceInfo answers: the protocol version and the codes of the properties and controls.
    func sonyExtendedInfo() -> PTPSonyExtendedDeviceInfo {
        let identity = configuration.identity
        return PTPSonyExtendedDeviceInfo(
            version: identity == .sony ? 300 : 200,
            properties: Self.sonyRecords(of: state.withLock { $0 }, identity: identity, twoLists: false).map(
                \.code.rawValue),
            controls: Self.sonyControls.map(\.rawValue))
    }

    // MARK: The face: the camera model in Sony's codes

    /// One Sony property that shows one property of the camera model in Sony's codes.
    struct SonyMapping: Sendable {
        let code: PTPDevicePropertyCode
        let internalCode: PTPDevicePropertyCode
        let dataType: PTPDataType
        /// Whether a body of protocol 200 moves it by notches and takes no value for it directly.
        let isNotched: Bool
        let toSony: @Sendable (PTPValue) -> Int64?
    }

    /// The mappings of an identity: the absolute twins (ISO2, ShutterSpeed2, the absolute exposure compensation)
    /// and the 32-bit modes only on the protocol-300 body.
    static func sonyMappings(for identity: CameraSimulator.Identity) -> [SonyMapping] {
        let iso: @Sendable (PTPValue) -> Int64? = { value in
            guard let raw = value.integerValue else { return nil }
            return raw == Int64(ExposureModel.automaticISO) ? 0xFF_FFFF : raw
        }
        let shutter: @Sendable (PTPValue) -> Int64? = { value in
            value.integerValue.flatMap { ShutterSpeedValue(seconds: ExposureModel.seconds(ofShutter: UInt32($0))) }
                .flatMap(SonyPropertyValues.shutterCode)
        }
        let compensation: @Sendable (PTPValue) -> Int64? = { value in
            value.integerValue.map {
                SonyPropertyValues.exposureCompensationCode(ExposureCompensationValue(thousandthsOfAStop: Int($0)))
            }
        }
        let direct = identity == .sony
        let modes: [Int64: Int64] = direct ? [1: 1, 2: 0x10002, 3: 0x20003, 4: 0x30004] : [1: 1, 2: 2, 3: 3, 4: 4]
        let drives: [Int64: Int64] =
            direct
            ? [1: 1, 2: 0x10002, 0x8012: 0x18012, 0x8004: 0x38004] : [1: 1, 2: 2, 0x8012: 0x8012, 0x8004: 0x8004]
        var mappings = [
            SonyMapping(
                code: .sonyISO, internalCode: .exposureIndex, dataType: .uint32, isNotched: true, toSony: iso),
            SonyMapping(
                code: .sonyShutterSpeed, internalCode: .exposureTime, dataType: .uint32, isNotched: true,
                toSony: shutter),
            SonyMapping(code: .fNumber, internalCode: .fNumber, dataType: .uint16, isNotched: true) {
                $0.integerValue
            },
            SonyMapping(
                code: .exposureBiasCompensation, internalCode: .exposureBiasCompensation, dataType: .int16,
                isNotched: true, toSony: compensation),
            SonyMapping(code: .whiteBalance, internalCode: .whiteBalance, dataType: .uint16, isNotched: false) {
                [2: 2, 4: 4, 5: 0x8001, 6: 6, 7: 7, 1: 0x8020][$0.integerValue ?? 0]
            },
            SonyMapping(code: .focusMode, internalCode: .focusMode, dataType: .uint16, isNotched: false) {
                [1: 1, 2: 2, 3: 0x8004][$0.integerValue ?? 0]
            },
            SonyMapping(
                code: .exposureProgramMode, internalCode: .exposureProgramMode, dataType: direct ? .uint32 : .uint16,
                isNotched: false
            ) { modes[$0.integerValue ?? 0] },
            SonyMapping(
                code: .stillCaptureMode, internalCode: .stillCaptureMode, dataType: direct ? .uint32 : .uint16,
                isNotched: false
            ) { drives[$0.integerValue ?? 0] },
            SonyMapping(
                code: .sonyBatteryLevel, internalCode: .batteryLevel, dataType: .int8, isNotched: false
            ) { $0.integerValue },
        ]
        if direct {
            mappings += [
                SonyMapping(
                    code: .sonyISO2, internalCode: .exposureIndex, dataType: .uint32, isNotched: true, toSony: iso),
                SonyMapping(
                    code: .sonyShutterSpeed2, internalCode: .exposureTime, dataType: .uint32, isNotched: true,
                    toSony: shutter),
                SonyMapping(
                    code: .sonyExposureCompensation, internalCode: .exposureBiasCompensation, dataType: .int16,
                    isNotched: true, toSony: compensation),
            ]
        }
        return mappings
    }

    /// The values a simulated property takes, in its order.
    static func sonyEnumeration(of property: SimulatedProperty) -> [PTPValue] {
        if case .enumeration(let values) = property.form { return values }
        return [property.value]
    }

    /// The values of a mapped property in Sony's codes, in the order the camera lists them: ISO with automatic
    /// first, shutter speeds from the slowest, exposure compensation from the most.
    static func sonyListed(_ mapping: SonyMapping, _ property: SimulatedProperty) -> [Int64] {
        let values = sonyEnumeration(of: property).compactMap(mapping.toSony)
        switch mapping.internalCode {
        case .exposureIndex: return values.filter { $0 == 0xFF_FFFF } + values.filter { $0 != 0xFF_FFFF }
        case .exposureBiasCompensation: return values.sorted(by: >)
        default: return values
        }
    }

    /// Every property the simulated Sony describes, as GetAllExtDevicePropInfo gives them now.
    ///
    /// - Parameters:
    ///   - twoLists: Whether enumerations carry the second list of bodies from 2020 on: the first then holds the
    ///     values that can be set now (none while a property is greyed out), the second every value.
    ///   - unlisted: The camera model's properties described without their values (no form), as some bodies
    ///     describe an exposure setting they move by notches.
    static func sonyRecords(
        of state: State, identity: CameraSimulator.Identity, twoLists: Bool,
        unlisted: Set<PTPDevicePropertyCode> = []
    ) -> [PTPSonyProperty] {
        var records: [PTPSonyProperty] = []
        for mapping in sonyMappings(for: identity) {
            guard let property = state.properties[mapping.internalCode], let current = mapping.toSony(property.value),
                let value = PTPValue(integer: current, as: mapping.dataType)
            else { continue }
            let listed = sonyListed(mapping, property).compactMap { PTPValue(integer: $0, as: mapping.dataType) }
            var record = PTPSonyProperty(
                code: mapping.code, dataType: mapping.dataType, getSet: property.isSettable ? 1 : 0,
                isEnabled: property.isSettable ? 1 : 0, defaultValue: value, currentValue: value,
                form: .enumeration(listed))
            switch mapping.internalCode {
            case .batteryLevel:
                (record.getSet, record.isEnabled) = (0, 1)
                record.form = .range(minimum: .int8(-1), maximum: .int8(100), step: .int8(1))
            case .exposureProgramMode:
                // The mode dial: shown, set on the camera only.
                (record.getSet, record.isEnabled) = (0, 2)
            default:
                break
            }
            if unlisted.contains(mapping.internalCode) {
                record.form = .none
            } else if twoLists, case .enumeration = record.form {
                record.reportableValues = listed
                if record.isEnabled != 1 { record.form = .enumeration([]) }
            }
            records.append(record)
        }
        let sony = state.sony
        func record(
            _ code: PTPDevicePropertyCode, _ value: PTPValue, _ form: PTPSonyProperty.Form, settable: Bool = false
        ) -> PTPSonyProperty {
            PTPSonyProperty(
                code: code, dataType: value.dataType, getSet: settable ? 1 : 0, isEnabled: 1, defaultValue: value,
                currentValue: value, form: form, reportableValues: twoLists ? Self.values(of: form) : nil)
        }
        let memory = UInt16(sony.pictures.isEmpty ? 0 : 0x8000 + min(sony.pictures.count, 0x7FFF))
        records += [
            record(.compressionSetting, .uint8(3), .enumeration([2, 3, 16, 19].map { .uint8($0) })),
            record(.sonyFocusFound, .uint8(sony.focusFound), .enumeration([1, 2, 3].map { .uint8($0) })),
            record(
                .sonyObjectInMemory, .uint16(memory),
                .range(minimum: .uint16(0), maximum: .uint16(.max), step: .uint16(1))),
            record(
                .sonyMovieRecordingState, .uint8(state.recordingSince == nil ? 0 : 1),
                .range(minimum: .uint8(0), maximum: .uint8(3), step: .uint8(1))),
            record(
                .sonyStillImageStoreDestination, .uint16(sony.destination),
                .enumeration([1, 0x11, 0x10].map { .uint16($0) }), settable: true),
            record(
                .sonyRemainingShots, .uint32(state.storage.storageInfo.freeSpaceInImages),
                .range(minimum: .uint32(0), maximum: .uint32(.max), step: .uint32(1))),
            record(.sonyPriorityMode, .int8(sony.priorityMode), .enumeration([.int8(0), .int8(1)]), settable: true),
        ]
        return records
    }

    /// The values of an enumeration, for a second list; `nil` for other forms, which have none.
    private static func values(of form: PTPSonyProperty.Form) -> [PTPValue]? {
        if case .enumeration(let values) = form { return values }
        return nil
    }

    /// Sony's PropertyChanged events for the standard DevicePropChanged events the camera model makes: one per Sony
    /// property that shows a changed property; other events stay as they are.
    func sonyEvents(_ events: [PTPEvent]) -> [PTPEvent] {
        let mappings = Self.sonyMappings(for: configuration.identity)
        return events.flatMap { event -> [PTPEvent] in
            guard event.code == .devicePropChanged, let changed = event.parameters.first else { return [event] }
            return mappings.filter { UInt32($0.internalCode.rawValue) == changed }.map {
                Self.sonyChanged($0.code)
            }
        }
    }

    /// PropertyChanged for a Sony property.
    static func sonyChanged(_ code: PTPDevicePropertyCode) -> PTPEvent {
        PTPEvent(code: .sonyPropertyChanged, parameters: [UInt32(code.rawValue)])
    }
}
