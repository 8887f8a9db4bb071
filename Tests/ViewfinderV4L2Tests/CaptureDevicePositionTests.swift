import CV4L2
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import ViewfinderV4L2

/// Positions are process-wide, so each test here names devices no other test uses.
@Suite struct CaptureDevicePositionTests {
    /// A fake system under `directory` whose `video0` reports `orientation`, if given, and whose `video1` says nothing.
    static func system(in directory: String, name: String, orientation: UInt32? = nil) -> FakeV4L2System {
        var reporting = FakeV4L2System.Node()
        reporting.card = name
        if let orientation {
            reporting.controls = [
                V4L2ControlInfo(
                    id: V4L2ControlID.cameraOrientation, name: "Camera Orientation", type: .menu, minimum: 0,
                    maximum: 2, step: 1, defaultValue: Int64(orientation), flags: UInt32(V4L2_CTRL_FLAG_READ_ONLY),
                    menu: [])
            ]
        }
        var silent = FakeV4L2System.Node()
        silent.card = name + " Other"
        return FakeV4L2System(directory: directory, nodes: ["video0": reporting, "video1": silent])
    }

    @Test func theDriversOrientationIsTheReportedPosition() {
        let back = CaptureDevice.all(
            in: "/fake-back", system: Self.system(in: "/fake-back", name: "Rear Sensor", orientation: 1))
        #expect(back.map(\.reportedPosition) == [.back, .unspecified])
        #expect(CaptureDevice.first(at: .back, type: nil, among: back)?.path == "/fake-back/video0")
        #expect(CaptureDevice.first(at: .front, type: nil, among: back) == nil)
        #expect(CaptureDevice.first(at: .unspecified, type: .usb, among: back)?.path == "/fake-back/video0")
        #expect(CaptureDevice.first(at: .back, type: .pci, among: back) == nil)

        let front = CaptureDevice.all(
            in: "/fake-selfie", system: Self.system(in: "/fake-selfie", name: "Selfie Sensor", orientation: 0))
        #expect(front.map(\.position) == [.front, .unspecified])
        let external = CaptureDevice.all(
            in: "/fake-ext", system: Self.system(in: "/fake-ext", name: "Dock Camera", orientation: 2))
        #expect(external.map(\.position) == [.unspecified, .unspecified])
    }

    @Test func anAssignmentWinsOverTheDriverAndTheNewestAssignmentWins() {
        let devices = CaptureDevice.all(
            in: "/fake-assigned", system: Self.system(in: "/fake-assigned", name: "Assigned Webcam", orientation: 1))
        #expect(CaptureDevice.first(at: .front, type: nil, among: devices) == nil)

        CameraSource.assignPosition(.front, to: .path("/fake-assigned/video1"))
        #expect(devices.map(\.position) == [.back, .front])
        #expect(CaptureDevice.first(at: .front, type: nil, among: devices)?.path == "/fake-assigned/video1")

        CameraSource.assignPosition(.front, to: .nameContaining("assigned webcam"))  // both, ignoring case
        #expect(devices.map(\.position) == [.front, .front])
        CameraSource.assignPosition(.back, to: .path("/fake-assigned/video1"))
        #expect(devices.map(\.position) == [.front, .back])
    }

    @Test func aBusPrefixMatchesEveryPortUnderIt() {
        let device = CaptureDevice(
            path: "/fake-bus/video4", name: "Hub Camera", bus: "usb-0000:00:14.0-2.3", driver: "uvcvideo",
            capabilities: 0)
        #expect(CaptureDeviceMatch.bus("usb-0000:00:14.0-2").matches(device))
        #expect(!CaptureDeviceMatch.bus("usb-0000:00:14.0-3").matches(device))
        #expect(CaptureDeviceMatch.nameContaining("HUB").matches(device))
        #expect(!CaptureDeviceMatch.path("/fake-bus/video40").matches(device))
    }

    @Test func theEnvironmentVariableReadsEntriesAndSkipsOnesThatDoNotParse() {
        let rules = CaptureDevicePositions.parse(
            "front:name=Integrated Camera; back : path=/dev/video2;sideways:path=/dev/video3;front:serial=7;"
                + "back:bus=usb-1;front:name=;nonsense")
        #expect(rules.map(\.0) == [.nameContaining("Integrated Camera"), .path("/dev/video2"), .bus("usb-1")])
        #expect(rules.map(\.1) == [.front, .back, .back])
        #expect(rules.map(\.0.description) == ["name=Integrated Camera", "path=/dev/video2", "bus=usb-1"])
        #expect(CaptureDevicePositions.parse("").isEmpty)
    }

    @Test func framesOfAFrontDeviceAreMirroredAndOthersAreNot() async throws {
        let system = Self.system(in: "/fake-mirror", name: "Mirror Webcam")
        CameraSource.assignPosition(.front, to: .path("/fake-mirror/video0"))
        let devices = CaptureDevice.all(in: "/fake-mirror", system: system)
        let source = CameraSource(options: .init(), delegate: nil, system: system, directory: "/fake-mirror")
        let mirrored = Recorder<Bool>()
        let context = await makeContext(for: source) { mirrored.append($0.isMirrored) }
        for (index, device) in devices.enumerated() {
            try await source.startCapture(device: device)
            system.produce(1, at: "video\(index)")
            try await waitUntil("frame \(index)") { mirrored.all.count == index + 1 }
            await source.stopCapture()
        }
        #expect(mirrored.all == [true, false])
        withExtendedLifetime(context) {}
    }
}
