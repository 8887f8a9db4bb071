import FuzzSupport
import ViewfinderHTTP
import ViewfinderSystem

/// Fuzzes what the tool's servers read from a browser or anyone else on the network: a selector byte, then a request
/// read from a connection (0, 1: with a body of at most 16 KiB or of none), or a file name for `Content-Disposition`
/// (2).
///
/// Besides crashes and hangs, it checks what must hold: the reader fails only with a ``HTTPRequest/Failure``; a
/// request it reads has a method and field names that are tokens, a path that starts with `/`, no line break in a
/// field, and the body its `Content-Length` says; the access policy lets through only requests that name this
/// machine, carry the token on every route but the page, and make changes from the page's own origin; and a
/// `Content-Disposition` never holds a byte that could end its field.
@main enum HTTPFuzzer {
    static let token = String(repeating: "5a", count: 24)
    static let access = HTTPAccess(
        token: token, name: "remote", port: 8080, openPaths: ["/", "/index.html"], allowedHosts: ["camera.local"])

    static func main() {
        FuzzEntry.run(fuzz)
    }

    static func fuzz(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let bytes = Array(input.dropFirst())
        switch selector % 3 {
        case 0, 1:
            read(bytes, maximumBodySize: selector % 3 == 0 ? HTTPRequest.maximumBodySize : 0)
        default:
            let disposition = HTTPResponse.attachment(named: String(decoding: bytes, as: UTF8.self))
            precondition(
                disposition.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 32 && $0.value != 127 },
                "a Content-Disposition holds a control character or a byte beyond ASCII")
        }
    }

    /// Reads a request from the far end of a socket pair that sends `bytes`, and checks it and the policy's decision.
    static func read(_ bytes: [UInt8], maximumBodySize: Int) {
        guard let (near, far) = try? Socket.pair(), let feeder = try? StreamFeeder(far, sending: bytes) else {
            preconditionFailure("no socket pair")
        }
        defer {
            near.close()
            feeder.finish()
        }
        let request: HTTPRequest
        do {
            request = try HTTPRequest.read(from: near, until: .now + .seconds(5), maximumBodySize: maximumBodySize)
        } catch {
            precondition(error != .timedOut, "a request that ended was still waited for")
            return
        }
        check(request)
        decide(request)
    }

    static func check(_ request: HTTPRequest) {
        let separators = "()<>@,;:\\\"/[]?={} \t"
        func isToken(_ text: String) -> Bool {
            !text.isEmpty
                && text.unicodeScalars.allSatisfy {
                    $0.isASCII && $0.value > 32 && $0.value < 127 && !separators.unicodeScalars.contains($0)
                }
        }
        precondition(isToken(request.method), "the method '\(request.method)' is not a token")
        precondition(request.path.hasPrefix("/") && !request.path.contains("?"), "the path '\(request.path)'")
        for (name, value) in request.headers {
            precondition(isToken(name) && name == name.lowercased(), "the field name '\(name)'")
            precondition(!value.contains("\r") && !value.contains("\n"), "a field holds a line break")
        }
        precondition(request.headers.count <= HTTPRequest.maximumHeaderCount)
        let length = request.headers["content-length"].flatMap { Int($0) } ?? 0
        precondition(request.body.count == length, "a body of \(request.body.count) bytes, not \(length)")
        precondition(request.headers["transfer-encoding"] == nil, "a chunked body was taken")
    }

    /// The policy's decision, checked against the rules it keeps.
    static func decide(_ request: HTTPRequest) {
        guard case .serve(let cookie) = access.decide(request, localAddress: "10.0.0.1", bindAddress: "0.0.0.0")
        else { return }
        let host = request.headers["host"]?.lowercased() ?? ""
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        precondition(
            ["localhost", "127.0.0.1", "[::1]", "10.0.0.1", "camera.local"].contains(trimmed),
            "a request for '\(host)' was let through")
        if !["/", "/index.html"].contains(request.path) {
            let offered = [
                request.headers["x-viewfinder-token"], request.query["token"],
                request.cookies["viewfinder-remote-8080"],
            ]
            precondition(offered.contains(token), "a request without the token was let through to \(request.path)")
        }
        if request.method != "GET" && request.method != "HEAD", let origin = request.headers["origin"] {
            precondition(origin.lowercased() == "http://" + host, "a change from \(origin) was let through")
        }
        precondition(cookie == nil || request.query["token"] == token, "a cookie for a request without the token")
    }
}
