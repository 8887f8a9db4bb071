import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Eclipse Mosquitto started by a test from a configuration of its own (never the system's service): one listener,
/// no persistence, and, when asked, users with passwords, an ACL and TLS with certificates made for the run.
///
/// ```swift
/// let broker = try MosquittoBroker()
/// defer { broker.stop() }
/// print(broker.url)      // mqtt://127.0.0.1:PORT
/// ```
public final class MosquittoBroker: @unchecked Sendable {
    // Unchecked: a broker is driven by one test at a time; its process is replaced only by restart().

    /// How the broker is set up.
    public struct Options: Sendable {
        /// The numeric address the listener binds to.
        public var address = "127.0.0.1"
        /// The listener's port; 0 picks a free one on loopback.
        public var port: UInt16 = 0
        /// Users and their passwords; anonymous clients are refused when there are any.
        public var users: [String: String] = [:]
        /// ACL lines (`pattern readwrite vf/%u/#` …), when access is limited by topic.
        public var acl: [String] = []
        /// Whether the listener speaks TLS, with a certificate for `address` signed by an authority made for the run
        /// (``certificateAuthorityFile``).
        public var tls = false
        /// The network namespace the broker runs in, if not this process's.
        public var namespace: String?
        /// The longest packet the broker takes.
        public var maximumPacketSize = 1 << 20

        /// A plain broker on loopback.
        public init() {}
    }

    /// How the broker was set up.
    public let options: Options
    /// The listener's port.
    public private(set) var port: UInt16 = 0
    /// The folder of the configuration, the password file and the certificates.
    public let directory: String
    private var process: ChildProcess?
    private var logs: [String] = []

    /// Starts the broker and waits until it listens.
    ///
    /// - Throws: ``TestFailure`` when mosquitto is missing or does not start.
    public init(_ options: Options = Options()) throws {
        guard access("/usr/sbin/mosquitto", X_OK) == 0 else {
            throw TestFailure("mosquitto is missing: make test-deps installs it")
        }
        self.options = options
        directory = String(cString: mkdtemp(strdup("/tmp/viewfinder-mosquitto.XXXXXX")))
        if options.tls { try makeCertificates() }
        // A free port may be taken by another test between its choice and mosquitto's bind: choose again then.
        for attempt in 1...5 {
            port = options.port != 0 ? options.port : try Self.freePort(on: options.address)
            try writeConfiguration()
            do {
                try start()
                return
            } catch let failure as TestFailure
                where options.port == 0 && attempt < 5 && failure.description.contains("Address already in use")
            {
                continue
            }
        }
    }

    deinit {
        stop()
        _ = try? ChildProcess.run("rm", ["-rf", directory], timeout: .seconds(30))
    }

    /// The broker's URL: `mqtt://ADDRESS:PORT`, or `mqtts://` with TLS.
    public var url: String { "\(options.tls ? "mqtts" : "mqtt")://\(options.address):\(port)" }

    /// The certificate authority that signed the broker's certificate, with TLS.
    public var certificateAuthorityFile: String { directory + "/ca.pem" }

    /// The broker's log with its timestamps, of every run: `mosquitto.log` in ``directory``.
    public var logFile: String { directory + "/mosquitto.log" }

    /// The broker's resident memory in bytes, while it runs.
    public var residentBytes: Int? { process?.residentBytes }

    /// What the broker printed, of its runs so far.
    public var log: String { (logs + [process?.standardOutput ?? ""]).joined(separator: "\n") }

    /// Stops the broker at once (SIGKILL, as a crash or a power cut would: a test's children may inherit a signal
    /// mask that holds SIGTERM back).
    public func stop() {
        guard let process else { return }
        process.signal(SIGKILL)
        _ = process.wait(timeout: .seconds(10))
        logs.append(process.standardOutput)
        self.process = nil
    }

    /// Stops the broker and starts it again on the same port: its clients lose their connections, and it forgets
    /// every retained message, as a broker without persistence does.
    public func restart() throws {
        stop()
        try start()
    }

    private func start() throws {
        let command = ["/usr/sbin/mosquitto", "-c", directory + "/mosquitto.conf"]
        let full = options.namespace.map { NetworkNamespacePair.inside($0, command) } ?? command
        let process = try ChildProcess(full[0], Array(full.dropFirst()), mergingErrors: true)
        self.process = process
        guard process.waitForOutput(timeout: .seconds(20), until: { $0.contains(" running") }) else {
            process.signal(SIGKILL)
            _ = process.wait(timeout: .seconds(10))
            self.process = nil
            throw TestFailure("mosquitto did not start:\n\(process.standardOutput)")
        }
        // "running" comes once the listener is open.
    }

    private func writeConfiguration() throws {
        var lines = [
            "listener \(port) \(options.address)", "persistence false", "user root", "set_tcp_nodelay true",
            "max_packet_size \(options.maximumPacketSize)", "log_dest stderr",
            "log_dest file \(directory)/mosquitto.log",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
        ]
        if options.users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            lines += ["allow_anonymous false", "password_file \(directory)/passwords"]
            for (index, (user, password)) in options.users.sorted(by: { $0.key < $1.key }).enumerated() {
                let result = try ChildProcess.run(
                    "mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", "\(directory)/passwords", user, password],
                    mergingErrors: true)
                guard result.status == 0 else { throw TestFailure("mosquitto_passwd failed: \(result)") }
            }
        }
        if !options.acl.isEmpty {
            try options.acl.joined(separator: "\n").appending("\n").write(
                toFile: directory + "/acl", atomically: true, encoding: .utf8)
            lines.append("acl_file \(directory)/acl")
        }
        if options.tls {
            lines += [
                "cafile \(directory)/ca.pem", "certfile \(directory)/server.pem", "keyfile \(directory)/server.key",
            ]
        }
        try lines.joined(separator: "\n").appending("\n").write(
            toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
    }

    /// An authority and a server certificate for the listener's address, with openssl.
    private func makeCertificates() throws {
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try "subjectAltName=IP:\(options.address)\n".write(
            toFile: directory + "/san.ext", atomically: true, encoding: .utf8)
        let steps: [[String]] = [
            ["req", "-x509"] + key + [
                "-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem", "-days", "2", "-subj",
                "/CN=Viewfinder test authority",
            ],
            ["req"] + key + [
                "-keyout", "\(directory)/server.key", "-out", "\(directory)/server.csr", "-subj",
                "/CN=\(options.address)",
            ],
            [
                "x509", "-req", "-in", "\(directory)/server.csr", "-CA", "\(directory)/ca.pem", "-CAkey",
                "\(directory)/ca.key", "-CAcreateserial", "-out", "\(directory)/server.pem", "-days", "2", "-extfile",
                "\(directory)/san.ext",
            ],
        ]
        for step in steps {
            let result = try ChildProcess.run("openssl", step, mergingErrors: true)
            guard result.status == 0 else { throw TestFailure("openssl \(step[0]) failed: \(result)") }
        }
    }

    /// A port nothing listens on at `address` now.
    private static func freePort(on address: String) throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        defer { close(descriptor) }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                Glibc.bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw TestFailure("cannot find a free port on \(address): errno \(errno)") }
        return UInt16(bigEndian: socketAddress.sin_port)
    }
}
