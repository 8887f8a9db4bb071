import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

extension SimulatedCamera {
    /// Answers Nikon's live view and movie operations.
    func respondToLiveView(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        let now = ContinuousClock.now
        let startup = configuration.liveViewStartupDelay
        switch request.code {
        case .nikonStartLiveView:
            return state.withLock { state in
                guard state.liveView == nil else { return .ok }
                state.liveView = LiveView(startedAt: now)
                return SimulatorReply(code: .ok, events: Self.updateLiveViewProperties(&state))
            }
        case .nikonAfDrive:
            return state.withLock { state in
                // Manual focus has nothing to drive; otherwise the lens hunts for a moment.
                guard state.properties[.focusMode]?.value.integerValue != 1 else { return .ok }
                state.focusing = (now + .milliseconds(80), configuration.focusSucceeds ? .ok : .nikonOutOfFocus)
                return .ok
            }
        case .nikonAfDriveCancel:
            state.withLock { $0.focusing = nil }
            return .ok
        case .nikonChangeAfArea:
            return moveAFArea(request)
        case .nikonMfDrive:
            guard let direction = request.parameter(0), direction == 1 || direction == 2,
                let steps = request.parameter(1)
            else { return SimulatorReply(code: .invalidParameter) }
            let moved: Bool? = state.withLock { state in
                guard state.liveView != nil else { return nil }
                let moved = Self.driveFocus(by: Int(steps) * (direction == 1 ? -1 : 1), in: &state)
                state.focusing = (now + .milliseconds(20), moved ? .ok : .nikonMfDriveStepEnd)
                return moved
            }
            guard let moved else { return SimulatorReply(code: .nikonNotLiveView) }
            logFocus(moved: moved)
            return .ok
        case .nikonDeviceReady:
            return state.withLock { state in
                if let focusing = state.focusing {
                    guard now >= focusing.until else { return SimulatorReply(code: .deviceBusy) }
                    state.focusing = nil
                    if focusing.answer != .ok { return SimulatorReply(code: focusing.answer) }
                }
                guard let liveView = state.liveView, now < liveView.startedAt + startup else { return .ok }
                return SimulatorReply(code: .deviceBusy)
            }
        case .nikonEndLiveView:
            return state.withLock { state in
                // A movie being recorded keeps live view on: the camera records on its own until EndMovieRec.
                if state.recordingSince == nil {
                    state.liveView = nil
                }
                return SimulatorReply(code: .ok, events: Self.updateLiveViewProperties(&state))
            }
        case .nikonGetLiveViewImage:
            let header = nikonLiveViewHeader()
            let area = state.withLock { nikonAFArea(of: $0) }
            let whole = Self.dimensions(of: Self.imageSizes[0])
            let outline = TestScene.Region(
                x: Double(area.rect.x) / Double(whole.width), y: Double(area.rect.y) / Double(whole.height),
                width: Double(area.rect.width) / Double(whole.width),
                height: Double(area.rect.height) / Double(whole.height))
            return liveViewFrame(at: now, notOn: .nikonNotLiveView, starting: .deviceBusy, outline: outline) {
                jpeg in header + jpeg
            }
        case .nikonStartMovieRecording:
            return state.withLock { state in
                guard state.liveView != nil else { return SimulatorReply(code: .nikonNotLiveView) }
                guard state.recordingSince == nil else { return SimulatorReply(code: .nikonInvalidStatus) }
                state.recordingSince = now
                return SimulatorReply(code: .ok, events: Self.updateLiveViewProperties(&state))
            }
        default:
            let ended: (events: [PTPEvent], movie: UInt32)? = state.withLock { state in
                guard let since = state.recordingSince else { return nil }
                state.recordingSince = nil
                let movie = Self.writeMovie(recordedSince: since, until: now, in: &state)
                return (Self.updateLiveViewProperties(&state), movie.handle)
            }
            guard let ended else { return SimulatorReply(code: .nikonInvalidStatus) }
            // Writing the movie takes a moment; the camera says when it is done, and that the file is on the card.
            context.schedule(after: .milliseconds(100)) {
                [PTPEvent(code: .nikonMovieRecordComplete), PTPEvent(code: .objectAdded, parameters: [ended.movie])]
            }
            return SimulatorReply(code: .ok, events: ended.events)
        }
    }

