import Foundation
import Testing
import Viewfinder
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// The commands that stay connected — `watch` and `preview camera` — and cameras that cannot be reached.
    @Suite struct CameraSessionCommandTests {
        struct ChangeJSON: Decodable {
            var time: String
            var property: String?
            var value: String?
            var previousValue: String?
        }

        @Test func watchPrintsPropertyChangesAndNewFiles() async throws {
            // The simulated battery loses a percent every 200 ms while a client is connected.
            try await CameraUnderTest.with(batteryDrainInterval: .milliseconds(200)) { camera in
                let watch = try ChildProcess(Tool.path, ["camera", "watch"] + camera.target)
                #expect(
                    watch.waitForOutput(timeout: .seconds(60)) { Self.batteryChanges(in: $0) >= 2 },
                    "stdout: \(watch.standardOutput)\nstderr: \(watch.standardError)")
                let handle = try camera.simulator.addObject(named: "EXTRA.JPG", format: .exifJPEG, data: [0xFF, 0xD8])
                #expect(
                    watch.waitForOutput(timeout: .seconds(60)) { $0.contains("new file EXTRA.JPG (handle \(handle))") },
                    "stdout: \(watch.standardOutput)\nstderr: \(watch.standardError)")
                watch.interrupt()
                #expect(watch.wait(timeout: .seconds(30)) == 0, "stderr: \(watch.standardError)")
                #expect(watch.standardOutput.hasPrefix("Watching Simulated DSLR until Ctrl-C\n"))
            }
        }

        /// The lines of `watch` output that show the battery running down, such as `battery: 100% -> 99%`: a percent
        /// at a time, or more when the camera drained again before the watcher read the value it announced.
        static func batteryChanges(in output: String) -> Int {
            output.split(separator: "\n").filter { line in
                guard let range = line.range(of: "  battery: ") else { return false }
                let change = line[range.upperBound...].split(separator: " ")
                guard change.count == 3, change[1] == "->", let before = Int(change[0].dropLast()),
                    let after = Int(change[2].dropLast())
                else { return false }
                return after < before
            }.count
        }

        @Test func watchPrintsJSONLinesForItsDuration() async throws {
            try await CameraUnderTest.with(batteryDrainInterval: .milliseconds(200)) { camera in
                let result = try camera.run("camera", "watch", "--duration", "1.5", "--json")
                #expect(result.status == 0, "\(result)")
                let changes = try result.standardOutput.split(separator: "\n").map {
                    try JSONDecoder().decode(ChangeJSON.self, from: Data($0.utf8))
                }
                let battery = changes.filter { $0.property == "battery" }
                #expect(!battery.isEmpty, "\(result)")
                for change in battery {
                    let before = change.previousValue.flatMap { Int($0.dropLast()) }
                    let after = change.value.flatMap { Int($0.dropLast()) }
                    #expect(before.flatMap { before in after.map { $0 < before } } == true, "\(change)")
                    #expect(change.time.hasSuffix("Z"), "\(change)")
                }
            }
        }

        @Test func watchEndsWith69WhenTheCameraGoesAway() async throws {
            try await CameraUnderTest.with { camera in
                let watch = try Tool.start(["camera", "watch"] + camera.target, waitingFor: "Watching")
                camera.stop()
                let status = watch.wait(timeout: .seconds(60))
                #expect(status == 69, "stdout: \(watch.standardOutput)\nstderr: \(watch.standardError)")
                #expect(watch.standardError.contains("the camera went away"), "\(watch.standardError)")
            }
        }

        @Test func aCameraBusyWithAnotherClientFailsWith69() async throws {
            try await CameraUnderTest.with { camera in
                let watch = try Tool.start(["camera", "watch"] + camera.target, waitingFor: "Watching")
                let info = try camera.run("camera", "info")
                #expect(info.status == 69, "\(info)")
                #expect(info.standardError.contains("the camera is busy with another client"), "\(info)")
                watch.interrupt()
                #expect(watch.wait(timeout: .seconds(30)) == 0, "stderr: \(watch.standardError)")
            }
        }

        @Test func previewServesTheCamerasLiveView() async throws {
            try await CameraUnderTest.with { camera in
                let preview = try Tool.start(["preview", "camera"] + camera.target, waitingFor: "Ctrl-C stops")
                let output = preview.standardOutput
                #expect(output.hasPrefix("Previewing Simulated DSLR (127.0.0.1:\(camera.simulator.port))"), "\(output)")
                let address = try PrintedAddress(in: output)
                let port = address.port
                var reply = try HTTPTestClient.get(port: port, "/snapshot.jpg", headers: address.tokenField)
                let deadline = ContinuousClock.now + .seconds(30)
                while reply.status != 200 && ContinuousClock.now < deadline {
                    usleep(100_000)
                    reply = try HTTPTestClient.get(port: port, "/snapshot.jpg", headers: address.tokenField)
                }
                #expect(reply.status == 200, "\(reply.status)")
                #expect(try decodedJPEGSize(reply.body) == Dimensions(width: 640, height: 424))
                preview.interrupt()
                #expect(preview.wait(timeout: .seconds(30)) == 0, "stderr: \(preview.standardError)")
                #expect(preview.standardOutput.contains("Stopped after "), "\(preview.standardOutput)")
            }
        }

        /// A closed port on loopback: nothing listens, so every command fails at once with 69 and says what to try.
        @Test(arguments: [["discover"], ["camera", "info"], ["camera", "props", "--json"], ["preview", "camera"]])
        func anUnreachableCameraFailsWith69AndAHint(_ command: [String]) async throws {
            let port = try await CameraUnderTest.with { $0.simulator.port }
            try await onOwnThread {
                let result = try Tool.run(command + ["--host", "127.0.0.1:\(port)"], timeout: .seconds(60))
                #expect(result.status == 69, "\(result)")
                #expect(result.standardOutput.isEmpty, "\(result)")
                // Nothing is sent to an address before connecting, so the failure comes at the connection.
                #expect(
                    result.standardError.hasPrefix(
                        "viewfinder: error: cannot connect to the camera at 127.0.0.1:\(port)"),
                    "\(result)")
                #expect(result.standardError.contains("Connection refused"), "\(result)")
                #expect(result.standardError.contains("Check that the camera is on"), "\(result)")
            }
        }

        @Test func aUSBCameraThatIsNotAttachedFailsWith69() async throws {
            try await onOwnThread {
                let result = try Tool.run("camera", "info", "--usb", "9:99")
                #expect(result.status == 69, "\(result)")
                #expect(result.standardError.contains("no USB camera is at 9:99"), "\(result)")
                #expect(
                    result.standardError.contains("viewfinder discover` lists the cameras attached by USB"), "\(result)"
                )
            }
        }

        @Test func anInterfaceWithoutARouteFailsWith69() async throws {
            try await onOwnThread {
                let result = try Tool.run("discover", "--interface", "nosuch0")
                #expect(result.status == 69, "\(result)")
                #expect(result.standardError.contains("no interface named nosuch0 has a route"), "\(result)")
                #expect(result.standardError.contains("--host HOST"), "\(result)")
            }
        }
    }
}
