import Testing
import ViewfinderCameras
import ViewfinderSimulator
import ViewfinderTestSupport

/// Focus stacks against the simulated Canon and Nikon over loopback TCP: the simulated lens moves the steps asked
/// between the pictures, and a lens at the end of its travel ends the stack.
@Suite(.serialized, .timeLimit(.minutes(3))) struct FocusStackTests {
    @Test(arguments: [SimulatedCameraSession.canon, SimulatedCameraSession.nikon])
    func theFocusMovesBetweenThePictures(_ configuration: CameraSimulator.Configuration) async throws {
        try await SimulatedCameraSession.run(configuration) { simulator, camera in
            let start = simulator.focusPosition
            let stack = FocusStack(shots: 3, stepsBetweenShots: 2, stepSize: .large, direction: .towardsCamera)
            let events = try await collect(stack.start(on: camera))
            #expect(events.capturedFrames == [1, 2, 3])
            #expect(events.contains(.focusMoved(frame: 1, steps: 2)))
            #expect(events.contains(.focusMoved(frame: 2, steps: 2)))
            // Four large steps of 1000 motor steps towards the camera, none after the last picture.
            #expect(simulator.focusPosition == start - 4000, "the lens is at \(simulator.focusPosition)")
        }
    }

    @Test func theEndOfTheLensTravelEndsTheStack() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.nikon) { simulator, camera in
            // From half way (5000), five large steps of 1000 reach infinity; the sixth cannot move.
            let stack = FocusStack(shots: 10, stepsBetweenShots: 2, stepSize: .large, direction: .towardsInfinity)
            let events = try await collect(stack.start(on: camera))
            #expect(events.capturedFrames == [1, 2, 3])
            #expect(events.contains(.focusMoved(frame: 3, steps: 1)))
            let stopped = events.contains { if case .focusStopped(3, _) = $0 { true } else { false } }
            #expect(stopped, "\(events)")
            #expect(events.summary == AutomationSummary(framesCaptured: 3))
            #expect(simulator.focusPosition == 10_000)
        }
    }
}
