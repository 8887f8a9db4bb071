import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

/// What the simulated Canon holds beyond the camera model every identity shares: the EOS event queue, where pictures
/// and live view go, and what the client has been told.
struct CanonEOSState: Sendable {
    /// What one EOS property looks like to a client: its value in a four-byte slot and the values it accepts.
    struct Face: Equatable, Sendable {
        var value: UInt32
        var allowed: [UInt32]?
    }

    /// Whether the client asked for events (SetEventMode 1); none are queued before.
    var eventMode: UInt32 = 0
    /// What each property looked like in the last GetEvent answer, to report only what changed since.
    var reported: [UInt16: Face] = [:]
    /// Records other than properties, waiting for the next GetEvent.
    var pending: [PTPCanonEOSEvent] = []
    /// 2 for the card, 4 for the computer.
    var captureDestination: UInt32 = 2
    /// The destinations the camera offers.
    var captureDestinations: [UInt32] = [2, 4]
    /// 1 when live view is on.
    var evfMode: UInt32 = 0
    /// Where live view goes: 1 the camera's screen, 2 the computer.
    var evfOutput: UInt32 = 1
    /// Whether the shutter button is held half down, and whether focusing then found focus.
    var halfPressFocused: Bool?
    /// The camera's clock as CameraTime reports it: read when a client asks for events and when the clock is set, as
    /// an EOS body reports its clock then and not as it ticks.
    var clock: UInt32 = 0
    /// How far live view is magnified (Zoom: 1, 5 or 10) and the point of the picture it magnifies around
    /// (ZoomPosition, in pixels of the live view picture; the middle until set).
    var zoom: (factor: UInt32, position: (x: UInt32, y: UInt32)?) = (1, nil)
    /// Whether FocusInfoEx and LensName went out since the client asked for events.
    var focusInfoReported = false
    /// The settings only EOS bodies have, by property code: image format (condensed as libgphoto2 condenses it),
    /// picture style, mirror lockup, depth-of-field preview.
    var settings: [UInt16: UInt32] = Dictionary(uniqueKeysWithValues: Self.settingValues.map { ($0.key, $0.value[0]) })

    /// The name LensName gives the simulated Canon's lens: a 35 mm prime.
    static let lensName = "EF35mm f/2 IS USM"

    /// The values of each EOS-only setting the simulated Canon offers, the first its value when it starts: large
    /// fine, large normal, medium fine and small fine JPEG, raw, and raw with a large fine JPEG; picture styles
    /// standard to fine detail and the user's first; mirror lockup and the depth-of-field preview off or on.
    static let settingValues: [UInt16: [UInt32]] = [
        PTPDevicePropertyCode.canonEOSImageFormat.rawValue: [0x0300, 0x0200, 0x1300, 0x2300, 0x0C00, 0x0C03],
        PTPDevicePropertyCode.canonEOSPictureStyle.rawValue: Array(0x81...0x88) + [0x21],
        PTPDevicePropertyCode.canonEOSMirrorUpSetting.rawValue: [0, 1],
        PTPDevicePropertyCode.canonEOSDepthOfFieldPreview.rawValue: [0, 1],
    ]
}

