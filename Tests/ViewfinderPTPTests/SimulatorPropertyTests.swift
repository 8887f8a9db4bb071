import Testing
import ViewfinderCore
import ViewfinderSimulator

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// The simulator's properties through the client: forms, validation, the exposure program, events and the scene's
/// brightness.
@Suite struct SimulatorPropertyTests {
    @Test func isoHasThirdStopsAndAutomatic() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let iso = try await harness.session.propertyDescription(.exposureIndex)
            #expect(iso.dataType == .uint16)
            #expect(iso.isSettable)
            guard case .enumeration(let values) = iso.form else {
                Issue.record("ISO should be an enumeration")
                return
            }
            #expect(values.first == .uint16(100))
            #expect(values.contains(.uint16(25600)))
            #expect(values.contains(.uint16(125)) && values.contains(.uint16(160)))
            #expect(values.last == .uint16(0xFFFF))
        }
    }

    @Test func everyAdvertisedPropertyHasADescriptionAndValue() async throws {
        // The battery must not drain between a property's description and its value, however long the test waits for
        // a thread on a busy machine.
        let configuration = CameraSimulator.Configuration(
            identity: .nikon, sampleImageCount: 0, batteryDrainInterval: .seconds(3600))
        try await SimulatorHarness.run(configuration) { harness in
            for code in harness.session.deviceInfo.devicePropertiesSupported {
                let description = try await harness.session.propertyDescription(code)
                #expect(description.code == code)
                if code != .dateTime {
                    let value = try await harness.session.propertyValue(code, of: description.dataType)
                    #expect(value == description.currentValue)
                }
            }
            let shutter = try await harness.session.propertyDescription(.exposureTime)
            guard case .enumeration(let speeds) = shutter.form else {
                Issue.record("shutter speed should be an enumeration")
                return
            }
            #expect(speeds.first == .uint32(300_000))
            // The timed speeds, 30 s to 1/10000 s, then bulb.
            #expect(speeds.dropLast().last == .uint32(1) && speeds.last == .uint32(0xFFFF_FFFF))
            let compensation = try await harness.session.propertyDescription(.exposureBiasCompensation)
            #expect(compensation.form.allows(.int16(-5000)) && compensation.form.allows(.int16(5000)))
            #expect(compensation.form.allows(.int16(-333)) && !compensation.form.allows(.int16(-500)))
        }
    }

    @Test func setReadsBackAndIsAnnounced() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            try await session.setPropertyValue(.exposureIndex, to: .uint16(800))
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x500F)
            #expect(try await session.propertyValue(.exposureIndex, of: .uint16) == .uint16(800))
            try await session.setPropertyValue(.whiteBalance, to: .uint16(6))
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x5005)
            try await session.resetPropertyValue(.exposureIndex)
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x500F)
            #expect(try await session.propertyValue(.exposureIndex, of: .uint16) == .uint16(100))
        }
    }

    @Test func badValuesAreRefused() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            #expect(
                await responseCode { try await session.setPropertyValue(.exposureIndex, to: .uint16(123)) }
                    == .invalidDevicePropValue)
            #expect(
                await responseCode { try await session.setPropertyValue(.exposureIndex, to: .uint32(800)) }
                    == .invalidDevicePropFormat)
            #expect(
                await responseCode { try await session.setPropertyValue(.batteryLevel, to: .uint8(50)) }
                    == .accessDenied)
            #expect(
                await responseCode { try await session.setPropertyValue(.dateTime, to: .string("tomorrow")) }
                    == .invalidDevicePropValue)
            #expect(
                await responseCode { _ = try await session.propertyDescription(PTPDevicePropertyCode(0xD999)) }
                    == .devicePropNotSupported)
            let unchanged = try await session.propertyValue(.exposureIndex, of: .uint16)
            #expect(unchanged == .uint16(100))
        }
    }

    @Test func dateTimeFollowsTheClockFromWhatWasSet() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            try await harness.session.setPropertyValue(.dateTime, to: .string("20300102T030405"))
            guard case .string(let date) = try await harness.session.propertyValue(.dateTime, of: .string) else {
                Issue.record("the date should be a string")
                return
            }
            #expect(date.hasPrefix("20300102T0304"))
        }
    }

    @Test func theExposureProgramDecidesWhatCanBeSet() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            #expect(try await session.propertyDescription(.exposureTime).isSettable)
            #expect(!(try await session.propertyDescription(.exposureBiasCompensation).isSettable))

            try await session.setPropertyValue(.exposureProgramMode, to: .uint16(3))
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x500E)
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x500D)
            #expect(!(try await session.propertyDescription(.exposureTime).isSettable))
            #expect(try await session.propertyDescription(.fNumber).isSettable)
            #expect(
                await responseCode { try await session.setPropertyValue(.exposureTime, to: .uint32(80)) }
                    == .accessDenied)

            // In aperture priority the camera picks the shutter speed: stopping down two stops slows it two stops.
            try await session.setPropertyValue(.fNumber, to: .uint16(400))
            let wide = try await session.propertyValue(.exposureTime, of: .uint32)
            harness.events.clear()
            try await session.setPropertyValue(.fNumber, to: .uint16(800))
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x500D)
            let narrow = try await session.propertyValue(.exposureTime, of: .uint32)
            let ratio = Double(narrow.integerValue ?? 0) / Double(wide.integerValue ?? 1)
            #expect(ratio > 3 && ratio < 5)

            try await session.setPropertyValue(.exposureProgramMode, to: .uint16(4))
            #expect(try await session.propertyDescription(.exposureTime).isSettable)
            #expect(!(try await session.propertyDescription(.fNumber).isSettable))
            #expect(
                await responseCode { try await session.setPropertyValue(.fNumber, to: .uint16(400)) }
                    == .accessDenied)
        }
    }

    @Test func theBatteryDrainsAndSaysSo() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0, batteryDrainInterval: .milliseconds(20))) { harness in
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x5001)
            _ = try await harness.events.next(.devicePropChanged, parameter: 0x5001)
            let level = try await harness.session.propertyValue(.batteryLevel, of: .uint8)
            #expect((level.integerValue ?? 100) <= 98)
        }
    }

    @Test func brightnessFollowsTheExposure() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            func captureBrightness() async throws -> Double {
                _ = try await session.initiateCapture()
                let added = try await harness.events.next(.objectAdded)
                _ = try await harness.events.next(.captureComplete)
                let jpeg = try await session.object(added.parameters[0])
                // The grey ramp and wedge below the bars, where the scene's moving marker never goes, so captures
                // taken at different moments compare.
                return try #require(JPEGProbe.measure(jpeg, rows: 0.6..<1)).meanLuma
            }
            // Manual: f/5.6 at ISO 100; 1/125 s exposes the scene correctly.
            try await session.setPropertyValue(.exposureTime, to: .uint32(80))
            let correct = try await captureBrightness()
            try await session.setPropertyValue(.exposureTime, to: .uint32(10))
            let under = try await captureBrightness()
            try await session.setPropertyValue(.exposureTime, to: .uint32(667))
            let over = try await captureBrightness()
            #expect(under < correct - 20)
            #expect(over > correct + 20)

            // Aperture priority keeps the exposure whatever the aperture, and follows the compensation.
            try await session.setPropertyValue(.exposureProgramMode, to: .uint16(3))
            try await session.setPropertyValue(.fNumber, to: .uint16(1100))
            let automatic = try await captureBrightness()
            #expect(abs(automatic - correct) < 8)
            try await session.setPropertyValue(.exposureBiasCompensation, to: .int16(2000))
            let brighter = try await captureBrightness()
            #expect(brighter > automatic + 20)
        }
    }
}
