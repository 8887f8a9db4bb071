import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

extension SimulatedCamera {
    /// The Sony operations a data-out phase follows, for transports whose containers do not say.
    static let sonyDataOutOperations: Set<UInt16> = [
        PTPOperationCode.sonySetExtDevicePropValue.rawValue, PTPOperationCode.sonyControlDevice.rawValue,
        PTPOperationCode.sonyHousekeeping.rawValue,
    ]

    /// How long the simulated Sony takes to focus after a half press.
    static let sonyFocusingTime = Duration.milliseconds(80)

    /// Answers the SDIO operations of the simulated Sony, and GetObjectInfo, GetObject and GetPartialObject of the
    /// objects it keeps live view (0xFFFFC002) and pictures for the computer (0xFFFFC001) at; `nil` for what the
    /// card answers.
    ///
    /// The handshake comes first: GetExtDeviceInfo answers after SDIOConnect phase 2, the other SDIO operations and
    /// live view after phase 3 (AccessDenied before), as the order a body expects. Phases may come again, in any
    /// order, as libgphoto2 sends them each time it reads the DeviceInfo.
    func respondToSony(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply? {
        let phase = state.withLock { $0.sony.phase }
        switch request.code {
        case .sonySDIOConnect:
            guard let step = request.parameter(0), (1...3).contains(step) else {
                return SimulatorReply(code: .invalidParameter)
            }
            state.withLock { state in
                state.sony.phase = max(state.sony.phase, step)
                if step == 3, state.liveView == nil { state.liveView = LiveView(startedAt: .now) }
            }
            return .data([UInt8](repeating: 0, count: 8))
        case .sonyGetExtDeviceInfo:
            guard phase >= 2 else { return SimulatorReply(code: .accessDenied) }
            return .data(sonyExtendedInfo().encoded())
        case .sonyHousekeeping:
            let bytes = request.data ?? []
            configuration.log?(
                "housekeeping 0x9280(\(request.parameter(0) ?? 0)) with "
                    + bytes.map { String($0) }.joined(separator: " "))
            return .ok
        case .sonyHousekeepingResult:
            return .data([])
        case .sonyGetAllExtDevicePropInfo, .sonySetExtDevicePropValue, .sonyControlDevice:
            guard phase >= 3 else { return SimulatorReply(code: .accessDenied) }
            switch request.code {
            case .sonyGetAllExtDevicePropInfo:
                let records = state.withLock {
                    Self.sonyRecords(
                        of: $0, identity: configuration.identity, twoLists: configuration.sonyTwoListRecords,
                        unlisted: configuration.formlessProperties)
                }
                return (try? PTPSonyProperty.encodeAll(records)).map(SimulatorReply.data)
                    ?? SimulatorReply(code: .generalError)
            case .sonySetExtDevicePropValue:
                return setSonyProperty(request)
            default:
                return controlSony(request, in: context)
            }
        case .getObjectInfo, .getObject, .getPartialObject:
            switch request.parameter(0) {
            case PTPSonyLiveViewFrame.handle:
                return phase >= 3 ? sonyLiveView(request) : SimulatorReply(code: .invalidObjectHandle)
            case PTPSonyLiveViewFrame.pictureHandle:
                return sonyPicture(request)
            default:
                return nil
            }
        default:
            return nil
        }
    }

    // MARK: Setting values

    /// SetExtDevicePropValue: a value of the property's type, an f-number also in four bytes.
    ///
    /// libgphoto2 sends f-numbers in four bytes to bodies of protocol 300. The protocol-200 body takes no exposure
    /// setting this way: it answers OK and changes nothing, as libgphoto2 2.5.30 writes one after every stepped set.
    private func setSonyProperty(_ request: SimulatorRequest) -> SimulatorReply {
        guard let raw = request.parameter(0), let code16 = UInt16(exactly: raw), let data = request.data else {
            return SimulatorReply(code: .invalidParameter)
        }
        let code = PTPDevicePropertyCode(rawValue: code16)
        let identity = configuration.identity
        let now = CameraClock.now()
        return state.withLock { state in
            guard let mapping = Self.sonyMappings(for: identity).first(where: { $0.code == code }) else {
                return setSonyState(code, data, in: &state)
            }
            if mapping.isNotched, identity == .sonyStepping {
                configuration.log?("ignored SetExtDevicePropValue for \(code): this body moves it only by notches")
                return .ok
            }
            let widths = code == .fNumber ? [mapping.dataType, .uint32] : [mapping.dataType]
            guard let value = widths.lazy.compactMap({ Self.integer(data, as: $0) }).first else {
                return SimulatorReply(code: .invalidDevicePropFormat)
            }
            guard let property = state.properties[mapping.internalCode] else {
                return SimulatorReply(code: .devicePropNotSupported)
            }
            guard property.isSettable, code != .exposureProgramMode else { return SimulatorReply(code: .accessDenied) }
            guard let target = Self.sonyEnumeration(of: property).first(where: { mapping.toSony($0) == value }) else {
                return SimulatorReply(code: .invalidDevicePropValue)
            }
            var reply = set(mapping.internalCode, to: target, in: &state, now: now)
            reply.events = sonyEvents(reply.events)
            return reply
        }
    }

    /// Sets one of the properties the Sony keeps beyond the camera model: where pictures go, PriorityMode.
    private func setSonyState(_ code: PTPDevicePropertyCode, _ data: [UInt8], in state: inout State) -> SimulatorReply {
        switch code {
        case .sonyStillImageStoreDestination:
            guard let value = Self.integer(data, as: .uint16) else {
                return SimulatorReply(code: .invalidDevicePropFormat)
            }
            guard [1, 0x10, 0x11].contains(value) else { return SimulatorReply(code: .invalidDevicePropValue) }
            state.sony.destination = UInt16(value)
        case .sonyPriorityMode:
            guard let value = Self.integer(data, as: .int8) else {
                return SimulatorReply(code: .invalidDevicePropFormat)
            }
            guard value == 0 || value == 1 else { return SimulatorReply(code: .invalidDevicePropValue) }
            state.sony.priorityMode = Int8(value)
        case .compressionSetting, .sonyFocusFound, .sonyObjectInMemory, .sonyMovieRecordingState,
            .sonyRemainingShots:
            return SimulatorReply(code: .accessDenied)
        default:
            return SimulatorReply(code: .devicePropNotSupported)
        }
        return SimulatorReply(code: .ok, events: [Self.sonyChanged(code)])
    }

    /// The integer in `data` when it is exactly one value of `type`.
    private static func integer(_ data: [UInt8], as type: PTPDataType) -> Int64? {
        var reader = PTPDataReader(data, reading: "a value")
        guard let value = try? reader.readValue(of: type), reader.isAtEnd else { return nil }
        return value.integerValue
    }

    // MARK: Controls

    /// ControlDevice: a signed byte of notches for an exposure setting, or a button pressed (2) or let go (1).
    private func controlSony(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        guard let raw = request.parameter(0), let code16 = UInt16(exactly: raw), let data = request.data else {
            return SimulatorReply(code: .invalidParameter)
        }
        let code = PTPDevicePropertyCode(rawValue: code16)
        if let mapping = Self.sonyMappings(for: configuration.identity).first(where: {
            $0.code == code && $0.isNotched
                && ![.sonyISO2, .sonyShutterSpeed2, .sonyExposureCompensation].contains(code)
        }) {
            guard data.count == 1 else { return SimulatorReply(code: .invalidDevicePropFormat) }
            return moveSony(mapping, by: Int(Int8(bitPattern: data[0])), in: context)
        }
        guard let button = Self.integer(data, as: .uint16), button == 1 || button == 2 else {
            return SimulatorReply(code: .invalidDevicePropValue)
        }
        let pressed = button == 2
        switch code {
        case .sonyHalfPress:
            return pressed ? halfPress(in: context) : letGoHalfPress()
        case .sonyFullPress, PTPDevicePropertyCode(rawValue: 0xD2C7):
            return pressed ? fullPress(in: context) : .ok
        case .sonyMovieButton:
            return movieButton(pressed)
        default:
            return SimulatorReply(code: .devicePropNotSupported)
        }
    }

    /// Moves an exposure setting `notches` places along its scale, after the configured delay, as far as its values
    /// (and the configured limits) go; the camera then reports the change.
    private func moveSony(_ mapping: SonyMapping, by notches: Int, in context: SimulatorSessionContext)
        -> SimulatorReply
    {
        guard state.withLock({ $0.properties[mapping.internalCode]?.isSettable == true }) else {
            return SimulatorReply(code: .accessDenied)
        }
        let limits = configuration.sonyNotchLimits[mapping.internalCode]
        configuration.log?("moving \(mapping.code) by \(notches) notches")
        context.schedule(after: configuration.sonyNotchDelay) { [self] in
            let now = CameraClock.now()
            return state.withLock { state -> [PTPEvent] in
                guard let property = state.properties[mapping.internalCode], property.isSettable else { return [] }
                let listed = Self.sonyListed(mapping, property)
                let reachable = Self.sonyEnumeration(of: property).compactMap { value -> (PTPValue, Double)? in
                    guard let raw = value.integerValue, limits?.contains(raw) ?? true, let code = mapping.toSony(value),
                        let place = SonyPropertyValues.notchPlace(of: mapping.code, code, among: listed)
                    else { return nil }
                    return (value, place)
                }.sorted { $0.1 < $1.1 }
                guard let here = reachable.firstIndex(where: { $0.0 == property.value }) else { return [] }
                let there = max(0, min(reachable.count - 1, here + notches))
                guard there != here else { return [] }
                return sonyEvents(set(mapping.internalCode, to: reachable[there].0, in: &state, now: now).events)
            }
        }
        return .ok
    }

    /// S1 pressed: the camera focuses (at once in manual focus) and reports FocusFound.
    private func halfPress(in context: SimulatorSessionContext) -> SimulatorReply {
        let focuses = state.withLock { state -> Bool in
            state.sony.halfPressed = true
            guard state.properties[.focusMode]?.value.integerValue != 1, state.sony.focusFound != 2,
                !state.sony.isFocusing
            else { return false }
            state.sony.isFocusing = true
            return true
        }
        if focuses { scheduleFocus(in: context) }
        return .ok
    }

    private func letGoHalfPress() -> SimulatorReply {
        let changed = state.withLock { state -> Bool in
            state.sony.halfPressed = false
            defer { state.sony.focusFound = 1 }
            return state.sony.focusFound != 1
        }
        return SimulatorReply(code: .ok, events: changed ? [Self.sonyChanged(.sonyFocusFound)] : [])
    }

    /// S2 pressed: the picture is taken once the camera has focused, at once in manual focus; a camera that has not
    /// focused yet takes it when it does, and none when it finds no focus.
    private func fullPress(in context: SimulatorSessionContext) -> SimulatorReply {
        enum Next { case capture, wait, focus }
        let next = state.withLock { state -> Next in
            if state.properties[.focusMode]?.value.integerValue == 1 || state.sony.focusFound == 2 { return .capture }
            state.sony.releaseWaitsForFocus = true
            guard !state.sony.isFocusing else { return .wait }
            state.sony.isFocusing = true
            return .focus
        }
        switch next {
        case .capture:
            return startCapture(transactionID: 0, in: context) ? .ok : SimulatorReply(code: .deviceBusy)
        case .wait:
            return .ok
        case .focus:
            scheduleFocus(in: context)
            return .ok
        }
    }

    /// Ends focusing after a moment: FocusFound 2 when the camera finds focus, 1 when not, and a waiting release
    /// takes its picture.
    private func scheduleFocus(in context: SimulatorSessionContext) {
        context.schedule(after: Self.sonyFocusingTime) { [self] in
            let releases = state.withLock { state -> Bool in
                state.sony.isFocusing = false
                state.sony.focusFound = configuration.focusSucceeds ? 2 : 1
                defer { state.sony.releaseWaitsForFocus = false }
                return state.sony.releaseWaitsForFocus && configuration.focusSucceeds
            }
            if releases { _ = startCapture(transactionID: 0, in: context) }
            return [Self.sonyChanged(.sonyFocusFound)]
        }
    }

    /// The movie button: 2 starts recording, 1 stops it and writes the movie to the card.
    private func movieButton(_ pressed: Bool) -> SimulatorReply {
        state.withLock { state in
            if pressed {
                guard state.recordingSince == nil else { return .ok }
                state.recordingSince = .now
                return SimulatorReply(code: .ok, events: [Self.sonyChanged(.sonyMovieRecordingState)])
            }
            guard let since = state.recordingSince else { return .ok }
            state.recordingSince = nil
            let movie = Self.writeMovie(recordedSince: since, until: .now, in: &state)
            return SimulatorReply(
                code: .ok,
                events: [
                    PTPEvent(code: .sonyObjectAdded, parameters: [movie.handle]),
                    Self.sonyChanged(.sonyMovieRecordingState), Self.sonyChanged(.sonyRemainingShots),
                ])
        }
    }

    // MARK: Pictures and live view

    /// Keeps a picture the camera took where its destination says: in memory for the computer, on the card, or
    /// both; returns the events that say so.
    func reportSonyCapture(_ handle: UInt32) -> [PTPEvent] {
        state.withLock { state in
            let destination = state.sony.destination
            var events: [PTPEvent] = []
            if destination & 1 != 0 {
                if destination & 0x10 == 0 { state.storage.holdForTransfer(handle) }
                state.sony.pictures.append(handle)
                events.append(Self.sonyChanged(.sonyObjectInMemory))
            }
            if destination & 0x10 != 0 {
                events += [
                    PTPEvent(code: .sonyObjectAdded, parameters: [handle]), Self.sonyChanged(.sonyRemainingShots),
                ]
            }
            return events
        }
    }

    /// The oldest picture in memory: its information, or its bytes, which let it go once read to its end.
    private func sonyPicture(_ request: SimulatorRequest) -> SimulatorReply {
        state.withLock { state in
            guard let handle = state.sony.pictures.first, let object = state.storage.objects[handle] else {
                return SimulatorReply(code: .invalidObjectHandle)
            }
            switch request.code {
            case .getObjectInfo:
                return (try? object.info.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
            default:
                guard let data = object.data else { return SimulatorReply(code: .invalidObjectHandle) }
                var range = 0..<data.count
                var parameters: [UInt32] = []
                if request.code == .getPartialObject {
                    guard let offset = request.parameter(1), let maximum = request.parameter(2),
                        UInt64(offset) <= data.count
                    else { return SimulatorReply(code: .invalidParameter) }
                    range = UInt64(offset)..<min(data.count, UInt64(offset) + UInt64(maximum))
                    parameters = [UInt32(range.count)]
                }
                var events: [PTPEvent] = []
                if range.upperBound == data.count {
                    state.sony.pictures.removeFirst()
                    if state.storage.isHeldForTransfer(handle) { state.storage.remove(handle) }
                    events.append(Self.sonyChanged(.sonyObjectInMemory))
                }
                return SimulatorReply(code: .ok, parameters: parameters, data: .object(data, range), events: events)
            }
        }
    }

    /// Live view at 0xFFFFC002: GetObjectInfo describes the current frame, GetObject sends it behind Sony's header;
    /// InvalidObjectHandle until live view has started, AccessDenied for GetObject while it starts.
    private func sonyLiveView(_ request: SimulatorRequest) -> SimulatorReply {
        let describes = request.code == .getObjectInfo
        let reply = liveViewFrame(
            at: .now, notOn: .invalidObjectHandle, starting: describes ? .invalidObjectHandle : .accessDenied
        ) { jpeg in
            PTPSonyLiveViewFrame.encode(jpeg: jpeg)
        }
        guard describes, case .bytes(let frame)? = reply.data else { return reply }
        let info = PTPObjectInfo(
            storageID: 0, format: .exifJPEG, compressedSize: UInt32(frame.count), parentObject: 0,
            filename: "LIVEVIEW.JPG")
        return (try? info.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
    }

    /// Forgets the session's handshake, buttons and the pictures held for it.
    func endSonySession(_ state: inout State) {
        for handle in state.sony.pictures where state.storage.isHeldForTransfer(handle) {
            state.storage.remove(handle)
        }
        state.sony = SonyState()
    }
}
