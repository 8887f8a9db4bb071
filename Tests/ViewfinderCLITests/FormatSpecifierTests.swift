import Testing
import Viewfinder

@testable import ViewfinderCLI

/// How `--format` is read and matched against what a device offers.
@Suite struct FormatSpecifierTests {
    let device = CaptureDevice(path: "/dev/video0", name: "Test Cam", bus: "usb-1", driver: "uvcvideo", capabilities: 0)

    func format(_ width: Int, _ height: Int, _ rate: Int, _ pixelFormat: PixelFormat) -> VideoFormat {
        VideoFormat(
            dimensions: Dimensions(width: width, height: height), frameRate: FrameRate(framesPerSecond: rate)!,
            pixelFormat: pixelFormat)
    }

    var offered: [VideoFormat] {
        [
            format(320, 240, 30, .yuyv), format(640, 480, 15, .yuyv), format(640, 480, 30, .yuyv),
            format(640, 480, 30, .nv12VideoRange), format(1280, 720, 10, .yuyv), format(1280, 720, 30, .jpeg),
        ]
    }

    @Test func readsEveryPartAndAnySubset() throws {
        let full = try FormatSpecifier("1280x720@30/MJPG", commandPath: "viewfinder capture")
        #expect(full.dimensions == Dimensions(width: 1280, height: 720))
        #expect(full.framesPerSecond == 30)
        #expect(full.fourCC == "JPEG")
        #expect(full.description == "1280x720@30/mjpeg")
        let rateOnly = try FormatSpecifier("@29.97", commandPath: "x")
        #expect(rateOnly.dimensions == nil && rateOnly.framesPerSecond == 29.97 && rateOnly.fourCC == nil)
        #expect(try FormatSpecifier("/i420", commandPath: "x").fourCC == "YU12")
        #expect(try FormatSpecifier("/YU12", commandPath: "x").fourCC == "YU12")
        #expect(try FormatSpecifier("640X480", commandPath: "x").dimensions == Dimensions(width: 640, height: 480))
    }

    @Test(arguments: [
        "", "x480", "640x", "640x480x2", "0x480", "640x480@0", "640x480@-5", "@0.0001", "@nan", "@1e400", "/h264", "@",
        "abc",
    ])
    func refusesWhatIsNotAFormat(_ text: String) {
        #expect(throws: UsageError.self) { try FormatSpecifier(text, commandPath: "viewfinder capture") }
    }

    @Test func choosesTheMatchClosestTo640x480At30() throws {
        let pick = { (text: String) in
            try FormatSpecifier(text, commandPath: "x").select(from: self.offered, device: self.device)
        }
        #expect(try pick("640x480") == format(640, 480, 30, .nv12VideoRange))
        #expect(try pick("640x480/yuyv") == format(640, 480, 30, .yuyv))
        #expect(try pick("@15") == format(640, 480, 15, .yuyv))
        #expect(try pick("/mjpeg") == format(1280, 720, 30, .jpeg))
        #expect(try pick("1280x720@10") == format(1280, 720, 10, .yuyv))
    }

    @Test func aFormatTheDeviceLacksIsRefusedWithWhatItOffers() throws {
        let specifier = try FormatSpecifier("640x480@60", commandPath: "x")
        do {
            _ = try specifier.select(from: offered, device: device)
            Issue.record("640x480@60 was accepted")
        } catch let failure as CommandFailure {
            #expect(failure.exitStatus == ExitStatus.badValue)
            #expect(failure.message.contains("offers no format that is 640x480@60"), "\(failure.message)")
            #expect(failure.message.contains("at 640x480 it offers 15, 30 fps in yuyv, nv12"), "\(failure.message)")
        }
        let unknownSize = try FormatSpecifier("800x600", commandPath: "x")
        #expect(throws: CommandFailure.self) { try unknownSize.select(from: offered, device: device) }
    }

    @Test func describesFormatsAsTheOptionTakesThem() {
        #expect(FormatSpecifier.describe(format(640, 480, 25, .yuyv)) == "640x480@25/yuyv")
        #expect(FormatSpecifier.describe(format(1920, 1080, 30, .nv12FullRange)) == "1920x1080@30/nv12")
        #expect(FormatSpecifier.name(of: .jpeg) == "mjpeg")
    }
}