extension SimulatedCamera {
    /// The DeviceInfo of the simulated Canon: the standard file operations and the EOS ones (GetObjectInfoEx lists
    /// a folder in one answer); no property is listed, as EOS cameras describe theirs only in GetEvent records.
    static func canonEOSDeviceInfo(model: String) -> PTPDeviceInfo {
        let operations: [PTPOperationCode] = [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
            .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .getPartialObject,
            .canonEOSGetStorageIDs, .canonEOSGetStorageInfo, .canonEOSGetObjectInfoEx, .canonEOSRemoteRelease,
            .canonEOSSetDevicePropValueEx,
            .canonEOSSetRemoteMode, .canonEOSSetEventMode, .canonEOSGetEvent, .canonEOSTransferComplete,
            .canonEOSPCHDDCapacity, .canonEOSSetUILock, .canonEOSResetUILock, .canonEOSKeepDeviceOn,
            .canonEOSRemoteReleaseOn, .canonEOSRemoteReleaseOff, .canonEOSGetViewFinderData, .canonEOSDriveLens,
            .canonEOSZoom, .canonEOSZoomPosition,
        ]
        let events = [0xC181, 0xC182, 0xC186, 0xC189, 0xC18A, 0xC18B].map { PTPEventCode(rawValue: $0) }
        return PTPDeviceInfo(
            standardVersion: 100, vendorExtensionID: 0x0B, vendorExtensionVersion: 100,
            vendorExtensionDescription: "", operationsSupported: operations, eventsSupported: events,
            devicePropertiesSupported: [], captureFormats: [.exifJPEG], imageFormats: [.exifJPEG, .association],
            manufacturer: CameraSimulator.Identity.canon.manufacturer, model: model, deviceVersion: "3-1.0.0",
            serialNumber: "CN0000001")
    }

    /// The drive modes of the simulated Canon, as StillCaptureMode: single and continuous.
    static let canonEOSDriveModes: [PTPValue] = [.uint16(1), .uint16(2)]

    // MARK: The face: the camera model in Canon's codes

    /// Every EOS property the simulated Canon has, as a client sees it now.
    static func canonEOSFaces(of state: State, sceneEV: Double) -> [UInt16: CanonEOSState.Face] {
        var faces: [UInt16: CanonEOSState.Face] = [:]
        for mapping in canonEOSMappings {
            guard let property = state.properties[mapping.internalCode],
                let value = mapping.toCanon(property.value)
            else { continue }
            let allowed: [UInt32] =
                property.isSettable ? enumeration(of: property).compactMap(mapping.toCanon) : []
            faces[mapping.code.rawValue] = .init(value: value, allowed: allowed)
        }
        let battery = state.properties[.batteryLevel]?.value.integerValue ?? 100
        faces[PTPDevicePropertyCode.canonEOSBatteryPower.rawValue] = .init(value: canonBattery(battery))
        faces[PTPDevicePropertyCode.canonEOSAvailableShots.rawValue] = .init(
            value: state.storage.storageInfo.freeSpaceInImages)
        let canon = state.canon
        faces[PTPDevicePropertyCode.canonEOSCaptureDestination.rawValue] = .init(
            value: canon.captureDestination, allowed: canon.captureDestinations)
        faces[PTPDevicePropertyCode.canonEOSEVFMode.rawValue] = .init(value: canon.evfMode, allowed: [0, 1])
        faces[PTPDevicePropertyCode.canonEOSCameraTime.rawValue] = .init(value: canon.clock)
        faces[PTPDevicePropertyCode.canonEOSEVFOutputDevice.rawValue] = .init(
            value: canon.evfOutput, allowed: [1, 2, 3])
        faces[PTPDevicePropertyCode.canonEOSEVFRecordStatus.rawValue] = .init(
            value: state.recordingSince == nil ? 0 : 4, allowed: [0, 4])
        for (code, value) in canon.settings {
            faces[code] = .init(value: value, allowed: CanonEOSState.settingValues[code])
        }
        return faces
    }

    /// The values a simulated property takes, in its order.
    private static func enumeration(of property: SimulatedProperty) -> [PTPValue] {
        if case .enumeration(let values) = property.form { return values }
        return [property.value]
    }

    /// A battery percentage in Canon's five levels.
    private static func canonBattery(_ percent: Int64) -> UInt32 {
        switch percent {
        case 88...: 2
        case 63..<88: 4
        case 38..<63: 1
        case 13..<38: 5
        default: 0
        }
    }

    /// One EOS property that shows one property of the camera model in Canon's codes.
    struct CanonEOSMapping: Sendable {
        let code: PTPDevicePropertyCode
        let internalCode: PTPDevicePropertyCode
        let toCanon: @Sendable (PTPValue) -> UInt32?
    }

