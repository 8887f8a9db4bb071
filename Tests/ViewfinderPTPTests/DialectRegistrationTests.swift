import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// A dialect from outside ViewfinderPTP, written against its public API alone (this file imports it without
/// `@testable`), registered, and chosen for the cameras it claims.
@Suite struct DialectRegistrationTests {
    /// Claims the cameras of one maker; shows ISO 200 from its opening, and counts the pictures it is asked for.
    final class RegisteredDialect: PTPDialect {
        static let name = "Registered"
        static let manufacturer = "Registered Maker"
        static let isoValues = [ISOValue.iso200, .iso400].map {
            TypedCameraPropertyValue($0, rawValue: .integer(Int64($0.numericValue ?? 0)))
        }

        /// The pictures every connection's dialect was asked for.
        static let pictures = Locked(0)
        let connection: PTPConnection

        init(connection: PTPConnection) {
            self.connection = connection
        }

        static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool {
            deviceInfo.manufacturer == manufacturer
        }

        static func open(_ connection: PTPConnection) async throws -> RegisteredDialect {
            connection.update(
                .iso, currentValue: isoValues[0], validSettableValues: CameraPropertySettableValues(isoValues))
            return RegisteredDialect(connection: connection)
        }

        var functionality: CameraFunctionality { [.stillCapture, .propertyControl] }

        func handle(_ event: PTPEvent) async {}

        func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
            let shown = Self.isoValues.first { $0.rawValue == rawValue }
            connection.update(
                .iso, currentValue: shown, validSettableValues: CameraPropertySettableValues(Self.isoValues))
        }

        func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
            Self.pictures.withLock { $0 += 1 }
        }

        func connectionEnded(with error: ViewfinderError) {}
    }

    /// A simulated camera whose DeviceInfo names `manufacturer`, and a camera connected to it.
    static func withCamera(manufacturer: String?, _ body: (PTPCamera) async throws -> Void) async throws {
        var configuration = CameraSimulator.Configuration(identity: .nikon)
        configuration.port = 0
        if let manufacturer {
            configuration.deviceInfoChanges = { info in
                info.vendorExtensionID = 0xFFFF_FFFF
                info.manufacturer = manufacturer
            }
        }
        let simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
        let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: simulator.port, clientName: "tests"))
        do {
            try await camera.connect()
            try await body(camera)
            try await camera.disconnect()
        } catch {
            try? await camera.disconnect()
            await simulator.stopOffThePool()
            throw error
        }
        await simulator.stopOffThePool()
    }

    @Test func aRegisteredDialectSpeaksToTheCamerasItClaims() async throws {
        PTPDialects.register(RegisteredDialect.self)
        PTPDialects.register(RegisteredDialect.self)
        #expect(PTPDialects.all.filter { $0 == RegisteredDialect.self }.count == 1)
        #expect(PTPDialects.all.first == RegisteredDialect.self)
        try await Self.withCamera(manufacturer: RegisteredDialect.manufacturer) { camera in
            #expect(camera.dialectName == "Registered")
            let iso = camera.property(for: .iso)
            #expect(iso.commonValue == .iso200)
            try await iso.setValue(.iso400)
            #expect(iso.commonValue == .iso400)
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            #expect(RegisteredDialect.pictures.withLock { $0 } == 1)
            let recording = await #expect(throws: ViewfinderError.self) { try await camera.startVideoRecording() }
            #expect(recording?.code == .notAvailable)
        }
        // Cameras it does not claim keep their own dialect.
        try await Self.withCamera(manufacturer: nil) { camera in
            #expect(camera.dialectName == "Nikon")
        }
    }
}
