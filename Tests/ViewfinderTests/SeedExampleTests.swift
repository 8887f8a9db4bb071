import Dispatch
import Testing
import Viewfinder
import ViewfinderSimulator
import ViewfinderTestSupport

/// Lines printed by an example, recorded so that the test can check them.
final class PrintedLines: @unchecked Sendable {
    // Unchecked: every access goes through the serial queue.
    private let queue = DispatchQueue(label: "printed lines")
    private var lines: [String] = []

    func append(_ line: String) {
        queue.sync { lines.append(line) }
    }

    var all: [String] { queue.sync { lines } }
}

/// Stands in for a text label of a user interface.
final class Label: @unchecked Sendable {
    // Unchecked: every access goes through the serial queue.
    private let queue = DispatchQueue(label: "label")
    private var value = ""

    var text: String {
        get { queue.sync { value } }
        set { queue.sync { value = newValue } }
    }
}

extension SimulatedCameraExamples {
    /// The reference API's examples, run against a simulated Nikon and a simulated Canon EOS camera over loopback TCP.
    ///
    /// The examples are written as in the reference, with these changes, each needed for Swift to compile them or for
    /// the test to observe them: `print` and the label are recorded; publishers' cancellables are kept (the examples drop
    /// them, which would end each subscription at once); optional values are printed with `?? "unknown"` or
    /// `String(describing:)`, as Swift warns about interpolating an optional; a property is not optional, so
    /// `isoProperty?.commonValue` is `isoProperty.commonValue` (see ``SeedDiscoveryTests`` for discovery).
    @Suite(.timeLimit(.minutes(3))) struct SeedExampleTests {
        /// The simulated cameras the examples run against, each discovered as its family.
        static let families: [CameraFamily] = [.nikon, .canon]

        /// Runs `body` with a camera of `family` connected to a simulated camera of that family.
        static func withCamera(_ family: CameraFamily, _ body: (any Camera) async throws -> Void) async throws {
            let identity: CameraSimulator.Identity = family == .canon ? .canon : .nikon
            let simulator = try CameraSimulator(configuration: .init(identity: identity, port: 0, sampleImageCount: 0))
            try simulator.start()
            do {
                let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
                    .cameraType(family, atAddress: "127.0.0.1", port: simulator.port))
                try await camera.connect()
                do {
                    try await body(camera)
                } catch {
                    try? await camera.disconnect()
                    throw error
                }
                try await camera.disconnect()
            } catch {
                await simulator.stopOffThePool()
                throw error
            }
            await simulator.stopOffThePool()
        }

        @Test(arguments: families) func stronglyTypedPropertyExample(family: CameraFamily) async throws {
            try await Self.withCamera(family) { camera in
                let printed = PrintedLines()
                let print = printed.append

                let isoProperty = camera.property(for: .iso)  // Gives you a `TypedCameraProperty<ISOValue>`
                print("ISO is: \(isoProperty.currentValue?.localizedDisplayValue ?? "unknown")")

                // Because properties are strongly-typed, we can do nice logic.
                if isoProperty.commonValue == .iso100 { print("ISO 100!") }

                // Important: The observation will invalidate when this token is
                // deallocated — it should be stored somewhere!
                let property = isoProperty
                let observerToken = property.addObserver { property, changeType in
                    if changeType.contains(.value) {
                        print("ISO changed to: \(property.currentValue?.localizedDisplayValue ?? "unknown")!")
                    }

                    if changeType.contains(.validSettableValues) {
                        print(
                            "Valid ISOs changed to: \(property.validSettableValues.compactMap({ $0.localizedDisplayValue }))!"
                        )
                    }
                }

                try await isoProperty.setValue(.iso800)
                try await waitUntil { printed.all.count >= 3 }
                #expect(printed.all == ["ISO is: ISO 100", "ISO 100!", "ISO changed to: ISO 800!"])
                withExtendedLifetime(observerToken) {}
            }
        }

