import ViewfinderCore
import ViewfinderSystem

/// Fujifilm's PTP (vendor extension 0x0E), over Fujifilm's WiFi protocol and over USB: the remote-shooting steps at
/// connect, Fujifilm's value tables, the shutter through CameraAction, live view from the camera's JPEG stream or
/// its live view object, changes made on the camera from CurrentState (the camera sends no DevicePropChanged), and
/// the switch between remote shooting and the camera's files.
///
/// Over WiFi (a transport that is ``FujiWiFiChannels``), the dialect does what libgphoto2's "Fuji X (WLAN)" does:
/// ClientState to remote (5), RemoteVersion read and echoed back, InitiateOpenCapture, then the event connection,
/// which the camera opens only then. Where the camera lists Fuji GetDeviceInfo (0x902B), as the DeviceInfo that stands in
/// for the empty one a real X-T4 sends over WiFi does, its answer describes the properties all at once, in place of a
/// GetDevicePropDesc for each. A Fujifilm body offers remote shooting or its files, one at a time: a file
/// operation while it shoots remotely switches it to its pictures (CameraState 6, ClientState 11,
/// RemoteGetObjectVersion 5, as libfudge does), and a picture or live view switches it back (ClientState 5); a
/// camera that refuses the switch says so. Over USB, where a tethered body shows its pictures in its own memory,
/// PriorityMode goes to the computer at connect and back to the camera at close, as libgphoto2 sets it.
final class FujiDialect: PTPDialect {
    static let name = "Fujifilm"

    /// What the camera does for its client, one at a time over WiFi.
    enum Mode: Sendable {
        /// Remote shooting: pictures, live view and settings.
        case remoteShooting
        /// The camera's pictures.
        case fileAccess
    }

    struct State {
        var mode = Mode.remoteShooting
        /// The new files reported, so that an event and the dialect's own look report each once.
        var reported: Set<UInt32> = []
        var ended: ViewfinderError?
        /// Whether remote capture has started, which USB live view needs.
        var openCapture = false
    }

    let connection: PTPConnection
    let properties: StandardProperties
    let state = Locked(State())
    /// Reads CurrentState, the camera's list of changed properties, while the connection lasts.
    let poller = PTPEventPoller()
    /// The WiFi transport's extra connections, or `nil` over USB.
    let channels: (any FujiWiFiChannels)?

    private init(connection: PTPConnection) {
        self.connection = connection
        properties = StandardProperties(connection: connection, bindings: FujiPropertyValues.bindings)
        channels = connection.session.transport as? any FujiWiFiChannels
    }

    /// A Fujifilm: vendor extension 0x0E, or 6 (as bodies say over USB) with Fujifilm's description or maker.
    static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool {
        switch deviceInfo.vendorExtensionID {
        case 0x0E: true
        case 0x06, 0xFFFF_FFFF, 0:
            deviceInfo.vendorExtensionDescription.lowercased().contains("fujifilm.co.jp")
                || deviceInfo.manufacturer.lowercased().hasPrefix("fujifilm")
        default: false
        }
    }

    /// Starts remote shooting over WiFi, or gives the computer priority over USB, then reads every property.
    static func open(_ connection: PTPConnection) async throws -> FujiDialect {
        let dialect = FujiDialect(connection: connection)
        let session = connection.session
        if let channels = dialect.channels {
            try await refusalIsNotFatal {
                try await session.setPropertyValue(.fujiClientState, to: FujiCodes.Client.remote.value)
            }
            try await refusalIsNotFatal {
                let version = try await session.propertyValue(.fujiRemoteVersion, of: .uint32)
                try await session.setPropertyValue(.fujiRemoteVersion, to: version)
            }
            _ = try await session.transaction(.initiateOpenCapture, parameters: [0, 0])
            dialect.state.withLock { $0.openCapture = true }
            try await channels.openEvents()
        } else if connection.deviceInfo.supports(.fujiPriorityMode) {
            try await refusalIsNotFatal { try await session.setPropertyValue(.fujiPCMode, to: .uint16(1)) }
            try await refusalIsNotFatal {
                try await session.setPropertyValue(.fujiPriorityMode, to: FujiCodes.Priority.usb.value)
            }
        }
        try await dialect.properties.readAll(describedBy: try await dialect.describedProperties())
        try await dialect.refreshBattery()
        if dialect.properties.has(.fujiCurrentState) {
            dialect.poller.start(on: session, asking: changedProperties) { [weak dialect] event in
                await dialect?.handle(event)
            }
        }
        return dialect
    }

    /// Every property's description from Fuji GetDeviceInfo (0x902B) where the camera lists the operation (a body that
    /// sends an empty DeviceInfo over WiFi is taken to), as libgphoto2 reads them; none when the camera refuses it.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for an answer that is not a list of descriptions, such as one
    ///   shorter than 8 bytes, and the errors that end the session.
    func describedProperties() async throws -> [PTPDevicePropertyDescription] {
        guard connection.deviceInfo.supports(.fujiGetDeviceInfo) else { return [] }
        let data: [UInt8]
        do {
            data = try await connection.session.dataset(.fujiGetDeviceInfo)
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            return []
        }
        return try FujiPropertyValues.propertyDescriptions(inDeviceInfo: data)
    }

