import Testing
import ViewfinderTestSupport

/// What `viewfinder webcam` says about bad command lines and devices that are not video outputs.
///
/// This machine has no video output device; the vivid checks run the command against a real one.
@Suite struct WebcamCommandTests {
    @Test func badCommandLinesAreUsageErrors() async throws {
        try await onOwnThread {
            for arguments in [
                ["webcam"], ["webcam", "/dev/video10", "--format", "1280x720"],
                ["webcam", "/dev/video10", "--format", "1280x720@29.97"],
                ["webcam", "/dev/video10", "--pixel-format", "mjpeg"], ["webcam", "/dev/video10", "--duration", "-1"],
                ["webcam", "/dev/video10", "--jpeg-decoding", "fastest"],
            ] {
                let result = try Tool.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(!result.standardError.isEmpty)
            }
        }
    }

    @Test func aDeviceThatIsNotAVideoOutputIsAClearError() async throws {
        try await onOwnThread {
            let missing = try Tool.run("webcam", "/dev/no-such-video-device")
            #expect(missing.status == 66, "\(missing)")
            #expect(missing.standardError.contains("/dev/no-such-video-device"), "\(missing.standardError)")
            let notVideo = try Tool.run("webcam", "/dev/null")
            #expect(notVideo.status == 76, "\(notVideo)")
            #expect(notVideo.standardError.contains("/dev/null"), "\(notVideo.standardError)")
        }
    }
}
