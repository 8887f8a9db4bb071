import Foundation
import Testing
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

extension RemoteServerTests {
    /// How an automation goes, as `GET /api/automation` answers.
    struct AutomationProgress: Decodable {
        var kind: String
        var running: Bool
        var framesCaptured: Int
        var frames: Int
        var error: String?
        var cancelled: Bool
    }

    /// The automation's progress once it has ended, read every 50 ms for at most a minute.
    static func finished(_ remote: Remote) throws -> AutomationProgress {
        for _ in 0..<1200 {
            let reply = try remote.get("/api/automation")
            guard reply.status == 200 else { throw TestFailure("/api/automation answered \(reply.status)") }
            let progress = try JSONDecoder().decode(AutomationProgress.self, from: Data(reply.body))
            if !progress.running { return progress }
            usleep(50_000)
        }
        throw TestFailure("the automation did not end within a minute")
    }

    /// A shutter the page holds and stops renewing is let go by the server, which says so; the hold cannot be renewed
    /// afterwards, and the camera holds nothing more to let go.
    @Test func aHoldThePageStopsRenewingIsLetGo() async throws {
        try await onOwnThread {
            let remote = try Remote(["--hold-lease", "5"])
            let held = try remote.post("/api/shutter-button", "action=hold")
            #expect(held.status == 200, "\(held.text)")
            #expect(try remote.post("/api/shutter-button", "action=keep").status == 200)
            let letGo = remote.process.waitForOutput(timeout: .seconds(30)) { _ in
                remote.process.standardError.contains("the page stopped holding the shutter for 5.0 seconds")
            }
            #expect(letGo, "\(remote.process.standardError)")
            let renewed = try remote.post("/api/shutter-button", "action=keep")
            #expect(renewed.status == 409 && renewed.text.contains("not held"), "\(renewed.text)")
            // The camera's shutter is let go too: letting go again is refused as nothing holds it.
            #expect(try remote.post("/api/shutter-button", "action=release").status == 409)
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }

    /// The page runs a timelapse and a bracket through ViewfinderAutomation, one at a time, follows their progress,
    /// and stops one; another automation or the shutter is refused while one runs.
    @Test func thePageRunsAutomationsOneAtATime() async throws {
        try await onOwnThread {
            let remote = try Remote()
            #expect(try remote.get("/api/automation").text == "null")
            let started = try remote.post("/api/automation", "action=start&kind=timelapse&frames=2&interval=3")
            #expect(started.status == 200, "\(started.text)")
            let second = try remote.post("/api/automation", "action=start&kind=bracket")
            #expect(second.status == 409 && second.text.contains("A timelapse runs"), "\(second.text)")
            let shutter = try remote.post("/api/shutter", "af=0")
            #expect(shutter.status == 409 && shutter.text.contains("stop it to use the shutter"), "\(shutter.text)")
            let timelapse = try Self.finished(remote)
            #expect(timelapse.kind == "timelapse" && timelapse.framesCaptured == 2 && timelapse.error == nil)
            #expect(!timelapse.cancelled)

            // The simulated Nikon shoots in manual exposure: no compensation to step, which the page is told.
            #expect(try remote.post("/api/automation", "action=start&kind=bracket&setting=compensation").status == 200)
            let refused = try Self.finished(remote)
            #expect(refused.error?.contains("exposure compensation") == true && refused.framesCaptured == 0)
            let bracket = try remote.post(
                "/api/automation", "action=start&kind=bracket&setting=shutter&shots=3&step=1")
            #expect(bracket.status == 200, "\(bracket.text)")
            let bracketed = try Self.finished(remote)
            #expect(bracketed.kind == "bracket" && bracketed.framesCaptured == 3, "\(bracketed)")
            #expect(bracketed.error == nil, "\(bracketed)")

            #expect(
                try remote.post("/api/automation", "action=start&kind=timelapse&frames=100&interval=60").status == 200)
            let stopped = try remote.post("/api/automation", "action=stop")
            #expect(stopped.status == 200, "\(stopped.text)")
            let cancelled = try Self.finished(remote)
            #expect(cancelled.cancelled && cancelled.framesCaptured < 100, "\(cancelled)")
            #expect(try remote.post("/api/automation", "action=stop").status == 409)

            #expect(try remote.post("/api/automation", "action=start&kind=panorama").status == 400)
            #expect(try remote.post("/api/automation", "action=start&kind=bracket&shots=4").status == 400)
            #expect(try remote.post("/api/automation", "action=start&kind=timelapse&frames=0").status == 400)
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }
}