    /// Reads CurrentState (0xD212), the properties changed on the camera since it was last read, on the command thread.
    ///
    /// libgphoto2 reads it where it waits for the camera; each property listed is the DevicePropChanged event a
    /// camera of another make would send.
    static func changedProperties(on core: PTPSessionCore) throws -> [PTPEvent] {
        let code = UInt32(PTPDevicePropertyCode.fujiCurrentState.rawValue)
        let data = try core.dataset(.getDevicePropValue, parameters: [code], cancellation: PTPCancellationFlag())
        return try FujiPropertyValues.changedProperties(inCurrentState: data).map {
            PTPEvent(code: .devicePropChanged, transactionID: 0xFFFF_FFFF, parameters: [UInt32($0.rawValue)])
        }
    }

    var functionality: CameraFunctionality {
        var functionality = StandardDialect.standardFunctionality(of: connection.deviceInfo)
        if channels != nil || connection.deviceInfo.supports(.initiateOpenCapture) {
            functionality.insert(.liveView)
        }
        return functionality
    }

    /// Reads the battery's charge from BatteryInfo2 where the camera lists it and not the standard BatteryLevel.
    func refreshBattery() async throws {
        guard properties.has(.fujiBatteryInfo), !properties.has(.batteryLevel) else { return }
        let value: PTPValue
        do {
            value = try await connection.session.propertyValue(.fujiBatteryInfo, of: .string)
        } catch let error as ViewfinderError where error.code == .protocolFailure || error.code == .malformedData {
            return
        }
        guard case .string(let text) = value, let percent = FujiPropertyValues.batteryPercent(text) else { return }
        let level = TypedCameraPropertyValue(
            BatteryLevelValue(clampingPercent: percent), rawValue: .integer(Int64(percent)))
        connection.update(.batteryLevel, currentValue: level, validSettableValues: [])
    }

    func handle(_ event: PTPEvent) async {
        if event.code == .objectAdded, let handle = event.parameters.first {
            await report(handle)
            try? await properties.refreshShotsAvailable()
            return
        }
        await StandardDialect.handleStandard(event, connection: connection, properties: properties)
    }

    func eventsWereMissed() async {
        try? await properties.readAll()
    }

    /// Reports a new file once, however many ways it was seen.
    func report(_ handle: UInt32) async {
        guard state.withLock({ $0.reported.insert(handle).inserted }) else { return }
        await connection.reportNewObject(handle)
    }

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await properties.setRawValue(rawValue, forPropertyNamed: name)
    }

    // MARK: Remote shooting and files

    /// Switches a camera shooting remotely over WiFi to its pictures; over USB, the pictures are there already.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera refuses the switch.
    func prepareFileAccess() async throws {
        guard channels != nil, state.withLock({ $0.mode }) == .remoteShooting else { return }
        let session = connection.session
        do {
            try await session.setPropertyValue(.fujiCameraState, to: FujiCodes.Client.remoteAccess.value)
            try await session.setPropertyValue(.fujiClientState, to: FujiCodes.Client.remoteImageView.value)
            try await session.setPropertyValue(
                .fujiRemoteGetObjectVersion, to: .uint32(FujiCodes.remoteGetObjectVersion))
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                "\(connection.model) did not switch from remote shooting to its pictures (\(error.message)); choose "
                    + "the camera's image transfer on its Wi-Fi menu to reach its files",
                responseCode: error.responseCode)
        }
        state.withLock { $0.mode = .fileAccess }
    }

    /// Switches a camera showing its pictures over WiFi back to remote shooting.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when the camera refuses the switch.
    func enterRemoteShooting() async throws {
        guard state.withLock({ $0.mode }) == .fileAccess else { return }
        do {
            try await connection.session.setPropertyValue(.fujiClientState, to: FujiCodes.Client.remote.value)
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                "\(connection.model) did not switch from its pictures back to remote shooting (\(error.message))",
                responseCode: error.responseCode)
        }
        state.withLock { $0.mode = .remoteShooting }
    }

    /// Over WiFi, remote shooting or the camera's files, whichever it serves now; `nil` over USB, where it serves both.
    var currentCommandCategories: CameraCommandCategories? {
        guard channels != nil else { return nil }
        return state.withLock { $0.mode } == .remoteShooting ? .stillsShooting : .fileAccess
    }

    /// Switches a camera over WiFi to its files, or back to remote shooting.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for its files with remote shooting, which it serves one at a
    ///   time; `ViewfinderError/Code/notAvailable` when the camera refuses the switch.
    func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        if categories.contains(.fileAccess) {
            guard categories == .fileAccess else {
                throw ViewfinderError(
                    .invalidArgument,
                    "\(connection.model) serves remote shooting or its files over Wi-Fi, one at a time, not both")
            }
            try await prepareFileAccess()
        } else {
            try await enterRemoteShooting()
        }
    }

    /// Stops reading CurrentState, and gives control back to the camera over USB, as libgphoto2 does at exit.
    func prepareToClose() async {
        await poller.stop()
        guard channels == nil, connection.deviceInfo.supports(.fujiPriorityMode) else { return }
        try? await connection.session.setPropertyValue(.fujiPriorityMode, to: FujiCodes.Priority.camera.value)
    }

    func connectionEnded(with error: ViewfinderError) {
        poller.cancel()
        state.withLock { $0.ended = error }
    }
}
