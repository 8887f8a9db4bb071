import Testing
import ViewfinderTestSupport

/// The capture-device commands where there is nothing to capture from: unknown devices and machines without any.
///
/// The commands against a real device run in the vivid VM (`make test-vivid`); these check what users see when
/// the device they name is not there, on this machine as it is.
@Suite struct CaptureDeviceCommandTests {
    /// Whether this machine has V4L2 capture devices, by the tool's own JSON listing.
    static func machineHasDevices() throws -> Bool {
        let result = try Tool.run("devices", "--json")
        #expect(result.status == 0, "\(result)")
        let listing = result.standardOutput.filter { !$0.isWhitespace }
        #expect(listing.hasPrefix("[") && listing.hasSuffix("]"), "\(result)")
        return listing != "[]"
    }

    @Test func devicesSaysWhatToCheckWhenThereAreNone() async throws {
        try await onOwnThread {
            let result = try Tool.run("devices")
            #expect(result.status == 0, "\(result)")
            if try Self.machineHasDevices() {
                #expect(result.standardOutput.hasPrefix("#  DEVICE"), "\(result)")
            } else {
                #expect(result.standardOutput.isEmpty, "\(result)")
                #expect(result.standardError.contains("there are no V4L2 capture devices on this machine"), "\(result)")
                #expect(result.standardError.contains("modprobe vivid"), "\(result)")
            }
        }
    }

    @Test(arguments: [
        ["formats", "/dev/video97"], ["controls", "/dev/video97", "--json"],
        ["set-control", "/dev/video97", "gain", "1"],
        ["capture", "/dev/video97", "--out", "/nonexistent"], ["preview", "/dev/video97"],
    ])
    func aMissingNodeIsNamedInTheError(_ arguments: [String]) async throws {
        try await onOwnThread {
            let result = try ChildProcess.run(Tool.path, arguments)
            #expect(result.standardOutput.isEmpty, "\(result)")
            #expect(result.standardError.contains("viewfinder: error: there is no /dev/video97"), "\(result)")
            if try Self.machineHasDevices() {
                #expect(result.status == 66, "\(result)")
                #expect(result.standardError.contains("viewfinder devices"), "\(result)")
            } else {
                #expect(result.status == 69, "\(result)")
                #expect(result.standardError.contains("there are no V4L2 capture devices"), "\(result)")
            }
        }
    }

    @Test(arguments: [["formats", "no-such-camera-model"], ["capture", "no-such-camera-model"], ["controls", "97"]])
    func anUnknownNameOrNumberSaysWhatExists(_ arguments: [String]) async throws {
        try await onOwnThread {
            let result = try ChildProcess.run(Tool.path, arguments)
            #expect(result.standardOutput.isEmpty, "\(result)")
            if try Self.machineHasDevices() {
                #expect(result.status == 66, "\(result)")
                #expect(result.standardError.contains("this machine has"), "\(result)")
            } else {
                #expect(result.status == 69, "\(result)")
                #expect(result.standardError.contains("there are no V4L2 capture devices on this machine"), "\(result)")
            }
        }
    }

    @Test func aFileThatIsNotADeviceIsRefused() async throws {
        try await onOwnThread {
            let result = try Tool.run("formats", "/dev/null")
            #expect(result.status == 66, "\(result)")
            #expect(result.standardError.contains("/dev/null is not a video capture device"), "\(result)")
        }
    }
}
