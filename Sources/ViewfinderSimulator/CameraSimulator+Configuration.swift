import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

extension CameraSimulator {
    /// Who the simulated camera says it is, which decides the operations and properties it offers.
    public enum Identity: String, Sendable, CaseIterable {
        /// A plain PTP camera: standard operations and properties only.
        case generic
        /// A Nikon DSLR (vendor extension 0x0A): adds live view, DeviceReady, movie recording, Nikon's live view
        /// properties and the drive mode (StillCaptureMode).
        case nikon
        /// A Canon EOS DSLR (vendor extension 0x0B): remote mode, events read with GetEvent, properties in Canon's
        /// codes set with SetDevicePropValueEx, RemoteRelease and RemoteReleaseOn, EVF live view, pictures to the
        /// card or to the computer; no standard property or capture operation.
        case canon
        /// A Sony α7 IV-like body (vendor extension 0x11, "Sony PTP Extensions"): the SDIO handshake with protocol
        /// 3.00, every property in GetAllExtDevicePropInfo, values set directly with SetExtDevicePropValue (and the
        /// absolute ISO, shutter and exposure compensation codes libgphoto2 2.5.30 looks for), the shutter buttons,
        /// live view and pictures in memory at fixed objects, the movie button.
        case sony
        /// A Sony α7 III-like body: the same with protocol 2.00, whose ISO, shutter speed, f-number and exposure
        /// compensation move only by notches with ControlDevice.
        case sonyStepping = "sony-stepping"
        /// A Fujifilm X-T4-like body (vendor extension 6 with Fujifilm's description, as over USB): ISO with three
        /// automatic settings and exposure times in Fujifilm's encodings, film simulations, the shutter through
        /// CameraAction, remote capture and its live view; over the network it speaks Fujifilm's WiFi protocol
        /// (the init on its port, events and the JPEG stream on the next two) rather than PTP/IP.
        case fuji

        /// The manufacturer's name.
        public var manufacturer: String {
            switch self {
            case .generic: "Viewfinder"
            case .nikon: "Nikon Corporation"
            case .canon: "Canon Inc."
            case .sony, .sonyStepping: "Sony Corporation"
            case .fuji: "FUJIFILM"
            }
        }

        /// The model's name unless one is configured.
        public var defaultModel: String {
            switch self {
            case .generic: "Simulated Camera"
            case .nikon: "Simulated DSLR"
            case .canon: "Canon EOS 5D Mark IV"
            case .sony: "ILCE-7M4"
            case .sonyStepping: "ILCE-7M3"
            case .fuji: "X-T4"
            }
        }

        var folderName: String {
            switch self {
            case .generic: "100VFNDR"
            case .nikon: "100NIKON"
            case .canon: "100CANON"
            case .sony, .sonyStepping: "100MSDCF"
            case .fuji: "100_FUJI"
            }
        }

        /// How the camera's file names begin, before their four-digit number.
        var filePrefix: String {
            switch self {
            case .canon: "IMG_"
            case .sony, .sonyStepping: "DSC0"
            case .fuji: "DSCF"
            default: "DSC_"
            }
        }

        var volumeLabel: String {
            switch self {
            case .generic: "VIEWFINDER"
            case .nikon: "NIKON"
            case .canon: "EOS_DIGITAL"
            case .sony, .sonyStepping: "SONY"
            case .fuji: "FUJIFILM"
            }
        }

        /// Whether the identity is one of Sony's bodies.
        var isSony: Bool {
            self == .sony || self == .sonyStepping
        }

