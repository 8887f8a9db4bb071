import ViewfinderCore
import ViewfinderPTP

#if canImport(Glibc)
import Glibc
#endif

/// What a Fujifilm body holds of its own.
struct FujiState: Sendable {
    /// Which of the three automatic ISO settings the client chose (-1, -2 or -3) while ISO is automatic.
    var automaticISO: Int32 = -1
    /// The properties changed since the client last read CurrentState, each once, oldest first.
    var changed: [PTPDevicePropertyCode] = []
}

extension SimulatedCamera {
    /// The automatic ISO settings, as ExposureIndex carries them on a Fujifilm body.
    static let fujiAutomaticISO: [Int32] = [-1, -2, -3]

    /// An X-T4's DeviceInfo, as libgphoto2's fuji-xt4.txt shows it over USB: vendor extension 6 with Fujifilm's
    /// description, the standard operations, InitiateOpenCapture, and Fujifilm's properties beside the standard ones
    /// it has (no BatteryLevel: the battery is in BatteryInfo2).
    static func fujiDeviceInfo(model: String) -> PTPDeviceInfo {
        PTPDeviceInfo(
            standardVersion: 100, vendorExtensionID: 6, vendorExtensionVersion: 100,
            vendorExtensionDescription: "fujifilm.co.jp: 1.0; ",
            operationsSupported: [
                .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
                .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .initiateCapture,
                .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .getPartialObject, .initiateOpenCapture,
            ],
            // No DevicePropChanged: the body lists its changed properties in CurrentState instead.
            eventsSupported: [.objectAdded, .objectRemoved, .storeAdded, .storeRemoved, .captureComplete],
            devicePropertiesSupported: [
                .whiteBalance, .fNumber, .focusMode, .exposureTime, .exposureProgramMode, .exposureIndex,
                .exposureBiasCompensation, .fujiFilmSimulation, .fujiReleaseMode, .fujiPriorityMode,
                .fujiCameraAction, .fujiAFStatus, .fujiCurrentState, .fujiBatteryInfo, .fujiClientState,
                .fujiCameraState, .fujiRemoteVersion, .fujiRemoteGetObjectVersion,
            ],
            captureFormats: [.exifJPEG], imageFormats: [.exifJPEG],
            manufacturer: "FUJIFILM", model: model, deviceVersion: "1.40",
            serialNumber: "59314B32313205310B1B0A0201D9C1")
    }

    /// Fujifilm's properties, and the standard ones in an X-T4's values (ExposureIndex and ExposureTime are the
    /// camera's own, held in the standard encoding and translated by ``respondToFuji(_:in:)``).
    static var fujiProperties: [SimulatedProperty] {
        func u16(_ code: PTPDevicePropertyCode, _ value: UInt16, settable: Bool = true) -> SimulatedProperty {
            SimulatedProperty(
                code: code, dataType: .uint16, factoryDefault: .uint16(value), value: .uint16(value), form: .none,
                isSettable: settable)
        }
        func u32(_ code: PTPDevicePropertyCode, _ value: UInt32) -> SimulatedProperty {
            SimulatedProperty(
                code: code, dataType: .uint32, factoryDefault: .uint32(value), value: .uint32(value), form: .none,
                isSettable: true)
        }
        return [
            .enumeration(
                .whiteBalance, [2, 4, 6, 0x8001, 0x8002, 0x8003, 0x8006, 0x8007, 0x8008].map { .uint16($0) },
                current: .uint16(2)),
            .enumeration(.focusMode, [1, 0x8001, 0x8002].map { .uint16($0) }, current: .uint16(0x8001)),
            .enumeration(.exposureProgramMode, [1, 3, 4, 6].map { .uint16($0) }, current: .uint16(1)),
            .enumeration(.fujiFilmSimulation, (1...18).map { .uint16($0) }, current: .uint16(1)),
            .enumeration(.fujiReleaseMode, [1, 2, 3, 4].map { .uint16($0) }, current: .uint16(1)),
            .enumeration(.fujiPriorityMode, [1, 2].map { .uint16($0) }, current: .uint16(1)),
            u16(.fujiCameraAction, 0), u16(.fujiAFStatus, 2, settable: false), u16(.fujiClientState, 0),
            // CurrentState, the list of changed properties, which GetDevicePropValue answers from FujiState.
            u16(.fujiCurrentState, 0, settable: false),
            u16(.fujiCameraState, 0), u32(.fujiRemoteVersion, 0x0002_000C), u32(.fujiRemoteGetObjectVersion, 0),
            SimulatedProperty(
                code: .fujiBatteryInfo, dataType: .string, factoryDefault: .string("100,0,0"),
                value: .string("100,0,0"), form: .none, isSettable: false),
        ]
    }