        @Test(arguments: families) func propertyPublisherExamples(family: CameraFamily) async throws {
            try await Self.withCamera(family) { camera in
                let printed = PrintedLines()
                let print = printed.append
                var cancellables: [AnyCancellable] = []
                let fired = PrintedLines()

                camera.publisher(for: .shutterSpeed).sink { shutterSpeedProperty in
                    // Fires whenever the current value or valid settable values change.
                    fired.append(shutterSpeedProperty.localizedDisplayName)
                }.store(in: &cancellables)

                camera.valuePublisher(for: .shutterSpeed).sink { shutterSpeed in
                    // Fires whenever the current value changes.
                    print("The current shutter speed is: \(shutterSpeed?.localizedDisplayValue ?? "nil")")
                }.store(in: &cancellables)

                camera.settableValuesPublisher(for: .shutterSpeed).sink { shutterSpeeds in
                    print(
                        "Valid shutter speeds are: \(shutterSpeeds.compactMap({ $0.localizedDisplayValue }).count) values"
                    )
                }.store(in: &cancellables)

                camera.valuePublisher(for: .shutterSpeed)
                    .combineLatest(camera.valuePublisher(for: .aperture))
                    .combineLatest(camera.valuePublisher(for: .iso))
                    .flatten()
                    .sink { shutter, aperture, iso in
                        print(
                            "Exposure triangle values: \(String(describing: shutter)), \(String(describing: aperture)), "
                                + "\(String(describing: iso))")
                    }.store(in: &cancellables)

                try await camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 1.0 / 500)!)
                try await waitUntil { printed.all.count >= 5 && fired.all.count >= 3 }
                // The camera's own codes: Nikon's are the standard PTP values, Canon's are its EOS codes.
                let (slow, fast, aperture, iso) = family == .canon ? (112, 128, 48, 72) : (80, 20, 560, 100)
                // The simulated Nikon offers bulb after its 53 timed speeds.
                let speeds = family == .canon ? 53 : 54
                #expect(
                    printed.all == [
                        "The current shutter speed is: 1/125",
                        "Valid shutter speeds are: \(speeds) values",
                        "Exposure triangle values: Optional(1/125 [\(slow)]), Optional(f/5.6 [\(aperture)]), "
                            + "Optional(ISO 100 [\(iso)])",
                        "The current shutter speed is: 1/500",
                        "Exposure triangle values: Optional(1/500 [\(fast)]), Optional(f/5.6 [\(aperture)]), "
                            + "Optional(ISO 100 [\(iso)])",
                    ])
                // The state at the first demand, the pending value, the value the camera shows.
                #expect(fired.all.count == 3)
            }
        }

        @Test(arguments: families) func videoRecordingStateExample(family: CameraFamily) async throws {
            try await Self.withCamera(family) { camera in
                let label = Label()
                let texts = PrintedLines()

                let cancellable = camera.videoRecordingStatePublisher().sink { recordingState in
                    switch recordingState {
                    case .notRecording: label.text = "Not Recording"
                    case .recording(let timer?): label.text = "Recording: \(timer.asMinutesAndSeconds)"
                    case .recording(_): label.text = "Recording"
                    }
                    texts.append(label.text)
                }

                #expect(label.text == "Not Recording")
                try await camera.startVideoRecording()
                try await waitUntil { label.text != "Not Recording" }
                #expect(label.text.hasPrefix("Recording: 0:0"))
                try await waitUntil { label.text == "Recording: 0:01" }
                #expect(texts.all.contains("Recording: 0:01"))
                try await camera.stopVideoRecording()
                try await waitUntil { label.text == "Not Recording" }
                #expect(label.text == "Not Recording")
                cancellable.cancel()
            }
        }

        /// Stands in for work done on each frame: the frame's JPEG size.
        func processFrameSynchronously(_ frame: LiveViewFrame) -> Int {
            frame.jpegData.count
        }

        /// Stands in for drawing: records the result.
        func renderProcessedFrameOnScreen(_ result: Int) {
            rendered.append("\(result)")
        }

        let rendered = PrintedLines()

        @Test(arguments: families) func liveViewProcessedSynchronously(family: CameraFamily) async throws {
            try await Self.withCamera(family) { camera in
                let printed = PrintedLines()
                let print = printed.append
                let results = PrintedLines()

                // In this example, we're processing the frame synchronously in the subscription closure.

                let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
                    .receive(on: DispatchQueue.global(qos: .default))
                    .sinkWithReadyHandler { completion in
                        print("Live view ended with completion reason: \(completion)")
                    } receiveValue: { frame, readyForNextFrame in
                        let result = processFrameSynchronously(frame)
                        results.append("\(result)")
                        readyForNextFrame()
                    }

                try await waitUntil(limit: .seconds(60)) { results.all.count >= 10 }
                #expect(results.all.count >= 10)
                #expect(results.all.allSatisfy { (Int($0) ?? 0) > 1000 })
                // Disconnecting ends live view normally.
                try await camera.disconnect()
                try await waitUntil { !printed.all.isEmpty }
                #expect(printed.all == ["Live view ended with completion reason: finished"])
                withExtendedLifetime(cancellable) {}
            }
        }

        @Test(arguments: families) func liveViewRenderedAsynchronously(family: CameraFamily) async throws {
            try await Self.withCamera(family) { camera in
                let printed = PrintedLines()
                let print = printed.append
                let publisher = camera.liveViewPublisher
                let overfetched = PrintedLines()

                // In this example, we're rendering the frame asynchronously and informing the subscription
                // when we're done and ready for another frame.

                let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
                    .receive(on: DispatchQueue.global(qos: .default))
                    .sinkWithReadyHandler { completion in
                        print("Live view ended with completion reason: \(completion)")
                    } receiveValue: { frame, readyForNextFrame in
                        let result = processFrameSynchronously(frame)
                        DispatchQueue.main.async {
                            // Rendering an image to screen still takes some time.
                            self.renderProcessedFrameOnScreen(result)
                            // No frame beyond this one was fetched before it was rendered.
                            if publisher.statistics.framesFetched > self.rendered.all.count {
                                overfetched.append("\(frame.sequenceNumber)")
                            }
                            readyForNextFrame()
                        }
                    }

                try await waitUntil(limit: .seconds(60)) { rendered.all.count >= 10 }
                #expect(rendered.all.count >= 10)
                #expect(overfetched.all.isEmpty)
                cancellable.cancel()
                #expect(printed.all.isEmpty)
            }
        }
    }
}
