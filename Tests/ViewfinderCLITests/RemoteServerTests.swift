import Dispatch
import Foundation
import Testing
import ViewfinderSystem
import ViewfinderTestSupport

/// `viewfinder remote` on its built-in simulated camera, as a process, through raw-socket HTTP: what its page's API
/// answers, and what it answers to bad requests.
@Suite(.serialized) struct RemoteServerTests {
    /// What `/api/state` says, the parts the tests read.
    struct State: Decodable {
        struct Property: Decodable {
            var name: String
            var value: String?
            var settableValues: [String]
        }

        var version: Int
        var connection: String
        var model: String?
        var properties: [Property]
        var abilities: [String]
        var recording: Bool
        /// The camera's autofocus points, as `camera focus --info --json` prints them too.
        var focusInfo: SimulatedCameraCommands.CameraFocusPointCommandTests.Report.Info?

        func value(of name: String) -> String? { properties.first { $0.name == name }?.value }
    }

    /// A file of `/api/files`.
    struct File: Decodable {
        var handle: UInt32
        var name: String
        var bytes: Int?
    }

    /// The remote of the built-in simulated camera (or of the camera `arguments` name), its port and its token.
    final class Remote {
        let process: ChildProcess
        let address: PrintedAddress
        var port: UInt16 { address.port }

        init(_ arguments: [String] = []) throws {
            process = try Tool.start(["remote"] + arguments, waitingFor: "Ctrl-C stops")
            address = try PrintedAddress(in: process.standardOutput)
        }

        /// Asks for `path` with the token.
        func get(_ path: String, method: String = "GET") throws -> HTTPReply {
            try HTTPTestClient.get(port: port, path, method: method, headers: address.tokenField)
        }

        func state(since version: Int = -1) throws -> State {
            let reply = try get("/api/state?since=\(version)")
            guard reply.status == 200 else { throw TestFailure("/api/state answered \(reply.status): \(reply.text)") }
            return try JSONDecoder().decode(State.self, from: Data(reply.body))
        }

        func files() throws -> [File] {
            let reply = try get("/api/files")
            guard reply.status == 200 else { throw TestFailure("/api/files answered \(reply.status): \(reply.text)") }
            return try JSONDecoder().decode([File].self, from: Data(reply.body))
        }

        func post(_ path: String, _ form: String) throws -> HTTPReply {
            try HTTPTestClient.post(port: port, path, form: form, headers: address.tokenField)
        }

        func stop() -> Int32? {
            process.interrupt()
            return process.wait(timeout: .seconds(30))
        }
    }

    @Test func thePageFollowsAndControlsTheCamera() async throws {
        try await onOwnThread {
            let remote = try Remote()
            // The page comes without the token; opened with it, it gets the token as a cookie other sites never send.
            let bare = try HTTPTestClient.get(port: remote.port, "/")
            #expect(bare.status == 200 && bare.headers["set-cookie"] == nil)
            let page = try HTTPTestClient.get(port: remote.port, "/?token=\(remote.address.token)")
            #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(
                page.text.contains("id=\"live\"") && !page.text.contains("http://") && !page.text.contains("https://"))
            let cookie = try #require(page.headers["set-cookie"])
            #expect(
                cookie == "viewfinder-remote-\(remote.port)=\(remote.address.token); Path=/; HttpOnly; SameSite=Strict")
            let withCookie = try HTTPTestClient.get(
                port: remote.port, "/api/state", headers: ["Cookie": "other=1; " + cookie.prefix { $0 != ";" }])
            #expect(withCookie.status == 200, "the page's cookie does not carry the token")