    /// Answers what a Fujifilm body answers its own way: ISO and exposure time in its encodings, the shutter
    /// through CameraAction, remote capture, and the live view object over USB (its ObjectInfo once a frame is ready,
    /// its JPEG); `nil` for what it answers as any camera.
    func respondToFuji(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply? {
        switch request.code {
        case .getDevicePropValue where request.parameter(0) == UInt32(PTPDevicePropertyCode.fujiCurrentState.rawValue):
            return fujiCurrentState()
        case .fujiGetDeviceInfo:
            return fujiPropertyDescriptions(in: context)
        case .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue:
            guard let raw = request.parameter(0), raw == 0x500F || raw == 0x500D else { return nil }
            return raw == 0x500F ? fujiISO(request) : fujiExposureTime(request)
        case .initiateCapture:
            let action = state.withLock { $0.properties[.fujiCameraAction]?.value.integerValue }
            switch action {
            case 0x0200:
                let status: UInt16 = configuration.focusSucceeds ? 2 : 3
                state.withLock { $0.properties[.fujiAFStatus]?.value = .uint16(status) }
                configuration.log?("fuji: focused (AFStatus \(status))")
                return .ok
            case 0x0304:
                return initiateCapture(
                    SimulatorRequest(
                        code: .initiateCapture, transactionID: request.transactionID,
                        parameters: [], data: nil), in: context)
            default:
                return .ok
            }
        case .initiateOpenCapture:
            // The live view object has a frame as soon as remote capture starts: libgphoto2 looks for it over USB
            // five times 5 ms apart, then takes it.
            let startedAt = ContinuousClock.now - configuration.liveViewStartupDelay
            state.withLock { state in
                if state.liveView == nil { state.liveView = LiveView(startedAt: startedAt) }
            }
            configuration.log?("fuji: remote capture started")
            return .ok
        case .getObjectInfo where request.parameter(0) == Self.fujiLiveViewObject:
            guard case .bytes(let frame)? = fujiLiveViewFrame()?.data else {
                return SimulatorReply(code: .invalidObjectHandle)
            }
            let info = PTPObjectInfo(
                storageID: 0, format: .exifJPEG, compressedSize: UInt32(frame.count), parentObject: 0,
                filename: "LIVEVIEW.JPG")
            return (try? info.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
        case .getObject where request.parameter(0) == Self.fujiLiveViewObject:
            return fujiLiveViewFrame() ?? SimulatorReply(code: .invalidObjectHandle)
        case .deleteObject where request.parameter(0) == Self.fujiLiveViewObject:
            return .ok
        default:
            return nil
        }
    }

    /// Fuji GetDeviceInfo's answer (0x902B), which only a body that sends its DeviceInfo empty lists: a 32-bit count,
    /// then each property's 32-bit size (its own four bytes included) and description, as GetDevicePropDesc answers
    /// for every property in the DeviceInfo but CurrentState, which a real X-T4 does not describe.
    private func fujiPropertyDescriptions(in context: any SimulatorSessionContext) -> SimulatorReply {
        var entries: [[UInt8]] = []
        for code in deviceInfo.devicePropertiesSupported where code != .fujiCurrentState {
            let request = SimulatorRequest(
                code: .getDevicePropDesc, transactionID: 0, parameters: [UInt32(code.rawValue)], data: nil)
            let reply = respondToFuji(request, in: context) ?? respondToProperty(request)
            if reply.code == .ok, case .bytes(let description)? = reply.data { entries.append(description) }
        }
        var writer = PTPDataWriter(capacity: 4 + entries.reduce(0) { $0 + 4 + $1.count })
        writer.append(UInt32(entries.count))
        for entry in entries {
            writer.append(UInt32(4 + entry.count))
            writer.append(bytes: entry)
        }
        return .data(writer.bytes)
    }

    /// The object that holds the live view frame over USB.
    static let fujiLiveViewObject: UInt32 = 0x8000_0001

    /// Keeps the properties that DevicePropChanged events report for CurrentState, where a Fujifilm lists them, and
    /// returns the other events.
    func holdFujiChanges(_ events: [PTPEvent], in state: inout State) -> [PTPEvent] {
        for event in events where event.code == .devicePropChanged {
            guard let raw = event.parameters.first, let code = UInt16(exactly: raw) else { continue }
            let property = PTPDevicePropertyCode(rawValue: code)
            if !state.fuji.changed.contains(property) { state.fuji.changed.append(property) }
        }
        return events.filter { $0.code != .devicePropChanged }
    }

    /// CurrentState's value, the properties changed since it was last read, which it forgets: a 16-bit count, then
    /// each property's code and its value in 32 bits, as libgphoto2 reads it (the value as the camera holds it; a
    /// client reads the property again).
    private func fujiCurrentState() -> SimulatorReply {
        state.withLock { state in
            defer { state.fuji.changed = [] }
            var writer = PTPDataWriter(capacity: 2 + 6 * state.fuji.changed.count)
            writer.append(UInt16(state.fuji.changed.count))
            for code in state.fuji.changed {
                writer.append(code.rawValue)
                writer.append(UInt32(truncatingIfNeeded: state.properties[code]?.value.integerValue ?? 0))
            }
            return .data(writer.bytes)
        }
    }

    /// The current live view JPEG, while remote capture runs.
    func fujiLiveViewFrame() -> SimulatorReply? {
        let reply = liveViewFrame(at: .now, notOn: .invalidObjectHandle, starting: .invalidObjectHandle) { Array($0) }
        return reply.code == .ok ? reply : nil
    }

    /// ExposureIndex as a signed 32-bit ISO with three automatic settings, over the standard one.
    private func fujiISO(_ request: SimulatorRequest) -> SimulatorReply {
        let now = CameraClock.now()
        return state.withLock { state in
            guard let property = state.properties[.exposureIndex] else {
                return SimulatorReply(code: .devicePropNotSupported)
            }
            func fuji(_ value: PTPValue) -> Int32 {
                let raw = value.integerValue ?? 0
                return raw == Int64(ExposureModel.automaticISO) ? state.fuji.automaticISO : Int32(raw)
            }
            var values: [PTPValue] = Self.fujiAutomaticISO.map { .int32($0) }
            if case .enumeration(let standard) = property.form {
                values += standard.filter { $0.integerValue != Int64(ExposureModel.automaticISO) }.map {
                    .int32(fuji($0))
                }
            }
            let current = PTPValue.int32(fuji(property.value))
            switch request.code {
            case .setDevicePropValue:
                var reader = PTPDataReader(request.data ?? [], reading: "ISO")
                guard let value = try? reader.read(Int32.self), reader.isAtEnd else {
                    return SimulatorReply(code: .invalidDevicePropFormat)
                }
                guard values.contains(.int32(value)) else { return SimulatorReply(code: .invalidDevicePropValue) }
                if value < 0 { state.fuji.automaticISO = value }
                let standard = value < 0 ? ExposureModel.automaticISO : UInt16(value)
                return set(.exposureIndex, to: .uint16(standard), in: &state, now: now)
            default:
                return describe(.exposureIndex, as: .int32, current: current, values: values, of: property, request)
            }
        }
    }

    /// ExposureTime in microseconds of the exact power-of-two time, over the standard one in 1/10,000 s.
    private func fujiExposureTime(_ request: SimulatorRequest) -> SimulatorReply {
        let now = CameraClock.now()
        return state.withLock { state in
            guard let property = state.properties[.exposureTime] else {
                return SimulatorReply(code: .devicePropNotSupported)
            }
            func fuji(_ value: PTPValue) -> UInt32 { Self.fujiMicroseconds(ofShutter: UInt32(value.integerValue ?? 0)) }
            var standard: [PTPValue] = []
            if case .enumeration(let list) = property.form { standard = list }
            let values = standard.map { PTPValue.uint32(fuji($0)) }
            switch request.code {
            case .setDevicePropValue:
                var reader = PTPDataReader(request.data ?? [], reading: "exposure time")
                guard let value = try? reader.read(UInt32.self), reader.isAtEnd else {
                    return SimulatorReply(code: .invalidDevicePropFormat)
                }
                guard let index = values.firstIndex(of: .uint32(value)) else {
                    return SimulatorReply(code: .invalidDevicePropValue)
                }
                guard property.isSettable else { return SimulatorReply(code: .accessDenied) }
                return set(.exposureTime, to: standard[index], in: &state, now: now)
            default:
                return describe(
                    .exposureTime, as: .uint32, current: .uint32(fuji(property.value)), values: values, of: property,
                    request)
            }
        }
    }

    /// A property's description or value in the camera's encoding.
    private func describe(
        _ code: PTPDevicePropertyCode, as type: PTPDataType, current: PTPValue, values: [PTPValue],
        of property: SimulatedProperty, _ request: SimulatorRequest
    ) -> SimulatorReply {
        var writer = PTPDataWriter()
        if request.code == .getDevicePropValue {
            guard (try? writer.append(value: current)) != nil else { return SimulatorReply(code: .generalError) }
            return .data(writer.bytes)
        }
        let description = PTPDevicePropertyDescription(
            code: code, dataType: type, isSettable: property.isSettable, factoryDefaultValue: current,
            currentValue: current, form: .enumeration(values))
        return (try? description.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
    }

    /// The microseconds a Fujifilm body writes for a shutter speed: the nominal time rounded to the nearest third
    /// of a stop, as a power of two, in whole microseconds (1/60 is 15,625, 1/50 is 19,686).
    static func fujiMicroseconds(ofShutter value: UInt32) -> UInt32 {
        let seconds = ExposureModel.seconds(ofShutter: value)
        let thirds = (3 * log2(seconds)).rounded()
        return UInt32((1e6 * exp2(thirds / 3)).rounded(.down))
    }
}
