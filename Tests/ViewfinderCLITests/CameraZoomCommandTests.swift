import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `camera zoom` against the simulated Canon, Nikon and generic camera: the factor and the centre reach the
    /// simulated Canon's live view and a named level the Nikon's, read back from the simulator; a level the camera does
    /// not offer, a malformed centre and a camera without zoom are refused.
    @Suite struct CameraZoomCommandTests {
        struct ZoomJSON: Decodable {
            var factor: Int?
            var level: String?
            var zoomedIn: Bool?
            var center: Center?
            var levels: [String]
        }

        struct Center: Decodable, Equatable {
            var x: Int
            var y: Int
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
                let report = try decodeJSON(ZoomJSON.self, from: json)
                #expect(report.factor == 5, "\(json)")
                #expect(report.zoomedIn == true, "\(json)")
                #expect(report.center == nil, "\(json)")
                #expect(report.levels == ["1x", "5x", "10x"], "\(json)")
                #expect(camera.simulator.liveViewZoomFactor == 5)

                let panned = try camera.run("camera", "zoom", "--factor", "10", "--center", "200,120")
                #expect(panned.status == 0, "\(panned)")
                #expect(panned.standardOutput == "Magnified live view 10 times around 200,120\n", "\(panned)")
                #expect(camera.simulator.liveViewZoomCenter.map { [$0.x, $0.y] } == [200, 120])

                let centerOnly = try camera.run("camera", "zoom", "--center", "20,30", "--json")
                #expect(centerOnly.status == 0, "\(centerOnly)")
                #expect(try decodeJSON(ZoomJSON.self, from: centerOnly).center == Center(x: 20, y: 30), "\(centerOnly)")
                #expect(camera.simulator.liveViewZoomCenter.map { [$0.x, $0.y] } == [20, 30])
                #expect(camera.simulator.liveViewZoomFactor == 10)

                let badCenter = try camera.run("camera", "zoom", "--center", "20")
                #expect(badCenter.status == 64, "\(badCenter)")
                #expect(badCenter.standardError.contains("--center takes X,Y"), "\(badCenter)")

                let wrong = try camera.run("camera", "zoom", "--factor", "3")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("1, 5 or 10"), "\(wrong)")
                #expect(camera.simulator.liveViewZoomFactor == 10)
            }
        }

        @Test func zoomTakesTheLevelsANikonNames() async throws {
            try await CameraUnderTest.with(identity: .nikon) { camera in
                let before = try camera.run("camera", "zoom", "--show")
                #expect(before.standardOutput == "Live view shows the whole picture\n", "\(before)")
                let result = try camera.run("camera", "zoom", "--level", "50%", "--json")
                #expect(result.status == 0, "\(result)")
                let report = try decodeJSON(ZoomJSON.self, from: result)
                #expect(report.level == "50%" && report.zoomedIn == true && report.factor == nil, "\(result)")
                #expect(camera.simulator.dialValue(.nikonLiveViewImageZoomRatio) == 4)
                let shown = try camera.run("camera", "zoom", "--show", "--json")
                let shownReport = try decodeJSON(ZoomJSON.self, from: shown)
                #expect(shownReport.level == "50%", "\(shown)")
                #expect(shownReport.levels == ["1x", "25%", "50%", "100%", "200%"], "\(shown)")
                #expect(camera.simulator.dialValue(.nikonLiveViewImageZoomRatio) == 4)
                let showAndSet = try camera.run("camera", "zoom", "--show", "--factor", "1")
                #expect(showAndSet.status == 64, "\(showAndSet)")

                let byFactor = try camera.run("camera", "zoom", "--factor", "5")
                #expect(byFactor.status == 64, "\(byFactor)")
                #expect(byFactor.standardError.contains("25%, 50%, 100% or 200%"), "\(byFactor)")
                let both = try camera.run("camera", "zoom", "--factor", "1", "--level", "50%")
                #expect(both.status == 64 && both.standardError.contains("not both"), "\(both)")
                let whole = try camera.run("camera", "zoom", "--factor", "1")
                #expect(whole.standardOutput == "Live view shows the whole picture\n", "\(whole)")
                #expect(camera.simulator.dialValue(.nikonLiveViewImageZoomRatio) == 0)
            }
        }

        @Test func zoomOnACameraWithoutItSaysSo() async throws {
            try await CameraUnderTest.with(identity: .generic) { camera in
                let result = try camera.run("camera", "zoom")
                #expect(result.status == 76, "\(result)")
                #expect(result.standardError.contains("cannot magnify its live view"), "\(result)")
            }
        }
    }
}
