import ViewfinderCore
import ViewfinderSystem

/// Sony's PTP with its SDIO extensions (vendor extension 0x11), over PTP/IP ("PC Remote" over WiFi) and USB: the
/// SDIO handshake, every property in one GetAllExtDevicePropInfo answer, values set directly or by notches, the
/// shutter buttons S1 and S2, live view and pictures in the camera's memory at fixed objects, and the movie button.
///
/// At connect the dialect runs the handshake libgphoto2 runs: SDIOConnect phases 1 and 2, GetExtDeviceInfo (asking
/// for protocol 300; the camera answers with the version it speaks, and the codes of its properties and controls),
/// phase 3, then PriorityMode set to the computer. Over PTP/IP it sends the housekeeping operations 0x9280 and
/// 0x9281 the camera lists, without which some bodies list no files, and again before closing, so the camera ends
/// its side cleanly. Events are Sony's own: PropertyChanged has every property read again, ObjectAdded reports a
/// file.
///
/// Pairing over WiFi happens before any of this: the camera shows the computer's name and answers the PTP/IP
/// handshake only once its user accepts (`PTPIPTransport` says so when the wait runs out).
final class SonyDialect: PTPDialect {
    static let name = "Sony"

    struct State {
        var isCapturing = false
        var ended: ViewfinderError?
        /// Files the camera has reported added since the connection opened.
        var filesAdded = 0
    }

    let connection: PTPConnection
    let properties: SonyProperties
    let state = Locked(State())
    /// Whether the camera records a movie, as its MovieRecordingState last said.
    let isRecording: Locked<Bool>

    /// How many times GetExtDeviceInfo is asked while the camera answers it empty, as libgphoto2 asks.
    private static let extendedInfoTries = 20

    private init(connection: PTPConnection, extendedInfo: PTPSonyExtendedDeviceInfo?) {
        self.connection = connection
        let isRecording = Locked(false)
        self.isRecording = isRecording
        properties = SonyProperties(connection: connection, extendedInfo: extendedInfo) { changed in
            Self.followRecording(changed, isRecording: isRecording, connection: connection)
        }
    }

    /// A Sony that reports Sony's extension, or Microsoft's MTP extension (or none) with Sony as its maker, as Sony
    /// bodies do over PTP/IP, and has the SDIO operations; older bodies without them are standard PTP.
    static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool {
        let isSony =
            switch deviceInfo.vendorExtensionID {
            case 0x11: true
            case 0x06, 0xFFFF_FFFF, 0: deviceInfo.manufacturer.lowercased().hasPrefix("sony")
            default: false
            }
        return isSony && deviceInfo.supports(.sonySDIOConnect) && deviceInfo.supports(.sonyGetExtDeviceInfo)
    }

    /// Runs the SDIO handshake, sets PriorityMode, sends the housekeeping operations over PTP/IP, and reads every
    /// property.
    ///
    /// A step the camera refuses is passed over, as a camera whose session was left open by another program may
    /// refuse a phase it has done: without the extended information the dialect knows only what DeviceInfo lists
    /// and treats the camera as protocol 200.
    static func open(_ connection: PTPConnection) async throws -> SonyDialect {
        let dialect = SonyDialect(connection: connection, extendedInfo: try await handshake(connection.session))
        let properties = dialect.properties
        if properties.lists(.sonyPriorityMode) {
            try await refusalIsNotFatal {
                try await properties.send(.sonySetExtDevicePropValue, .sonyPriorityMode, .int8(1))
            }
        }
        if dialect.housekeeps {
            try await dialect.housekeeping([2, 2, 0, 0], trailer: [1, 1])
        }
        if connection.deviceInfo.supports(.sonyGetAllExtDevicePropInfo) {
            try await properties.refresh()
        }
        return dialect
    }

