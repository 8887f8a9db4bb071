import CV4L2
import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderV4L2

@Suite struct CaptureDeviceControlsTests {
    let system: FakeV4L2System
    let camera = CaptureDevice(
        path: "/fake/video0", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)

    init() {
        var node = FakeV4L2System.Node()
        let readOnly = UInt32(V4L2_CTRL_FLAG_READ_ONLY)
        let volatile = UInt32(V4L2_CTRL_FLAG_VOLATILE)
        func control(
            _ id: UInt32, _ name: String, _ type: V4L2ControlType, _ range: ClosedRange<Int64>, default value: Int64,
            step: UInt64 = 1, flags: UInt32 = 0, menu: [V4L2MenuEntry] = []
        ) -> V4L2ControlInfo {
            V4L2ControlInfo(
                id: id, name: name, type: type, minimum: range.lowerBound, maximum: range.upperBound, step: step,
                defaultValue: value, flags: flags, menu: menu)
        }
        node.controls = [
            control(V4L2ControlID.brightness, "Brightness", .integer, 0...255, default: 128),
            control(V4L2ControlID.contrast, "Contrast", .integer, 0...100, default: 50, step: 10),
            control(V4L2ControlID.automaticGain, "Gain, Automatic", .boolean, 0...1, default: 1),
            control(V4L2ControlID.gain, "Gain", .integer, 0...255, default: 100, flags: volatile),
            control(
                UInt32(V4L2_CID_POWER_LINE_FREQUENCY), "Power Line Frequency", .menu, 0...2, default: 1,
                menu: [
                    .init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz"),
                ]
            ),
            control(UInt32(V4L2_CID_HFLIP), "Horizontal Flip", .boolean, 0...1, default: 0, flags: readOnly),
            control(0x00f0_f041, "Disconnect", .button, 0...0, default: 0),
        ]
        node.automaticSwitches = [V4L2ControlID.automaticGain: [V4L2ControlID.gain]]
        system = FakeV4L2System(nodes: ["video0": node])
    }

    func open() throws -> CaptureDeviceControls {
        try CaptureDeviceControls(device: camera, setValueTimeout: .seconds(5), system: system)
    }

    @Test func integerControlsAreNumericRangesWithTheirCurrentValue() throws {
        let controls = try open()
        #expect(controls.controls.map(\.name).first == "Brightness")
        let brightness = controls.property(for: .brightness)
        #expect(brightness.currentValue?.commonValue == .integer(128))
        #expect(brightness.valueSetType == .numericRange)
        #expect(brightness.validSettableValues.count == 256)
        let contrast = controls.property(for: .contrast)
        #expect(contrast.validSettableValues.map(\.commonValue) == (0...10).map { .integer(Int64($0) * 10) })
        #expect(controls.property(for: .brightness) === brightness)
    }

