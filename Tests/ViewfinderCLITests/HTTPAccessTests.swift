import Dispatch
import Testing
import ViewfinderHTTP
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCLI

/// The shared HTTP server's parts on their own: the request reader, the access policy every page keeps, the
/// download's headers and chunks, and the remote's single listing.
@Suite struct HTTPAccessTests {
    static let token = String(repeating: "ab", count: 24)
    static let access = HTTPAccess(
        token: token, name: "remote", port: 8080, openPaths: ["/", "/index.html"], allowedHosts: ["Camera.Local."])

    static func request(_ head: String) throws -> HTTPRequest {
        try HTTPRequest.parse(head.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    static func decide(
        _ head: String, localAddress: String = "127.0.0.1", bindAddress: String = "127.0.0.1"
    ) throws -> (status: String?, cookie: String?) {
        switch access.decide(try request(head), localAddress: localAddress, bindAddress: bindAddress) {
        case .serve(let cookie): (nil, cookie)
        case .refuse(let response): (response.status, nil)
        }
    }

    @Test func requestsAreReadStrictly() throws {
        let request = try Self.request(
            "GET /files/3?after=2&name=a%20b+c HTTP/1.1\nHost: 127.0.0.1:8080\nCookie: a=1\ncookie: b=2\nX-Many: 1\nx-many: 2\n"
        )
        #expect(request.method == "GET" && request.path == "/files/3")
        #expect(request.query == ["after": "2", "name": "a b c"])
        #expect(request.headers["host"] == "127.0.0.1:8080" && request.headers["x-many"] == "1, 2")
        #expect(request.cookies == ["a": "1", "b": "2"])
        let refused: [(String, HTTPRequest.Failure)] = [
            ("GET / HTTP/1.1\nHost: a\nHost: b\n", .malformed),
            ("GET / HTTP/1.1\nHost : a\n", .malformed),
            ("GET / HTTP/1.1\nContent-Length: 1\nContent-Length: 2\n", .malformed),
            ("GET / HTTP/2\nHost: a\n", .malformed),
            ("GET http://a/ HTTP/1.1\nHost: a\n", .malformed),
            ("G(T / HTTP/1.1\nHost: a\n", .malformed),
            ("GET / HTTP/1.1\n" + (0...64).map { "X-\($0): 1\n" }.joined(), .tooLarge),
        ]
        for (head, failure) in refused {
            #expect(throws: failure, "\(head)") { try Self.request(head) }
        }
    }

    /// A request must arrive whole by its deadline however slowly its bytes come, and its length is a number.
    @Test func aRequestThatTricklesInOrLiesAboutItsLengthIsRefused() async throws {
        try await onOwnThread {
            let (near, far) = try Socket.pair()
            try far.send(Array("GET / HTTP/1.1\r\nHost: 127".utf8), timeout: .seconds(1), while: "sending")
            #expect(throws: HTTPRequest.Failure.timedOut) {
                try HTTPRequest.read(from: near, until: .now + .milliseconds(200))
            }
            let (reader, writer) = try Socket.pair()
            try writer.send(
                Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello".utf8), timeout: .seconds(1),
                while: "sending")
            #expect(throws: HTTPRequest.Failure.malformed) {
                try HTTPRequest.read(from: reader, until: .now + .seconds(5))
            }
        }
    }

