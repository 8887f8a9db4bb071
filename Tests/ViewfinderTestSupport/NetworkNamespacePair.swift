import Synchronization
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// How many pairs this process has made, which names each one apart.
private let pairsMade = Atomic<Int>(0)

/// Two network namespaces joined by a veth pair, as a camera's WiFi network and a computer that joined it: the
/// camera side holds the gateway address, the app side an address on the same network, an interface named `en0`,
/// and a default route through the camera.
///
/// Made with iproute2's `ip`; needs root. ``remove()`` deletes both namespaces, and the veth pair with them.
public struct NetworkNamespacePair: Sendable {
    /// The namespace the camera runs in.
    public let camera: String
    /// The namespace the app runs in.
    public let app: String
    /// The camera's address: the app side's gateway; 10.77.0.1 unless the pair was made with another.
    public let gateway: String
    /// The app side's address, on the gateway's /24 network.
    public let appAddress: String
    /// The camera's IPv6 address, a unique local one (the link-local ones are there too).
    public let gatewayIPv6 = "fd77::1"
    /// The app side's IPv6 address.
    public let appIPv6Address = "fd77::2"
    /// The camera side's interface.
    public let cameraInterface: String
    /// The app side's interface, named as the reference examples name it.
    public let appInterface = "en0"

    /// Creates the namespaces, the camera at `gateway` and the app at `appAddress` on its /24 network, or throws what
    /// `ip` said when it cannot (not root, no iproute2, no namespaces).
    ///
    /// Cameras that hard-code their address want it: an Olympus is always at 192.168.0.10.
    public static func make(
        gateway: String = "10.77.0.1", appAddress: String = "10.77.0.2"
    ) async throws -> NetworkNamespacePair {
        // Unique within the process (tests make pairs at the same time) and across processes; the letter between the
        // two numbers keeps one pair's name from being the start of another's (process 12, pair 34 and process 123,
        // pair 4), and interface names within their 15 bytes.
        let tag = "\(getpid() % 100_000)n\(pairsMade.add(1, ordering: .relaxed).newValue % 1000)"
        let cameraLink = "vfc\(tag)"
        let pair = NetworkNamespacePair(
            camera: "vf-cam-\(tag)", app: "vf-app-\(tag)", gateway: gateway, appAddress: appAddress,
            cameraInterface: cameraLink)
        let appLink = "vfa\(tag)"
        let steps: [[String]] = [
            ["ip", "netns", "add", pair.camera],
            ["ip", "netns", "add", pair.app],
            ["ip", "link", "add", cameraLink, "type", "veth", "peer", "name", appLink],
            ["ip", "link", "set", cameraLink, "netns", pair.camera],
            ["ip", "link", "set", appLink, "netns", pair.app],
            ["ip", "-n", pair.camera, "link", "set", "lo", "up"],
            ["ip", "-n", pair.camera, "addr", "add", "\(pair.gateway)/24", "dev", cameraLink],
            // No duplicate address detection, so the IPv6 link-local addresses are usable at once.
            ["ip", "netns", "exec", pair.camera, "sysctl", "-q", "-w", "net.ipv6.conf.\(cameraLink).accept_dad=0"],
            ["ip", "-n", pair.camera, "addr", "add", "\(pair.gatewayIPv6)/64", "dev", cameraLink, "nodad"],
            ["ip", "-n", pair.camera, "link", "set", cameraLink, "up"],
            ["ip", "-n", pair.app, "link", "set", "lo", "up"],
            ["ip", "-n", pair.app, "link", "set", appLink, "name", pair.appInterface],
            ["ip", "-n", pair.app, "addr", "add", "\(pair.appAddress)/24", "dev", pair.appInterface],
            ["ip", "netns", "exec", pair.app, "sysctl", "-q", "-w", "net.ipv6.conf.\(pair.appInterface).accept_dad=0"],
            ["ip", "-n", pair.app, "addr", "add", "\(pair.appIPv6Address)/64", "dev", pair.appInterface, "nodad"],
            ["ip", "-n", pair.app, "link", "set", pair.appInterface, "up"],
            ["ip", "-n", pair.app, "route", "add", "default", "via", pair.gateway],
        ]
        for step in steps {
            let result = try await ChildProcess.run(step)
            guard result.status == 0 else {
                await pair.remove()
                throw TestFailure("\(step.joined(separator: " ")) failed (status \(result.status)): \(result.output)")
            }
        }
        return pair
    }

    /// Deletes both namespaces; errors are ignored, as a namespace may never have been made.
    public func remove() async {
        for namespace in [camera, app] {
            _ = try? await ChildProcess.run(["ip", "netns", "delete", namespace])
        }
    }

    /// Whether `ip netns list` still lists either namespace of the pair, compared by whole name.
    public func isListed() async throws -> Bool {
        let listing = try await ChildProcess.run(["ip", "netns", "list"])
        let names = listing.output.split(whereSeparator: \.isNewline).compactMap { $0.split(separator: " ").first }
        return names.contains { $0 == camera || $0 == app }
    }

    /// The command line that runs `arguments` inside `namespace`.
    public static func inside(_ namespace: String, _ arguments: [String]) -> [String] {
        ["ip", "netns", "exec", namespace] + arguments
    }

    /// Runs `body` on a thread of its own that has entered `namespace`, and returns what it returns.
    ///
    /// Sockets made there stay in the namespace, and threads started there are in it too, while the rest of the
    /// test process stays where it is.
    public static func run<Result: Sendable>(
        in namespace: String, _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await offThePool {
            let outcome = Locked<Result?>(nil)
            let failure = Locked<(any Error)?>(nil)
            let thread = try PlatformThread(name: "netns") {
                do {
                    try enter(namespace)
                    let result = try body()
                    outcome.withLock { $0 = result }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            thread.join()
            if let error = failure.withLock({ $0 }) { throw error }
            return outcome.withLock { $0 }!
        }
    }

    /// Moves the calling thread into `namespace` (`setns(2)`, found at run time: Glibc's module does not export it).
    private static func enter(_ namespace: String) throws {
        typealias SetNamespace = @convention(c) (CInt, CInt) -> CInt
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else {
            throw TestFailure("this C library has no setns")
        }
        let setNamespace = unsafeBitCast(symbol, to: SetNamespace.self)
        let descriptor = open("/run/netns/\(namespace)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TestFailure("cannot open /run/netns/\(namespace): errno \(errno)") }
        defer { close(descriptor) }
        let newNetworkNamespace: CInt = 0x4000_0000  // CLONE_NEWNET, which Glibc's module does not export either
        guard setNamespace(descriptor, newNetworkNamespace) == 0 else {
            throw TestFailure("setns into \(namespace) failed: errno \(errno)")
        }
    }
}