    @Test func switchesMenusAndReadOnlyControlsHaveTheirOwnValues() throws {
        let controls = try open()
        let automaticGain = controls.property(for: .automaticGain)
        #expect(automaticGain.commonValue == .boolean(true))
        #expect(automaticGain.validSettableValues.map(\.localizedDisplayValue) == ["Off", "On"])
        func property(_ id: Int32) throws -> TypedCameraProperty<CameraControlValue> {
            controls.property(for: .control(try #require(controls.controls.first { $0.id == UInt32(id) })))
        }
        let powerLine = try property(V4L2_CID_POWER_LINE_FREQUENCY)
        #expect(powerLine.identifier.name == "v4l2-control-0x980918")
        #expect(powerLine.localizedDisplayName == "Power Line Frequency")
        #expect(powerLine.commonValue == .menuItem("50 Hz"))
        #expect(powerLine.validSettableValues.map(\.localizedDisplayValue) == ["Disabled", "50 Hz", "60 Hz"])
        let flip = try property(V4L2_CID_HFLIP)
        #expect(flip.commonValue == .boolean(false))
        #expect(flip.validSettableValues.isEmpty)
        let button = try property(0x00f0_f041)
        #expect(button.currentValue == nil && button.validSettableValues.isEmpty)
        let missing = controls.property(for: .whiteBalanceTemperature)
        #expect(missing.currentValue == nil && missing.validSettableValues.isEmpty)
    }

    @Test func setValueWaitsForTheDeviceAndObserversSeeTheChange() async throws {
        let controls = try open()
        let brightness = controls.property(for: .brightness)
        let seen = Recorder<String>()
        let token = brightness.addObserver { property, change in
            if change.contains(.value) { seen.append(property.currentValue?.localizedDisplayValue ?? "-") }
        }
        try await brightness.setValue(.integer(200))
        #expect(brightness.commonValue == .integer(200))
        #expect(try V4L2Device(path: camera.path, system: system).value(ofControl: V4L2ControlID.brightness) == 200)
        #expect(try await brightness.increment().commonValue == .integer(201))
        #expect(try await brightness.decrement().commonValue == .integer(200))
        // Observers hear of a change on the thread already delivering, a moment after the call that made it.
        try await waitUntil("three values") { seen.all.count >= 3 }
        #expect(seen.all == ["200", "201", "200"])
        try await controls.property(for: .contrast).setValue(.integer(70))
        #expect(controls.property(for: .contrast).commonValue == .integer(70))
        let invalid = await #expect(throws: ViewfinderError.self) {
            try await controls.property(for: .contrast).setValue(.integer(75))
        }
        #expect(invalid?.code == .invalidPropertyValue)
        withExtendedLifetime(token) {}
    }

    @Test func anAutomaticSwitchMakesItsControlReadOnlyUntilItIsOff() async throws {
        let controls = try open()
        let gain = controls.property(for: .gain)
        #expect(gain.commonValue == .integer(100))
        #expect(gain.validSettableValues.isEmpty)
        let refused = await #expect(throws: ViewfinderError.self) { try await gain.setValue(.integer(10)) }
        #expect(refused?.code == .invalidPropertyValue)
        #expect(refused?.message.contains("it has none") == true)
        let changes = Recorder<CameraPropertyChangeType>()
        let token = gain.addObserver { _, change in changes.append(change) }
        try await controls.property(for: .automaticGain).setValue(.boolean(false))
        try await waitUntil { gain.validSettableValues.count == 256 }
        try await waitUntil { changes.all.contains { $0.contains(.validSettableValues) } }
        #expect(controls.controls.first { $0.id == V4L2ControlID.gain }?.isInactive == false)
        try await gain.setValue(.integer(10))
        #expect(gain.commonValue == .integer(10))
        try await controls.property(for: .automaticGain).setValue(.boolean(true))
        try await waitUntil { gain.validSettableValues.isEmpty }
        withExtendedLifetime(token) {}
    }

    @Test func changesByOtherProgramsArriveAsEvents() async throws {
        let controls = try open()
        let brightness = controls.property(for: .brightness)
        #expect(system.calls.filter { $0 == "SUBSCRIBE_EVENT" }.count == controls.controls.count)
        system.changeControl(V4L2ControlID.brightness, to: 42, at: "video0")
        try await waitUntil { brightness.commonValue == .integer(42) }
        #expect(system.waitingEvents == 0)
    }

    @Test func volatileControlsAreReadWhileObserved() async throws {
        let controls = try open()
        let gain = controls.property(for: .gain)
        let values = Recorder<String>()
        let token = gain.addObserver { property, change in
            if change.contains(.value) { values.append(property.currentValue?.localizedDisplayValue ?? "-") }
        }
        // The driver changes a volatile control without an event; the observed property follows it.
        system.changeControl(V4L2ControlID.gain, to: 17, at: "video0", announcing: false)
        try await waitUntil { gain.commonValue == .integer(17) }
        #expect(values.all == ["17"])
        withExtendedLifetime(token) {}
    }

    @Test func unplugResetsEveryPropertyAndClosesTheDevice() async throws {
        let controls = try open()
        let brightness = controls.property(for: .brightness)
        #expect(system.openDescriptors == 1)
        system.setDisconnected(true, at: "video0")
        try await waitUntil { brightness.currentValue == nil }
        #expect(brightness.validSettableValues.isEmpty)
        try await waitUntil { system.openDescriptors == 0 }
        let error = await #expect(throws: ViewfinderError.self) {
            try await controls.setRawValue(.integer(1), forPropertyNamed: "brightness")
        }
        #expect(error?.code == .notConnected)
    }

    @Test func closingStopsWatchingAndReleasesTheDevice() async throws {
        let controls = try open()
        controls.close()
        try await waitUntil { system.openDescriptors == 0 }
        let error = await #expect(throws: ViewfinderError.self) {
            try await controls.setRawValue(.integer(1), forPropertyNamed: "brightness")
        }
        #expect(error?.code == .notConnected)
    }
}
