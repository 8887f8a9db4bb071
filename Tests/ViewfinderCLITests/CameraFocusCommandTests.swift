import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `camera focus` against the simulated Nikon and Canon: the steps move the simulated lens, read back from the
    /// simulator, and a lens at the end of its travel stops the command with what it did.
    @Suite struct CameraFocusCommandTests {
        struct FocusJSON: Decodable {
            var size: String
            var towards: String
            var steps: Int
        }

        @Test func focusMovesTheNikonLensInStepsAndStopsAtTheEndOfItsTravel() async throws {
            try await CameraUnderTest.with { camera in
                #expect(camera.simulator.focusPosition == 5000)
                let result = try camera.run("camera", "focus", "--size", "large", "--towards", "camera", "--steps", "2")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput == "Moved the focus 2 large steps towards camera\n", "\(result)")
                // MfDrive's large step is 1000 of the motor's steps.
                #expect(camera.simulator.focusPosition == 3000)

                let json = try camera.run("camera", "focus", "--size", "medium", "--json")
                #expect(json.status == 0, "\(json)")
                let report = try decodeJSON(FocusJSON.self, from: json)
                #expect(report.size == "medium" && report.towards == "infinity" && report.steps == 1, "\(json)")
                #expect(camera.simulator.focusPosition == 3100)

                // 3100 to infinity (10 000) takes seven large steps; the eighth finds the end of the travel.
                let end = try camera.run("camera", "focus", "--size", "large", "--steps", "10")
                #expect(end.status == 76, "\(end)")
                #expect(end.standardError.contains("stopped after 7 of 10 steps"), "\(end)")
                #expect(end.standardError.contains("end of its travel"), "\(end)")
                #expect(camera.simulator.focusPosition == 10_000)
            }
        }

        @Test func focusDrivesTheCanonLensAndRefusesAWrongSize() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let result = try camera.run("camera", "focus", "--size", "small", "--towards", "camera", "--steps", "3")
                #expect(result.status == 0, "\(result)")
                // DriveLens's small step is 10 of the motor's steps.
                #expect(camera.simulator.focusPosition == 4970)
                let wrong = try camera.run("camera", "focus", "--size", "huge")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("--size takes small, medium or large"), "\(wrong)")
            }
        }

        @Test func focusOnACameraWithoutAFocusMotorSaysSo() async throws {
            try await CameraUnderTest.with(identity: .generic) { camera in
                let result = try camera.run("camera", "focus")
                #expect(result.status == 76, "\(result)")
                #expect(result.standardError.contains("cannot drive its focus"), "\(result)")
            }
        }
    }
}
