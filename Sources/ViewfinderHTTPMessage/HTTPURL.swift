import ViewfinderSystem

/// The parts of an `http://` URL that a request needs: the host, the port and the path with its query.
///
/// ```swift
/// let url = HTTPURL("http://[fe80::1]:8080/files/a.jpg")
/// url?.host  // fe80::1
/// url?.port  // 8080
/// url?.target  // /files/a.jpg
/// ```
package struct HTTPURL: Hashable, Sendable {
    /// The host: a name, an IPv4 address, or an IPv6 address without its brackets.
    package var host: String
    /// The port; 80 when the URL names none.
    package var port: UInt16
    /// The path and query, such as `/description.xml`; `/` when the URL has none.
    package var target: String

    /// The URL of `target` at `host` and `port`.
    package init(host: String, port: UInt16, target: String) {
        self.host = host
        self.port = port
        self.target = target
    }

    /// Reads an `http://` URL; `nil` for another scheme, no host, or a port that is not a number from 0 to 65535.
    package init?(_ url: String) {
        guard url.lowercased().hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        var host = authority
        var port: UInt16 = 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = UInt16(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            guard let number = UInt16(authority[authority.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty else { return nil }
        self.host = String(host)
        self.port = port
        target = path.isEmpty ? "/" : String(path)
    }

    /// The GET request for the URL that Viewfinder's clients send: `Host`, the fields given, `Connection: close`
    /// unless the connection is to be kept for more requests, and `User-Agent: Viewfinder`.
    package func getRequest(with fields: [HTTPHead.Field] = [], keepingConnection: Bool = false) -> HTTPHead {
        HTTPHead(
            startLine: "GET \(target) HTTP/1.1",
            fields: [.init("Host", HostPort.text(host, port: port))] + fields
                + (keepingConnection ? [] : [.init("Connection", "close")]) + [.init("User-Agent", "Viewfinder")])
    }
}
