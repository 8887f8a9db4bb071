import ViewfinderCore
import ViewfinderImaging
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

/// An operation request as the simulator serves it.
struct SimulatorRequest: Sendable {
    var code: PTPOperationCode
    var transactionID: UInt32
    var parameters: [UInt32]
    /// The bytes of the data-out phase, if there was one.
    var data: [UInt8]?

    /// The parameter at `index`, or `nil` when the request has fewer.
    func parameter(_ index: Int) -> UInt32? {
        index < parameters.count ? parameters[index] : nil
    }
}

/// The data-in phase of a reply.
enum SimulatorPayload: Sendable {
    /// Bytes made for this reply.
    case bytes([UInt8])
    /// A range of an object's bytes, sent without copying when they are stored.
    case object(ObjectBytes, Range<UInt64>)
}

/// What the simulator answers a request with.
struct SimulatorReply: Sendable {
    var code: PTPResponseCode
    var parameters: [UInt32] = []
    var data: SimulatorPayload?
    /// Events to send once the response has gone out.
    var events: [PTPEvent] = []

    static let ok = SimulatorReply(code: .ok)

    init(code: PTPResponseCode, parameters: [UInt32] = [], data: SimulatorPayload? = nil, events: [PTPEvent] = []) {
        self.code = code
        self.parameters = parameters
        self.data = data
        self.events = events
    }

    /// An OK reply carrying `bytes`.
    static func data(_ bytes: [UInt8]) -> SimulatorReply {
        SimulatorReply(code: .ok, data: .bytes(bytes))
    }
}

/// Where work that finishes after the reply runs: the session's event thread.
protocol SimulatorSessionContext: Sendable {
    /// Runs `job` after `delay` and sends the events it returns.
    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> [PTPEvent])
}

/// The simulated camera: its properties, its card, its capture, live view and movie state, and the answer to every
/// operation it supports.
///
/// Its state lives behind a lock; anything slow (rendering and encoding images) happens outside it.
final class SimulatedCamera: SimulatorResponder {
    struct LiveView {
        var startedAt: ContinuousClock.Instant
        /// The last frame made: its number, the part of the scene it shows and its bytes.
        var frame: (index: Int, region: TestScene.Region, bytes: [UInt8])?
    }

    /// A picture whose shutter is open: when it opened, what it shows, and its set exposure time.
    struct HeldExposure {
        var since: ContinuousClock.Instant
        var transactionID: UInt32
        var lighting: TestScene.Lighting
        var size: Dimensions
        var time: Double
        var minimum: Duration
    }

    struct State {
        var properties: [PTPDevicePropertyCode: SimulatedProperty] = [:]
        var clockOffset = 0
        var storage: SimulatedStorage
        var openSessionID: UInt32?
        var isCapturing = false
        /// When the shutter last opened.
        var lastShutterRelease: ContinuousClock.Instant?
        /// The picture whose shutter is held open, until the shutter button is let go.
        var heldExposure: HeldExposure?
        /// When the shutter opened and how long it stayed open, for the last
        /// ``SimulatedCamera/maximumExposures`` pictures, oldest first.
        var exposures: [(opened: ContinuousClock.Instant, length: Duration)] = []
        var liveView: LiveView?
        var recordingSince: ContinuousClock.Instant?
        /// Until when the lens moves after AfDrive or MfDrive, and what DeviceReady answers once it has: OK, or why it
        /// did not focus or move.
        var focusing: (until: ContinuousClock.Instant, answer: PTPResponseCode)?
        /// Where the lens is focused, in steps of Nikon's focus motor from the closest distance (0) to infinity
        /// (``focusTravel``).
        var focusPosition = SimulatedCamera.focusTravel / 2
        /// The centre of a Nikon's autofocus area, in pixels of the whole picture, as ChangeAfArea last moved it: the
        /// middle until moved.
        var afAreaCenter: LiveViewPoint?
        /// What a Canon holds of its own.
        var canon = CanonEOSState()
        /// Events a Nikon holds for CheckEvent, oldest first.
        var heldEvents: [PTPEvent] = []
        /// How many more requests a strict camera answers DeviceBusy while it wakes, after its session opened.
        var waking = 0
        /// What a Sony holds of its own.
        var sony = SonyState()
        /// What a Fujifilm holds of its own.
        var fuji = FujiState()
    }

