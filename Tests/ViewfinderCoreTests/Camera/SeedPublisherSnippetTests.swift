import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSystem

/// The publisher examples of the reference API, run against the fake camera.
///
/// As written, the examples drop the cancellable that `sink` returns, which ends the subscription at once; here each
/// is kept in `cancellables`. The exposure-triangle example interpolates optional values, which Swift warns about,
/// so it prints them with `String(describing:)`. `print` and `label` are recorded so that the output can be checked.
@Suite struct SeedPublisherSnippetTests {
    /// Stands in for a text label of a user interface.
    final class Label: Sendable {
        private let value = Locked("")
        var text: String {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    @Test func propertyPublisherExamples() async throws {
        let camera = FakeCamera()
        try await camera.connect()
        let printed = Locked<[String]>([])
        let print: @Sendable (String) -> Void = { line in printed.withLock { $0.append(line) } }
        var cancellables: [AnyCancellable] = []
        let fired = Atomic(0)

        camera.publisher(for: .shutterSpeed).sink { shutterSpeedProperty in
            // Fires whenever the current value or valid settable values change.
            fired.add(1, ordering: .relaxed)
        }.store(in: &cancellables)

        camera.valuePublisher(for: .shutterSpeed).sink { shutterSpeed in
            // Fires whenever the current value changes.
            print("The current shutter speed is: \(shutterSpeed?.localizedDisplayValue ?? "nil")")
        }.store(in: &cancellables)

        camera.settableValuesPublisher(for: .shutterSpeed).sink { shutterSpeeds in
            print("Valid shutter speeds are: \(shutterSpeeds.compactMap({ $0.localizedDisplayValue }))")
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

        #expect(fired.load(ordering: .relaxed) == 3)
        #expect(
            printed.withLock { $0 } == [
                "The current shutter speed is: 1/250",
                "Valid shutter speeds are: [\"30\\\"\", \"2.5\\\"\", \"0.3\\\"\", \"1/20\", \"1/125\", \"1/250\", "
                    + "\"1/500\", \"1/10000\"]",
                "Exposure triangle values: Optional(1/250 [40]), Optional(f/8 [800]), Optional(ISO 400 [400])",
                "The current shutter speed is: 1/500",
                "Exposure triangle values: Optional(1/500 [20]), Optional(f/8 [800]), Optional(ISO 400 [400])",
            ])
    }

    @Test func videoRecordingStateExample() async throws {
        let camera = FakeCamera()
        try await camera.connect()
        let label = Label()

        let cancellable = camera.videoRecordingStatePublisher().sink { recordingState in
            switch recordingState {
            case .notRecording: label.text = "Not Recording"
            case .recording(let timer?): label.text = "Recording: \(timer.asMinutesAndSeconds)"
            case .recording(_): label.text = "Recording"
            }
        }

        #expect(label.text == "Not Recording")
        camera.setRecordingState(.recording(timer: nil))
        #expect(label.text == "Recording")
        camera.setRecordingState(.recording(timer: .countingUp(.seconds(647))))
        #expect(label.text == "Recording: 10:47")
        withExtendedLifetime(cancellable) {}
    }
}
