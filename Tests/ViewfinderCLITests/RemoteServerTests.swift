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

        func value(of name: String) -> String? { properties.first { $0.name == name }?.value }
    }

    /// A file of `/api/files`.
    struct File: Decodable {
        var handle: UInt32
        var name: String
        var bytes: Int?
    }

    /// The remote of the built-in simulated camera, and its port.
    final class Remote {
        let process: ChildProcess
        let port: UInt16

        init() throws {
            process = try Tool.start(["remote"], waitingFor: "Ctrl-C stops")
            let output = process.standardOutput
            guard let start = output.range(of: "http://127.0.0.1:"),
                let port = UInt16(output[start.upperBound...].prefix { $0.isNumber })
            else { throw TestFailure("no address in: \(output)") }
            self.port = port
        }

        func state(since version: Int = -1) throws -> State {
            let reply = try HTTPTestClient.get(port: port, "/api/state?since=\(version)")
            guard reply.status == 200 else { throw TestFailure("/api/state answered \(reply.status): \(reply.text)") }
            return try JSONDecoder().decode(State.self, from: Data(reply.body))
        }

        func post(_ path: String, _ form: String) throws -> HTTPReply {
            try HTTPTestClient.post(port: port, path, form: form, headers: ["X-Viewfinder-Remote": "1"])
        }

        func stop() -> Int32? {
            process.interrupt()
            return process.wait(timeout: .seconds(30))
        }
    }

    @Test func thePageFollowsAndControlsTheCamera() async throws {
        try await onOwnThread {
            let remote = try Remote()
            let page = try HTTPTestClient.get(port: remote.port, "/")
            #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(
                page.text.contains("id=\"live\"") && !page.text.contains("http://") && !page.text.contains("https://"))

            let state = try remote.state()
            #expect(state.connection == "connected")
            #expect(state.model?.contains("Nikon") == true)
            #expect(Set(state.abilities) == ["shutter", "liveView", "video", "files"])
            #expect(state.properties.first { $0.name == "iso" }?.settableValues.contains("ISO 800") == true)
            // A page waits for a state newer than the one it shows, and gets it when the camera changes.
            let change = DispatchSemaphore(value: 0)
            let followed = Locked<State?>(nil)
            let port = remote.port
            DispatchQueue.global().async {
                let reply = try? HTTPTestClient.get(port: port, "/api/state?since=\(state.version)")
                followed.withLock { $0 = reply.flatMap { try? JSONDecoder().decode(State.self, from: Data($0.body)) } }
                change.signal()
            }
            usleep(300_000)
            let set = try remote.post("/api/properties/iso", "value=ISO+800")
            #expect(set.status == 200, "\(set.text)")
            #expect(change.wait(timeout: .now() + 15) == .success)
            let changed = try #require(followed.withLock { $0 })
            #expect(changed.version > state.version && changed.value(of: "iso") == "ISO 800")

            let frame = try HTTPTestClient.get(port: remote.port, "/live.jpg?after=0")
            #expect(frame.status == 200 && frame.headers["content-type"] == "image/jpeg")
            #expect(frame.body.prefix(2) == [0xFF, 0xD8])
            let number = try #require(frame.headers["x-frame-number"].flatMap(Int.init))
            let next = try HTTPTestClient.get(port: remote.port, "/live.jpg?after=\(number)")
            #expect(next.headers["x-frame-number"].flatMap(Int.init) == number + 1, "the next frame is fetched")
            let stale = try HTTPTestClient.get(port: remote.port, "/live.jpg?after=1000000")
            #expect(stale.status == 200, "a page from an earlier run of the remote gets frames too")

            let filesBefore = try JSONDecoder().decode(
                [File].self, from: Data(try HTTPTestClient.get(port: remote.port, "/api/files").body))
            #expect(try remote.post("/api/shutter", "af=1").status == 200)
            var files = filesBefore
            for _ in 0..<100 where files.count == filesBefore.count {
                usleep(50_000)
                files = try JSONDecoder().decode(
                    [File].self, from: Data(try HTTPTestClient.get(port: remote.port, "/api/files").body))
            }
            #expect(files.count == filesBefore.count + 1)
            let newest = try #require(files.first)
            let thumbnail = try HTTPTestClient.get(port: remote.port, "/files/\(newest.handle)/thumbnail.jpg")
            #expect(thumbnail.status == 200 && thumbnail.body.prefix(2) == [0xFF, 0xD8])
            let download = try HTTPTestClient.get(port: remote.port, "/files/\(newest.handle)")
            #expect(download.status == 200 && download.body.count == newest.bytes)
            #expect(download.headers["content-disposition"] == "attachment; filename=\"\(newest.name)\"")

            #expect(try remote.post("/api/recording", "action=start").status == 200)
            #expect(try remote.state().recording)
            #expect(try remote.post("/api/recording", "action=stop").status == 200)
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }

    @Test func badRequestsGetAClearStatusAndNothingBreaks() async throws {
        try await onOwnThread {
            let remote = try Remote()
            let port = remote.port
            func raw(_ text: String) throws -> HTTPReply { try HTTPTestClient.exchange(port: port, Array(text.utf8)) }

            #expect(try HTTPTestClient.get(port: port, "/missing").status == 404)
            #expect(try HTTPTestClient.get(port: port, "/../../etc/passwd").status == 404)
            #expect(try HTTPTestClient.get(port: port, "/api/shutter").status == 405)
            #expect(try HTTPTestClient.get(port: port, "/", method: "DELETE").status == 405)
            #expect(try raw("HELLO\r\n\r\n").status == 400)
            let huge = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: \(String(repeating: "a", count: 20_000))\r\n\r\n"
            #expect(try raw(huge).status == 431)
            let body = String(repeating: "v", count: 20_000)
            let tooLong = try HTTPTestClient.post(
                port: port, "/api/properties/iso", form: body, headers: ["X-Viewfinder-Remote": "1"])
            #expect(tooLong.status == 413)
            #expect(try raw("GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n").status == 421)

            let unmarked = try HTTPTestClient.post(port: port, "/api/properties/iso", form: "value=ISO+800")
            #expect(unmarked.status == 403, "a POST without the remote's header comes from another page")
            let badValue = try remote.post("/api/properties/iso", "value=ISO+12345")
            #expect(badValue.status == 400 && badValue.text.contains("ISO 12345"), "\(badValue.text)")
            #expect(try remote.post("/api/properties/iso", "value=").status == 400)
            #expect(try remote.post("/api/properties/nothing", "value=1").status == 404)
            #expect(try remote.post("/api/recording", "action=explode").status == 400)
            #expect(try HTTPTestClient.get(port: port, "/files/abc").status == 400)
            #expect(try HTTPTestClient.get(port: port, "/files/4000000000/thumbnail.jpg").status == 404)

            #expect(try remote.state().connection == "connected", "the remote still serves")
            #expect(remote.stop() == 0, "\(remote.process.standardError)")
        }
    }
}