    /// The EOS properties that show the exposure settings, white balance, focus and drive mode.
    static let canonEOSMappings: [CanonEOSMapping] = [
        CanonEOSMapping(code: .canonEOSISOSpeed, internalCode: .exposureIndex) { value in
            guard let iso = value.integerValue else { return nil }
            if iso == Int64(ExposureModel.automaticISO) { return 0 }
            return ISOValue(Int(iso)).flatMap(CanonEOSPropertyValues.isoCode).map { UInt32($0) }
        },
        CanonEOSMapping(code: .canonEOSAperture, internalCode: .fNumber) { value in
            value.integerValue.flatMap { ApertureValue(hundredthsOfFNumber: Int($0))?.stopsFromF1 }
                .flatMap(CanonEOSPropertyValues.eighths).map { UInt32($0 + 0x08) }
        },
        CanonEOSMapping(code: .canonEOSShutterSpeed, internalCode: .exposureTime) { value in
            guard let raw = value.integerValue,
                let stops = ShutterSpeedValue(seconds: ExposureModel.seconds(ofShutter: UInt32(raw)))?
                    .stopsFromOneSecond,
                let eighths = CanonEOSPropertyValues.eighths(stops)
            else { return nil }
            return UInt32(0x38 - eighths)
        },
        CanonEOSMapping(code: .canonEOSExposureCompensation, internalCode: .exposureBiasCompensation) { value in
            value.integerValue.flatMap {
                CanonEOSPropertyValues.eighths(ExposureCompensationValue(thousandthsOfAStop: Int($0)).stops)
            }.map { UInt32(UInt8(truncatingIfNeeded: $0)) }
        },
        CanonEOSMapping(code: .canonEOSAutoExposureMode, internalCode: .exposureProgramMode) { value in
            // Manual, program, aperture priority, shutter priority.
            [1: 3, 2: 0, 3: 2, 4: 1][value.integerValue ?? 0]
        },
        CanonEOSMapping(code: .canonEOSWhiteBalance, internalCode: .whiteBalance) { value in
            [2: 0, 4: 1, 5: 4, 6: 3, 7: 5, 1: 6][value.integerValue ?? 0]
        },
        CanonEOSMapping(code: .canonEOSFocusMode, internalCode: .focusMode) { value in
            // Automatic is one shot, macro AI focus, manual manual.
            [2: 0, 3: 2, 1: 3][value.integerValue ?? 0]
        },
        CanonEOSMapping(code: .canonEOSDriveMode, internalCode: .stillCaptureMode) { value in
            [1: 0, 2: 1][value.integerValue ?? 0]
        },
        CanonEOSMapping(code: .canonEOSMeteringMode, internalCode: .exposureMeteringMode) { value in
            // Centre-weighted average, evaluative for multi-spot, spot.
            [2: 5, 3: 3, 4: 1][value.integerValue ?? 0]
        },
    ]

    /// The simulated Canon's FocusInfoEx: nine autofocus points in a three by three grid over its 6000x4000 picture,
    /// the middle one selected.
    static let canonEOSFocusInfo: [UInt8] = {
        let aspect = Dimensions(width: 6000, height: 4000)
        let points = (0..<9).map { index in
            let center = LiveViewPoint(x: aspect.width * (1 + index % 3) / 4, y: aspect.height * (1 + index / 3) / 4)
            return FocusPoint(
                rect: LiveViewRect(x: center.x - 150, y: center.y - 150, width: 300, height: 300), isActive: index == 4)
        }
        return CanonEOSFocusInfo.encode(aspect: aspect, points: points)
    }()

