import Foundation
import Testing
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `viewfinder remote` and `viewfinder rig` with the cameras that speak HTTP rather than PTP (an Olympus, a Sony
/// that speaks the Camera Remote API, a Lumix), simulated in this process on loopback, as with PTP cameras.
@Suite(.serialized) struct HTTPFamilyCommandTests {
    /// A started simulator of an HTTP family, the options that point the tool at it, and how to stop it.
    struct Simulated {
        var family: String
        var host = "127.0.0.1"
        var port: UInt16
        var stop: @Sendable () -> Void

        var address: String { "\(host):\(port)" }
        var target: [String] { ["--family", family, "--host", address] }

        static func olympus() throws -> Simulated {
            let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 1))
            let port = try simulator.start()
            return Simulated(family: "olympus", port: port) { simulator.stop() }
        }

        static func sonyRemote() throws -> Simulated {
            let simulator = SonyRemoteSimulator(configuration: .init(port: 0))
            let port = try simulator.start()
            return Simulated(family: "sony-remote", port: port) { simulator.stop() }
        }

        /// A Lumix whose content directory is on port 60606, where the driver looks as on real bodies, at a loopback
        /// address of its own so that the fixed port is free.
        static func lumix() throws -> Simulated {
            let address = "127.0.\(Int.random(in: 1...254)).\(Int.random(in: 2...254))"
            let simulator = LumixSimulator(configuration: .init(bindAddress: address, port: 0, contentPort: 60606))
            let (port, _) = try simulator.start()
            return Simulated(family: "panasonic", host: address, port: port) { simulator.stop() }
        }
    }

    /// The page's API of `viewfinder remote` on `simulated`: connected as `model`, a live view frame, and a shot
    /// through the shutter that the file list gains and that downloads as a picture.
    static func checkRemote(_ simulated: Simulated, model: String) throws {
        let remote = try RemoteServerTests.Remote(simulated.target)
        defer { _ = remote.stop() }
        let state = try remote.state()
        #expect(state.connection == "connected", "\(state)")
        #expect(state.model == model)
        #expect(state.abilities.contains("shutter") && state.abilities.contains("liveView"), "\(state.abilities)")

        #expect(try remote.post("/api/live-view", "").status == 200)
        let frame = try remote.get("/live.jpg?after=0")
        #expect(frame.status == 200 && frame.headers["content-type"] == "image/jpeg", "\(frame.status)")
        _ = try decodedJPEGSize(frame.body)

        let before = try remote.files()
        let shot = try remote.post("/api/shutter", "af=1")
        #expect(shot.status == 200, "\(shot.text)")
        var files = before
        let deadline = ContinuousClock.now + .seconds(5)
        while files.count == before.count, ContinuousClock.now < deadline {
            usleep(50_000)
            files = try remote.files()
        }
        try #require(files.count == before.count + 1, "\(before) then \(files)")
        let newest = try #require(files.first { file in !before.contains { $0.handle == file.handle } })
        let download = try remote.get("/files/\(newest.handle)")
        #expect(download.status == 200, "\(download.status)")
        let size = try decodedJPEGSize(download.body)
        #expect(size.width > 0 && size.height > 0)
        #expect(remote.stop() == 0, "\(remote.process.standardError)")
    }

    @Test func theRemoteFollowsAndShootsAnOlympus() async throws {
        try await onOwnThread {
            let olympus = try Simulated.olympus()
            defer { olympus.stop() }
            try Self.checkRemote(olympus, model: "Olympus E-M10MarkII")
        }
    }

    @Test func theRemoteFollowsAndShootsACameraRemoteAPIBody() async throws {
        try await onOwnThread {
            let sony = try Simulated.sonyRemote()
            defer { sony.stop() }
            try Self.checkRemote(sony, model: "Sony ILCE-6000")
        }
    }

    private struct RigRecord: Decodable {
        var camera: String
        var ok: Bool
        var error: String?
        var files: [String]?
    }

    @Test func aRigOfCamerasOfThreeHTTPFamiliesShootsThemAll() async throws {
        try await onOwnThread {
            let cameras = try [Simulated.olympus(), Simulated.sonyRemote(), Simulated.lumix()]
            defer {
                for camera in cameras { camera.stop() }
            }
            let scratch = try ScratchDirectory()
            let result = try Tool.run(
                [
                    "rig", "shoot", "--hosts", cameras.map(\.address).joined(separator: ","),
                    "--families", cameras.map(\.family).joined(separator: ","), "--names", "oly,sony,lumix",
                    "--download", scratch.path, "--json",
                ], timeout: .seconds(60))
            #expect(result.status == 0, "\(result)")
            let records = try decodeJSON([RigRecord].self, from: result)
            #expect(records.map(\.camera) == ["oly", "sony", "lumix"], "\(result)")
            for record in records {
                #expect(record.ok, "\(record)")
                let path = try #require(record.files?.first, "\(record)")
                let name = String(path.split(separator: "/").last ?? "")
                #expect(name.hasPrefix("\(record.camera)-"), "\(path)")
                _ = try decodedJPEGSize(try scratch.bytes(of: name))
            }
            let saved = try scratch.files()
            #expect(saved.count == 3, "\(saved)")
        }
    }
}
