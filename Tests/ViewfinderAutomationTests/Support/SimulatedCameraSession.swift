import Foundation
import ViewfinderCameras
import ViewfinderSimulator
import ViewfinderTestSupport

/// A simulated camera on a free loopback port, found and connected through the public discovery API as a program
/// would, for the automations' tests.
enum SimulatedCameraSession {
    /// Starts a simulator, connects to it, runs `body` with both, and tears everything down.
    static func run<Result>(
        _ configuration: CameraSimulator.Configuration,
        _ body: (CameraSimulator, any Camera) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.port = 0
        let simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
        do {
            let type: CameraFamily = configuration.identity == .canon ? .canon : .nikon
            let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
                .cameraType(type, atAddress: "127.0.0.1", port: simulator.port))
            try await camera.connect()
            do {
                let result = try await body(simulator, camera)
                try await camera.disconnect()
                await simulator.stopOffThePool()
                return result
            } catch {
                try? await camera.disconnect()
                throw error
            }
        } catch {
            await simulator.stopOffThePool()
            throw error
        }
    }

    /// The simulated Canon and Nikon, without sample pictures on their cards.
    static let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)
    static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
}

/// Collects an automation's events until it ends.
func collect(_ run: AutomationRun, onEach: (AutomationEvent) async throws -> Void = { _ in }) async throws
    -> [AutomationEvent]
{
    var events: [AutomationEvent] = []
    for try await event in run.events {
        events.append(event)
        try await onEach(event)
    }
    return events
}

extension [AutomationEvent] {
    /// The frames captured, in order.
    var capturedFrames: [Int] {
        compactMap { if case .captured(let frame, _) = $0 { frame } else { nil } }
    }

    /// The paths saved, in order.
    var savedPaths: [String] {
        compactMap { if case .saved(_, _, let path) = $0 { path } else { nil } }
    }

    /// The summary the automation ended with.
    var summary: AutomationSummary? {
        guard case .finished(let summary) = last else { return nil }
        return summary
    }
}

/// The bytes of the file at `path`.
func fileBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