        /// The DeviceInfo dataset of this identity.
        func deviceInfo(model: String?) -> PTPDeviceInfo {
            if self == .canon { return SimulatedCamera.canonEOSDeviceInfo(model: model ?? defaultModel) }
            if isSony { return SimulatedCamera.sonyDeviceInfo(of: self, model: model ?? defaultModel) }
            if self == .fuji { return SimulatedCamera.fujiDeviceInfo(model: model ?? defaultModel) }
            var operations: [PTPOperationCode] = [
                .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getNumObjects,
                .getObjectHandles, .getObjectInfo, .getObject, .getThumb, .deleteObject, .initiateCapture,
                .getDevicePropDesc, .getDevicePropValue, .setDevicePropValue, .resetDevicePropValue, .getPartialObject,
            ]
            var events: [PTPEventCode] = [
                .objectAdded, .objectRemoved, .devicePropChanged, .storageInfoChanged, .captureComplete,
            ]
            var properties: [PTPDevicePropertyCode] = [
                .batteryLevel, .imageSize, .whiteBalance, .fNumber, .focalLength, .focusMode, .exposureMeteringMode,
                .exposureTime, .exposureProgramMode, .exposureIndex, .exposureBiasCompensation, .dateTime,
            ]
            if self == .nikon {
                operations += [
                    .nikonAfDrive, .nikonDeviceReady, .nikonStartLiveView, .nikonEndLiveView, .nikonGetLiveViewImage,
                    .nikonStartMovieRecording, .nikonEndMovieRecording, .nikonMfDrive, .nikonAfDriveCancel,
                    .nikonChangeCameraMode, .nikonInitiateCaptureRecInMedia, .nikonTerminateCapture, .powerDown,
                    .nikonChangeAfArea,
                ]
                events.append(.nikonMovieRecordComplete)
                properties += vendorProperties.map(\.code)
            }
            return PTPDeviceInfo(
                standardVersion: 100, vendorExtensionID: self == .nikon ? 0x0A : 0, vendorExtensionVersion: 100,
                vendorExtensionDescription: self == .nikon ? "Nikon extensions" : "",
                operationsSupported: operations, eventsSupported: events, devicePropertiesSupported: properties,
                captureFormats: [.exifJPEG], imageFormats: [.exifJPEG, .association, .undefined],
                manufacturer: manufacturer, model: model ?? defaultModel, deviceVersion: "1.0",
                serialNumber: self == .nikon ? "NK0000001" : "VF0000001")
        }

        /// The vendor properties of this identity.
        var vendorProperties: [SimulatedProperty] {
            if self == .canon {
                return [.enumeration(.stillCaptureMode, SimulatedCamera.canonEOSDriveModes, current: .uint16(1))]
            }
            if isSony {
                return [.enumeration(.stillCaptureMode, SimulatedCamera.sonyDriveModes, current: .uint16(1))]
            }
            if self == .fuji { return SimulatedCamera.fujiProperties }
            guard self == .nikon else { return [] }
            return [
                .enumeration(.nikonLiveViewStatus, [.uint8(0), .uint8(1)], current: .uint8(0), isSettable: false),
                SimulatedProperty(
                    code: .nikonLiveViewProhibitCondition, dataType: .uint32, factoryDefault: .uint32(0),
                    value: .uint32(0), form: .none, isSettable: false),
                SimulatedProperty(
                    code: .nikonMovieRecordingProhibitCondition, dataType: .uint32, factoryDefault: .uint32(0),
                    value: .uint32(0), form: .none, isSettable: false),
                .enumeration(.nikonRecordingMedia, [.uint8(0), .uint8(1)], current: .uint8(0)),
                // Single frame, continuous high, time-lapse, then Nikon's continuous low and self-timer.
                .enumeration(.stillCaptureMode, [1, 2, 3, 0x8010, 0x8011].map { .uint16($0) }, current: .uint16(1)),
                // JPEG basic, normal and fine, NEF, and NEF with each JPEG; JPEG fine when the camera starts.
                .enumeration(.compressionSetting, [0, 1, 2, 4, 5, 6, 7].map { .uint8($0) }, current: .uint8(2)),
                // An AF-S Nikkor 35mm 1:1.8G DX, as libgphoto2 names LensID 159, and the exposure indicator a third
                // of a stop under.
                SimulatedProperty(
                    code: .nikonLensID, dataType: .uint8, factoryDefault: .uint8(159), value: .uint8(159), form: .none,
                    isSettable: false),
                SimulatedProperty(
                    code: .nikonLightMeter, dataType: .int8, factoryDefault: .int8(-4), value: .int8(-4),
                    form: .range(minimum: .int8(-60), maximum: .int8(60), step: .int8(1)), isSettable: false),
                // Movies of 320x216, 640x424 and 1280x720, libgphoto2's sizes for bodies without a table of their own.
                .enumeration(.nikonMovieScreenSize, [0, 1, 2].map { .uint8($0) }, current: .uint8(2)),
                // The whole picture, then 25%, 50%, 100% and 200%, as most Nikon bodies name them.
                .enumeration(.nikonLiveViewImageZoomRatio, [0, 2, 4, 6, 7].map { .uint8($0) }, current: .uint8(0)),
            ]
        }
    }

