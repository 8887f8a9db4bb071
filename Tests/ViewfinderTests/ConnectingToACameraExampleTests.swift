import Dispatch
import Testing
import Viewfinder
import ViewfinderSimulator
import ViewfinderTestSupport

extension SimulatedCameraExamples {
    /// The example of ViewfinderPTP's "Connecting to a Camera" article, against a simulated Nikon camera over loopback.
    ///
    /// As in the article, except that the camera is found at the simulator's address rather than at the gateway (the
    /// gateway descriptors are checked by ``SeedDiscoveryTests``), and that `print` is recorded.
    @Suite(.timeLimit(.minutes(3))) struct ConnectingToACameraExampleTests {
        @Test func theArticleExampleRuns() async throws {
            let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0, sampleImageCount: 0))
            try simulator.start()
            do {
                try await Self.runExample(on: simulator)
            } catch {
                await simulator.stopOffThePool()
                throw error
            }
            await simulator.stopOffThePool()
        }

        static func runExample(on simulator: CameraSimulator) async throws {
            let printed = PrintedLines()
            let print = printed.append

            let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
                .cameraType(.nikon, atAddress: "127.0.0.1", port: simulator.port))

            let connection = camera.addConnectionStateObserver { state in
                print("camera is \(state)")
                if state == .notConnected, let ending = camera.lastDisconnection, !ending.wasExpected {
                    print("lost the camera: \(ending)")  // closed connection, or no answer to a probe
                }
            }
            try await camera.connect()
            print("connected to \(camera.deviceInfo?.description ?? "a camera")")
            print("live view: \(camera.supportedFunctionality.contains(.liveView))")

            // Typed properties: read, observe, set. Setting returns once the camera shows the new value.
            let iso = camera.property(for: .iso)
            print("ISO is \(iso.currentValue?.localizedDisplayValue ?? "unknown")")
            let valid = camera.property(for: .shutterSpeed).validSettableValues.map(\.localizedDisplayValue)
            print("shutter speeds the camera accepts now: \(valid.count)")
            try await camera.property(for: .autoExposureMode).setValue(.manual)
            try await iso.setValue(.iso800)
            try await camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 1.0 / 250)!)
            try await camera.property(for: .aperture).increment()

            // Take a picture and download it as soon as it is on the card.
            let files = camera.fileAccess!
            let newFiles = AsyncStream<CameraFileItem>.makeStream()
            let token = files.addNewFileObserver { newFiles.continuation.yield($0) }
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            for await item in newFiles.stream {
                let jpeg = try await files.downloadData(of: item) { progress in
                    print("\(item.name): \(Int(progress.fractionCompleted * 100)) %")
                }
                print("downloaded \(item.name): \(jpeg.count) bytes")
                #expect(jpeg == simulator.objectData(item.id))
                break
            }

            // Live view, at the pace of the consumer: the next frame is fetched when the ready handler is called.
            let liveView = camera.liveViewPublisher
                .receive(on: DispatchQueue.global(qos: .default))
                .sinkWithReadyHandler { completion in
                    print("Live view ended with completion reason: \(completion)")
                } receiveValue: { frame, readyForNextFrame in
                    print("frame \(frame.sequenceNumber): \(frame.pixelSize), decoded: \(frame.pixelBuffer != nil)")
                    readyForNextFrame()
                }
            try await waitUntil("a live view frame") { printed.all.contains { $0.hasPrefix("frame 1: ") } }
            liveView.cancel()  // live view ends at the camera a moment later

            try await camera.disconnect()
            withExtendedLifetime((connection, token)) {}

            let lines = printed.all
            #expect(
                lines.prefix(6) == [
                    "camera is connecting", "camera is connected",
                    "connected to Nikon Corporation Simulated DSLR (serial NK0000001, version 1.0)", "live view: true",
                    "ISO is ISO 100", "shutter speeds the camera accepts now: 54",
                ])
            #expect(lines.contains("DSC_0001.JPG: 100 %"))
            #expect(lines.contains { $0.hasPrefix("downloaded DSC_0001.JPG: ") })
            #expect(lines.contains("frame 1: 640x424, decoded: true"))
            #expect(lines.suffix(2) == ["camera is disconnecting", "camera is not connected"])
            #expect(!lines.contains { $0.hasPrefix("lost the camera") })
            #expect(!lines.contains { $0.hasPrefix("Live view ended") })
        }
    }
}