    /// The host must be this machine: loopback, the address the request reached, the bound address, or a name
    /// the user gave; a rebinding page's own name is refused.
    @Test func theHostMustNameThisMachine() throws {
        let token = "X-Viewfinder-Token: \(Self.token)\n"
        for host in ["localhost", "LOCALHOST:8080", "127.0.0.1:8080", "[::1]:8080", "camera.local", "camera.local."] {
            #expect(try Self.decide("GET /api/state HTTP/1.1\nHost: \(host)\n" + token).status == nil, "\(host)")
        }
        #expect(
            try Self.decide("GET /api/state HTTP/1.1\nHost: 10.77.0.1:8080\n" + token, localAddress: "10.77.0.1").status
                == nil)
        #expect(
            try Self.decide("GET / HTTP/1.1\nHost: 10.0.0.9\n", localAddress: "::ffff:10.0.0.9", bindAddress: "::")
                .status == nil)
        #expect(
            try Self.decide("GET / HTTP/1.1\nHost: 192.168.1.5\n", localAddress: "10.0.0.9", bindAddress: "192.168.1.5")
                .status == nil)
        for host in ["attacker.example", "attacker.example:8080", "127.0.0.1.attacker.example", "10.77.0.1"] {
            #expect(try Self.decide("GET / HTTP/1.1\nHost: \(host)\n" + token).status == "421 Misdirected Request")
        }
        #expect(try Self.decide("GET / HTTP/1.1\n").status == "400 Bad Request")
    }

    /// Everything but the page needs the token, by field, query or cookie; the page opened with it sets the cookie.
    @Test func everythingButThePageNeedsTheToken() throws {
        let bare = try Self.decide("GET / HTTP/1.1\nHost: 127.0.0.1:8080\n")
        #expect(bare.status == nil && bare.cookie == nil)
        let opened = try Self.decide("GET /?token=\(Self.token) HTTP/1.1\nHost: 127.0.0.1:8080\n")
        #expect(opened.cookie == "viewfinder-remote-8080=\(Self.token); Path=/; HttpOnly; SameSite=Strict")
        #expect(try Self.decide("GET /?token=nope HTTP/1.1\nHost: 127.0.0.1\n").cookie == nil)
        for (name, head) in [
            ("field", "GET /api/files HTTP/1.1\nHost: 127.0.0.1\nX-Viewfinder-Token: \(Self.token)\n"),
            ("query", "GET /api/files?token=\(Self.token) HTTP/1.1\nHost: 127.0.0.1\n"),
            ("cookie", "GET /api/files HTTP/1.1\nHost: 127.0.0.1\nCookie: x=1; viewfinder-remote-8080=\(Self.token)\n"),
        ] {
            #expect(try Self.decide(head).status == nil, "the token in a \(name)")
        }
        for head in [
            "GET /api/files HTTP/1.1\nHost: 127.0.0.1\n",
            "GET /api/files HTTP/1.1\nHost: 127.0.0.1\nX-Viewfinder-Token: \(Self.token.dropLast())\n",
            "GET /api/files HTTP/1.1\nHost: 127.0.0.1\nX-Viewfinder-Token: \(Self.token.dropLast())c\n",
            "GET /api/files HTTP/1.1\nHost: 127.0.0.1\nCookie: viewfinder-remote-8081=\(Self.token)\n",
            "GET /nothing HTTP/1.1\nHost: 127.0.0.1\n",
        ] {
            #expect(try Self.decide(head).status == "403 Forbidden", "\(head)")
        }
    }

    /// A change must come from the server's own origin; a read may come from anywhere that has the token.
    @Test func changesComeFromThePagesOwnOrigin() throws {
        let token = "X-Viewfinder-Token: \(Self.token)\n"
        let own = "POST /api/shutter HTTP/1.1\nHost: 127.0.0.1:8080\nOrigin: http://127.0.0.1:8080\n"
        #expect(try Self.decide(own + "Sec-Fetch-Site: same-origin\n" + token).status == nil)
        #expect(try Self.decide("POST /api/shutter HTTP/1.1\nHost: 127.0.0.1:8080\n" + token).status == nil)
        for foreign in [
            "Origin: http://attacker.example\n", "Origin: null\n", "Origin: http://127.0.0.1:9999\n",
            "Sec-Fetch-Site: cross-site\n", "Sec-Fetch-Site: same-site\n",
        ] {
            let head = "POST /api/shutter HTTP/1.1\nHost: 127.0.0.1:8080\n" + foreign + token
            #expect(try Self.decide(head).status == "403 Forbidden", "\(foreign)")
        }
        #expect(
            try Self.decide("GET /api/state HTTP/1.1\nHost: 127.0.0.1\nOrigin: http://attacker.example\n" + token)
                .status == nil)
    }

    @Test func tokensAreRandomAndLong() {
        let tokens = Set((0..<8).map { _ in HTTPAccess.makeToken() })
        #expect(tokens.count == 8 && tokens.allSatisfy { $0.count == 48 && $0.allSatisfy(\.isHexDigit) })
    }

    /// A file's name goes to the browser whole in UTF-8, and in ASCII without anything that could end the field or
    /// start another.
    @Test func attachmentNamesAreEscaped() {
        #expect(
            HTTPResponse.attachment(named: "DSC_0001.JPG")
                == "attachment; filename=\"DSC_0001.JPG\"; filename*=UTF-8''DSC_0001.JPG")
        #expect(
            HTTPResponse.attachment(named: "Ünï \"q\"\\%.mov")
                == "attachment; filename=\"_n_ _q___.mov\"; filename*=UTF-8''%C3%9Cn%C3%AF%20%22q%22%5C%25.mov")
        let injected = HTTPResponse.attachment(named: "a\r\nSet-Cookie: x=1")
        #expect(!injected.contains("\r") && !injected.contains("\n"))
    }

    /// A body of unknown length goes in chunks, with the last, empty chunk at its end.
    @Test func aBodyOfUnknownLengthGoesInChunks() async throws {
        try await onOwnThread {
            let (near, far) = try Socket.pair()
            let head = HTTPResponse.head(status: "200 OK", contentType: "video/mp4", length: .chunked, headers: [])
            let writer = try HTTPBodyWriter(socket: near, head: head, length: .chunked, until: .now + .seconds(5))
            try writer.write(Array("hello".utf8), until: .now + .seconds(5))
            try writer.write([], until: .now + .seconds(5))
            try writer.write(Array(repeating: UInt8(ascii: "x"), count: 26), until: .now + .seconds(5))
            try writer.finish(until: .now + .seconds(5))
            near.close()
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let count = buffer.withUnsafeMutableBytes({
                try? far.receive(into: $0, timeout: .seconds(5), while: "")
            }
            ),
                count > 0
            {
                received += buffer[..<count]
            }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.contains("\r\nTransfer-Encoding: chunked\r\n") && !text.contains("Content-Length"))
            #expect(text.hasSuffix("\r\n\r\n5\r\nhello\r\n1a\r\n\(String(repeating: "x", count: 26))\r\n0\r\n\r\n"))
        }
    }

    /// Callers that need the listing while it is made wait for that making, and all get its value; a new key makes
    /// it again.
    @Test func aListingIsMadeOnceForEveryoneWhoWaitsForIt() async throws {
        let listing = SingleFlight<Int, [String]>()
        let release = DispatchSemaphore(value: 0)
        let makings = Locked(0)
        let results = Locked<[[String]]>([])
        let group = DispatchGroup()
        for index in 0..<5 {
            if index == 1 {
                try await waitUntil("the first caller to make the listing") { makings.withLock { $0 } == 1 }
            }
            group.enter()
            // The deadline is for a hang alone: under the thread sanitizer, with the whole suite sharing two cores,
            // this test takes two to three minutes and its checks can come further apart than a minute.
            try PlatformThread.detach(name: "test-listing") {
                let value = try? listing.value(for: 1, until: .now + .seconds(900)) {
                    makings.withLock { $0 += 1 }
                    release.wait()
                    return ["DSC_0001.JPG"]
                }
                results.withLock { $0.append(value ?? []) }
                group.leave()
            }
        }
        do {
            try await waitUntil("the others to wait for it") { listing.waitingCount == 4 }
        } catch {
            release.signal()
            throw error
        }
        release.signal()
        await offThePool { group.wait() }
        #expect(makings.withLock { $0 } == 1)
        #expect(results.withLock { $0 } == Array(repeating: ["DSC_0001.JPG"], count: 5))
        let again = try listing.value(for: 2, until: .now + .seconds(5)) {
            makings.withLock { $0 += 1 }
            return ["DSC_0002.JPG"]
        }
        #expect(again == ["DSC_0002.JPG"] && makings.withLock { $0 } == 2)
    }
}
