import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `camera focus --at` and `--info` against the simulated cameras: touch AF moves the simulated Nikon's
    /// autofocus area, read back from the simulator, and the focus information printed is the camera's.
    @Suite struct CameraFocusPointCommandTests {
        struct Report: Decodable {
            struct Point: Decodable {
                var x: Int
                var y: Int
            }
            struct Area: Decodable, Equatable {
                var x: Int
                var y: Int
                var width: Int
                var height: Int
                var active: Bool
                var focused: Bool
            }
            struct Info: Decodable {
                var width: Int
                var height: Int
                var points: [Area]
            }
            var at: Point?
            var focusInfo: Info?
        }

        @Test func focusAtAPointMovesTheNikonAreaAndShowsIt() async throws {
            try await CameraUnderTest.with { camera in
                let info = try camera.run("camera", "focus", "--info", "--json")
                #expect(info.status == 0, "\(info)")
                let before = try decodeJSON(Report.self, from: info)
                #expect(before.at == nil)
                #expect(before.focusInfo?.width == 6000 && before.focusInfo?.height == 4000, "\(info)")
                #expect(
                    before.focusInfo?.points
                        == [.init(x: 2700, y: 1800, width: 600, height: 400, active: true, focused: false)], "\(info)")

                let json = try camera.run("camera", "focus", "--at", "1500,1000", "--json")
                #expect(json.status == 0, "\(json)")
                #expect(camera.simulator.afAreaCenter == LiveViewPoint(x: 1500, y: 1000))
                let report = try decodeJSON(Report.self, from: json)
                #expect(report.at?.x == 1500 && report.at?.y == 1000, "\(json)")
                #expect(
                    report.focusInfo?.points
                        == [.init(x: 1200, y: 800, width: 600, height: 400, active: true, focused: true)], "\(json)")

                let text = try camera.run("camera", "focus", "--at", "4500x3000")
                #expect(text.status == 0, "\(text)")
                #expect(text.standardOutput.hasPrefix("Focused at 4500,3000\n"), "\(text)")
                #expect(text.standardOutput.contains("600x400+4200+2800 (active, in focus)"), "\(text)")
                #expect(camera.simulator.afAreaCenter == LiveViewPoint(x: 4500, y: 3000))
            }
        }

        @Test func aBadPointOrACameraWithoutTouchAFIsRefused() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let refused = try camera.run("camera", "focus", "--at", "100,100")
                #expect(refused.status == 76, "\(refused)")
                #expect(refused.standardError.contains("cannot focus at a point"), "\(refused)")
                let wrong = try camera.run("camera", "focus", "--at", "middle")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("--at takes a point as X,Y"), "\(wrong)")
                // The Canon reports its points in FocusInfoEx: nine, the middle one in use.
                let info = try camera.run("camera", "focus", "--info", "--json")
                #expect(info.status == 0, "\(info)")
                let report = try decodeJSON(Report.self, from: info)
                #expect(report.focusInfo?.points.count == 9, "\(info)")
                #expect(report.focusInfo?.points.filter(\.active).count == 1, "\(info)")
            }
        }
    }
}
