import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// A simulator on a free loopback port and a ``PTPCamera`` pointed at it, connected.
///
/// The simulator is strict unless a test asks otherwise: it behaves as real bodies do (no grace for a reconnecting
/// client, no answers to probes, busy while it wakes, no CaptureComplete, Canon's RemoteRelease refused), so the client's
/// camera tests run against what real cameras do rather than a simulator's kindnesses.
struct CameraHarness {
    let simulator: CameraSimulator
    let camera: PTPCamera

    /// Starts a simulator, connects a camera to it, runs `body`, and tears everything down.
    static func run<Result>(
        _ simulatorConfiguration: CameraSimulator.Configuration = CameraSimulator.Configuration(sampleImageCount: 2),
        camera cameraConfiguration: PTPCamera.Configuration = PTPCamera.Configuration(),
        transport: PTPIPTransport.Configuration = PTPIPTransport.Configuration(),
        connect: Bool = true, strict: Bool = true,
        _ body: (CameraHarness) async throws -> Result
    ) async throws -> Result {
        var simulatorConfiguration = simulatorConfiguration
        simulatorConfiguration.port = 0
        simulatorConfiguration.strict = strict
        let simulator = try CameraSimulator(configuration: simulatorConfiguration)
        try simulator.start()
        var transport = transport
        transport.port = simulator.port
        transport.clientName = "tests"
        // The Fujifilm identity speaks Fujifilm's WiFi protocol, whose other ports are the next two.
        let camera =
            simulatorConfiguration.identity == .fuji
            ? PTPCamera(
                endpoint: FujiWiFiEndpoint(
                    host: "127.0.0.1",
                    configuration: .ports(from: simulator.port, base: .init(clientName: transport.clientName))),
                configuration: cameraConfiguration)
            : PTPCamera(host: "127.0.0.1", transport: transport, configuration: cameraConfiguration)
        do {
            if connect {
                try await camera.connect()
            }
            let result = try await body(CameraHarness(simulator: simulator, camera: camera))
            try await camera.disconnect()
            await simulator.stopOffThePool()
            return result
        } catch {
            try? await camera.disconnect()
            await simulator.stopOffThePool()
            throw error
        }
    }

    /// Takes a picture and returns the new file the camera reports for it.
    func takePicture(engagingAutoFocus: Bool) async throws -> CameraFileItem {
        let files = Observed<CameraFileItem>()
        let token = camera.addNewFileObserver { files.append($0) }
        defer { withExtendedLifetime(token) {} }
        try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(engagingAutoFocus)
        try await waitUntil("the new file to be reported") { !files.all.isEmpty }
        return try #require(files.all.first)
    }

    /// The sizes of the first `count` live view frames, consumed one at a time, each asked for once the one before has
    /// arrived, and how many frames the publisher had fetched by then; live view stops then.
    func liveViewFrameSizes(_ count: Int) async throws -> (sizes: [Dimensions], framesFetched: Int) {
        let publisher = camera.liveViewPublisher
        let consumed = Atomic(0)
        let sizes = Observed<Dimensions>()
        let cancellable = publisher.sinkWithReadyHandler { _ in
        } receiveValue: { frame, ready in
            sizes.append(frame.pixelSize)
            if consumed.add(1, ordering: .relaxed).newValue < count { ready() }
        }
        try await waitUntil("\(count) frames consumed") { consumed.load(ordering: .relaxed) == count }
        let fetched = publisher.statistics.framesFetched
        cancellable.cancel()
        return (sizes.all, fetched)
    }

    /// The shutter of a camera the standard dialect speaks to, for checking whether a picture is being taken.
    var capture: StandardCapture {
        get throws {
            guard let dialect = try camera.driverCore.connection(for: "test").dialect as? StandardDialect else {
                throw ViewfinderError(.notAvailable, "the camera is not spoken to in the standard dialect")
            }
            return dialect.capture
        }
    }

    /// The camera's PTP/IP session, for checking what the simulated camera holds.
    var session: PTPSession {
        get throws { try camera.driverCore.connection(for: "test").session }
    }
}

/// Records what observers receive, in order.
final class Observed<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    var all: [Value] { values.withLock { $0 } }

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }
}

/// The suites that run the simulated camera: one test at a time, as each keeps a simulator busy rendering and
/// encoding, which would otherwise crowd out the timing-sensitive tests running beside them.
@Suite(.serialized) enum SimulatedCameraTests {}
