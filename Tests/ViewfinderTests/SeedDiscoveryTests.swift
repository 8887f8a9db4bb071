import Dispatch
import Testing
import Viewfinder
import ViewfinderSimulator
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What this test process does when the discovery test runs it inside a network namespace.
enum NamespaceRole: String {
    /// Runs the simulated camera at the gateway address.
    case camera
    /// Runs the reference discovery examples.
    case app

    /// The role given in the environment, or `nil` in an ordinary test run.
    static var current: NamespaceRole? {
        getenv("VIEWFINDER_NETNS_ROLE").flatMap { NamespaceRole(rawValue: String(cString: $0)) }
    }
}

/// Cameras found by discovery, kept as the reference example asks ("keep a strong reference to it").
final class FoundCameras: @unchecked Sendable {
    // Unchecked: every access goes through the serial queue.
    private let queue = DispatchQueue(label: "found cameras")
    private var cameras: [(place: String, camera: any Camera)] = []
    private var failures: [String] = []

    func keep(_ camera: any Camera, foundAt place: String) {
        queue.sync { cameras.append((place, camera)) }
    }

    func fail(_ message: String) {
        queue.sync { failures.append(message) }
    }

    var results: (cameras: [(place: String, camera: any Camera)], failures: [String]) {
        queue.sync { (cameras, failures) }
    }
}

/// The manual discovery examples of the reference API, run for real: a network namespace pair made by the test,
/// a simulated Canon EOS camera listening at the gateway address in one, discovery in the other.
///
/// The outer test makes the namespaces and runs this same test program twice inside them, once in each role. As
/// written, the examples' `.success` cases hold only a comment, which Swift does not accept; here they keep the
/// camera, as the comment asks. The interface is named `en0` in the app's namespace, as in the examples.
@Suite(.timeLimit(.minutes(5))) struct SeedDiscoveryTests {
    @Test(.enabled(if: NamespaceRole.current == nil))
    func discoveryFindsTheCameraAtTheGatewayOfANetworkNamespace() async throws {
        guard getuid() == 0 else {
            try Test.cancel("network namespaces need root (as in CI): discovery at a gateway is not checked here")
        }
        let pair: NetworkNamespacePair
        do {
            pair = try await NetworkNamespacePair.make()
        } catch {
            try Test.cancel(
                "network namespaces cannot be made here, so discovery at a gateway is not checked: \(error)")
        }
        let program = Self.thisProgram()
        let cameraCommand = NetworkNamespacePair.inside(
            pair.camera, program + ["--filter", "simulatedCameraAtTheGateway"])
        let camera = try ChildProcess(
            cameraCommand[0], Array(cameraCommand.dropFirst()),
            environment: ["VIEWFINDER_NETNS_ROLE": "camera", "VIEWFINDER_NETNS_ADDRESS": pair.gateway],
            mergingErrors: true)
        let app: ChildProcess.Result
        do {
            let listening = await offThePool {
                camera.waitForOutput(timeout: .seconds(120)) { $0.contains("simulated camera listening") }
            }
            guard listening else {
                throw TestFailure("the simulated camera did not start:\n\(camera.standardOutput)")
            }
            app = try await ChildProcess.run(
                NetworkNamespacePair.inside(pair.app, program + ["--filter", "discoveryExamplesAtTheGateway"]),
                environment: ["VIEWFINDER_NETNS_ROLE": "app"], timeout: .seconds(180))
        } catch {
            _ = await camera.finish(timeout: .seconds(10))
            await pair.remove()
            throw error
        }
        let cameraRun = await camera.finish(timeout: .seconds(30))
        await pair.remove()

        #expect(app.status == 0, "the discovery examples failed:\n\(app.output)")
        for line in [
            "found at the default gateway: Canon Inc. Canon EOS 5D Mark IV at 10.77.0.1",
            "found at the gateway of en0: Canon Inc. Canon EOS 5D Mark IV at 10.77.0.1",
            "found with async discovery: Canon Inc. Canon EOS 5D Mark IV at 10.77.0.1",
            "Couldn't resolve camera with error: notFound: cannot find a Nikon camera at the gateway of lo",
        ] {
            #expect(app.output.contains(line), "missing \"\(line)\" in:\n\(app.output)")
        }
        #expect(cameraRun.status == 0, "the simulated camera failed:\n\(cameraRun.output)")
        // The namespaces are gone.
        #expect(try await !pair.isListed())
    }

    /// This test program and the options that run one of its tests.
    static func thisProgram() -> [String] {
        var path = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        let program = String(decoding: path[..<max(length, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return [program, "--testing-library", "swift-testing"]
    }

    /// The camera's role: the simulated camera at the gateway address on the standard port, until standard input
    /// closes.
    @Test(.enabled(if: NamespaceRole.current == .camera))
    func simulatedCameraAtTheGateway() async throws {
        let address = String(cString: try #require(getenv("VIEWFINDER_NETNS_ADDRESS")))
        let simulator = try CameraSimulator(
            configuration: .init(identity: .canon, bindAddress: address, port: 15740, sampleImageCount: 0))
        try simulator.start()
        print("simulated camera listening on \(address):\(simulator.port)")
        fflush(nil)
        await offThePool {
            var byte: UInt8 = 0
            while read(0, &byte, 1) > 0 {}
        }
        await simulator.stopOffThePool()
    }

    /// The app's role: the reference examples, then a connection to each camera found.
    @Test(.enabled(if: NamespaceRole.current == .app))
    func discoveryExamplesAtTheGateway() async throws {
        let found = FoundCameras()

        let manualDiscovery = CameraDiscovery.shared.manualDiscovery

        manualDiscovery.discover(.cameraAtSuggestedGateway(.canon)) { result in
            switch result {
            case .success(let camera):
                // Use the camera. Make sure you keep a strong reference to it!
                found.keep(camera, foundAt: "the default gateway")
            case .failure(let error):
                print("Couldn't resolve camera with error: \(error)")
                found.fail("\(error)")
            }
        }

        manualDiscovery.discover(.cameraType(.canon, atGatewayOfInterface: "en0")) { result in
            switch result {
            case .success(let camera):
                // Use the camera. Make sure you keep a strong reference to it!
                found.keep(camera, foundAt: "the gateway of en0")
            case .failure(let error):
                print("Couldn't resolve camera with error: \(error)")
                found.fail("\(error)")
            }
        }

        // The loopback interface has no gateway: discovery says so.
        manualDiscovery.discover(.cameraType(.nikon, atGatewayOfInterface: "lo")) { result in
            switch result {
            case .success(let camera):
                found.keep(camera, foundAt: "the gateway of lo")
            case .failure(let error):
                print("Couldn't resolve camera with error: \(error)")
                found.fail("\(error)")
            }
        }

        let deadline = ContinuousClock.now + .seconds(60)
        while found.results.cameras.count + found.results.failures.count < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let asyncCamera = try await manualDiscovery.discover(.cameraType(.genericPTPIP, atGatewayOfInterface: "en0"))
        let (cameras, failures) = found.results
        #expect(cameras.map(\.place).sorted() == ["the default gateway", "the gateway of en0"])
        #expect(failures.count == 1)
        for (place, camera) in cameras + [("with async discovery", asyncCamera)] {
            try await camera.connect()
            let info = try #require(camera.deviceInfo)
            let host = (camera as? PTPCamera)?.host ?? "?"
            print("found at \(place): \(info.manufacturer) \(info.model) at \(host)".replacing("at with", with: "with"))
            try await camera.disconnect()
        }
    }
}
