import Foundation
import Testing
import ViewfinderTestSupport

/// The `camera` commands on a simulated Olympus, which speaks Olympus's HTTP API rather than PTP, found with
/// `--family olympus --host`.
@Suite struct CameraOlympusCommandTests {
    @Test func infoGetSetShootFilesAndLiveViewWorkOnAnOlympus() async throws {
        try await onOwnThread {
            let simulator = try Tool.start(
                ["simulate", "--identity", "olympus", "--port", "0", "--sample-images", "1"], waitingFor: " as ")
            defer {
                simulator.interrupt()
                _ = simulator.wait(timeout: .seconds(30))
            }
            let line = simulator.standardOutput.split(separator: "\n").first { $0.hasPrefix("listening on 127.0.0.1:") }
            let port = try #require(
                line.flatMap { String($0.dropFirst(23).prefix { $0.isNumber }) }, "\(simulator.standardOutput)")
            let target = ["--family", "olympus", "--host", "127.0.0.1:\(port)"]

            let info = try Tool.run(["camera", "info", "--json"] + target)
            #expect(info.status == 0, "\(info)")
            #expect(info.standardOutput.contains("E-M10MarkII"), "\(info)")
            #expect(info.standardOutput.contains("liveView"), "\(info)")
            let discovered = try Tool.run(["discover"] + target)
            #expect(discovered.status == 0, "\(discovered)")
            #expect(discovered.standardOutput.contains("E-M10MarkII"), "\(discovered)")

            let set = try Tool.run(["camera", "set", "iso", "400"] + target)
            #expect(set.status == 0, "\(set)")
            let get = try Tool.run(["camera", "get", "iso"] + target)
            #expect(get.status == 0 && get.standardOutput.contains("400"), "\(get)")

            let directory = try TemporaryDirectory()
            let shot = try Tool.run(["camera", "shoot", "--download", directory.path] + target)
            #expect(shot.status == 0, "\(shot)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["PC060002.JPG"], "\(shot)")
            let files = try Tool.run(["camera", "files"] + target)
            #expect(files.status == 0, "\(files)")
            #expect(files.standardOutput.contains("PC060001.JPG"), "\(files)")
            #expect(files.standardOutput.contains("PC060002.JPG"), "\(files)")

            let frames = try TemporaryDirectory()
            let liveView = try Tool.run(["camera", "liveview", "--frames", "3", "--out", frames.path] + target)
            #expect(liveView.status == 0, "\(liveView)")
            let saved = try FileManager.default.contentsOfDirectory(atPath: frames.path)
            #expect(saved.filter { $0.hasSuffix(".jpg") }.count == 3, "\(saved) \(liveView)")
        }
    }
}
