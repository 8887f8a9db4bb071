import Foundation
import Testing
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTPUSB

/// Cameras plugged in and out: the kernel's device events as they arrive, and the monitor and discovery searcher
/// that turn them into changes, here on a sysfs tree the test changes.
///
/// One test at a time, as one counts the monitor's threads.
@Suite(.serialized) struct USBCameraMonitorTests {
    @Test func kernelEventsAreReadFromTheirKeysAndOtherMessagesAreNot() {
        func message(_ fields: [String]) -> [UInt8] {
            fields.flatMap { Array($0.utf8) + [0] }
        }
        let added = KernelDeviceEvent(
            message: message([
                "add@/devices/platform/dummy_hcd.0/usb1/1-1", "ACTION=add",
                "DEVPATH=/devices/platform/dummy_hcd.0/usb1/1-1", "SUBSYSTEM=usb", "MAJOR=189", "MINOR=1",
                "DEVTYPE=usb_device", "PRODUCT=4b0/437/1", "SEQNUM=2210",
            ]))
        #expect(
            added
                == KernelDeviceEvent(
                    action: "add", path: "/devices/platform/dummy_hcd.0/usb1/1-1", subsystem: "usb",
                    deviceType: "usb_device"))
        #expect(added?.concernsUSBDevices == true)
        let network = KernelDeviceEvent(
            message: message(["add@/devices/virtual/net/veth0", "ACTION=add", "SUBSYSTEM=net"]))
        #expect(network?.concernsUSBDevices == false)
        // udev's own messages, a header without its keys, and noise are not events.
        #expect(KernelDeviceEvent(message: Array("libudev".utf8) + [0, 0, 0, 0xFE, 0xED, 0xCA, 0xFE]) == nil)
        #expect(KernelDeviceEvent(message: message(["remove@/devices/x"])) == nil)
        #expect(KernelDeviceEvent(message: [UInt8](repeating: 0, count: 40)) == nil)
        #expect(KernelDeviceEvent(message: message(["ACTION=add", "SUBSYSTEM=usb"])) == nil)
    }

    @Test func theKernelsEventSocketOpensWithoutPrivileges() throws {
        // Receiving device events needs no privileges; with nothing plugged in, nothing is waiting.
        let socket = try KernelDeviceEventSocket()
        let (events, overflowed) = socket.drain()
        #expect(!overflowed)
        #expect(events.allSatisfy { !$0.subsystem.isEmpty })
    }

    @Test func changesBetweenTwoListsAreWhatWentThenWhatCame() throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("1-1", bus: 1, address: 4, serial: "A")
        try sysfs.camera("1-2", bus: 1, address: 5, serial: "B")
        let before = try USBCameraDevice.all(sysfs: sysfs.root.path)
        try sysfs.remove("1-1")
        // Plugged in again: a new address on the same port.
        try sysfs.camera("1-1", bus: 1, address: 6, serial: "A")
        let after = try USBCameraDevice.all(sysfs: sysfs.root.path)
        #expect(
            USBCameraMonitor.changes(from: before, to: after)
                == [.detached(before[0]), .attached(after.first { $0.address == 6 }!)])
        #expect(USBCameraMonitor.changes(from: after, to: after).isEmpty)
    }

    @Test func theMonitorReportsCamerasAttachedThenEachPluggedInOrOut() async throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("1-1", bus: 1, address: 4, serial: "A")
        let monitor = USBCameraMonitor(sysfs: sysfs.root.path, rescanInterval: .milliseconds(20))
        let seen = Locked<[USBCameraMonitor.Change]>([])
        let token = monitor.addObserver { changes in seen.withLock { $0 += changes } }
        #expect(monitor.cameras.isEmpty && !monitor.isWatching)
        try monitor.start()
        #expect(monitor.isWatching)
        #expect(monitor.cameras.map(\.location) == ["1:4"])
        try await waitUntil("the camera attached at the start") { seen.withLock { $0.count } == 1 }
        let first = try #require(monitor.cameras.first)
        #expect(seen.withLock { $0 } == [.attached(first)])

        try sysfs.camera("1-2", bus: 1, address: 7, serial: "B")
        try await waitUntil("the second camera") { seen.withLock { $0.count } == 2 }
        try sysfs.remove("1-1")
        try await waitUntil("the first camera unplugged") { seen.withLock { $0.count } == 3 }
        let second = try #require(monitor.cameras.first)
        #expect(seen.withLock { $0 } == [.attached(first), .attached(second), .detached(first)])
        #expect(monitor.cameras == [second])

        // Stopped, it tells nothing more: stop() has joined the watching thread. Started again, it tells what
        // changed meanwhile.
        monitor.stop()
        #expect(!monitor.isWatching)
        try sysfs.remove("1-2")
        #expect(seen.withLock { $0.count } == 3)
        try monitor.start()
        try await waitUntil("the unplug while stopped") { seen.withLock { $0.count } == 4 }
        #expect(seen.withLock { $0.last } == .detached(second))
        monitor.stop()
        withExtendedLifetime(token) {}
    }

    @Test(.timeLimit(.minutes(1))) func aLookThatFailsChangesNothingAndTheMonitorLooksAgain() async throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("1-1", bus: 1, address: 4, serial: "A")
        let monitor = USBCameraMonitor(sysfs: sysfs.root.path, rescanInterval: .milliseconds(20))
        let seen = Locked<[USBCameraMonitor.Change]>([])
        let token = monitor.addObserver { changes in seen.withLock { $0 += changes } }
        try monitor.start()
        defer { monitor.stop() }
        let first = try #require(monitor.cameras.first)
        try await waitUntil("the camera found at start") { seen.withLock { $0.count } == 1 }
        // The camera's serial number cannot be read for a while: the file is replaced, in one rename, by a link to a
        // folder (reading it fails with EISDIR), and later by the file again, so no look sees it missing.
        let device = sysfs.root.appendingPathComponent("1-1").path
        try FileManager.default.createDirectory(atPath: device + "/unreadable", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: device + "/serial.link", withDestinationPath: "unreadable")
        #expect(rename(device + "/serial.link", device + "/serial") == 0)
        try await waitUntil("the failed look") { monitor.scanError != nil }
        #expect(monitor.scanError?.errno == EISDIR)
        #expect(monitor.cameras == [first])
        // Readable again: the next look succeeds and finds the same camera.
        try "A\n".write(toFile: device + "/serial.new", atomically: false, encoding: .utf8)
        #expect(rename(device + "/serial.new", device + "/serial") == 0)
        try await waitUntil("a look that succeeds") { monitor.scanError == nil }
        // A camera plugged in now is told next, so nothing was told in between: the failed looks told no unplug.
        try sysfs.camera("1-2", bus: 1, address: 5, serial: "B")
        try await waitUntil("the second camera") { seen.withLock { $0.count } >= 2 }
        let second = try #require(monitor.cameras.first { $0.serialNumber == "B" })
        #expect(seen.withLock { $0 } == [.attached(first), .attached(second)])
        withExtendedLifetime(token) {}
    }

    @Test(.timeLimit(.minutes(1))) func theMonitorsChangesReadAsAnAsyncSequenceOneAtATime() async throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("1-1", bus: 1, address: 4, serial: "A")
        let monitor = USBCameraMonitor(sysfs: sysfs.root.path, rescanInterval: .milliseconds(20))
        let stream = monitor.changes()
        var changes = stream.makeAsyncIterator()
        try monitor.start()
        defer { monitor.stop() }
        let first = try #require(monitor.cameras.first)
        #expect(await changes.next() == .attached(first))
        try sysfs.camera("1-2", bus: 1, address: 7, serial: "B")
        #expect(await changes.next()?.device.location == "1:7")
        try sysfs.remove("1-1")
        #expect(await changes.next() == .detached(first))
    }

    @Test func aMonitorLetGoStopsItsThread() async throws {
        let sysfs = try FakeSysfs()
        func monitorThreads() -> Int {
            ProcessThreads.lines(of: "comm").filter { $0.first == "usb-monitor\n" }.count
        }
        let baseline = monitorThreads()
        var monitor: USBCameraMonitor? = USBCameraMonitor(sysfs: sysfs.root.path)
        try monitor?.start()
        // The thread names itself as it starts.
        try await waitUntil("the monitor's thread") { monitorThreads() == baseline + 1 }
        // Letting the monitor go joins its thread.
        monitor = nil
        #expect(monitorThreads() == baseline)
    }

    @Test func discoveryListsUSBCamerasAndHearsThemComeAndGo() async throws {
        let sysfs = try FakeSysfs()
        try sysfs.camera("1-1", bus: 1, address: 4, serial: "3001234")
        let discovery = CameraDiscovery(connectors: [PTPUSBCameraConnector(sysfs: sysfs.root.path)]) {
            try RoutingTable(parsing: "")
        }
        discovery.register(USBCameraSearcher(sysfs: sysfs.root.path, rescanInterval: .milliseconds(20)))
        let changes = Locked<[CameraDiscoveryChange]>([])
        let token = discovery.addDiscoveryObserver { change in changes.withLock { $0.append(change) } }
        discovery.beginSearching()
        #expect(discovery.searchErrors.isEmpty)
        try await waitUntil("the attached camera") { discovery.availableCameras.count == 1 }
        let found = try #require(discovery.availableCameras.first)
        #expect(
            found.address == .usb(.busAddress(bus: 1, address: 4)) && found.foundBy == .usb && found.id == "usb-3001234"
        )
        #expect(found.family == .nikon && found.name == "Maker Camera 1-1" && found.description.hasSuffix("at usb:1:4"))

        // The camera found opens through the USB connector, not yet connected.
        let camera = try #require(await discovery.camera(for: found) as? PTPCamera)
        #expect((camera.endpoint as? PTPUSBEndpoint)?.device.serialNumber == "3001234")
        #expect(camera.connectionState == .notConnected)

        try sysfs.remove("1-1")
        try await waitUntil("the unplug") { discovery.availableCameras.isEmpty }
        try sysfs.camera("1-1", bus: 1, address: 9, serial: "3001234")
        try await waitUntil("the camera plugged in again") { discovery.availableCameras.count == 1 }
        #expect(discovery.availableCameras.first?.address.description == "usb:1:9")
        // Observers hear of a change after the list has it, outside the discovery's lock.
        try await waitUntil("the observer told of the camera plugged in again") { changes.withLock { $0.count } >= 3 }
        #expect(
            changes.withLock { $0 } == [
                .discovered(found), .lost(found), .discovered(discovery.availableCameras[0]),
            ])
        discovery.stopSearching()
        withExtendedLifetime(token) {}
    }

    @Test func theConnectorAnswersOnlyForUSBAddresses() async throws {
        let sysfs = try FakeSysfs()
        let connector = PTPUSBCameraConnector(sysfs: sysfs.root.path)
        #expect(connector.addressKind == .usb)
        let network = await #expect(throws: ViewfinderError.self) {
            _ = try await connector.camera(of: .nikon, at: .network(host: "192.168.1.1", port: nil))
        }
        #expect(network?.code == .notAvailable)
        let absent = await #expect(throws: ViewfinderError.self) {
            _ = try await connector.camera(of: .nikon, at: .usb(.only))
        }
        #expect(absent?.code == .notFound)
        try sysfs.camera("1-1", bus: 1, address: 4)
        try sysfs.camera("1-2", bus: 1, address: 5)
        let several = await #expect(throws: ViewfinderError.self) {
            _ = try await connector.camera(of: .genericPTPIP, at: .usb(.only))
        }
        #expect(several?.code == .invalidArgument)
        let named = try #require(
            await connector.camera(of: .genericPTPIP, at: .usb(.busAddress(bus: 1, address: 5))) as? PTPCamera)
        #expect((named.endpoint as? PTPUSBEndpoint)?.device.location == "1:5")
        #expect(ManualCameraDescriptor.cameraAttachedByUSB("1:5").description == "the USB camera 1:5")
        #expect(ManualCameraDescriptor.cameraAttachedByUSB().description == "the camera attached by USB")
    }
}
