import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP
@testable import ViewfinderSimulator

/// A Fujifilm X-T4 over WiFi as libgphoto2 says the real one is: GetDeviceInfo answered with no data, the properties
/// described all at once by Fuji GetDeviceInfo (0x902B); and that answer's reading, from good and malformed bytes.
@Suite struct FujiGetDeviceInfoTests {
    /// The simulated X-T4, its DeviceInfo empty when `empty`; a full battery however long the test takes.
    static func fuji(emptyDeviceInfo empty: Bool) -> CameraSimulator.Configuration {
        var configuration = CameraSimulator.Configuration(identity: .fuji, sampleImageCount: 2)
        configuration.emptyDeviceInfo = empty
        configuration.batteryDrainInterval = .seconds(86_400)
        return configuration
    }

    /// Each typed property's current value and valid settable values, as they read.
    static func summary(of camera: PTPCamera) -> [String] {
        func line<Value>(_ identifier: CameraPropertyIdentifier<Value>) -> String {
            let property = camera.property(for: identifier)
            let values = property.validSettableValues.map(\.localizedDisplayValue).joined(separator: ",")
            return "\(identifier.name)=\(property.currentValue?.localizedDisplayValue ?? "-") [\(values)]"
        }
        return [
            line(.iso), line(.shutterSpeed), line(.aperture), line(.exposureCompensation), line(.whiteBalance),
            line(.focusMode), line(.autoExposureMode), line(.driveMode), line(.filmSimulation), line(.batteryLevel),
        ]
    }

    @Test func anXT4WithAnEmptyDeviceInfoConnectsWithItsPropertiesFromOneAnswer() async throws {
        let described = try await CameraHarness.run(Self.fuji(emptyDeviceInfo: false)) { Self.summary(of: $0.camera) }
        try await CameraHarness.run(Self.fuji(emptyDeviceInfo: true)) { harness in
            let camera = harness.camera
            let info = try harness.session.deviceInfo
            #expect(info.vendorExtensionID == 0x0E && info.supports(PTPOperationCode.fujiGetDeviceInfo))
            #expect(camera.deviceInfo?.model == "X-T4", "the name from the camera's answer to the init")
            #expect(harness.simulator.requestsAnswered(.fujiGetDeviceInfo) == 1)
            #expect(harness.simulator.requestsAnswered(.getDevicePropDesc) == 0, "no property was described apart")
            #expect(Self.summary(of: camera) == described)
            let iso = camera.property(for: .iso)
            #expect(iso.currentValue?.commonValue == .iso100)
            #expect(iso.validSettableValues.map(\.localizedDisplayValue).prefix(3) == ["Auto 1", "Auto 2", "Auto 3"])
            #expect(camera.property(for: .filmSimulation).validSettableValues.count == 18)
            try await iso.setValue(.iso800)
            #expect(iso.currentValue?.commonValue == .iso800)
            let item = try await harness.takePicture(engagingAutoFocus: true)
            #expect(item.name == "DSCF0003.JPG")
            #expect(try await camera.downloadData(of: item) == harness.simulator.objectData(item.id))
        }
    }

    /// CurrentState, which the DeviceInfo standing in for the empty one lists, is still read: a dial turned on the
    /// camera reaches the property's observers.
    @Test func aDialTurnedOnAnXT4WithAnEmptyDeviceInfoReachesObservers() async throws {
        try await CameraHarness.run(Self.fuji(emptyDeviceInfo: true)) { harness in
            let seen = Observed<String>()
            let token = harness.camera.property(for: .iso).addObserver { property, _ in
                property.currentValue.map { seen.append($0.localizedDisplayValue) }
            }
            try harness.simulator.turnDial(.exposureIndex, to: 1600)
            try await waitUntil("the observer to hear of ISO 1600") { seen.all.contains("ISO 1600") }
            withExtendedLifetime(token) {}
        }
    }

