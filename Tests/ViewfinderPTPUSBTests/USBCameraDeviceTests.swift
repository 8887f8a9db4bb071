import Foundation
import Testing
import ViewfinderCore

@testable import ViewfinderPTPUSB

/// Finding USB cameras in the kernel's sysfs listing, here a tree the test makes.
@Suite struct USBCameraDeviceTests {
    @Test func stillImageAndMTPDevicesAreCamerasAndOthersAreNot() throws {
        let sysfs = try FakeSysfs()
        try sysfs.device(
            "1-2", bus: 1, address: 4, vendor: "04b0", product: "0437", serial: "3001234", triple: ("06", "01", "01"),
            endpoints: FakeSysfs.cameraEndpoints)
        try sysfs.device(
            "2-1", bus: 2, address: 12, vendor: "18d1", product: "4ee1", serial: nil, triple: ("ff", "ff", "00"),
            interfaceName: "MTP", endpoints: FakeSysfs.cameraEndpoints)
        // A memory stick, and a still-image interface without its interrupt pipe.
        try sysfs.device(
            "1-3", bus: 1, address: 5, vendor: "0781", product: "5567", serial: "X", triple: ("08", "06", "50"),
            endpoints: Array(FakeSysfs.cameraEndpoints.prefix(2)))
        try sysfs.device(
            "1-4", bus: 1, address: 6, vendor: "04a9", product: "3218", serial: nil, triple: ("06", "01", "01"),
            endpoints: Array(FakeSysfs.cameraEndpoints.prefix(2)))
        let devices = try USBCameraDevice.all(sysfs: sysfs.root.path)
        #expect(devices.map(\.location) == ["1:4", "2:12"])
        let nikon = try #require(devices.first)
        #expect(nikon.path == "/dev/bus/usb/001/004" && nikon.family == .nikon && nikon.serialNumber == "3001234")
        #expect(
            nikon.pipes
                == USBCameraDevice.Pipes(
                    interface: 0, bulkIn: 0x81, bulkOut: 0x02, interrupt: 0x83, bulkInPacketSize: 512,
                    bulkOutPacketSize: 512, interruptPacketSize: 64))
        #expect(nikon.description == "Maker Camera 1-2 (usb 1:4)")
        #expect(nikon.udevRuleHint.contains("ATTR{idVendor}==\"04b0\", ATTR{idProduct}==\"0437\""))
        #expect(nikon.udevRuleHint.hasPrefix("install viewfinder's udev rule, 60-viewfinder.rules"))
    }

    @Test func aCameraIsFoundByLocationSerialOrAsTheOnlyOne() throws {
        let sysfs = try FakeSysfs()
        try sysfs.device(
            "1-2", bus: 1, address: 4, vendor: "04b0", product: "0437", serial: "3001234", triple: ("06", "01", "01"),
            endpoints: FakeSysfs.cameraEndpoints)
        #expect(try USBCameraDevice.find(nil, sysfs: sysfs.root.path).location == "1:4")
        #expect(try USBCameraDevice.find("1:4", sysfs: sysfs.root.path).location == "1:4")
        #expect(try USBCameraDevice.find("3001234", sysfs: sysfs.root.path).location == "1:4")
        #expect(throws: ViewfinderError.self) { try USBCameraDevice.find("9:9", sysfs: sysfs.root.path) }
        try sysfs.device(
            "1-3", bus: 1, address: 7, vendor: "04a9", product: "3218", serial: nil, triple: ("06", "01", "01"),
            endpoints: FakeSysfs.cameraEndpoints)
        do {
            _ = try USBCameraDevice.find(nil, sysfs: sysfs.root.path)
            Issue.record("two cameras and no selector")
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("usb 1:7"))
        }
        let empty = try FakeSysfs()
        do {
            _ = try USBCameraDevice.find(nil, sysfs: empty.root.path)
            Issue.record("no camera")
        } catch {
            #expect(error.code == .notFound && error.message.contains("plug it in"))
        }
    }

    @Test func aCameraPluggedBackInIsFoundAtItsNewAddress() throws {
        let sysfs = try FakeSysfs()
        try sysfs.device(
            "1-2", bus: 1, address: 4, vendor: "04b0", product: "0437", serial: "3001234", triple: ("06", "01", "01"),
            endpoints: FakeSysfs.cameraEndpoints)
        let before = try #require(try USBCameraDevice.all(sysfs: sysfs.root.path).first)
        // Replugged: the same port and serial number at a new address.
        try sysfs.write("1-2", ["devnum": "9"])
        let after = try USBCameraDevice.all(sysfs: sysfs.root.path)
        #expect(before.sameCamera(in: after)?.address == 9)
        // Another model on that port is not the same camera.
        try sysfs.write("1-2", ["idProduct": "0438", "serial": ""])
        #expect(before.sameCamera(in: try USBCameraDevice.all(sysfs: sysfs.root.path)) == nil)
    }

    @Test func aListingThatCannotBeReadIsAnErrorAndAMissingOneHasNoCameras() throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("1-1", bus: 1, address: 4, serial: "A")
        // A device without a serial number is still listed: a missing attribute is not a failure.
        try sysfs.device(
            "1-2", bus: 1, address: 5, vendor: "04b0", product: "0437", serial: nil, triple: ("06", "01", "01"),
            endpoints: FakeSysfs.cameraEndpoints)
        #expect(try USBCameraDevice.all(sysfs: sysfs.root.path).map(\.serialNumber) == ["A", nil])
        // An attribute that cannot be read (a folder where the file should be: EISDIR) fails the whole listing
        // rather than leaving the camera out as if unplugged.
        let serial = sysfs.root.appendingPathComponent("1-1/serial")
        try FileManager.default.removeItem(at: serial)
        try FileManager.default.createDirectory(at: serial, withIntermediateDirectories: false)
        let error = #expect(throws: ViewfinderError.self) { try USBCameraDevice.all(sysfs: sysfs.root.path) }
        #expect(error?.code == .io && error?.errno == EISDIR && error?.message.contains(sysfs.root.path) == true)
        #expect(try USBCameraDevice.all(sysfs: sysfs.root.appendingPathComponent("absent").path).isEmpty)
    }
}