    /// The most exposures the camera remembers; older ones are forgotten.
    static let maximumExposures = 1000

    /// The most events a camera holds for CheckEvent; older ones are dropped, as a camera's queue overflows.
    static let maximumHeldEvents = 256

    let configuration: CameraSimulator.Configuration
    let deviceInfo: PTPDeviceInfo
    let state: Locked<State>
    /// How many requests of each operation the camera has answered, by code.
    let requestsAnswered = Locked<[UInt16: Int]>([:])
    /// Encodes captures, thumbnails and live view frames.
    let encoder = JPEGEncoder()
    /// When the camera was made; the scene's moving marker counts from here.
    let epoch = ContinuousClock.now

    /// The steps of the focus motor from the closest distance to infinity.
    static let focusTravel = 10_000

    /// The header in front of each live view JPEG.
    static let liveViewHeaderLength = 384

    init(configuration: CameraSimulator.Configuration) throws {
        self.configuration = configuration
        var deviceInfo = configuration.identity.deviceInfo(model: configuration.model)
        if configuration.identity == .nikon && configuration.nikonEventsByCheckEvent {
            deviceInfo.operationsSupported.append(.nikonCheckEvent)
        }
        if configuration.identity == .fuji && configuration.emptyDeviceInfo {
            deviceInfo.operationsSupported.append(.fujiGetDeviceInfo)
        }
        if !configuration.reportsCaptureComplete {
            deviceInfo.eventsSupported.removeAll { $0 == .captureComplete }
        }
        if configuration.speaksMTP {
            let extensions = [deviceInfo.vendorExtensionDescription, "microsoft.com: 1.0"].filter { !$0.isEmpty }
            deviceInfo.vendorExtensionDescription = extensions.joined(separator: "; ")
            deviceInfo.operationsSupported += [.getObjectPropValue, .getObjectPropList]
        }
        configuration.deviceInfoChanges?(&deviceInfo)
        self.deviceInfo = deviceInfo
        let date = PTPDate.string(secondsSince1970: CameraClock.now())
        var initial = State(
            storage: SimulatedStorage(
                folderName: configuration.identity.folderName, volumeLabel: configuration.identity.volumeLabel,
                filePrefix: configuration.identity.filePrefix, date: date))
        let properties =
            Self.standardProperties(imageSizes: Self.imageSizes, battery: 100)
            + configuration.identity.vendorProperties
        for var property in properties {
            // A Sony describes such a property without its values, and still moves it through them.
            if configuration.formlessProperties.contains(property.code), !configuration.identity.isSony {
                property.form = .none
            }
            initial.properties[property.code] = property
        }
        if configuration.identity == .nikon, case .enumeration(let speeds) = initial.properties[.exposureTime]?.form {
            // A Nikon offers bulb after its longest timed speed.
            initial.properties[.exposureTime]?.form = .enumeration(speeds + [.uint32(Self.nikonBulb)])
        }
        _ = Self.applyExposureProgram(&initial, sceneEV: configuration.sceneEV)
        if !configuration.canonEOSCardDestination {
            (initial.canon.captureDestination, initial.canon.captureDestinations) = (4, [4])
        }
        state = Locked(initial)
        for index in 0..<configuration.sampleImageCount {
            let image = try makeImage(
                lighting: lighting(), size: Self.dimensions(of: Self.imageSizes.last!), time: Double(index) * 1.7)
            _ = state.withLock { state in
                let name = state.storage.nextFilename(extension: "JPG")
                return state.storage.addFile(
                    named: name, format: .exifJPEG, data: image.jpeg, thumbnail: image.thumbnail,
                    imageSize: image.size, date: date)
            }
        }
    }

    /// The image sizes the ImageSize property offers; the last is the default.
    static let imageSizes = ["6000x4000", "4496x3000", "3008x2000"]

