import Testing
import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The simulated HTTP cameras keep connections as the real ones are known or assumed to (see each simulator): the
/// command servers keep one between requests, drop an idle one for another client, and close when asked; the Lumix's
/// content directory closes after each answer.
///
/// Each test runs on a thread of its own from its first connection to its last answer, as a camera's client would:
/// with the cooperative pool busy, a request sent from a task that waited for the pool came later than the 10 s a
/// simulated camera waits for a new connection's first request.
@Suite struct SimulatedCameraConnectionTests {
    /// Sends `request` on `socket` and returns the answer and whether the connection stays open after it.
    static func exchange(
        _ request: HTTPHead, body: [UInt8] = [], on socket: Socket
    ) throws -> (answer: HTTPClient.Answer, isReusable: Bool) {
        let deadline = ContinuousClock.now + .seconds(20)
        let open: HTTPClient.OpenAnswer
        do throws(HTTPClient.Failure) {
            open = try HTTPClient.send(request, body: body, on: socket, deadline: deadline, activity: "asking")
        } catch {
            throw error.error
        }
        return try HTTPClient.readBody(of: open, maximumBodyLength: 1 << 20, deadline: deadline, activity: "reading")
    }

    static func get(_ target: String, port: UInt16, closing: Bool = false) -> HTTPHead {
        HTTPURL(host: "127.0.0.1", port: port, target: target).getRequest(keepingConnection: !closing)
    }

    /// Runs `body` and then `stop` (a simulator's, which waits for its threads) on a thread of its own.
    static func serving(stop: @escaping @Sendable () -> Void, _ body: () throws -> Void) async throws {
        try await onOwnThread {
            defer { stop() }
            try body()
        }
    }

    static func connect(_ port: UInt16) throws -> Socket {
        try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(20))
    }

    @Test func theOlympusKeepsTheConnectionBetweenRequestsAndClosesWhenAsked() async throws {
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        let port = try simulator.start()
        try await Self.serving(stop: simulator.stop) {
            let socket = try Self.connect(port)
            defer { socket.close() }
            let first = try Self.exchange(Self.get("/get_connectmode.cgi", port: port), on: socket)
            #expect(first.answer.status == 200)
            #expect(first.isReusable)
            let second = try Self.exchange(Self.get("/get_commandlist.cgi", port: port), on: socket)
            #expect(second.answer.status == 200)
            #expect(second.answer.body.starts(with: Array("<?xml".utf8)))
            #expect(second.isReusable)
            let last = try Self.exchange(Self.get("/get_connectmode.cgi", port: port, closing: true), on: socket)
            #expect(last.answer.status == 200)
            #expect(last.answer.head["connection"] == "close")
            #expect(!last.isReusable)
        }
    }

    @Test func theOlympusDropsItsIdleConnectionForAnotherClient() async throws {
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        let port = try simulator.start()
        try await Self.serving(stop: simulator.stop) {
            let idle = try Self.connect(port)
            defer { idle.close() }
            #expect(try Self.exchange(Self.get("/get_connectmode.cgi", port: port), on: idle).isReusable)
            // One connection at a time: the other client is answered, and the idle connection closed.
            let other = try Self.connect(port)
            defer { other.close() }
            #expect(
                try Self.exchange(Self.get("/get_connectmode.cgi", port: port), on: other).answer.status == 200)
            let deadline = ContinuousClock.now + .seconds(20)
            while idle.isIdle && ContinuousClock.now < deadline { usleep(2_000) }
            #expect(!idle.isIdle, "the idle connection stayed open")
        }
    }

    @Test func anHTTP10RequestIsAnsweredAndClosed() async throws {
        let simulator = try OlympusSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        let port = try simulator.start()
        try await Self.serving(stop: simulator.stop) {
            let socket = try Self.connect(port)
            defer { socket.close() }
            let request = HTTPHead(startLine: "GET /get_connectmode.cgi HTTP/1.0", fields: [.init("Host", "127.0.0.1")])
            let answer = try Self.exchange(request, on: socket)
            #expect(answer.answer.status == 200)
            #expect(!answer.isReusable)
        }
    }

    @Test func theLumixKeepsItsCommandConnectionAndClosesItsContentDirectoryAfterEachAnswer() async throws {
        let simulator = LumixSimulator(configuration: .init(port: 0, contentPort: 0, sampleImageCount: 0))
        let (port, contentPort) = try simulator.start()
        try await Self.serving(stop: simulator.stop) {
            let commands = try Self.connect(port)
            defer { commands.close() }
            for _ in 0..<2 {
                let state = try Self.exchange(Self.get("/cam.cgi?mode=getstate", port: port), on: commands)
                #expect(state.answer.status == 200)
                #expect(state.isReusable)
            }
            let content = try Self.connect(contentPort)
            defer { content.close() }
            let description = try Self.exchange(Self.get("/Server0/ddd", port: contentPort), on: content)
            #expect(description.answer.head["connection"] == "close")
            #expect(!description.isReusable)
        }
    }

    @Test func theSonyKeepsTheConnectionBetweenCalls() async throws {
        let simulator = SonyRemoteSimulator(configuration: .init(port: 0))
        let port = try simulator.start()
        try await Self.serving(stop: simulator.stop) {
            let socket = try Self.connect(port)
            defer { socket.close() }
            for id in 1...2 {
                let body = Array(
                    "{\"method\":\"getAvailableApiList\",\"params\":[],\"id\":\(id),\"version\":\"1.0\"}".utf8)
                let request = HTTPHead(
                    startLine: "POST /sony/camera HTTP/1.1",
                    fields: [
                        .init("Host", "127.0.0.1:\(port)"), .init("Content-Type", "application/json"),
                        .init("Content-Length", "\(body.count)"),
                    ])
                let call = try Self.exchange(request, body: body, on: socket)
                #expect(call.answer.status == 200)
                #expect(String(decoding: call.answer.body, as: UTF8.self).contains("getEvent"))
                #expect(call.isReusable)
            }
        }
    }

    /// With a thread free to take them, new clients leave a kept idle connection open: one is dropped only for a client
    /// that would otherwise wait.
    @Test func theSonyKeepsAnIdleConnectionWhileAThreadIsFreeForNewClients() async throws {
        let simulator = SonyRemoteSimulator(configuration: .init(port: 0))
        let port = try simulator.start()
        try await Self.serving(stop: simulator.stop) {
            let idle = try Self.connect(port)
            defer { idle.close() }
            #expect(try Self.exchange(Self.get("/dd.xml", port: port), on: idle).isReusable)
            for _ in 0..<20 {
                let other = try Self.connect(port)
                defer { other.close() }
                let answer = try Self.exchange(Self.get("/dd.xml", port: port, closing: true), on: other)
                #expect(answer.answer.status == 200)
            }
            let kept = idle.isIdle
            #expect(kept, "the idle connection was dropped")
            if kept { #expect(try Self.exchange(Self.get("/dd.xml", port: port), on: idle).answer.status == 200) }
        }
    }
}
