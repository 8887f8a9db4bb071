import Testing
import Viewfinder
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Two network namespaces joined by a veth pair, as a camera's WiFi network and a computer that joined it: the
/// camera side holds the gateway address, the app side an address on the same network, an interface named `en0`,
/// and a default route through the camera.
///
/// Made with iproute2's `ip`; needs root. ``remove()`` deletes both namespaces, and the veth pair with them.
struct NetworkNamespacePair {
    /// The namespace the camera runs in.
    let camera: String
    /// The namespace the app runs in.
    let app: String
    /// The camera's address: the app side's gateway.
    let gateway = "10.77.0.1"
    /// The app side's interface, named as the reference examples name it.
    let appInterface = "en0"

    /// Creates the namespaces, or throws what `ip` said when it cannot (not root, no iproute2, no namespaces).
    static func make() async throws -> NetworkNamespacePair {
        let tag = "\(getpid() % 100_000)\(Int.random(in: 10...99))"
        let pair = NetworkNamespacePair(camera: "vf-cam-\(tag)", app: "vf-app-\(tag)")
        let cameraLink = "vfc\(tag)"
        let appLink = "vfa\(tag)"
        let steps: [[String]] = [
            ["ip", "netns", "add", pair.camera],
            ["ip", "netns", "add", pair.app],
            ["ip", "link", "add", cameraLink, "type", "veth", "peer", "name", appLink],
            ["ip", "link", "set", cameraLink, "netns", pair.camera],
            ["ip", "link", "set", appLink, "netns", pair.app],
            ["ip", "-n", pair.camera, "link", "set", "lo", "up"],
            ["ip", "-n", pair.camera, "addr", "add", "\(pair.gateway)/24", "dev", cameraLink],
            ["ip", "-n", pair.camera, "link", "set", cameraLink, "up"],
            ["ip", "-n", pair.app, "link", "set", "lo", "up"],
            ["ip", "-n", pair.app, "link", "set", appLink, "name", pair.appInterface],
            ["ip", "-n", pair.app, "addr", "add", "10.77.0.2/24", "dev", pair.appInterface],
            ["ip", "-n", pair.app, "link", "set", pair.appInterface, "up"],
            ["ip", "-n", pair.app, "route", "add", "default", "via", pair.gateway],
        ]
        for step in steps {
            let result = try await ChildProcess.run(step)
            guard result.status == 0 else {
                await pair.remove()
                throw ViewfinderError(
                    .permissionDenied,
                    "\(step.joined(separator: " ")) failed (status \(result.status)): \(result.output)")
            }
        }
        return pair
    }

    /// Deletes both namespaces; errors are ignored, as a namespace may never have been made.
    func remove() async {
        for namespace in [camera, app] {
            _ = try? await ChildProcess.run(["ip", "netns", "delete", namespace])
        }
    }

    /// The command line that runs `arguments` inside `namespace`.
    static func inside(_ namespace: String, _ arguments: [String]) -> [String] {
        ["ip", "netns", "exec", namespace] + arguments
    }
}

/// The example suites that run the simulated camera: one test at a time, so as not to crowd out other tests.
@Suite(.serialized) enum SimulatedCameraExamples {}
