import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Fuji GetDeviceInfo (0x902B), which describes every property at once: its answer's reading, from good and malformed
/// bytes, and a camera whose descriptions fill its properties.
@Suite struct FujiGetDeviceInfoTests {
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
