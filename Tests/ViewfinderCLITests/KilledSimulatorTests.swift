import Testing
import Viewfinder
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A ``PTPCamera`` whose camera, `viewfinder simulate` in a process of its own, is killed with SIGKILL in the
/// middle of live view: the kernel closes the camera's connections, with nothing said on the way out.
@Suite(.timeLimit(.minutes(3))) struct KilledSimulatorTests {
    @Test func killingTheCameraProcessFailsLiveViewAndLaterCallsSayTheCameraWentAway() async throws {
        let process = try await onOwnThread {
            try Tool.start(
                ["simulate", "--port", "0", "--identity", "nikon", "--sample-images", "0"], waitingFor: " as ")
        }
        let line = process.standardOutput.split(separator: "\n").first { $0.hasPrefix("listening on 127.0.0.1:") }
        let port = try #require(
            line.flatMap { UInt16($0.dropFirst(23).prefix { $0.isNumber }) }, "\(process.standardOutput)")
        let camera = PTPCamera(
            host: "127.0.0.1", transport: PTPIPTransport.Configuration(port: port, clientName: "tests"))
        try await camera.connect()
        #expect(camera.property(for: .iso).commonValue == .iso100)

        var frames = 0
        var ending: (any Error)?
        do {
            for try await _ in camera.liveViewPublisher(options: [.skipImageDecoding: true]).values {
                frames += 1
                if frames == 3 {
                    process.signal(SIGKILL)
                }
            }
        } catch {
            ending = error
        }
        let status = try await onOwnThread { process.wait(timeout: .seconds(30)) }
        #expect(status == 128 + SIGKILL, "the camera process ended with \(String(describing: status))")
        guard case .failed(let failure) = ending as? LiveViewTerminationReason else {
            Issue.record("live view should have failed, it ended with \(String(describing: ending))")
            return
        }
        #expect(failure.code == .disconnected, "\(failure)")
        #expect(frames >= 3)

        for _ in 0..<1000 where camera.connectionState != .notConnected {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(camera.connectionState == .notConnected)
        let disconnection = try #require(camera.lastDisconnection)
        #expect(!disconnection.wasExpected)
        #expect(disconnection.error?.code == .disconnected, "\(disconnection)")
        #expect(camera.property(for: .iso).currentValue == nil)
        let later = await #expect(throws: ViewfinderError.self) { _ = try await camera.storages() }
        #expect(later?.code == .disconnected)
        #expect(later?.message.contains("went away") == true, "\(String(describing: later))")
    }
}
