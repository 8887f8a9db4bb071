import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Command categories of a camera that serves all it offers at once, against the simulated Nikon: all of them
    /// current, a switch among them leaves the camera as it is, a category it does not offer is refused.
    @Suite(.timeLimit(.minutes(3))) struct CommandCategoriesTests {
        @Test func aNikonServesStillsFilesAndVideoAtOnce() async throws {
            let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await CameraHarness.run(nikon) { harness in
                let camera = harness.camera
                let all: CameraCommandCategories = [.stillsShooting, .fileAccess, .videoRecording]
                #expect(camera.supportedCommandCategories == all)
                #expect(camera.currentCommandCategories == all)
                try await camera.switchToCommandCategories(.fileAccess)
                #expect(camera.currentCommandCategories == all)
            }
        }

        @Test func aCategoryTheCameraDoesNotOfferIsRefused() async throws {
            // The generic simulated camera records no video.
            try await CameraHarness.run(CameraSimulator.Configuration(sampleImageCount: 0)) { harness in
                let camera = harness.camera
                #expect(!camera.supportedCommandCategories.contains(.videoRecording))
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.switchToCommandCategories(.videoRecording)
                }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("does not offer video") == true, "\(String(describing: refused))")
            }
        }
    }
}