    /// The header before each Nikon live view JPEG: the image's size and the whole picture's (the largest picture
    /// size), all of it shown, the autofocus area, the camera level.
    func nikonLiveViewHeader() -> [UInt8] {
        let picture = configuration.liveViewPicture
        let area = state.withLock { nikonAFArea(of: $0) }
        return PTPNikonLiveViewHeader.encode(
            imageSize: picture.map { Dimensions(width: $0.width, height: $0.height) } ?? configuration.liveViewSize,
            whole: Self.dimensions(of: Self.imageSizes[0]), afArea: area.rect, length: Self.liveViewHeaderLength)
    }

    /// A Nikon's autofocus area: a tenth of the whole picture's width and height around the centre ChangeAfArea set
    /// (the middle until set), kept inside the picture.
    func nikonAFArea(of state: State) -> (center: LiveViewPoint, rect: LiveViewRect) {
        let whole = Self.dimensions(of: Self.imageSizes[0])
        let center = state.afAreaCenter ?? LiveViewPoint(x: whole.width / 2, y: whole.height / 2)
        let size = (width: whole.width / 10, height: whole.height / 10)
        let rect = LiveViewRect(
            x: min(max(center.x - size.width / 2, 0), whole.width - size.width),
            y: min(max(center.y - size.height / 2, 0), whole.height - size.height), width: size.width,
            height: size.height)
        return (center, rect)
    }

    /// Moves a Nikon's autofocus area to ChangeAfArea's point, in live view only (NotLiveView otherwise), as the
    /// camera does; a point outside the picture is an invalid parameter.
    private func moveAFArea(_ request: SimulatorRequest) -> SimulatorReply {
        let whole = Self.dimensions(of: Self.imageSizes[0])
        guard let x = request.parameter(0), let y = request.parameter(1), x <= whole.width, y <= whole.height else {
            return SimulatorReply(code: .invalidParameter)
        }
        let moved = state.withLock { state in
            guard state.liveView != nil else { return false }
            state.afAreaCenter = LiveViewPoint(x: Int(x), y: Int(y))
            // The next frame shows the area where it is now.
            state.liveView?.frame = nil
            return true
        }
        guard moved else { return SimulatorReply(code: .nikonNotLiveView) }
        configuration.log?("autofocus area: moved to \(x)x\(y)")
        return .ok
    }

    /// Logs where the lens is focused after a focus drive step.
    func logFocus(moved: Bool) {
        let position = state.withLock { $0.focusPosition }
        configuration.log?(
            moved
                ? "focus drive: the lens is at \(position) of \(Self.focusTravel)"
                : "focus drive: the lens is at the end of its travel (\(position))")
    }

    /// Moves the lens's focus `steps` steps towards infinity (towards the camera when negative), stopping at the ends
    /// of its travel; returns whether it moved at all.
    static func driveFocus(by steps: Int, in state: inout State) -> Bool {
        let target = min(max(state.focusPosition + steps, 0), focusTravel)
        defer { state.focusPosition = target }
        return target != state.focusPosition
    }