    /// The GetEvent records that bring a client's picture of the camera up to date: every property whose value or
    /// accepted values changed since the last answer, then the queued records, then the end.
    func canonEOSEvents() -> [PTPCanonEOSEvent] {
        state.withLock { state in
            guard state.canon.eventMode != 0 else { return [] }
            var events: [PTPCanonEOSEvent] = []
            let faces = Self.canonEOSFaces(of: state, sceneEV: configuration.sceneEV)
            for (code, face) in faces.sorted(by: { $0.key < $1.key }) where state.canon.reported[code] != face {
                let property = PTPDevicePropertyCode(rawValue: code)
                let before = state.canon.reported[code]
                if before?.value != face.value {
                    let value =
                        CanonEOSImageFormat.codes.contains(code)
                        ? CanonEOSImageFormat.pack(UInt16(truncatingIfNeeded: face.value))
                        : withUnsafeBytes(of: face.value.littleEndian, Array.init)
                    events.append(.propertyChanged(property, value: value))
                }
                if let allowed = face.allowed, before?.allowed != allowed {
                    events.append(.allowedValuesChanged(property, values: allowed))
                }
            }
            state.canon.reported = faces
            if !state.canon.focusInfoReported {
                state.canon.focusInfoReported = true
                events.append(.propertyChanged(.canonEOSFocusInfoEx, value: Self.canonEOSFocusInfo))
                events.append(.propertyChanged(.canonEOSLensName, value: Array(CanonEOSState.lensName.utf8) + [0]))
            }
            events += state.canon.pending
            state.canon.pending = []
            return events
        }
    }

    /// Sets an EOS property from SetDevicePropValueEx's data, `[size][code][value]`: through the camera model for
    /// those that show it, directly for where pictures and live view go.
    ///
    /// An image format comes packed, as ``CanonEOSImageFormat`` reads it.
    func setCanonEOSProperty(_ data: [UInt8]?) -> SimulatorReply {
        guard let data, data.count >= 12 else { return SimulatorReply(code: .invalidDevicePropFormat) }
        var reader = PTPDataReader(data, reading: "SetDevicePropValueEx data")
        guard let size = try? reader.read(UInt32.self), size == data.count, let code32 = try? reader.read(UInt32.self),
            let code16 = UInt16(exactly: code32)
        else { return SimulatorReply(code: .invalidDevicePropFormat) }
        var offset = 8
        let read =
            CanonEOSImageFormat.codes.contains(code16)
            ? CanonEOSImageFormat.condense(data, at: &offset).map(UInt32.init) : try? reader.read(UInt32.self)
        guard let value = read else { return SimulatorReply(code: .invalidDevicePropFormat) }
        let code = PTPDevicePropertyCode(rawValue: code16)
        let now = CameraClock.now()
        return state.withLock { state in
            if let mapping = Self.canonEOSMappings.first(where: { $0.code == code }) {
                guard let property = state.properties[mapping.internalCode] else {
                    return SimulatorReply(code: .devicePropNotSupported)
                }
                guard property.isSettable else { return SimulatorReply(code: .accessDenied) }
                guard let target = Self.enumeration(of: property).first(where: { mapping.toCanon($0) == value }) else {
                    return SimulatorReply(code: .invalidDevicePropValue)
                }
                _ = set(mapping.internalCode, to: target, in: &state, now: now)
                return .ok
            }
            if let allowed = CanonEOSState.settingValues[code.rawValue] {
                guard allowed.contains(value) else { return SimulatorReply(code: .invalidDevicePropValue) }
                state.canon.settings[code.rawValue] = value
                return .ok
            }
            switch code {
            case .canonEOSCaptureDestination where state.canon.captureDestinations.contains(value):
                state.canon.captureDestination = value
            case .canonEOSEVFMode where value <= 1:
                state.canon.evfMode = value
                updateCanonEOSLiveView(&state)
            case .canonEOSEVFOutputDevice where (1...3).contains(value):
                state.canon.evfOutput = value
                updateCanonEOSLiveView(&state)
            case .canonEOSCameraTime:
                state.clockOffset = Int(value) - now
                state.canon.clock = value
            case .canonEOSEVFRecordStatus where value == 0 || value == 4:
                return setCanonEOSRecording(value == 4, in: &state)
            case .canonEOSCaptureDestination, .canonEOSEVFMode, .canonEOSEVFOutputDevice, .canonEOSEVFRecordStatus:
                return SimulatorReply(code: .invalidDevicePropValue)
            default:
                return SimulatorReply(code: .devicePropNotSupported)
            }
            return .ok
        }
    }
}
