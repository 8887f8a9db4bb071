import ViewfinderCore

/// ISO 15740 as it is written: standard properties read with GetDevicePropDesc, InitiateCapture, the standard
/// events, and no live view or video recording.
///
/// It speaks to every camera no other dialect claims, and is what vendor dialects build on: they use
/// ``StandardProperties`` and ``StandardCapture`` with tables and steps of their own.
final class StandardDialect: PTPDialect {
    static let name = "standard PTP"

    private let connection: PTPConnection
    private let properties: StandardProperties
    /// The shutter of this connection.
    let capture: StandardCapture

    private init(connection: PTPConnection) {
        self.connection = connection
        properties = StandardProperties(connection: connection, bindings: PTPPropertyBinding.standard)
        capture = StandardCapture(connection: connection)
    }

    static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool { true }

    static func open(_ connection: PTPConnection) async throws -> StandardDialect {
        let dialect = StandardDialect(connection: connection)
        try await dialect.properties.readAll()
        return dialect
    }

    var functionality: CameraFunctionality {
        Self.standardFunctionality(of: connection.deviceInfo)
    }

    /// What the standard operations a camera lists let Viewfinder do with it.
    static func standardFunctionality(of info: PTPDeviceInfo) -> CameraFunctionality {
        var functionality: CameraFunctionality = []
        if info.supports(.initiateCapture) {
            functionality.insert(.stillCapture)
        }
        if [.getStorageIDs, .getStorageInfo, .getObjectHandles, .getObjectInfo, .getObject].allSatisfy(info.supports) {
            functionality.insert(.fileAccess)
        }
        if info.supports(.deleteObject) {
            functionality.insert(.fileDeletion)
        }
        if info.supports(.setDevicePropValue) {
            functionality.insert(.propertyControl)
            if info.supports(.dateTime) {
                functionality.insert(.clockUpdate)
            }
        }
        return functionality
    }

    func observe(_ event: PTPEvent) {
        capture.observe(event)
    }

    func handle(_ event: PTPEvent) async {
        await Self.handleStandard(event, connection: connection, properties: properties)
    }

    func eventsWereMissed() async {
        try? await properties.readAll()
    }

    /// Acts on the standard events: reads changed properties again, reports new files.
    static func handleStandard(
        _ event: PTPEvent, connection: PTPConnection, properties: StandardProperties
    ) async {
        switch event.code {
        case .devicePropChanged:
            guard let raw = event.parameters.first, let code = UInt16(exactly: raw) else { return }
            await properties.refresh(PTPDevicePropertyCode(rawValue: code))
        case .objectAdded:
            guard let handle = event.parameters.first else { return }
            await connection.reportNewObject(handle)
            try? await properties.refreshShotsAvailable()
        case .objectRemoved, .storageInfoChanged:
            try? await properties.refreshShotsAvailable()
        default:
            break
        }
    }

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await properties.setRawValue(rawValue, forPropertyNamed: name)
    }

    /// Sets the camera's clock through DateTime.
    func updateClock(to time: CameraClockTime) async throws {
        try await connection.session.setDateTime(time)
    }

    /// Reads the camera's clock from DateTime.
    func readClock() async throws -> CameraClockTime {
        try await connection.session.dateTime()
    }

    /// Takes a picture with InitiateCapture, which focuses as the camera's focus mode says: standard PTP has no
    /// separate autofocus, so `engageAutoFocus` does not change what the camera does.
    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        try await capture.takePicture()
    }

    func connectionEnded(with error: ViewfinderError) {
        capture.connectionEnded(with: error)
    }
}