    /// The current live view frame: a JPEG of the scene at the live view size, in the vendor's wrapping.
    ///
    /// Frames change at the configured frame rate; asking faster returns the current one again.
    ///
    /// - Parameters:
    ///   - notOn: The answer while live view is off.
    ///   - starting: The answer while it starts.
    ///   - outline: The part of the picture to outline, as the camera shows its autofocus area.
    ///   - wrap: Puts the vendor's header around a JPEG.
    func liveViewFrame(
        at now: ContinuousClock.Instant, notOn: PTPResponseCode, starting: PTPResponseCode,
        outline: TestScene.Region? = nil, wrap: (UnsafeRawBufferPointer) -> [UInt8]
    ) -> SimulatorReply {
        let rate = Double(max(1, configuration.liveViewFrameRate))
        let startup = configuration.liveViewStartupDelay
        enum Lookup {
            case answer(SimulatorReply)
            case render(index: Int, lighting: TestScene.Lighting, region: TestScene.Region)
        }
        let lookup: Lookup = state.withLock { state in
            guard let liveView = state.liveView else { return .answer(SimulatorReply(code: notOn)) }
            guard now >= liveView.startedAt + startup else { return .answer(SimulatorReply(code: starting)) }
            let index = Int(liveView.startedAt.duration(to: now).inSeconds * rate)
            let region = liveViewRegion(of: state)
            if let frame = liveView.frame, frame.index == index, frame.region == region {
                return .answer(.data(frame.bytes))
            }
            return .render(
                index: index, lighting: Self.lighting(of: state, sceneEV: configuration.sceneEV), region: region)
        }
        guard case .render(let index, let lighting, let region) = lookup else {
            if case .answer(let reply) = lookup { return reply }
            return SimulatorReply(code: .generalError)
        }
        let size = configuration.liveViewSize
        guard
            let image = configuration.liveViewPicture
                ?? (try? TestScene.render(
                    width: size.width, height: size.height, lighting: lighting,
                    time: epoch.duration(to: now).inSeconds, region: region, outline: outline)),
            let bytes = try? encoder.encode(image, quality: 80, wrap)
        else { return SimulatorReply(code: .generalError) }
        state.withLock { state in
            state.liveView?.frame = (index, region, bytes)
        }
        return .data(bytes)
    }

    /// The part of the scene live view shows: the whole of it, or on a Canon magnified with Zoom, the part around
    /// the point ZoomPosition set (the middle unless set), in pixels of the live view picture.
    func liveViewRegion(of state: State) -> TestScene.Region {
        let zoom = state.canon.zoom
        guard zoom.factor > 1 else { return .whole }
        let size = configuration.liveViewSize
        let center = zoom.position ?? (UInt32(size.width / 2), UInt32(size.height / 2))
        return .magnified(
            Int(zoom.factor), around: (Double(center.x) / Double(size.width), Double(center.y) / Double(size.height)))
    }

    /// Sets LiveViewStatus and MovRecProhibitCondition from the live view and recording state, and reports those
    /// that changed.
    static func updateLiveViewProperties(_ state: inout State) -> [PTPEvent] {
        var events: [PTPEvent] = []
        let status = PTPValue.uint8(state.liveView == nil ? 0 : 1)
        if let old = state.properties[.nikonLiveViewStatus]?.value, old != status {
            state.properties[.nikonLiveViewStatus]?.value = status
            events.append(changed(.nikonLiveViewStatus))
        }
        // Bit 10: already recording a movie.
        let prohibit = PTPValue.uint32(state.recordingSince == nil ? 0 : 1 << 10)
        if let old = state.properties[.nikonMovieRecordingProhibitCondition]?.value, old != prohibit {
            state.properties[.nikonMovieRecordingProhibitCondition]?.value = prohibit
            events.append(changed(.nikonMovieRecordingProhibitCondition))
        }
        return events
    }
}

extension SimulatedCamera {
    /// Writes a movie recorded from `since` to `end` onto the card: about 12 MB a second of video, made as it is
    /// read.
    static func writeMovie(
        recordedSince since: ContinuousClock.Instant, until end: ContinuousClock.Instant, in state: inout State
    )
        -> (handle: UInt32, name: String, content: ObjectBytes)
    {
        let seconds = max(since.duration(to: end).inSeconds, 0.1)
        let name = state.storage.nextFilename(extension: "MOV")
        let content = ObjectBytes(generatedCount: UInt64(seconds * 12_000_000))
        let handle = state.storage.addFile(
            named: name, format: .quickTime, content: content, thumbnail: nil, imageSize: nil,
            date: PTPDate.string(secondsSince1970: CameraClock.now() + state.clockOffset))
        return (handle, name, content)
    }
}
