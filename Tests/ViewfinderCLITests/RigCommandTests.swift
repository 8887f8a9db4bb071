import Foundation
import Testing
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `viewfinder rig` against several simulated cameras, and `viewfinder simulate --count`.
    @Suite struct RigCommandTests {
        private struct Record: Decodable {
            var camera: String
            var address: String
            var ok: Bool
            var error: String?
            var errorCode: String?
            var files: [String]?
        }

        @Test func shootSavesEachCamerasPictureUnderItsNameAndReportsACameraThatIsGone() async throws {
            try await onOwnThread {
                let cameras = try (0..<3).map { _ in try CameraUnderTest() }
                defer {
                    for camera in cameras { camera.stop() }
                }
                let scratch = try ScratchDirectory()
                let hosts = cameras.map { "127.0.0.1:\($0.simulator.port)" }.joined(separator: ",")
                let result = try Tool.run(
                    [
                        "rig", "shoot", "--hosts", hosts, "--names", "left,middle,right", "--download", scratch.path,
                        "--json",
                    ], timeout: .seconds(60))
                #expect(result.status == 0, "\(result)")
                let records = try decodeJSON([Record].self, from: result)
                #expect(records.map(\.camera) == ["left", "middle", "right"])
                for (record, camera) in zip(records, cameras) {
                    #expect(record.ok, "\(record)")
                    let path = try #require(record.files?.first)
                    let name = String(path.split(separator: "/").last ?? "")
                    #expect(name == "\(record.camera)-DSC_0003.JPG", "\(path)")
                    let handle = try #require(
                        camera.simulator.objectHandles.max(), "no picture on \(record.camera)'s card")
                    #expect(try scratch.bytes(of: name) == camera.simulator.objectData(handle), "\(name)")
                }
                #expect(try scratch.files() == ["left-DSC_0003.JPG", "middle-DSC_0003.JPG", "right-DSC_0003.JPG"])

                // The middle camera goes away: the others still shoot, and the tool says which one failed.
                cameras[1].stop()
                let partial = try Tool.run(["rig", "shoot", "--hosts", hosts, "--connect-timeout", "5"])
                #expect(partial.status == 69, "\(partial)")
                let lines = partial.standardOutput.split(separator: "\n")
                #expect(lines.contains { $0.hasPrefix("cam1  127.0.0.1:\(cameras[1].simulator.port)  failed: ") })
                #expect(lines.filter { $0.contains("took a picture") }.count == 2, "\(partial)")
                #expect(partial.standardError.contains("1 of 3 cameras failed: cam1"), "\(partial)")
            }
        }

        @Test func simulateCountServesCamerasOnConsecutivePortsThatARigConnects() async throws {
            try await onOwnThread {
                let process = try Tool.start(
                    ["simulate", "--count", "3", "--port", "0", "--identity", "nikon"], waitingFor: "cam2: listening")
                defer {
                    process.interrupt()
                    _ = process.wait(timeout: .seconds(30))
                }
                let ports = (0..<3).compactMap { index -> String? in
                    let prefix = "cam\(index): listening on 127.0.0.1:"
                    let line = process.standardOutput.split(separator: "\n").first { $0.hasPrefix(prefix) }
                    return line.map { String($0.dropFirst(prefix.count).prefix { $0.isNumber }) }
                }
                #expect(Set(ports).count == 3, "\(process.standardOutput)")
                let hosts = ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
                let connect = try Tool.run("rig", "connect", "--hosts", hosts)
                #expect(connect.status == 0, "\(connect)")
                for index in 0..<3 {
                    #expect(connect.standardOutput.contains("cam\(index)  127.0.0.1:\(ports[index])  connected Nikon"))
                    #expect(connect.standardOutput.contains("(serial NK0000001-\(index))"), "\(connect)")
                }
                let set = try Tool.run("rig", "set", "iso", "1600", "--hosts", hosts)
                #expect(set.status == 0, "\(set)")
                #expect(set.standardOutput.split(separator: "\n").filter { $0.contains("ISO is ISO 1600") }.count == 3)
                let refused = try Tool.run("rig", "set", "iso", "7", "--hosts", hosts)
                #expect(refused.status == 69, "\(refused)")
                #expect(refused.standardOutput.contains("cannot be set to '7'"), "\(refused)")
            }
        }

        @Test func badRigCommandLinesAreUsageErrors() async throws {
            try await onOwnThread {
                for (arguments, message) in [
                    (["rig", "connect"], "give the rig's cameras with --hosts"),
                    (["rig", "connect", "--hosts", "127.0.0.1:15740+0"], "+N, where N is from 1 to 1000"),
                    (["rig", "connect", "--hosts", "127.0.0.1:65535+2"], "goes past port 65535"),
                    (
                        ["rig", "connect", "--hosts", "127.0.0.1,127.0.0.2", "--names", "a"],
                        "gives 1 names for 2 cameras"
                    ),
                    (["rig", "connect", "--hosts", "127.0.0.1,127.0.0.1"], "names 127.0.0.1:15740 twice"),
                    (["rig", "connect", "--hosts", "127.0.0.1,127.0.0.2", "--names", "a,a/b"], "cannot name a camera"),
                ] {
                    let result = try Tool.run(arguments)
                    #expect(result.status == 64, "\(arguments): \(result)")
                    #expect(result.standardError.contains(message), "\(arguments): \(result)")
                }
            }
        }
    }
}
