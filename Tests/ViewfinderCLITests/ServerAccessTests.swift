import Foundation
import Testing
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The remote and the preview bound to every interface of a camera's network namespace, used from the app's
/// namespace as a stranger on the same WiFi would, and as a page that rebinds its name to the camera's address:
/// without the token nothing but the page answers, a foreign host is refused even with the token, a change from
/// another origin is refused, and a peer that holds connections open leaves the server to others.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ServerAccessTests {
    /// A server of the tool and what a stranger must not reach on it.
    struct Server: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// Routes that need the token, with their methods.
        var guarded: [(method: String, path: String)]
        /// A route that answers `200` with the token.
        var readable: String
        /// The number of connections the server takes at once.
        var maximumConnections: Int

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let servers = [
        Server(
            arguments: ["remote"],
            guarded: [
                ("GET", "/api/state"), ("GET", "/api/files"), ("GET", "/live.jpg"), ("GET", "/files/1"),
                ("GET", "/files/1/thumbnail.jpg"), ("POST", "/api/shutter"), ("POST", "/api/live-view"),
                ("POST", "/api/recording"), ("POST", "/api/properties/iso"), ("GET", "/missing"),
            ],
            readable: "/api/state", maximumConnections: 16),
        Server(
            arguments: ["preview", "--test-pattern", "--format", "320x240@10"],
            guarded: [("GET", "/stream.mjpeg"), ("GET", "/snapshot.jpg"), ("GET", "/stats"), ("GET", "/missing")],
            readable: "/stats", maximumConnections: 8),
    ]

    /// The server running in the camera's namespace on every interface, and its address.
    static func start(_ server: Server, in pair: NetworkNamespacePair) throws -> (ChildProcess, PrintedAddress) {
        let process = try ChildProcess(
            "ip", ["netns", "exec", pair.camera, Tool.path] + server.arguments + ["--bind", "0.0.0.0"])
        guard
            process.waitForOutput(
                timeout: .seconds(60), until: { $0.contains("Ctrl-C stops") && process.standardError.contains("note:") }
            )
        else {
            throw TestFailure("the server did not start:\n\(process.standardOutput)\(process.standardError)")
        }
        return (process, try PrintedAddress(in: process.standardOutput))
    }

    /// Runs `body` with the server running in a pair of namespaces, then stops the server and removes the pair.
    static func with(
        _ server: Server, _ body: (NetworkNamespacePair, ChildProcess, PrintedAddress) async throws -> Void
    )
        async throws
    {
        let pair = try await namespaces()
        do {
            let (process, address) = try await offThePool { try start(server, in: pair) }
            do {
                try await body(pair, process, address)
            } catch {
                process.interrupt()
                _ = await process.finish(timeout: .seconds(30))
                throw error
            }
            #expect(process.wait(timeout: .zero) == nil, "the server ended: \(process.standardError)")
            process.interrupt()
            let result = await process.finish(timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    static func namespaces() async throws -> NetworkNamespacePair {
        guard getuid() == 0 else { try Test.cancel("network namespaces need root (as in CI)") }
        do {
            return try await NetworkNamespacePair.make()
        } catch {
            try Test.cancel("network namespaces cannot be made here: \(error)")
        }
    }

    @Test(arguments: servers) func aStrangerWithoutTheTokenGetsThePageAndNothingElse(_ server: Server) async throws {
        try await Self.with(server) { pair, process, address in
            let here = "\(pair.gateway):\(address.port)"
            let token = address.tokenField
            #expect(
                process.standardError.contains("http://\(here)/?token=\(address.token)"),
                "the note does not say where other machines open the page: \(process.standardError)")
            try await NetworkNamespacePair.run(in: pair.app) {
                let host = ["Host": here]
                func ask(_ method: String, _ path: String, _ headers: [String: String]) throws -> HTTPReply {
                    method == "POST"
                        ? try HTTPTestClient.post(
                            host: pair.gateway, port: address.port, path, form: "", headers: headers)
                        : try HTTPTestClient.get(
                            host: pair.gateway, port: address.port, path, method: method, headers: headers)
                }
                let page = try ask("GET", "/", host)
                #expect(page.status == 200 && page.headers["set-cookie"] == nil)
                // The token with its first character changed (a token that began with "0" was once "guessed" right).
                let wrong = (address.token.first == "0" ? "1" : "0") + address.token.dropFirst()
                for (method, path) in server.guarded {
                    let reply = try ask(method, path, host)
                    #expect(reply.status == 403 && reply.text.contains("token"), "\(method) \(path): \(reply.status)")
                    let guessed = try ask(method, path, host.merging(["X-Viewfinder-Token": wrong]) { $1 })
                    #expect(guessed.status == 403, "\(method) \(path) with a wrong token: \(guessed.status)")
                }
                #expect(try ask("GET", server.readable, host.merging(token) { $1 }).status == 200)
                // A page whose name was made to point at this camera (DNS rebinding) names itself, token or not.
                for rebound in ["attacker.example", "attacker.example:\(address.port)"] {
                    for path in ["/", server.readable] {
                        let reply = try ask("GET", path, token.merging(["Host": rebound]) { $1 })
                        #expect(reply.status == 421, "\(path) for \(rebound): \(reply.status)")
                    }
                }
                // A change from another origin with the right token and host: a page of another site that has the
                // token cannot use it.
                let foreign = host.merging(token) { $1 }.merging(["Origin": "http://attacker.example"]) { $1 }
                #expect(
                    try ask("POST", server.guarded.first { $0.method == "POST" }?.path ?? "/", foreign).status == 403)
            }
        }
    }

    /// A peer that opens 200 connections and sends nothing holds a share of the server and no more: another peer
    /// (loopback, in the camera's namespace) is served while they are open.
    @Test(arguments: servers) func idleConnectionsFromOnePeerLeaveTheServerToOthers(_ server: Server) async throws {
        try await Self.with(server) { pair, _, address in
            let idle = try await NetworkNamespacePair.run(in: pair.app) {
                Held(
                    try (0..<200).map { _ in
                        try TestConnection(host: pair.gateway, port: address.port, timeout: .seconds(30))
                    })
            }
            let replies = try await NetworkNamespacePair.run(in: pair.camera) {
                try (0..<3).map { _ in
                    try HTTPTestClient.get(port: address.port, server.readable, headers: address.tokenField)
                }
            }
            #expect(replies.map(\.status) == [200, 200, 200], "\(replies.map(\.text))")
            if server.arguments.first == "preview", let last = replies.last {
                let statistics = try JSONSerialization.jsonObject(with: Data(last.body)) as? [String: Any]
                let connections = try #require(statistics?["connections"] as? Int)
                let share = server.maximumConnections - server.maximumConnections / 4
                #expect(connections <= share + 1, "the idle peer holds \(connections) connections")
            }
            withExtendedLifetime(idle) {}
        }
    }
}

/// Connections a test holds open and never uses, handed from the thread that opened them.
private final class Held: @unchecked Sendable {
    // Unchecked: nothing reads or writes the connections; they are only kept open until released.
    let connections: [TestConnection]

    init(_ connections: [TestConnection]) {
        self.connections = connections
    }
}