    /// How the simulated camera presents itself and behaves.
    public struct Configuration: Sendable {
        /// Who the camera says it is.
        public var identity: Identity
        /// The model name; the identity's default when `nil`.
        public var model: String?
        /// The address to listen on; loopback unless told otherwise.
        public var bindAddress: String
        /// The TCP port; 0 picks a free one.
        public var port: UInt16
        /// The scene's brightness as EV100; 12 is an overcast day.
        public var sceneEV: Double
        /// How many images are on the card when the simulator starts.
        public var sampleImageCount: Int
        /// The size of live view frames.
        public var liveViewSize: Dimensions
        /// How many new live view frames appear per second.
        public var liveViewFrameRate: Int
        /// A picture for live view to show instead of the test scene, such as a label with a barcode, at its own
        /// size; `nil` (the default) shows the test scene at ``liveViewSize``.
        public var liveViewPicture: PixelBuffer?
        /// How long DeviceReady answers DeviceBusy after live view starts.
        public var liveViewStartupDelay: Duration
        /// How often the battery loses one percent while a client is connected.
        public var batteryDrainInterval: Duration
        /// A directory to write a copy of every captured image to, so a download can be compared with it.
        public var captureArchiveDirectory: String?
        /// The size of the Data packets of data-in phases.
        public var dataChunkSize: Int
        /// The longest wait for a client while sending or receiving a packet.
        public var replyTimeout: Duration
        /// How long a session may stay without a request before the simulator ends it.
        public var idleTimeout: Duration
        /// How many connections may be opening at once (connected, their first packet not yet read); more are
        /// refused at once with an InitFail packet that says the camera is busy, so a flood of connections costs
        /// neither threads nor memory.
        public var maximumOpeningConnections: Int
        /// Receives one line per notable thing that happens: connections, refusals, captures, errors.
        public var log: (@Sendable (String) -> Void)?
        /// Whether autofocus finds focus, as it does not on a blank wall: when `false`, a Nikon's AfDrive ends in
        /// OutOfFocus and a Canon's release with autofocus takes no picture (RemoteRelease answers 1).
        public var focusSucceeds = true
        /// Properties described without a form, which in ISO 15740 means any value of the property's type; none by
        /// default.
        ///
        /// Some cameras describe exposure compensation so. A Sony describes them without their values in
        /// GetAllExtDevicePropInfo, as bodies that move them only by notches do, and still moves them through its
        /// values.
        public var formlessProperties: Set<PTPDevicePropertyCode> = []
        /// Whether a Canon offers its card as a capture destination; without it the camera lists only the computer,
        /// and every picture waits in the camera's memory as a transfer request until the computer has read it and
        /// says so with TransferComplete.
        public var canonEOSCardDestination = true
        /// Whether a Sony describes its properties in the two-list layout of bodies from 2020 on (the values that
        /// can be set now, then every value), which libgphoto2 before 2.5.32 cannot read; the one-list layout by
        /// default.
        public var sonyTwoListRecords = false
        /// How long a Sony takes to move an exposure setting after a request for notches, before it reports the new
        /// value.
        public var sonyNotchDelay = Duration.milliseconds(50)
        /// How far a Sony's notches go, by the camera model's property and in its raw values; none by default.
        ///
        /// With `[.exposureIndex: 100...3200]`, ISO stops moving at 3200 while the camera still lists more, as a body
        /// whose settings cap what it reaches does.
        public var sonyNotchLimits: [PTPDevicePropertyCode: ClosedRange<Int64>] = [:]
        /// How the camera announces itself on the network (none by default); announcing needs a
        /// ``bindAddress`` on a network interface, or `0.0.0.0` to announce on the first that takes part in
        /// multicast.
        public var announcements: Announcements = []
        /// The clients the camera has been paired with, by their GUID: any other is refused with an InitFail packet
        /// that says the camera rejects it, as a camera does until it is paired on its own menu; `nil` (the
        /// default) admits every client.
        public var pairedClients: Set<PTPIPGUID>?
        /// Whether the camera behaves as real bodies do, refusing the kindnesses a simulator tends to grow.
        ///
        /// `false` by default. See <doc:StrictMode>: a strict camera gives a client that arrives while the last session ends no
        /// grace, answers no probes, stays busy a moment after a connection that closed without a handshake (it took
        /// it as its client), is busy for the first request after a session opens (it is waking), sends no
        /// CaptureComplete, and as a Canon refuses RemoteRelease.
        public var strict = false
        /// Whether the camera reports a finished capture with CaptureComplete, and lists the event; `true` by default.
        ///
        /// Some real cameras send the new picture's ObjectAdded alone.
        public var sendsCaptureComplete = true
        /// Whether a Nikon holds its events for the client to ask for with CheckEvent (0x90C7), as Nikon bodies over
        /// USB do, instead of sending them on the event connection; `false` by default.
        public var nikonEventsByCheckEvent = false
        /// How long the camera's user takes to accept a client that is not among ``pairedClients``; `nil` (the
        /// default) refuses such a client at once.
        ///
        /// A camera that asks on its screen (as Canon, Nikon and Sony bodies do over WiFi) leaves the handshake
        /// unanswered until its user accepts, and remembers the client from then on. ``CameraSimulator/confirmPairing()``
        /// and ``CameraSimulator/declinePairing()`` answer for the user sooner; with a long prompt, they are the only
        /// answer.
        public var pairingPrompt: Duration?
        /// Whether the camera speaks MTP besides its identity's own extension, as many cameras do: its DeviceInfo
        /// names `microsoft.com` and lists GetObjectPropValue, for a file's 64-bit size, and GetObjectPropList, for
        /// a folder's listing in one request; `false` by default.
        public var speaksMTP = false
        /// Operations the camera lists in its DeviceInfo but refuses with OperationNotSupported, as cameras whose
        /// DeviceInfo promises more than they do; none by default.
        public var refusedOperations: Set<PTPOperationCode> = []
        /// Whether a Fujifilm answers GetDeviceInfo over its WiFi protocol with no data, as libgphoto2 says a real X-T4
        /// does, and describes its properties in one answer to Fuji GetDeviceInfo (0x902B) instead: a count, then
        /// each property's size and description, as GetDevicePropDesc describes it; `false` by default.
        public var emptyDeviceInfo = false
        /// Changes what GetDeviceInfo says after the identity has filled it in, such as another vendor's extension
        /// and operation codes, for testing how a client treats cameras the simulator does not otherwise play.
        public var deviceInfoChanges: (@Sendable (inout PTPDeviceInfo) -> Void)?

