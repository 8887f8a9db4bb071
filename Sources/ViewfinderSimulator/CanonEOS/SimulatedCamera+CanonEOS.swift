import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

extension SimulatedCamera {
    /// Answers the EOS operations of the simulated Canon.
    func respondToCanonEOS(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        switch request.code {
        case .canonEOSSetRemoteMode, .canonEOSSetUILock, .canonEOSResetUILock, .canonEOSKeepDeviceOn,
            .canonEOSPCHDDCapacity:
            return .ok
        case .canonEOSSetEventMode:
            state.withLock { state in
                state.canon.eventMode = request.parameter(0) ?? 0
                // A client that asks for events hears everything first, the clock as it is now among it.
                state.canon.reported = [:]
                state.canon.focusInfoReported = false
                state.canon.clock = UInt32(truncatingIfNeeded: CameraClock.now() + state.clockOffset)
            }
            return .ok
        case .canonEOSGetEvent:
            return .data(PTPCanonEOSEvent.encode(canonEOSEvents()))
        case .canonEOSSetDevicePropValueEx:
            return setCanonEOSProperty(request.data)
        case .canonEOSGetStorageIDs:
            return respondToStorage(
                SimulatorRequest(code: .getStorageIDs, transactionID: request.transactionID, parameters: []))
        case .canonEOSGetStorageInfo:
            return respondToStorage(
                SimulatorRequest(
                    code: .getStorageInfo, transactionID: request.transactionID, parameters: request.parameters))
        case .canonEOSTransferComplete:
            return state.withLock { state in
                guard let handle = request.parameter(0), state.storage.isHeldForTransfer(handle) else {
                    return SimulatorReply(code: .invalidObjectHandle)
                }
                state.storage.remove(handle)
                return .ok
            }
        case .canonEOSRemoteRelease:
            // Newer bodies list RemoteRelease and refuse it; libgphoto2 uses it only without RemoteReleaseOn.
            guard !configuration.strict else { return SimulatorReply(code: .operationNotSupported) }
            return remoteRelease(request, in: context)
        case .canonEOSRemoteReleaseOn:
            return pressShutter(request, in: context)
        case .canonEOSRemoteReleaseOff:
            let button = request.parameter(0) ?? 0
            if button & 2 != 0 {
                releaseHeldShutter(in: context)
            }
            state.withLock { state in
                if button & 1 != 0 { state.canon.halfPressFocused = nil }
            }
            return .ok
        case .canonEOSGetViewFinderData:
            return liveViewFrame(at: .now, notOn: .canonEOSNotReady, starting: .canonEOSNotReady) { jpeg in
                PTPCanonEOSLiveViewFrame.encode(jpeg: jpeg)
            }
        case .canonEOSDriveLens:
            return driveLens(request.parameter(0) ?? 0)
        case .canonEOSZoom:
            return zoom(request.parameter(0) ?? 0)
        case .canonEOSZoomPosition:
            return zoomPosition(x: request.parameter(0) ?? .max, y: request.parameter(1) ?? .max)
        default:
            return SimulatorReply(code: .operationNotSupported)
        }
    }

    /// The steps of the focus motor a DriveLens step of each size (1 to 3) moves.
    static let canonEOSDriveLensSteps: [UInt32: Int] = [1: 10, 2: 100, 3: 1000]

    /// DriveLens(step): moves the focus in live view (EVFMode 1, or live view sent to the computer) by the step's size
    /// (its low bits, 1 to 3), towards infinity with bit 15 set; refused outside live view.
    private func driveLens(_ step: UInt32) -> SimulatorReply {
        guard let steps = Self.canonEOSDriveLensSteps[step & 0x7FFF], step & ~0x8007 == 0 else {
            return SimulatorReply(code: .invalidParameter)
        }
        let moved: Bool? = state.withLock { state in
            guard state.canon.evfMode == 1 || state.canon.evfOutput & 2 != 0 else { return nil }
            return Self.driveFocus(by: step & 0x8000 != 0 ? steps : -steps, in: &state)
        }
        guard let moved else { return SimulatorReply(code: .generalError) }
        logFocus(moved: moved)
        return .ok
    }

    /// Zoom(level): magnifies live view 5 or 10 times, or not at all with 1, as EOS bodies offer, and logs it.
    private func zoom(_ level: UInt32) -> SimulatorReply {
        guard [1, 5, 10].contains(level) else { return SimulatorReply(code: .invalidParameter) }
        state.withLock { $0.canon.zoom.factor = level }
        configuration.log?("live view zoom: Zoom \(level)")
        return .ok
    }

