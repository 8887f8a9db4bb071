import ViewfinderCore
import ViewfinderSystem

/// The MQTT broker a rig's hosts and coordinator meet at, and how to log in to it.
///
/// ```swift
/// var broker = try RigBroker(url: "mqtts://broker.studio.lan")
/// broker.username = "coordinator"
/// broker.password = secret
/// broker.tls = .init(certificateAuthorityFile: "/etc/viewfinder/ca.pem")
/// ```
///
/// Any MQTT 5 broker serves; Eclipse Mosquitto (Debian's `mosquitto`) is the one the rig is tested with.
public struct RigBroker: Sendable, Equatable {
    /// TLS to the broker: whom to trust, and a client certificate when the broker asks for one.
    public struct TLS: Sendable, Equatable {
        /// A PEM file of the certificate authorities that signed the broker's certificate; the system's when `nil`.
        public var certificateAuthorityFile: String?
        /// A PEM file of this client's certificate, for brokers that authenticate clients by certificate.
        public var certificateFile: String?
        /// The PEM file of the client certificate's private key.
        public var keyFile: String?
        /// Whether to accept a broker certificate that does not name the host connected to (for a broker reached
        /// by an address its certificate does not list); the certificate must still be signed by a trusted authority.
        public var allowsMismatchedHostName = false

        /// TLS with these files.
        public init(
            certificateAuthorityFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
            allowsMismatchedHostName: Bool = false
        ) {
            self.certificateAuthorityFile = certificateAuthorityFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.allowsMismatchedHostName = allowsMismatchedHostName
        }
    }

    /// The broker's host name or address.
    public var host: String
    /// The broker's port: 1883 for MQTT, 8883 for MQTT over TLS unless the URL says otherwise.
    public var port: UInt16
    /// The user name to log in with, if the broker asks for one.
    public var username: String?
    /// The password to log in with.
    public var password: String?
    /// TLS to the broker; plain TCP when `nil`.
    public var tls: TLS?
    /// How often the client and the broker check the connection when nothing else is sent.
    ///
    /// The broker declares a client gone (and sends its last will) after one and a half of these without a word.
    /// libmosquitto takes 5 s at least; a shorter one counts as 5 s.
    public var keepAlive: Duration = .seconds(5)

    /// A broker at `host` and `port`.
    public init(host: String, port: UInt16 = 1883, tls: TLS? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// A broker from a URL: `mqtt://HOST[:PORT]`, or `mqtts://HOST[:PORT]` for TLS with the system's authorities;
    /// an IPv6 address goes in brackets.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for anything else, saying what is expected.
    public init(url: String) throws {
        let lowered = url.lowercased()
        let secure: Bool
        let rest: Substring
        if lowered.hasPrefix("mqtt://") {
            (secure, rest) = (false, url.dropFirst("mqtt://".count))
        } else if lowered.hasPrefix("mqtts://") {
            (secure, rest) = (true, url.dropFirst("mqtts://".count))
        } else {
            throw ViewfinderError(
                .invalidArgument, "a broker is given as mqtt://HOST[:PORT] or mqtts://HOST[:PORT], not '\(url)'")
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw ViewfinderError(.invalidArgument, "the broker's address '\(authority)' lacks its ']'")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw ViewfinderError(.invalidArgument, "'\(after)' follows the broker's address in '\(url)'")
                }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || "/@?#".contains($0) }) else {
            throw ViewfinderError(.invalidArgument, "'\(url)' names no broker host")
        }
        var port: UInt16 = secure ? 8883 : 1883
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw ViewfinderError(
                    .invalidArgument, "the broker's port is a number from 1 to 65535, not '\(portText)'")
            }
            port = number
        }
        self.init(host: String(host), port: port, tls: secure ? TLS() : nil)
    }

    /// The broker as a URL, without credentials, for messages.
    public var url: String {
        "\(tls == nil ? "mqtt" : "mqtts")://\(HostPort.text(host, port: port))"
    }
}
