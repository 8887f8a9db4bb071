import Foundation
import Testing
import ViewfinderTestSupport

/// The `camera` commands on a simulated Sony Camera Remote API body, which speaks JSON-RPC over HTTP rather than PTP,
/// found with `--family sony-remote --host`.
@Suite struct CameraSonyRemoteCommandTests {
    /// What `camera shoot --json` prints, as far as these tests read it.
    struct ShootReport: Decodable {
        struct File: Decodable {
            var name: String
            var bytes: UInt64?
            var sizeKind: String
        }
        var files: [File]
    }

    @Test func infoGetSetShootAndLiveViewWorkOnACameraRemoteAPIBody() async throws {
        try await onOwnThread {
            let simulator = try Tool.start(
                ["simulate", "--identity", "sony-remote-api", "--port", "0"], waitingFor: "/dd.xml")
            defer {
                simulator.interrupt()
                _ = simulator.wait(timeout: .seconds(30))
            }
            let prefix = "description at http://127.0.0.1:"
            let line = simulator.standardOutput.split(separator: "\n").first { $0.hasPrefix(prefix) }
            let port = try #require(
                line.flatMap { String($0.dropFirst(prefix.count).prefix { $0.isNumber }) },
                "\(simulator.standardOutput)")
            let target = ["--family", "sony-remote", "--host", "127.0.0.1:\(port)"]

            let info = try Tool.run(["camera", "info", "--json"] + target)
            #expect(info.status == 0, "\(info)")
            #expect(info.standardOutput.contains("ILCE-6000"), "\(info)")
            #expect(info.standardOutput.contains("liveView"), "\(info)")
            let discovered = try Tool.run(["discover"] + target)
            #expect(discovered.status == 0, "\(discovered)")
            #expect(discovered.standardOutput.contains("ILCE-6000"), "\(discovered)")

            let set = try Tool.run(["camera", "set", "iso", "400"] + target)
            #expect(set.status == 0, "\(set)")
            let get = try Tool.run(["camera", "get", "iso"] + target)
            #expect(get.status == 0 && get.standardOutput.contains("400"), "\(get)")

            let directory = try TemporaryDirectory()
            let shot = try Tool.run(["camera", "shoot", "--download", directory.path] + target)
            #expect(shot.status == 0, "\(shot)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["pict1.JPG"], "\(shot)")
            // The Camera Remote API gives no file sizes: the size is unknown, not "4 GB or more".
            #expect(shot.standardOutput.contains("Took pict1.JPG (handle "), "\(shot)")
            #expect(shot.standardOutput.contains(", unknown)"), "\(shot)")
            #expect(!shot.standardOutput.contains("4 GB"), "\(shot)")
            let shotJSON = try Tool.run(["camera", "shoot", "--json"] + target)
            #expect(shotJSON.status == 0, "\(shotJSON)")
            let report = try decodeJSON(ShootReport.self, from: shotJSON)
            let file = try #require(report.files.first, "\(shotJSON)")
            #expect(file.bytes == nil && file.sizeKind == "unknown", "\(shotJSON)")

            let frames = try TemporaryDirectory()
            let liveView = try Tool.run(["camera", "liveview", "--frames", "3", "--out", frames.path] + target)
            #expect(liveView.status == 0, "\(liveView)")
            let saved = try FileManager.default.contentsOfDirectory(atPath: frames.path)
            #expect(saved.filter { $0.hasSuffix(".jpg") }.count == 3, "\(saved) \(liveView)")
        }
    }
}