    /// A count, then each entry's size (its own four bytes included) and description.
    static func answer(_ entries: [[UInt8]], count: UInt32? = nil) -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(count ?? UInt32(entries.count))
        for entry in entries {
            writer.append(UInt32(4 + entry.count))
            writer.append(bytes: entry)
        }
        return writer.bytes
    }

    static let filmSimulation = PTPDevicePropertyDescription(
        code: .fujiFilmSimulation, dataType: .uint16, isSettable: true, factoryDefaultValue: .uint16(1),
        currentValue: .uint16(11), form: .enumeration([1, 2, 11].map { .uint16($0) }))
    static let iso = PTPDevicePropertyDescription(
        code: .exposureIndex, dataType: .int32, isSettable: true, factoryDefaultValue: .int32(-1),
        currentValue: .int32(800), form: .enumeration([-1, 200, 800].map { .int32($0) }))

    @Test func theAnswersDescriptionsAreReadInOrder() throws {
        let read = try FujiPropertyValues.propertyDescriptions(
            inDeviceInfo: Self.answer([try Self.filmSimulation.encoded(), try Self.iso.encoded()]))
        #expect(read == [Self.filmSimulation, Self.iso])
        #expect(try FujiPropertyValues.propertyDescriptions(inDeviceInfo: [0, 0, 0, 0, 9, 9, 9, 9]) == [])
    }

    /// An entry whose description does not decode (a form flag PTP does not define, a value cut short) is skipped;
    /// its size says where the next begins.
    @Test func anEntryThatDoesNotDecodeIsSkipped() throws {
        var unknownForm = try Self.filmSimulation.encoded()
        unknownForm[9] = 7
        let cutShort = Array(try Self.iso.encoded().dropLast(2))
        let read = try FujiPropertyValues.propertyDescriptions(
            inDeviceInfo: Self.answer([unknownForm, cutShort, [], try Self.iso.encoded()]))
        #expect(read == [Self.iso])
    }

    /// A camera whose sizes leave out their own four bytes, which libgphoto2 reads as it reads the others (it takes
    /// the size as a bound only), has its descriptions read too.
    @Test func sizesLeavingOutTheirOwnFieldAreReadToo() throws {
        var writer = PTPDataWriter()
        let entries = [try Self.filmSimulation.encoded(), try Self.iso.encoded()]
        writer.append(UInt32(entries.count))
        for entry in entries {
            writer.append(UInt32(entry.count))
            writer.append(bytes: entry)
        }
        let read = try FujiPropertyValues.propertyDescriptions(inDeviceInfo: writer.bytes)
        #expect(read == [Self.filmSimulation, Self.iso])
    }

    /// Answers that cannot be a list of descriptions are refused with a clear error, and a count of four billion
    /// entries reserves nothing.
    @Test(
        arguments: [
            ("5 bytes", [1, 0, 0, 0, 0]),
            ("4 bytes", [0, 0, 0, 0]),
            ("no bytes", []),
            ("a count past the bytes", answer([[1, 2, 3, 4]], count: 3)),
            ("four billion entries", answer([[1, 2, 3, 4]], count: 0xFFFF_FFFF)),
            ("an entry past the end", Array(answer([Array(repeating: 0, count: 12)]).dropLast(1))),
            ("a size less than its own field", [1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]),
        ] as [(String, [UInt8])])
    func aMalformedAnswerIsAClearError(_ name: String, _ bytes: [UInt8]) {
        let error = #expect(throws: ViewfinderError.self, "\(name)") {
            try FujiPropertyValues.propertyDescriptions(inDeviceInfo: bytes)
        }
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("GetDeviceInfo (0x902B)") == true, "\(error?.message ?? "")")
    }

    /// The answer's descriptions fill the properties it describes; those the DeviceInfo lists besides are read with
    /// GetDevicePropDesc.
    @Test func describedPropertiesAreNotAskedForAgain() async throws {
        let velvia = PTPDevicePropertyDescription(
            code: .fujiFilmSimulation, dataType: .uint16, isSettable: true, factoryDefaultValue: .uint16(1),
            currentValue: .uint16(2), form: .enumeration([1, 2].map { .uint16($0) }))
        let fuji = FujiCameraPeer(propertyDescriptions: Self.answer([try velvia.encoded()]))
        let peer = try FujiScriptedPeer { peer in try fuji.serve(peer) }
        let camera = PTPCamera(endpoint: FujiWiFiEndpoint(host: "127.0.0.1", configuration: peer.configuration()))
        try await camera.connect()
        #expect(camera.property(for: .filmSimulation).currentValue?.localizedDisplayValue == "Velvia/Vivid")
        #expect(camera.property(for: .iso).currentValue?.localizedDisplayValue == "Auto 1")
        let described = fuji.requests.withLock { $0.filter { $0.code == 0x1014 }.map(\.parameters) }
        #expect(!described.contains([0xD001]) && described.contains([0x500F]), "\(described)")
        try await camera.disconnect()
        #expect(try await peer.recordedFailures() == [])
    }

    /// A 0x902B answer shorter than 8 bytes fails the connection with a clear error, as it fails libgphoto2's.
    @Test func aShortAnswerFailsTheConnection() async throws {
        let fuji = FujiCameraPeer(propertyDescriptions: [1, 0, 0, 0])
        let peer = try FujiScriptedPeer { peer in try fuji.serve(peer) }
        let camera = PTPCamera(endpoint: FujiWiFiEndpoint(host: "127.0.0.1", configuration: peer.configuration()))
        let error = await #expect(throws: ViewfinderError.self) { try await camera.connect() }
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("4 bytes, fewer than") == true, "\(error?.message ?? "")")
        _ = try? await peer.recordedFailures()
    }
}