        /// Whether captures end with CaptureComplete: the camera sends it unless it is strict or told not to.
        var reportsCaptureComplete: Bool { sendsCaptureComplete && !strict }

        /// Creates a configuration.
        public init(
            identity: Identity = .generic, model: String? = nil, bindAddress: String = "127.0.0.1",
            port: UInt16 = 15740, sceneEV: Double = 12, sampleImageCount: Int = 2,
            liveViewSize: Dimensions = Dimensions(width: 640, height: 424), liveViewFrameRate: Int = 30,
            liveViewStartupDelay: Duration = .milliseconds(50), batteryDrainInterval: Duration = .seconds(60),
            captureArchiveDirectory: String? = nil, dataChunkSize: Int = 1 << 22, replyTimeout: Duration = .seconds(5),
            idleTimeout: Duration = .seconds(600), maximumOpeningConnections: Int = 4,
            log: (@Sendable (String) -> Void)? = nil
        ) {
            self.identity = identity
            self.model = model
            self.bindAddress = bindAddress
            self.port = port
            self.sceneEV = sceneEV
            self.sampleImageCount = sampleImageCount
            self.liveViewSize = liveViewSize
            self.liveViewFrameRate = liveViewFrameRate
            self.liveViewStartupDelay = liveViewStartupDelay
            self.batteryDrainInterval = batteryDrainInterval
            self.captureArchiveDirectory = captureArchiveDirectory
            self.dataChunkSize = dataChunkSize
            self.replyTimeout = replyTimeout
            self.idleTimeout = idleTimeout
            self.maximumOpeningConnections = max(1, maximumOpeningConnections)
            self.log = log
        }
    }
}