            let state = try remote.state()
            #expect(state.connection == "connected")
            #expect(state.model?.contains("Nikon") == true)
            #expect(
                Set(state.abilities)
                    == ["shutter", "liveView", "video", "files", "focusDrive", "heldShutter", "focusInfo", "touchAF"])
            #expect(state.properties.first { $0.name == "iso" }?.settableValues.contains("ISO 800") == true)
            // A page asks for a state newer than the one it shows, and gets the camera's change (a page that asks
            // before the change waits for it: waitsTakeHalfTheConnectionsAtMost sees such waits end with the change).
            let set = try remote.post("/api/properties/iso", "value=ISO+800")
            #expect(set.status == 200, "\(set.text)")
            let changed = try remote.state(since: state.version)
            #expect(changed.version > state.version && changed.value(of: "iso") == "ISO 800")

            // A GET never turns live view on: the page starts it with a POST.
            #expect(try remote.get("/live.jpg?after=0").status == 409)
            #expect(try remote.post("/api/live-view", "").status == 200)
            let frame = try remote.get("/live.jpg?after=0")
            #expect(frame.status == 200 && frame.headers["content-type"] == "image/jpeg")
            #expect(frame.body.prefix(2) == [0xFF, 0xD8])
            let number = try #require(frame.headers["x-frame-number"].flatMap(Int.init))
            let next = try remote.get("/live.jpg?after=\(number)")
            #expect(next.headers["x-frame-number"].flatMap(Int.init) == number + 1, "the next frame is fetched")
            let stale = try remote.get("/live.jpg?after=1000000")
            #expect(stale.status == 200, "a page from an earlier run of the remote gets frames too")

            // The focus moves a step while live view is on; the shutter is held and let go, which at the set
            // shutter speed takes a picture, and letting go of a shutter nobody holds is refused.
            let focused = try remote.post("/api/focus", "size=large&towards=camera")
            #expect(focused.status == 200, "\(focused.text)")
            let held = try remote.post("/api/shutter-button", "action=hold")
            #expect(held.status == 200, "\(held.text)")
            let released = try remote.post("/api/shutter-button", "action=release")
            #expect(released.status == 200, "\(released.text)")
            let unheld = try remote.post("/api/shutter-button", "action=release")
            #expect(unheld.status == 409, "\(unheld.text)")

            let filesBefore = try remote.files()
            #expect(try remote.post("/api/shutter", "af=1").status == 200)
            var files = filesBefore
            for _ in 0..<100 where files.count == filesBefore.count {
                usleep(50_000)
                files = try remote.files()
            }
            #expect(files.count == filesBefore.count + 1)
            let newest = try #require(files.first)
            let thumbnail = try remote.get("/files/\(newest.handle)/thumbnail.jpg")
            #expect(thumbnail.status == 200 && thumbnail.body.prefix(2) == [0xFF, 0xD8])
            let download = try remote.get("/files/\(newest.handle)")
            #expect(download.status == 200 && download.body.count == newest.bytes)
            #expect(
                download.headers["content-disposition"]
                    == "attachment; filename=\"\(newest.name)\"; filename*=UTF-8''\(newest.name)")
            let head = try remote.get("/files/\(newest.handle)", method: "HEAD")
            #expect(head.status == 200 && head.headers["content-length"] == "\(newest.bytes ?? -1)")

            #expect(try remote.post("/api/recording", "action=start").status == 200)
            #expect(try remote.state().recording)
            #expect(try remote.post("/api/recording", "action=stop").status == 200)
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }

    @Test func aClickOnTheLiveViewFocusesThere() async throws {
        try await onOwnThread {
            let remote = try Remote()
            // Touch AF takes a point of the latest frame: none before live view.
            #expect(try remote.post("/api/touch-af", "x=0.5&y=0.5").status == 409)
            #expect(try remote.post("/api/live-view", "").status == 200)
            var frame = try remote.get("/live.jpg?after=0")
            #expect(frame.status == 200)
            let middle = SimulatedCameraCommands.CameraFocusPointCommandTests.Report.Area(
                x: 2700, y: 1800, width: 600, height: 400, active: true, focused: false)
            #expect(try remote.state().focusInfo?.points == [middle])

            // A quarter of the way across and down the 6000x4000 picture.
            let touched = try remote.post("/api/touch-af", "x=0.25&y=0.25")
            #expect(touched.status == 200, "\(touched.text)")
            #expect(touched.text == #"{"x":1500,"y":1000}"#)
            let moved = SimulatedCameraCommands.CameraFocusPointCommandTests.Report.Area(
                x: 1200, y: 800, width: 600, height: 400, active: true, focused: true)
            var number = frame.headers["x-frame-number"].flatMap(Int.init) ?? 0
            for _ in 0..<50 {
                if try remote.state().focusInfo?.points == [moved] { break }
                frame = try remote.get("/live.jpg?after=\(number)")
                number = frame.headers["x-frame-number"].flatMap(Int.init) ?? number
            }
            #expect(try remote.state().focusInfo?.points == [moved])

            #expect(try remote.post("/api/touch-af", "x=2&y=0.5").status == 400)
            #expect(try remote.post("/api/touch-af", "x=left").status == 400)
            #expect(try remote.get("/api/touch-af").status == 405)
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }

    /// A file streams from the camera through the remote as it comes, its length said first, each byte as the
    /// camera's; while it goes to one browser, another request for it is refused and other files still download, and
    /// once that browser goes away the file downloads again.
    @Test func aLargeFileStreamsAsItComesAndGoesToOneBrowserAtATime() async throws {
        try await CameraUnderTest.with { camera in
            let size: UInt64 = 48 << 20 + 12345
            let handle = try camera.simulator.addGeneratedObject(named: "MVI_0001.MOV", byteCount: size)
            let remote = try Remote(camera.target + ["--family", "nikon"])
            let files = try remote.files()
            let movie = try #require(files.first { $0.handle == handle }, "\(files)")
            #expect(movie.bytes == Int(size))
            let picture = try #require(files.first { $0.name.hasSuffix(".JPG") }, "\(files)")

            var first: TestConnection? = try TestConnection(port: remote.port, receiveBuffer: 16384)
            try first?.request("/files/\(handle)", headers: remote.address.tokenField)
            let head = try #require(try first?.readHead())
            #expect(head.status == 200 && head.headers["content-length"] == "\(size)", "\(head)")
            #expect(head.headers["content-type"] == "video/quicktime")
            let start = try #require(try first?.read(count: 1 << 20))
            #expect(Self.isGenerated(start, from: 0), "the first MiB is not the camera's")

            let second = try remote.get("/files/\(handle)")
            #expect(second.status == 409 && second.text.contains("being downloaded already"), "\(second.text)")
            let other = try remote.get("/files/\(picture.handle)")
            #expect(other.status == 200 && other.body.count == picture.bytes)

            first = nil
            var again = second
            for _ in 0..<200 where again.status == 409 {
                usleep(50_000)
                again = try remote.get("/files/\(handle)")
            }
            #expect(again.status == 200 && again.body.count == Int(size), "\(again.status) \(again.body.count)")
            #expect(Self.isGenerated(again.body, from: 0), "the file's bytes are not the camera's")
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }

    /// At most half the connections wait for something new: of three waits on a remote of four connections, one is
    /// answered `429` at once while two wait, and a change still finds a connection, which ends the waits.
    @Test func waitsTakeHalfTheConnectionsAtMost() async throws {
        try await onOwnThread {
            let remote = try Remote(["--max-connections", "4"])
            let version = try remote.state().version
            let waits = DispatchGroup()
            let answered = Locked<[HTTPReply]>([])
            let (port, token) = (remote.port, remote.address.tokenField)
            for _ in 0..<3 {
                waits.enter()
                // Threads of their own for the requests that wait: Dispatch's worker threads are not for waiting.
                try PlatformThread.detach(name: "test-wait") {
                    if let reply = try? HTTPTestClient.get(port: port, "/api/state?since=\(version)", headers: token) {
                        answered.withLock { $0.append(reply) }
                    }
                    waits.leave()
                }
            }
            let deadline = ContinuousClock.now + .seconds(15)
            while answered.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { usleep(10_000) }
            let first = try #require(answered.withLock { $0.first }, "no wait was refused")
            #expect(first.status == 429 && first.text.contains("2 requests wait"), "\(first.status) \(first.text)")
            // The refused request's connection closes as the change comes; the change may find it still open once.
            var change = try remote.post("/api/properties/iso", "value=ISO+800")
            for _ in 0..<100 where change.status == 503 {
                usleep(20_000)
                change = try remote.post("/api/properties/iso", "value=ISO+800")
            }
            #expect(change.status == 200, "\(change.text)")
            #expect(waits.wait(timeout: .now() + 30) == .success)
            #expect(answered.withLock { $0.map(\.status) } == [429, 200, 200])
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }

    /// Whether `bytes`, from `offset` in a file the simulator generates, are its bytes: each 4096-byte page starts
    /// with its number (64 bits, little-endian), and its other bytes are that number's low byte.
    static func isGenerated(_ bytes: [UInt8], from offset: UInt64) -> Bool {
        bytes.indices.allSatisfy { index in
            let position = offset + UInt64(index)
            let page = position / 4096
            let inPage = position % 4096
            let expected =
                inPage < 8 ? UInt8(truncatingIfNeeded: page >> (8 * inPage)) : UInt8(truncatingIfNeeded: page)
            return bytes[index] == expected
        }
    }

    @Test func badRequestsGetAClearStatusAndNothingBreaks() async throws {
        try await onOwnThread {
            let remote = try Remote()
            let port = remote.port
            func raw(_ text: String) throws -> HTTPReply { try HTTPTestClient.exchange(port: port, Array(text.utf8)) }

            #expect(try remote.get("/missing").status == 404)
            #expect(try remote.get("/../../etc/passwd").status == 404)
            #expect(try remote.get("/api/shutter").status == 405)
            #expect(try remote.get("/", method: "DELETE").status == 405)
            #expect(try raw("HELLO\r\n\r\n").status == 400)
            #expect(try raw("GET / HTTP/1.1\r\n\r\n").status == 400, "a request names its host")
            #expect(try raw("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\n\r\n").status == 400)
            #expect(try raw("GET / HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n").status == 400)
            let huge = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: \(String(repeating: "a", count: 20_000))\r\n\r\n"
            #expect(try raw(huge).status == 431)
            let body = String(repeating: "v", count: 20_000)
            #expect(try remote.post("/api/properties/iso", body).status == 413)
            #expect(try raw("GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n").status == 421)

            let tokenless = try HTTPTestClient.post(port: port, "/api/properties/iso", form: "value=ISO+800")
            #expect(tokenless.status == 403 && tokenless.text.contains("token"), "\(tokenless.text)")
            let wrongToken = try HTTPTestClient.get(port: port, "/api/state", headers: ["X-Viewfinder-Token": "0"])
            #expect(wrongToken.status == 403)
            let foreign = try HTTPTestClient.post(
                port: port, "/api/shutter", form: "",
                headers: remote.address.tokenField.merging(["Origin": "http://attacker.example"]) { $1 })
            #expect(foreign.status == 403, "a change from another site's page")
            let crossSite = try HTTPTestClient.post(
                port: port, "/api/shutter", form: "",
                headers: remote.address.tokenField.merging(["Sec-Fetch-Site": "cross-site"]) { $1 })
            #expect(crossSite.status == 403, "a change a browser says another site made")
            let badValue = try remote.post("/api/properties/iso", "value=ISO+12345")
            #expect(badValue.status == 400 && badValue.text.contains("ISO 12345"), "\(badValue.text)")
            #expect(try remote.post("/api/properties/iso", "value=").status == 400)
            #expect(try remote.post("/api/properties/nothing", "value=1").status == 404)
            #expect(try remote.post("/api/recording", "action=explode").status == 400)
            #expect(try remote.post("/api/shutter-button", "action=squeeze").status == 400)
            #expect(try remote.get("/api/shutter-button").status == 405)
            #expect(try remote.post("/api/focus", "size=huge&towards=camera").status == 400)
            #expect(try remote.post("/api/focus", "size=small").status == 400)
            let withoutLiveView = try remote.post("/api/focus", "size=small&towards=infinity")
            #expect(
                withoutLiveView.status == 409 && withoutLiveView.text.contains("live view"), "\(withoutLiveView.text)")
            #expect(try remote.get("/files/abc").status == 400)
            #expect(try remote.get("/files/4000000000/thumbnail.jpg").status == 404)

            #expect(try remote.state().connection == "connected", "the remote still serves")
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }
}
