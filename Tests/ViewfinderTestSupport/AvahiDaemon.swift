#if canImport(Glibc)
import Glibc
#endif

/// avahi-daemon, the independent mDNS stack Debian runs, started inside a network namespace with a mount namespace
/// of its own (so its `/run/avahi-daemon` and `/etc/avahi/services` are the test's), publishing static service
/// files, and, when asked, with a D-Bus system bus of its own for `avahi-browse`.
///
/// ```swift
/// let avahi = try AvahiDaemon(
///     in: pair.camera, interface: "vfc1234", services: [.init(name: "Nikon D850", port: 15740, text: ["vid=04b0"])])
/// defer { avahi.stop() }
/// ```
public final class AvahiDaemon: Sendable {
    /// A `_ptp._tcp` service to publish.
    public struct Service: Sendable {
        /// The instance's name.
        public var name: String
        /// The port.
        public var port: UInt16
        /// The TXT strings, `key=value`.
        public var text: [String]

        /// A service.
        public init(name: String, port: UInt16, text: [String]) {
            self.name = name
            self.port = port
            self.text = text
        }
    }

    /// The daemon's process: `ip netns exec … unshare -m sh -c …`, which execs the daemon in the foreground.
    public let process: ChildProcess
    private let directory: String

    /// Starts the daemon on `interface` in `namespace` and waits until it has published its services.
    ///
    /// - Parameters:
    ///   - withBus: Whether to start a D-Bus system bus in the mount namespace first, which `avahi-browse` needs;
    ///     run it with ``command(_:)``.
    /// - Throws: ``TestFailure`` when avahi-daemon is missing or does not start.
    public init(
        in namespace: String, interface: String, hostName: String = "avahi-camera", services: [Service],
        withBus: Bool = false
    ) throws {
        guard access("/usr/sbin/avahi-daemon", X_OK) == 0 else {
            throw TestFailure("avahi-daemon is missing: make test-deps installs it")
        }
        directory = String(cString: mkdtemp(strdup("/tmp/viewfinder-avahi.XXXXXX")))
        let configuration = """
            [server]
            host-name=\(hostName)
            use-ipv4=yes
            use-ipv6=no
            enable-dbus=\(withBus ? "yes" : "no")
            allow-interfaces=\(interface)
            [publish]
            publish-workstation=no
            publish-hinfo=no
            """
        try Self.write(configuration, to: directory + "/avahi.conf")
        mkdir(directory + "/services", 0o755)
        for (index, service) in services.enumerated() {
            let text = service.text.map { "<txt-record>\($0)</txt-record>" }.joined()
            try Self.write(
                """
                <?xml version="1.0" standalone='no'?>
                <service-group><name>\(service.name)</name><service><type>_ptp._tcp</type>\
                <port>\(service.port)</port>\(text)</service></service-group>
                """, to: directory + "/services/\(index).service")
        }
        let bus =
            withBus
            ? "mkdir -p /run/dbus && mount -t tmpfs none /run/dbus && dbus-daemon --system --fork --nopidfile && "
            : ""
        let script =
            "mkdir -p /run/avahi-daemon && mount -t tmpfs none /run/avahi-daemon && "
            + "mount --bind \(directory)/services /etc/avahi/services && \(bus)"
            + "exec avahi-daemon -f \(directory)/avahi.conf --no-drop-root --no-chroot --no-rlimits"
        process = try ChildProcess(
            "ip", ["netns", "exec", namespace, "unshare", "-m", "sh", "-c", script], mergingErrors: true)
        let published = process.waitForOutput(timeout: .seconds(30)) {
            $0.contains("Server startup complete") && (services.isEmpty || $0.contains("successfully established"))
        }
        guard published else {
            stop()
            throw TestFailure("avahi-daemon did not start:\n\(process.standardOutput)")
        }
    }

    /// A command line run in the daemon's network and mount namespaces, where its bus is.
    ///
    /// `ip netns exec`, `unshare` and `sh` each exec the next, so the daemon has the process's ID.
    public func command(_ arguments: [String]) -> [String] {
        ["nsenter", "--target", "\(process.pid)", "--net", "--mount"] + arguments
    }

    /// Stops the daemon, which sends the goodbyes of its services, and waits for it.
    public func stop() {
        kill(process.pid, SIGTERM)
        _ = process.wait(timeout: .seconds(10))
        _ = try? ChildProcess.run("rm", ["-rf", directory])
    }

    private static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw TestFailure("cannot write \(path)") }
        defer { fclose(file) }
        fputs(text, file)
    }
}
