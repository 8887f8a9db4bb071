/// How a host and a port are written together: `192.168.1.1:15740`, `camera.local:80`, `[fe80::1]:15740`.
///
/// The one place that puts an IPv6 address in brackets before a port, for endpoints in messages, URLs and `Host`
/// fields alike.
///
/// ```swift
/// HostPort.text("fe80::1", port: 15740)  // [fe80::1]:15740
/// HostPort.bracketed("192.168.1.1")  // 192.168.1.1
/// ```
package enum HostPort {
    /// `host` as it stands before `:port` or in a URL: an IPv6 address (any host with a colon) in brackets, a name
    /// or an IPv4 address as it is.
    package static func bracketed(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// `HOST:PORT`, with an IPv6 address in brackets.
    package static func text(_ host: String, port: some BinaryInteger) -> String {
        bracketed(host) + ":\(port)"
    }
}
