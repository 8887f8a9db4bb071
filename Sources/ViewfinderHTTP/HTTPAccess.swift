import ViewfinderSystem

/// Who may use one of the tool's servers: the policy ``HTTPServer`` applies to every request, on every route, before
/// any handler sees it.
///
/// - **Host**: the request must name this machine (`localhost`, `127.0.0.1`, `[::1]`, the address it reached the
///   server at, the address the server is bound to) or a name the user gave; a page of another site that made its
///   name point at this machine (DNS rebinding) names itself, and is refused with `421`.
/// - **Token**: a random token, in the address the tool prints (`/?token=…`, as Jupyter does), is needed for
///   everything but the page itself: in the `X-Viewfinder-Token` field, in a `token` query parameter, or in the
///   cookie the page gets when it is opened with the token (`HttpOnly; SameSite=Strict`, so other sites' pages
///   never send it). Without it the answer is `403`; this holds on loopback too, where any local program or user
///   could otherwise reach the camera.
/// - **Origin**: a change (any method but `GET` and `HEAD`) that a browser says comes from another origin is
///   refused with `403`.
///
/// Every answer also carries fields that keep the pages out of other sites' frames and their addresses (which may
/// hold the token) out of `Referer`.
package struct HTTPAccess: Sendable {
    /// The token every request but the page's needs.
    package let token: String
    /// The name of the cookie that carries the token; it names the server and its port, as browsers keep cookies by
    /// host only.
    package let cookieName: String
    /// The paths served without the token: the page, which holds nothing secret.
    package let openPaths: Set<String>
    /// Host names the user allows besides this machine's addresses, in lower case.
    package let allowedHosts: Set<String>

    /// The names of this machine that every server answers.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// A policy with `token`, for the server `name` on `port`.
    package init(
        token: String = HTTPAccess.makeToken(), name: String, port: UInt16, openPaths: Set<String>,
        allowedHosts: [String]
    ) {
        self.token = token
        cookieName = "viewfinder-\(name)-\(port)"
        self.openPaths = openPaths
        self.allowedHosts = Set(allowedHosts.map(Self.normalized))
    }

    /// 24 random bytes in hexadecimal, from the system's random source.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// What to do with a request.
    package enum Decision: Sendable {
        /// Serve it; `cookie` is a `Set-Cookie` value to send with the answer, when the request brought the token
        /// in its query.
        case serve(cookie: String?)
        /// Refuse it with this answer.
        case refuse(HTTPResponse)
    }

    /// Applies the policy to `request`, which reached the server at `localAddress` (numeric) on a socket bound to
    /// `bindAddress`.
    package func decide(_ request: HTTPRequest, localAddress: String, bindAddress: String) -> Decision {
        guard let field = request.headers["host"], let host = Self.host(of: field) else {
            return .refuse(.text("400 Bad Request", "The request names no host (its Host field)."))
        }
        guard allows(host: host, localAddress: localAddress, bindAddress: bindAddress) else {
            return .refuse(
                .text(
                    "421 Misdirected Request",
                    "This server answers requests for this machine's addresses and for names given with "
                        + "--allow-host; '\(host.prefix(64))' is neither."))
        }
        if request.method != "GET" && request.method != "HEAD" {
            let foreignOrigin = request.headers["origin"].map { $0.lowercased() != "http://" + field.lowercased() }
            let foreignSite = request.headers["sec-fetch-site"].map { $0 != "same-origin" && $0 != "none" }
            if foreignOrigin == true || foreignSite == true {
                return .refuse(.text("403 Forbidden", "Changes come from this server's own page, not from another."))
            }
        }
        let queryToken = request.query["token"].flatMap { matches($0) ? $0 : nil }
        let cookie = queryToken.map { "\(cookieName)=\($0); Path=/; HttpOnly; SameSite=Strict" }
        if openPaths.contains(request.path) { return .serve(cookie: cookie) }
        let offered = request.headers["x-viewfinder-token"] ?? request.query["token"] ?? request.cookies[cookieName]
        guard let offered else {
            return .refuse(
                .text(
                    "403 Forbidden",
                    "This server needs its token: open the address the tool printed, which ends in ?token=..., or "
                        + "send the token in an X-Viewfinder-Token field."))
        }
        guard matches(offered) else {
            return .refuse(
                .text(
                    "403 Forbidden",
                    "The token is not this server's: open the address the tool printed when it started."))
        }
        return .serve(cookie: cookie)
    }

    /// The fields every answer carries: no framing by other sites, no `Referer` with the page's address, no
    /// guessing at media types.
    package static let protectingHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
        ("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Frame-Options", "DENY"),
    ]

    /// Whether `offered` is the token, compared in time that does not depend on where they differ.
    private func matches(_ offered: String) -> Bool {
        let expected = Array(token.utf8)
        let given = Array(offered.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func allows(host: String, localAddress: String, bindAddress: String) -> Bool {
        if Self.loopbackHosts.contains(host) || allowedHosts.contains(host) { return true }
        let local = Self.literal(localAddress)
        if host == local { return true }
        return !["0.0.0.0", "::"].contains(bindAddress) && host == Self.literal(bindAddress)
    }

    /// The host of a `Host` field without its port, in lower case, without a trailing dot; `nil` when it is empty
    /// or not a host.
    static func host(of field: String) -> String? {
        let lowered = field.lowercased()
        let host: Substring
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            host = lowered[...close]
        } else {
            host = lowered.prefix { $0 != ":" }
        }
        let name = host.hasSuffix(".") ? host.dropLast() : host
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "@" }) else {
            return nil
        }
        return String(name)
    }

    /// A numeric address as a `Host` field names it: an IPv6 address in brackets, an IPv4 address mapped into
    /// IPv6 as the IPv4 address.
    static func literal(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), !lowered.dropFirst(7).contains(":") { return String(lowered.dropFirst(7)) }
        return HostPort.bracketed(lowered)
    }

    /// A name the user allows, as ``host(of:)`` would read it from a `Host` field.
    private static func normalized(_ name: String) -> String {
        let isIPv6 = !name.hasPrefix("[") && name.filter { $0 == ":" }.count > 1
        return host(of: isIPv6 ? "[\(name)]" : name) ?? name.lowercased()
    }
}
