import CV4L2
import Testing
import ViewfinderCore

@testable import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

@Suite struct V4L2DeviceTests {
    static func system() -> FakeV4L2System {
        var output = FakeV4L2System.Node()
        output.capabilities = UInt32(V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_STREAMING)
        var metadata = FakeV4L2System.Node()
        metadata.capabilities = UInt32(V4L2_CAP_META_CAPTURE | V4L2_CAP_STREAMING)
        return FakeV4L2System(nodes: [
            "video10": FakeV4L2System.Node(), "video0": FakeV4L2System.Node(), "video1": output,
            "video2": metadata, "vbi0": FakeV4L2System.Node(), "video": FakeV4L2System.Node(),
        ])
    }

    @Test func listsOnlyVideoCaptureNodesInNumberOrder() {
        let devices = CaptureDevice.all(in: "/fake", system: Self.system())
        #expect(devices.map(\.path) == ["/fake/video0", "/fake/video10"])
        #expect(devices.first?.name == "Fake Camera")
        #expect(devices.first?.driver == "fakecam")
        #expect(devices.first?.deviceType == .usb)
    }

    @Test func openFailureNamesTheCallAndMapsToAViewfinderError() throws {
        let system = Self.system()
        system.update("video0") { $0.openError = EBUSY }
        let error = #expect(throws: V4L2Error.self) { try V4L2Device(path: "/fake/video0", system: system) }
        #expect(error?.operation == "open")
        #expect(error?.viewfinderError.code == .deviceBusy)
        #expect(error?.viewfinderError.message.contains("another program") == true)
        #expect(CaptureDevice.all(in: "/fake", system: system).map(\.path) == ["/fake/video10"])
    }

    @Test func enumeratesFormatsSizesAndIntervals() throws {
        let device = try V4L2Device(path: "/fake/video0", system: Self.system())
        #expect(try device.formats().map(\.pixelFormat) == [.v4l2YUYV, .v4l2NV12])
        #expect(
            try device.frameSizes(for: .v4l2YUYV)
                == .discrete([.init(width: 640, height: 480), .init(width: 1280, height: 720)]))
        #expect(try device.frameSizes(for: .v4l2MJPEG) == nil)
        #expect(
            try device.frameIntervals(for: .v4l2YUYV, size: .init(width: 640, height: 480))
                == .discrete([.fps(30), .fps(15)]))
    }

    @Test func setsFormatAndFrameInterval() throws {
        let device = try V4L2Device(path: "/fake/video0", system: Self.system())
        let format = try device.setFormat(.v4l2NV12, size: .init(width: 640, height: 480))
        #expect(format.pixelFormat == .v4l2NV12)
        #expect(format.sizeImage == 640 * 480 * 3 / 2)
        #expect(try device.setFrameInterval(.fps(15)) == .fps(15))
        #expect(try device.frameInterval() == .fps(15))
    }

    @Test func listsControlsWithMenusAndSetsValues() throws {
        let system = Self.system()
        system.update("video0") {
            $0.controls = [
                V4L2ControlInfo(
                    id: 0x0098_0900, name: "Brightness", type: .integer, minimum: 0, maximum: 255, step: 1,
                    defaultValue: 128, flags: 0, menu: []),
                V4L2ControlInfo(
                    id: 0x0098_0918, name: "Power Line Frequency", type: .menu, minimum: 0, maximum: 2, step: 1,
                    defaultValue: 1, flags: 0,
                    menu: [.init(index: 0, name: "Disabled", value: nil), .init(index: 2, name: "60 Hz", value: nil)]),
            ]
        }
        let device = try V4L2Device(path: "/fake/video0", system: system)
        let controls = try device.controls()
        #expect(controls.map(\.name) == ["Brightness", "Power Line Frequency"])
        #expect(controls[0].type == .integer && controls[0].maximum == 255 && controls[0].defaultValue == 128)
        #expect(controls[1].menu.map(\.name) == ["Disabled", "60 Hz"])
        #expect(controls[1].menu.map(\.index) == [0, 2])
        #expect(try device.value(ofControl: 0x0098_0900) == 128)
        #expect(try device.setValue(200, ofControl: 0x0098_0900) == 200)
        #expect(try device.value(ofControl: 0x0098_0900) == 200)
        let error = #expect(throws: V4L2Error.self) { try device.setValue(300, ofControl: 0x0098_0900) }
        #expect(error?.operation == "VIDIOC_S_CTRL")
    }
}

@Suite struct SupportedFormatTests {
    @Test func listsFormatsBySizeThenRate() throws {
        let device = try V4L2Device(path: "/fake/video0", system: V4L2DeviceTests.system())
        let formats = try CameraSource.supportedFormats(of: device)
        #expect(
            formats.map(\.description) == [
                "640x480@15/YUYV", "640x480@30/YUYV", "640x480@30/NV12", "1280x720@15/YUYV", "1280x720@30/YUYV",
            ])
    }

    @Test func stepwiseSizesOfferCommonSizesOnTheGridAndTheEnds() {
        let sizes = CameraSource.sizes(
            from: .init(width: 160, height: 120), to: .init(width: 1280, height: 960), step: .init(width: 16, height: 8)
        )
        #expect(
            sizes.map { "\($0.width)x\($0.height)" } == [
                "160x120", "320x240", "640x360", "640x480", "800x600", "1280x720", "1280x960",
            ])
    }

    @Test func continuousRatesOfferCommonRatesAndTheEnds() {
        let rates = CameraSource.rates(fastest: .fps(60), slowest: V4L2Fraction(numerator: 1, denominator: 7))
        #expect(rates.map(\.description) == ["7", "10", "15", "20", "24", "25", "30", "50", "60"])
    }

    @Test func prefersNV12Near640x480At30() throws {
        func format(_ width: Int, _ height: Int, _ rate: Int, _ pixelFormat: PixelFormat) -> VideoFormat {
            VideoFormat(
                dimensions: .init(width: width, height: height), frameRate: FrameRate(framesPerSecond: rate)!,
                pixelFormat: pixelFormat)
        }
        let formats = [
            format(640, 480, 30, .jpeg), format(640, 480, 30, .yuyv), format(640, 480, 30, .nv12VideoRange),
            format(1280, 720, 30, .nv12VideoRange), format(640, 480, 15, .nv12VideoRange),
            format(320, 240, 30, .nv12VideoRange),
        ]
        #expect(try CameraSource.preferredFormat(among: formats) == format(640, 480, 30, .nv12VideoRange))
        #expect(try CameraSource.preferredFormat(among: [formats[0], formats[1]]) == formats[1])
        #expect(try CameraSource.preferredFormat(among: [formats[3], formats[5]]) == formats[5])
        #expect(throws: ViewfinderError.self) { try CameraSource.preferredFormat(among: []) }
    }
}