    /// The dimensions an ImageSize value names.
    static func dimensions(of text: String) -> Dimensions {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? Dimensions(width: parts[0], height: parts[1]) : Dimensions(width: 3008, height: 2000)
    }

    /// Answers a request.
    func expectsDataOut(_ code: UInt16) -> Bool {
        SimulatorUSBFunction.dataOutOperations.contains(code)
            || (configuration.identity.isSony && Self.sonyDataOutOperations.contains(code))
    }

    func sessionBegan(in pump: SimulatorEventPump) {
        if deviceInfo.supports(.nikonCheckEvent) {
            pump.deliver(to: { [self] events in
                state.withLock { state in
                    state.heldEvents += events
                    state.heldEvents.removeFirst(max(0, state.heldEvents.count - Self.maximumHeldEvents))
                }
            })
        }
        pump.repeatEvery(configuration.batteryDrainInterval) { [self] in drainBattery() }
    }

    /// The events held for CheckEvent, as its answer: a count, then each event's code and first parameter.
    private func checkEvent() -> SimulatorReply {
        let events = state.withLock { state in
            defer { state.heldEvents = [] }
            return state.heldEvents
        }
        var writer = PTPDataWriter(capacity: 2 + 6 * events.count)
        writer.append(UInt16(events.count))
        for event in events {
            writer.append(event.code.rawValue)
            writer.append(event.parameters.first ?? 0)
        }
        return .data(writer.bytes)
    }

    func respond(to request: SimulatorRequest, in context: any SimulatorSessionContext) -> SimulatorReply {
        requestsAnswered.withLock { $0[request.code.rawValue, default: 0] += 1 }
        guard deviceInfo.supports(request.code), !configuration.refusedOperations.contains(request.code) else {
            return SimulatorReply(code: .operationNotSupported)
        }
        // A strict camera is busy for a moment after its session opens, as real bodies are while they wake.
        let waking = state.withLock { state in
            defer { state.waking = max(0, state.waking - 1) }
            return state.openSessionID != nil && state.waking > 0
        }
        if waking && request.code != .closeSession {
            configuration.log?("busy while waking: \(request.code)")
            return SimulatorReply(code: .deviceBusy)
        }
        switch request.code {
        case .getDeviceInfo:
            return (try? deviceInfo.encoded()).map(SimulatorReply.data) ?? SimulatorReply(code: .generalError)
        case .openSession:
            return openSession(request)
        default:
            break
        }
        guard state.withLock({ $0.openSessionID != nil }) else { return SimulatorReply(code: .sessionNotOpen) }
        if configuration.identity == .fuji {
            var reply = respondToFuji(request, in: context) ?? respondAsAnyCamera(request, in: context)
            reply.events = state.withLock { reported(reply.events, in: &$0) }
            return reply
        }
        return respondAsAnyCamera(request, in: context)
    }

    /// Answers a request in the session as any camera does, with the vendor operations of Nikon, Canon and Sony.
    private func respondAsAnyCamera(
        _ request: SimulatorRequest, in context: any SimulatorSessionContext
    ) -> SimulatorReply {
        switch request.code {
        case .closeSession:
            endSession()
            return .ok
        // Sony's SDIO codes are Nikon's live view codes: a Sony answers them first.
        case _ where configuration.identity.isSony:
            return respondToSony(request, in: context) ?? respondToStorage(request)
        case .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .resetDevicePropValue:
            return respondToProperty(request)
        case .initiateCapture:
            return initiateCapture(request, in: context)
        case .powerDown:
            // The simulator stays up for the next client; a camera would turn off once the session closes.
            configuration.log?("power down: the camera turns off")
            return .ok
        case .nikonCheckEvent:
            return checkEvent()
        case .nikonChangeCameraMode, .nikonInitiateCaptureRecInMedia, .nikonTerminateCapture:
            return respondToNikonCapture(request, in: context)
        case .nikonStartLiveView, .nikonEndLiveView, .nikonGetLiveViewImage, .nikonDeviceReady,
            .nikonStartMovieRecording, .nikonEndMovieRecording, .nikonAfDrive, .nikonAfDriveCancel, .nikonMfDrive,
            .nikonChangeAfArea:
            return respondToLiveView(request, in: context)
        case .canonEOSGetObjectInfoEx:
            return respondToStorage(request)
        case _ where configuration.identity == .canon && (0x9100...0x91FF).contains(request.code.rawValue):
            return respondToCanonEOS(request, in: context)
        default:
            return respondToStorage(request)
        }
    }

