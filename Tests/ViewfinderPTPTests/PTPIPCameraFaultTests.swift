import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

extension SimulatedCameraTests {
    /// The simulated camera dropping every connection at once, as a camera that crashed, in the middle of a
    /// download, of live view and of a property change, or falling silent in the middle of a download, over loopback
    /// TCP.
    ///
    /// The call under way fails with a clear error, publishers end, the camera becomes not connected after an
    /// unexpected disconnection, and the session's threads and sockets are gone afterwards.
    @Suite(.serialized, .timeLimit(.minutes(3))) struct PTPIPCameraFaultTests {
        /// What a call cut off by the camera going away may throw.
        static let lostCameraCodes: Set<ViewfinderError.Code> = [.disconnected, .timeout]

        /// Runs `body` with a connected camera that `body` makes lose its camera, then checks how the camera ended,
        /// that nothing of the session is left (no thread or socket of the simulator's port, and no more descriptors
        /// or threads in the process than before, give or take what tests running beside it hold), and that the camera
        /// connects again to a camera back on the same port.
        static func run(
            _ simulator: CameraSimulator.Configuration,
            camera: PTPCamera.Configuration = PTPCamera.Configuration(),
            transport: PTPIPTransport.Configuration = PTPIPTransport.Configuration(),
            _ body: (CameraHarness) async throws -> Void
        ) async throws {
            let before = ProcessResources.current
            try await CameraHarness.run(simulator, camera: camera, transport: transport) { harness in
                let camera = harness.camera
                let port = harness.simulator.port
                // The counts see the session: its two threads (each names itself once it runs), and both ends of its
                // two connections besides the simulator's listener.
                try await waitUntil("the session's threads, named") {
                    let threads = PortResources.held(for: port).threads
                    return threads.contains("ptp\(port)-cmd") && threads.contains("ptp\(port)-events")
                }
                #expect(PortResources.held(for: port).sockets.count == 5)
                let states = Observed<CameraConnectionState>()
                let token = camera.addConnectionStateObserver { states.append($0) }
                defer { token.cancel() }
                let published = Observed<CameraConnectionState>()
                let publisher = camera.connectionStatePublisher().sink { published.append($0) }
                defer { publisher.cancel() }
                try await body(harness)

                // Observers and publishers hear of it just after the state changes.
                try await waitUntil("the camera to notice it is gone and tell its observers") {
                    camera.connectionState == .notConnected && states.all.last == .notConnected
                        && published.all.last == .notConnected
                }
                #expect(states.all == [.notConnected])
                #expect(published.all == [.connected, .notConnected])
                let disconnection = try #require(camera.lastDisconnection)
                #expect(!disconnection.wasExpected)
                #expect(disconnection.error.map { lostCameraCodes.contains($0.code) } == true, "\(disconnection)")
                // Until it connects again, calls say the camera went away and how.
                let later = await #expect(throws: ViewfinderError.self) { _ = try await camera.storages() }
                #expect(later?.code == disconnection.error?.code)
                #expect(later?.message.contains("went away") == true, "\(String(describing: later))")
                let set = await #expect(throws: ViewfinderError.self) {
                    try await camera.property(for: .iso).setValue(.iso800)
                }
                #expect(set?.code == disconnection.error?.code)
                #expect(set?.message.contains("went away") == true, "\(String(describing: set))")

                // The camera object lives on, ready to connect again; what the lost session held must be gone.
                await harness.simulator.stopOffThePool()
                try await waitUntil("the session's threads to end and its sockets to close") {
                    PortResources.held(for: port) == .none
                }

                // A camera back on the network is connected again.
                var revived = simulator
                revived.port = port
                let again = try CameraSimulator(configuration: revived)
                try again.start()
                try await camera.connect()
                #expect(camera.connectionState == .connected && camera.lastDisconnection == nil)
                #expect(camera.property(for: .iso).currentValue != nil)
                try await camera.disconnect()
                await again.stopOffThePool()
            }
            // Other tests open and close descriptors and threads meanwhile; a leak stays, their use comes and goes.
            let after = await ProcessResources.settle {
                $0.descriptors <= before.descriptors + 2 && $0.threads <= before.threads + 2
            }
            #expect(after.descriptors <= before.descriptors + 2, "before: \(before); after: \(after)")
            #expect(after.threads <= before.threads + 2, "before: \(before); after: \(after)")
        }