    /// SDIOConnect phases 1 and 2, GetExtDeviceInfo (asked again while the camera answers it empty), phase 3.
    ///
    /// - Returns: What GetExtDeviceInfo said; `nil` when the camera refused it.
    private static func handshake(_ session: PTPSession) async throws -> PTPSonyExtendedDeviceInfo? {
        try await refusalIsNotFatal { try await session.transaction(.sonySDIOConnect, parameters: [1, 0, 0]) }
        try await refusalIsNotFatal { try await session.transaction(.sonySDIOConnect, parameters: [2, 0, 0]) }
        var extended: PTPSonyExtendedDeviceInfo?
        for _ in 0..<extendedInfoTries {
            var data: [UInt8] = []
            let answered = try await refusalIsNotFatal {
                data = try await session.dataset(
                    .sonyGetExtDeviceInfo, parameters: [UInt32(PTPSonyExtendedDeviceInfo.absoluteSettingVersion), 1])
            }
            guard answered else { break }
            if !data.isEmpty {
                extended = try PTPSonyExtendedDeviceInfo(decoding: data)
                break
            }
        }
        try await refusalIsNotFatal { try await session.transaction(.sonySDIOConnect, parameters: [3, 0, 0]) }
        return extended
    }

    /// Whether the housekeeping operations go to this camera: it lists both, and the transport is PTP/IP (whose
    /// connection is the session, unlike USB's), where libgphoto2 sends them.
    private var housekeeps: Bool {
        let info = connection.deviceInfo
        return info.supports(.sonyHousekeeping) && info.supports(.sonyHousekeepingResult)
            && !connection.session.transport.sessionsOutliveConnections
    }

    /// 0x9280(4) with `[u32 words][trailer]`, then 0x9281(4); the camera's refusal is passed over.
    private func housekeeping(_ words: [UInt32], trailer: [UInt8]) async throws {
        var writer = PTPDataWriter(capacity: 18)
        for word in words { writer.append(word) }
        writer.append(bytes: trailer)
        let session = connection.session
        try await Self.refusalIsNotFatal {
            try await session.transaction(.sonyHousekeeping, parameters: [4], sending: writer.bytes)
        }
        try await Self.refusalIsNotFatal { try await session.dataset(.sonyHousekeepingResult, parameters: [4]) }
    }

    var functionality: CameraFunctionality {
        let info = connection.deviceInfo
        var functionality = StandardDialect.standardFunctionality(of: info).intersection([.fileAccess, .fileDeletion])
        if info.supports(.sonySetExtDevicePropValue) || info.supports(.sonyControlDevice) {
            functionality.insert(.propertyControl)
        }
        guard info.supports(.sonyControlDevice) else { return functionality }
        if properties.lists(.sonyFullPress) {
            functionality.insert(.stillCapture)
        }
        if info.supports(.getObject) {
            functionality.insert(.liveView)
        }
        if properties.lists(.sonyMovieButton) {
            functionality.insert(.videoRecording)
        }
        return functionality
    }

    // MARK: Events

    /// PropertyChanged has every property read again; ObjectAdded reports the file.
    func handle(_ event: PTPEvent) async {
        switch event.code {
        case .sonyPropertyChanged, .devicePropChanged:
            try? await properties.refresh()
        case .sonyObjectAdded, .objectAdded:
            guard let handle = event.parameters.first else { return }
            state.withLock { $0.filesAdded += 1 }
            await connection.reportNewObject(handle)
        default:
            break
        }
    }

    /// Follows what changed in a read: the movie recording state, told to the camera's observers when it changes.
    private static func followRecording(
        _ changed: [PTPSonyProperty], isRecording: Locked<Bool>, connection: PTPConnection
    ) {
        guard let record = changed.first(where: { $0.code == .sonyMovieRecordingState }),
            let status = record.currentValue.integerValue
        else { return }
        let recording = status == 1
        let differs = isRecording.withLock { isRecording in
            defer { isRecording = recording }
            return isRecording != recording
        }
        guard differs else { return }
        if recording { connection.recordingStarted() } else { connection.recordingStopped() }
    }

    // MARK: Properties

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        do {
            try await properties.setRawValue(rawValue, forPropertyNamed: name)
        } catch let error as ViewfinderError {
            throw connection.lostSessionError(error, while: "set \(name)")
        }
    }

    func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        do {
            try await properties.stepValue(forPropertyNamed: name, by: steps)
        } catch let error as ViewfinderError {
            throw connection.lostSessionError(error, while: "step \(name)")
        }
    }

    // MARK: The connection's end

    func prepareToClose() async {
        guard housekeeps else { return }
        try? await housekeeping([0, 5, 0, 0], trailer: [])
    }

    func connectionEnded(with error: ViewfinderError) {
        state.withLock { $0.ended = error }
    }
}
