import Testing
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// `viewfinder remote` on a simulated Lumix, which speaks Panasonic's HTTP API rather than PTP: the page's API
/// follows and controls it as any camera.
@Suite struct RemoteLumixTests {
    @Test func thePageFollowsAndControlsALumix() async throws {
        let log = Locked<[String]>([])
        let simulator = LumixSimulator(
            configuration: .init(port: 0, contentPort: 0, log: { line in log.withLock { $0.append(line) } }))
        let (port, _) = try simulator.start()
        do {
            try await onOwnThread {
                let remote = try RemoteServerTests.Remote(["--host", "127.0.0.1:\(port)", "--family", "panasonic"])
                let state = try remote.state()
                #expect(state.connection == "connected")
                #expect(state.model == "Panasonic DC-TZ90")
                #expect(Set(state.abilities) == ["shutter", "liveView", "video", "files", "heldShutter"])

                let set = try remote.post("/api/properties/iso", "value=ISO+400")
                #expect(set.status == 200, "\(set.text)")
                #expect(try remote.state(since: state.version).value(of: "iso") == "ISO 400")
                #expect(log.withLock { $0.contains("set iso 400") })

                #expect(try remote.post("/api/live-view", "").status == 200)
                let frame = try remote.get("/live.jpg?after=0")
                #expect(frame.status == 200 && frame.headers["content-type"] == "image/jpeg")
                #expect(frame.body.prefix(2) == [0xFF, 0xD8])

                let shot = try remote.post("/api/shutter", "af=1")
                #expect(shot.status == 200, "\(shot.text)")
                #expect(try remote.post("/api/shutter-button", "action=hold").status == 200)
                #expect(try remote.post("/api/shutter-button", "action=release").status == 200)
                // The sample card holds two pictures; the shutter and the held shutter each added one.
                #expect(log.withLock { $0.contains("captured picture 3") && $0.contains("captured picture 4") })

                #expect(try remote.post("/api/recording", "action=start").status == 200)
                #expect(try remote.state().recording)
                #expect(try remote.post("/api/recording", "action=stop").status == 200)
                #expect(log.withLock { $0.contains("recording started") && $0.contains("recording stopped") })
                #expect(remote.stop() == 0, "\(remote.process.standardError)")
            }
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
    }
}