        /// Downloads a file of `size` bytes that the camera just recorded to a file, calling `fault` after the first
        /// piece arrived; returns the error the download threw, and checks that it got no further and left no file.
        static func downloadCutOff(
            size: Int, in harness: CameraHarness, _ fault: @escaping @Sendable () -> Void
        ) async throws -> ViewfinderError? {
            let directory = "/tmp/viewfinder-tests-\(getpid())-faults"
            try makeDirectory(directory)
            defer { removeDirectory(directory) }
            let handle = try harness.simulator.addObject(
                named: "DSC_0100.NEF", data: [UInt8](repeating: 0x5A, count: size))
            let (_, files) = try await PTPIPCameraFileTests.cameraFolder(of: harness.camera)
            let item = try #require(files.first { $0.id == handle })
            let path = "\(directory)/\(item.name)"
            let pieces = Atomic(0)
            let error = await #expect(throws: ViewfinderError.self) {
                try await harness.camera.download(item, toFile: path) { progress in
                    #expect(progress.completedByteCount < item.byteCount ?? 0)
                    if pieces.add(1, ordering: .relaxed).newValue == 1 { fault() }
                }
            }
            #expect(access(path, F_OK) != 0, "a partial download is left as \(path)")
            #expect(access(path + ".partial", F_OK) != 0, "the partial file is left behind")
            return error
        }

        @Test func aDownloadCutOffFailsAndLeavesNoFile() async throws {
            // Pieces of 4 MiB of a 32 MiB file: the camera goes away while the second piece is on its way.
            let configuration = PTPCamera.Configuration(downloadChunkSize: 4 << 20)
            try await Self.run(CameraSimulator.Configuration(sampleImageCount: 1), camera: configuration) { harness in
                let simulator = harness.simulator
                let error = try await Self.downloadCutOff(size: 32 << 20, in: harness) {
                    DispatchQueue.global().async { simulator.dropAllConnections() }
                }
                #expect(error.map { Self.lostCameraCodes.contains($0.code) } == true, "\(String(describing: error))")
            }
        }

        @Test func aDownloadFromACameraThatFallsSilentTimesOutAndLeavesNoFile() async throws {
            let configuration = PTPCamera.Configuration(downloadChunkSize: 1 << 20)
            try await Self.run(
                // Long enough for a busy machine under the thread sanitizer: with 1 s, the first piece's data phase
                // could stall that long (a timeout inside a data phase rightly ends the session at once), or the look
                // at the state below come a whole timeout after the download failed, after another request had timed
                // out in a row; the camera was then rightly gone, and the test failed once in CI.
                CameraSimulator.Configuration(sampleImageCount: 1), camera: configuration,
                transport: .init(responseTimeout: .seconds(4))
            ) { harness in
                // The camera leaves the network after the first piece: the request for the next goes unanswered.
                let simulator = harness.simulator
                let error = try await Self.downloadCutOff(size: 8 << 20, in: harness) { simulator.stopAnswering() }
                #expect(error?.code == .timeout, "\(String(describing: error))")
                // One timeout leaves the session for a late answer; the next request's, in a row, ends it.
                #expect(harness.camera.connectionState == .connected)
                let next = await #expect(throws: ViewfinderError.self) { _ = try await harness.camera.storages() }
                #expect(next?.code == .timeout)
            }
        }

        @Test func liveViewCutOffFailsItsSubscribersAndPropertiesForgetTheirValues() async throws {
            let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await Self.run(nikon) { harness in
                let camera = harness.camera
                let completions = Observed<Subscribers.Completion<LiveViewTerminationReason>>()
                let frames = Atomic(0)
                let liveView = camera.liveViewPublisher.sinkWithReadyHandler {
                    completions.append($0)
                } receiveValue: { _, ready in
                    frames.add(1, ordering: .relaxed)
                    ready()
                }
                let isos = Observed<ISOValue?>()
                let iso = camera.commonValuePublisher(for: .iso).sink { isos.append($0) }
                try await waitUntil("live view frames") { frames.load(ordering: .relaxed) >= 3 }

                harness.simulator.dropAllConnections()
                try await waitUntil("live view to end") { !completions.all.isEmpty }
                guard case .failure(.failed(let error)) = completions.all.first else {
                    Issue.record("expected live view to fail, got \(completions.all)")
                    return
                }
                #expect(Self.lostCameraCodes.contains(error.code), "\(error)")
                try await waitUntil("the ISO value to be forgotten") { isos.all.last == .some(nil) }
                #expect(isos.all.first == .some(.iso100))
                #expect(completions.all.count == 1)
                liveView.cancel()
                iso.cancel()
            }
        }

        @Test func aPropertySetCutOffFailsAndLeavesNoPendingValue() async throws {
            try await Self.run(CameraSimulator.Configuration(sampleImageCount: 0)) { harness in
                let iso = harness.camera.property(for: .iso)
                let simulator = harness.simulator
                // The camera goes away the moment the new value is pending, as the set is sent.
                let token = iso.addObserver { property, change in
                    if change.contains(.pendingValue), property.pendingValue != nil {
                        simulator.dropAllConnections()
                    }
                }
                defer { token.cancel() }
                let error = await #expect(throws: ViewfinderError.self) { try await iso.setValue(.iso800) }
                #expect(error.map { Self.lostCameraCodes.contains($0.code) } == true, "\(String(describing: error))")
                #expect(iso.pendingValue == nil)
                try await waitUntil("the ISO value to be forgotten") { iso.currentValue == nil }
            }
        }
    }
}