    private func openSession(_ request: SimulatorRequest) -> SimulatorReply {
        guard let id = request.parameter(0), id != 0 else { return SimulatorReply(code: .invalidParameter) }
        return state.withLock { state in
            if let open = state.openSessionID {
                return SimulatorReply(code: .sessionAlreadyOpen, parameters: [open])
            }
            state.openSessionID = id
            state.waking = configuration.strict ? 1 : 0
            return .ok
        }
    }

    /// Ends the PTP session: a capture in progress is abandoned and live view stops, unless a movie is being
    /// recorded, which goes on until a client ends it, as on a camera that records to its card on its own.
    func endSession() {
        state.withLock { state in
            state.openSessionID = nil
            state.isCapturing = false
            state.heldExposure = nil
            state.focusing = nil
            state.canon.eventMode = 0
            state.canon.reported = [:]
            state.canon.pending = []
            state.canon.halfPressFocused = nil
            state.canon.evfOutput &= ~2
            endSonySession(&state)
            if state.recordingSince == nil {
                state.liveView = nil
            }
            _ = Self.updateLiveViewProperties(&state)
        }
    }

    /// The lighting the current settings give the scene.
    func lighting() -> TestScene.Lighting {
        state.withLock { Self.lighting(of: $0, sceneEV: configuration.sceneEV) }
    }

    static func lighting(of state: State, sceneEV: Double) -> TestScene.Lighting {
        let settings = exposureSettings(of: state, sceneEV: sceneEV)
        let whiteBalance = state.properties[.whiteBalance]?.value.integerValue ?? 2
        return TestScene.Lighting(
            exposure: settings.exposureFactor(sceneEV: sceneEV), gains: gains(forWhiteBalance: UInt16(whiteBalance)))
    }

    /// A rendered image: the JPEG, its thumbnail and their sizes.
    struct Image {
        var jpeg: [UInt8]
        var thumbnail: [UInt8]
        var size: (width: Int, height: Int, thumbWidth: Int, thumbHeight: Int)
    }

    /// The bounds thumbnails fit in, as cameras make them.
    static let thumbnailBounds = Dimensions(width: 160, height: 120)

    /// Renders the scene at `size` and encodes it with a thumbnail reduced from the same picture.
    func makeImage(lighting: TestScene.Lighting, size: Dimensions, time: Double) throws -> Image {
        let picture = try TestScene.render(width: size.width, height: size.height, lighting: lighting, time: time)
        let thumbnail = size.fitted(into: Self.thumbnailBounds)
        return Image(
            jpeg: try encoder.encode(picture, quality: 92),
            thumbnail: try encoder.encodeThumbnail(of: picture, fittingInto: Self.thumbnailBounds, quality: 75),
            size: (size.width, size.height, thumbnail.width, thumbnail.height))
    }

    /// Renders and encodes a thumbnail-sized picture of the scene, for files the camera did not render itself.
    func makeThumbnail(lighting: TestScene.Lighting) throws -> (jpeg: [UInt8], width: Int, height: Int) {
        let size = Self.dimensions(of: Self.imageSizes.last!).fitted(into: Self.thumbnailBounds)
        let picture = try TestScene.render(width: size.width, height: size.height, lighting: lighting, time: 0)
        return (try encoder.encode(picture, quality: 75), size.width, size.height)
    }

    /// The camera clock's current date.
    func currentDate() -> String {
        PTPDate.string(secondsSince1970: CameraClock.now() + state.withLock { $0.clockOffset })
    }
}
