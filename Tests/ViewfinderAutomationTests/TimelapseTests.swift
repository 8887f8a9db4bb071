import Testing
import ViewfinderCameras
import ViewfinderSimulator
import ViewfinderTestSupport

/// Timelapses against the simulated Canon and Nikon over loopback TCP, timed by a clock the test moves: each frame's
/// wait is what the schedule says, whatever the frames before it took.
@Suite(.serialized, .timeLimit(.minutes(3))) struct TimelapseTests {
    @Test(arguments: [SimulatedCameraSession.canon, SimulatedCameraSession.nikon])
    func framesKeepTheirScheduleAndAreSaved(_ configuration: CameraSimulator.Configuration) async throws {
        let directory = try TemporaryDirectory()
        try await SimulatedCameraSession.run(configuration) { simulator, camera in
            let clock = ManualClock()
            let timelapse = Timelapse(frames: 3, interval: .seconds(10), directory: directory.path)
            var waits: [Int: Duration] = [:]
            let events = try await collect(timelapse.start(on: camera, clock: clock)) { event in
                guard case .waiting(let frame, let delay) = event else { return }
                waits[frame] = delay
                // Frame 2 is taken 2 s late, within the quarter interval the schedule allows.
                clock.advance(by: frame == 2 ? delay + .seconds(2) : delay)
            }
            // Frame 3 is due 20 s after the start, not 10 s after frame 2.
            #expect(waits == [2: .seconds(10), 3: .seconds(8)])
            #expect(events.capturedFrames == [1, 2, 3])
            #expect(events.summary == AutomationSummary(framesCaptured: 3, filesSaved: 3))
            #expect(events.savedPaths.count == 3)
            #expect(Set(events.savedPaths).count == 3, "\(events.savedPaths)")
            for path in events.savedPaths {
                let bytes = try fileBytes(path)
                #expect(JPEGCheck.dimensions(of: bytes) != nil, "\(path) is a JPEG")
            }
            #expect(simulator.objectHandles.count >= 3)
        }
    }

    @Test func aLateFrameIsSkippedAndCountedNotBunched() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.canon) { _, camera in
            let clock = ManualClock()
            let timelapse = Timelapse(frames: 7, interval: .seconds(10))
            var waits: [Int: Duration] = [:]
            let events = try await collect(timelapse.start(on: camera, clock: clock)) { event in
                guard case .waiting(let frame, let delay) = event else { return }
                waits[frame] = delay
                // The wait for frame 4 (due at 30 s) ends at 55 s: frames 4 to 6 have passed.
                clock.advance(by: frame == 4 ? delay + .seconds(25) : delay)
            }
            let skipped = events.compactMap { if case .skipped(let frame, _) = $0 { frame } else { nil } }
            #expect(skipped == [4, 5, 6])
            #expect(events.capturedFrames == [1, 2, 3, 7])
            #expect(waits[7] == .seconds(5), "frame 7 keeps its time, 60 s after the start")
            #expect(events.summary == AutomationSummary(framesCaptured: 4, framesSkipped: 3))
        }
    }

    @Test(arguments: [SimulatedCameraSession.canon, SimulatedCameraSession.nikon])
    func aBulbExposureHoldsTheShutterOpenForEachFrame(_ configuration: CameraSimulator.Configuration) async throws {
        try await SimulatedCameraSession.run(configuration) { simulator, camera in
            let shutter = camera.property(for: .shutterSpeed)
            if let bulb = shutter.validValue(matchingCommonValue: .bulb) {
                try await shutter.setValue(bulb)
            }
            let clock = ManualClock()
            let exposure = Duration.milliseconds(400)
            let timelapse = Timelapse(frames: 2, interval: .seconds(5), bulbExposure: exposure)
            let events = try await collect(timelapse.start(on: camera, clock: clock)) { event in
                if case .waiting(_, let delay) = event { clock.advance(by: delay) }
            }
            #expect(events.capturedFrames == [1, 2])
            let length = try #require(simulator.lastExposureLength)
            #expect(length >= exposure, "the exposure lasted \(length)")
            let presses: PTPOperationCode =
                configuration.identity == .canon ? .canonEOSRemoteReleaseOn : .nikonInitiateCaptureRecInMedia
            #expect(simulator.requestsAnswered(presses) == 2)
        }
    }

    @Test func cancellingEndsTheWaitAndReportsWhatWasDone() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.nikon) { _, camera in
            let clock = ManualClock()
            let run = Timelapse(frames: 5, interval: .seconds(60)).start(on: camera, clock: clock)
            let events = try await collect(run) { event in
                guard case .waiting = event else { return }
                run.cancel()
            }
            #expect(events.capturedFrames == [1])
            #expect(events.summary == AutomationSummary(framesCaptured: 1, wasCancelled: true))
        }
    }

    @Test func cancellingTheReadingTaskCancelsTheTimelapse() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.nikon) { _, camera in
            let clock = ManualClock()
            let run = Timelapse(frames: 5, interval: .seconds(60)).start(on: camera, clock: clock)
            let reader = Task { () -> AutomationEvent? in
                for try await event in run.events {
                    if case .finished = event { return event }
                }
                return nil
            }
            // The timelapse sleeps on the clock for frame 2, and its reader waits for the next event.
            try await waitUntil("the wait for frame 2") { clock.sleeperCount == 1 }
            reader.cancel()
            try await waitUntil("the timelapse to stop waiting") { clock.sleeperCount == 0 }
            #expect(try await reader.value == nil)
            #expect(clock.now.offset == .zero, "the clock never moved: the wait ended by cancellation")
        }
    }

    @Test func aTimelapseTheCameraCannotDoIsRefusedBeforeAnyPicture() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.canon) { simulator, camera in
            let nothing = Timelapse(frames: 0, interval: .seconds(1)).start(on: camera)
            let invalid = await #expect(throws: ViewfinderError.self) { try await collect(nothing) }
            #expect(invalid?.code == .invalidArgument)
            #expect(simulator.requestsAnswered(.canonEOSRemoteReleaseOn) == 0)
        }
    }
}
