import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `camera zoom` against the simulated Canon and Nikon: the factor reaches the simulated Canon's live view, read
    /// back from the simulator; a factor the camera does not offer and a camera without zoom are refused.
    @Suite struct CameraZoomCommandTests {
        struct ZoomJSON: Decodable {
            var factor: Int
        }

        @Test func zoomMagnifiesTheCanonLiveViewAndRefusesAFactorItDoesNotOffer() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                #expect(camera.simulator.liveViewZoomFactor == 1)
                let result = try camera.run("camera", "zoom", "--factor", "10")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput == "Magnified live view 10 times\n", "\(result)")
                #expect(camera.simulator.liveViewZoomFactor == 10)

                let json = try camera.run("camera", "zoom", "--json")
                #expect(json.status == 0, "\(json)")
                #expect(try decodeJSON(ZoomJSON.self, from: json).factor == 5, "\(json)")
                #expect(camera.simulator.liveViewZoomFactor == 5)

                let wrong = try camera.run("camera", "zoom", "--factor", "3")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("1, 5 or 10"), "\(wrong)")
                #expect(camera.simulator.liveViewZoomFactor == 5)
            }
        }

        @Test func zoomOnACameraWithoutItSaysSo() async throws {
            try await CameraUnderTest.with { camera in
                let result = try camera.run("camera", "zoom")
                #expect(result.status == 76, "\(result)")
                #expect(result.standardError.contains("cannot magnify its live view"), "\(result)")
            }
        }
    }
}