    /// ZoomPosition(x, y): the point of the live view picture, in its pixels, that magnified live view shows, and
    /// logs it; a point outside the picture is refused.
    private func zoomPosition(x: UInt32, y: UInt32) -> SimulatorReply {
        let size = configuration.liveViewSize
        guard x < size.width, y < size.height else { return SimulatorReply(code: .invalidParameter) }
        state.withLock { $0.canon.zoom.position = (x, y) }
        configuration.log?("live view zoom: ZoomPosition \(x),\(y)")
        return .ok
    }

    /// Whether focusing now would find focus: always in manual focus, else as configured.
    private func findsFocus(in state: State) -> Bool {
        state.properties[.focusMode]?.value.integerValue == 1 || configuration.focusSucceeds
    }

    /// RemoteRelease: focuses and takes the picture, or says in its first parameter why not (1: no focus).
    private func remoteRelease(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        guard state.withLock({ findsFocus(in: $0) }) else { return SimulatorReply(code: .ok, parameters: [1]) }
        guard startCapture(transactionID: request.transactionID, in: context) else {
            return SimulatorReply(code: .deviceBusy)
        }
        return SimulatorReply(code: .ok, parameters: [0])
    }

    /// RemoteReleaseOn(button, without autofocus): a half press (1) focuses and reports what it found in an
    /// OLCInfoChanged record; a full press (2, or 3 for both) opens the shutter unless autofocus found no focus, and
    /// RemoteReleaseOff of the full press closes it, the exposure lasting as long as the button was held and at least
    /// the set time.
    private func pressShutter(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        let button = request.parameter(0) ?? 0
        let withoutAutofocus = request.parameter(1) == 1
        let releases: Bool = state.withLock { state in
            if button & 1 != 0, state.canon.halfPressFocused == nil {
                let focused = withoutAutofocus || findsFocus(in: state)
                state.canon.halfPressFocused = focused
                state.canon.pending.append(Self.focusRecord(found: focused))
            }
            guard button & 2 != 0 else { return false }
            return withoutAutofocus || (state.canon.halfPressFocused ?? findsFocus(in: state))
        }
        if releases, !startCapture(transactionID: request.transactionID, held: true, in: context) {
            return SimulatorReply(code: .deviceBusy)
        }
        return .ok
    }

    /// An OLCInfoChanged record with only its focus information (mask 0x0100): six bytes, the fifth 1 when focus
    /// was found and 2 when it was not, as EOS bodies without an OLC version send it.
    private static func focusRecord(found: Bool) -> PTPCanonEOSEvent {
        var payload = PTPDataWriter(capacity: 16)
        payload.append(UInt32(4 + 2 + 2 + 6))  // the blob's length: the record's size less 8
        payload.append(UInt16(0x0100))
        payload.append(UInt16(0))
        payload.append(bytes: [0, 0, 0, 0, found ? 1 : 2, 0])
        return .other(type: 0xC1A5, payload: payload.bytes)
    }

    /// Reports a picture the camera took: held for the computer to read when pictures go there, on the card
    /// otherwise; the camera is then no longer busy.
    func reportCanonEOSCapture(_ handle: UInt32, name: String, size: Int) {
        state.withLock { state in
            if state.canon.captureDestination == 4 {
                state.storage.holdForTransfer(handle)
                state.canon.pending.append(
                    .objectTransferRequested(
                        handle: handle, format: .exifJPEG, size: UInt32(clamping: size), name: name))
            } else {
                state.canon.pending.append(
                    .objectAdded(
                        handle: handle, storageID: SimulatedStorage.storageID, format: .exifJPEG,
                        size: UInt32(clamping: size), parent: state.storage.cameraFolder, name: name))
            }
            state.canon.pending.append(.cameraStatus(0))
        }
    }

    /// Turns live view on when it goes to the computer, and off when it does not, unless a movie is recorded.
    func updateCanonEOSLiveView(_ state: inout State) {
        let on = state.canon.evfMode == 1 && state.canon.evfOutput & 2 != 0
        if on, state.liveView == nil {
            state.liveView = LiveView(startedAt: .now)
        } else if !on, state.recordingSince == nil {
            state.liveView = nil
        }
    }

    /// Starts or stops recording a movie; a stopped movie is written to the card as a file.
    func setCanonEOSRecording(_ starts: Bool, in state: inout State) -> SimulatorReply {
        if starts {
            if state.recordingSince == nil { state.recordingSince = .now }
            return .ok
        }
        guard let since = state.recordingSince else { return .ok }
        state.recordingSince = nil
        updateCanonEOSLiveView(&state)
        let (handle, name, content) = Self.writeMovie(recordedSince: since, until: .now, in: &state)
        state.canon.pending.append(
            .objectAdded(
                handle: handle, storageID: SimulatedStorage.storageID, format: .quickTime,
                size: UInt32(clamping: content.count), parent: state.storage.cameraFolder, name: name))
        return .ok
    }
}
