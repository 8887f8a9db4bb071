import Foundation
import Testing
import Viewfinder
import ViewfinderSimulator
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// `camera timelapse`, `bracket`, `focus-stack` and `tether` against the simulated Nikon and Canon: what they
    /// print, the files they save, and what the simulator saw.
    @Suite struct CameraAutomationCommandTests {
        /// An event line as `--json` prints it.
        struct EventJSON: Decodable {
            var event: String
            var frame: Int?
            var setting: String?
            var path: String?
            var framesCaptured: Int?
            var framesSkipped: Int?
            var filesSaved: Int?
            var cancelled: Bool?
            var status: Int32?
        }

        static func events(_ output: String) throws -> [EventJSON] {
            try output.split(separator: "\n").map { try JSONDecoder().decode(EventJSON.self, from: Data($0.utf8)) }
        }

        @Test func timelapseTakesItsFramesOnScheduleAndSavesThem() async throws {
            let directory = try ScratchDirectory()
            try await CameraUnderTest.with { camera in
                let result = try camera.run(
                    "camera", "timelapse", "--frames", "2", "--interval", "2", "--download", directory.path, "--json")
                #expect(result.status == 0, "\(result)")
                let events = try Self.events(result.standardOutput)
                let finished = try #require(events.last)
                #expect(finished.event == "finished" && finished.cancelled == false, "\(result)")
                // The first frame is due at once; the second is taken, or skipped when the machine is too busy.
                let captured = finished.framesCaptured ?? 0
                #expect(captured >= 1 && captured + (finished.framesSkipped ?? 0) == 2, "\(result)")
                #expect(events.contains { $0.event == "waiting" && $0.frame == 2 }, "\(result)")
                let saved = events.compactMap(\.path)
                #expect(saved.count == captured && finished.filesSaved == captured, "\(result)")
                for path in saved {
                    let size = try decodedJPEGSize(try directory.bytes(of: String(path.split(separator: "/").last!)))
                    #expect(size.width > 0)
                }
            }
        }

        @Test func timelapseHoldsABulbExposureAndRefusesOneLongerThanTheInterval() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let result = try camera.run("camera", "timelapse", "--frames", "1", "--interval", "2", "--bulb", "0.5")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput.contains("Frame 1: "), "\(result)")
                #expect(result.standardOutput.contains("Took 1 frame, saved 0 files"), "\(result)")
                let length = try #require(camera.simulator.lastExposureLength)
                #expect(length >= .milliseconds(500), "the exposure lasted \(length)")

                let wrong = try camera.run("camera", "timelapse", "--interval", "2", "--bulb", "3")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("make the interval longer"), "\(wrong)")
            }
        }

        @Test func bracketStepsTheShutterSpeedAndPutsItBack() async throws {
            try await CameraUnderTest.with(identity: .canon) { camera in
                let result = try camera.run("camera", "bracket", "--setting", "shutter", "--json")
                #expect(result.status == 0, "\(result)")
                let events = try Self.events(result.standardOutput)
                #expect(events.filter { $0.event == "exposing" }.map(\.setting) == ["1/125", "1/250", "1/60"])
                #expect(events.contains { $0.event == "restored" && $0.setting == "1/125" }, "\(result)")
                #expect(camera.simulator.modelValue(of: .exposureTime) == .uint32(80))

                let even = try camera.run("camera", "bracket", "--shots", "4")
                #expect(even.status == 64, "\(even)")
                #expect(even.standardError.contains("odd number"), "\(even)")
                // Manual exposure has no compensation to step.
                let manual = try camera.run("camera", "bracket")
                #expect(manual.status == 76, "\(manual)")
                #expect(manual.standardError.contains("exposure compensation"), "\(manual)")
            }
        }

        @Test func focusStackMovesTheLensBetweenPicturesAndSavesThem() async throws {
            let directory = try ScratchDirectory()
            try await CameraUnderTest.with { camera in
                let result = try camera.run(
                    "camera", "focus-stack", "--shots", "3", "--steps", "2", "--size", "large", "--towards", "camera",
                    "--download", directory.path)
                #expect(result.status == 0, "\(result)")
                #expect(result.standardOutput.contains("Took 3 frames, saved 3 files"), "\(result)")
                #expect(camera.simulator.focusPosition == 1000, "four large steps from 5000 towards the camera")
                #expect(try directory.files().count == 3)
            }
        }

        @Test func tetherSavesEachNewPictureAndRunsTheCommandForIt() async throws {
            let directory = try ScratchDirectory()
            try await CameraUnderTest.with { camera in
                let tool = try Tool.start(
                    [
                        "camera", "tether", "--download", directory.path, "--count", "2", "--exec",
                        "cp \"$1\" \"$1.copy\"", "--json",
                    ] + camera.target, waitingFor: "\"event\":\"waiting\"")
                let first = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
                _ = try camera.simulator.addObject(named: "DSC_9001.JPG", format: .exifJPEG, data: first)
                _ = try camera.simulator.addObject(named: "DSC_9002.JPG", format: .exifJPEG, data: [1, 2, 3])
                #expect(tool.wait(timeout: .seconds(60)) == 0, "\(tool.standardOutput)\(tool.standardError)")
                let events = try Self.events(tool.standardOutput)
                #expect(events.filter { $0.event == "commandFinished" }.map(\.status) == [0, 0], "\(events)")
                #expect(
                    try directory.files() == ["DSC_9001.JPG", "DSC_9001.JPG.copy", "DSC_9002.JPG", "DSC_9002.JPG.copy"])
                #expect(try directory.bytes(of: "DSC_9001.JPG") == first)
                #expect(try directory.bytes(of: "DSC_9002.JPG.copy") == [1, 2, 3])
            }
        }
    }
}
