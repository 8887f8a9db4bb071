import Viewfinder
import ViewfinderSimulator

/// A connected camera for the commands that serve one for long: the camera the target options point at, or the
/// built-in simulated camera (a Nikon with live view and video, in this process) when they point nowhere.
struct TargetCamera: Sendable {
    /// The camera, connected.
    let camera: any Camera
    /// The simulated camera, when the options named none.
    let simulator: CameraSimulator?
    /// Where the camera is, for people: `the simulated camera on 127.0.0.1:40123` or the target's place.
    let place: String
    /// The options that named the camera, which also say how to disconnect; `nil` for the simulated camera.
    let target: CameraTarget?

    /// Connects to the camera the options name, or starts the simulated camera and connects to it.
    ///
    /// - Throws: ``CommandFailure`` with exit status 69 when the camera cannot be found or reached.
    static func connect(_ target: CameraTarget) async throws -> TargetCamera {
        if target.namesAPlace {
            return TargetCamera(camera: try await target.connect(), simulator: nil, place: target.place, target: target)
        }
        let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0))
        try simulator.start()
        do {
            let descriptor = ManualCameraDescriptor.cameraType(.nikon, atAddress: "127.0.0.1", port: simulator.port)
            let camera = try await CameraDiscovery.shared.manualDiscovery.discover(descriptor)
            try await camera.connect()
            return TargetCamera(
                camera: camera, simulator: simulator, place: "the simulated camera on 127.0.0.1:\(simulator.port)",
                target: nil)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
    }

    /// The camera's maker and model, such as `Nikon Corporation Simulated DSLR`.
    var model: String {
        camera.deviceInfo.map { "\($0.manufacturer) \($0.model)" } ?? "the camera"
    }

    /// Disconnects (turning the camera off with `--power-off`), and stops the simulated camera.
    func close() async {
        if let target {
            await target.disconnect(camera)
        } else {
            try? await camera.disconnect()
        }
        if let simulator {
            await offThePool { simulator.stop() }
        }
    }
}

/// Checks that `camera` offers `functionality` before a command uses it.
///
/// - Parameter doesNot: What the camera cannot do, as the message says it after its model: `does not offer live view`.
/// - Throws: ``CommandFailure`` with exit status 76 when it does not.
func require(_ functionality: CameraFunctionality, of camera: any Camera, else doesNot: String) throws {
    guard camera.supportedFunctionality.contains(functionality) else {
        throw CommandFailure(
            "\(camera.deviceInfo?.model ?? "the camera") \(doesNot)", exitStatus: ExitStatus.unsupported)
    }
}
