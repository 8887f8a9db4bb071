import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// The camera's clock, against the simulated cameras over loopback TCP: set and read through ISO 15740's
    /// DateTime on the Nikon and EOS CameraTime on the Canon, refused with `notAvailable` where the camera offers no
    /// way.
    @Suite(.timeLimit(.minutes(2))) struct CameraClockTests {
        static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)

        @Test func theNikonsClockIsSetAndReadThroughDateTime() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.clockUpdate))
                #expect(harness.simulator.clockOffset == 0)

                // 2001-09-09T01:46:40Z: the camera's clock now runs about 25 years behind the system clock.
                let past = CameraClockTime(secondsSince1970: 1_000_000_000)
                try await camera.updateClock(to: past)
                let offset = harness.simulator.clockOffset
                let now = CameraClockTime.now().secondsSince1970
                #expect(abs(Int64(offset) + now - past.secondsSince1970) <= 2, "offset \(offset)")
                let read = try await camera.readClock()
                #expect(read >= past && read.secondsSince1970 <= past.secondsSince1970 + 5, "\(read)")

                // Through the completion handler, back to the system clock.
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    camera.updateClock(to: .now()) { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    }
                }
                #expect(abs(harness.simulator.clockOffset) <= 2)
                let again = try await camera.readClock()
                #expect(abs(again.secondsSince1970 - CameraClockTime.now().secondsSince1970) <= 2, "\(again)")
            }
        }

        @Test func theCanonsClockIsSetThroughCameraTimeAndReadFromItsEvents() async throws {
            try await CameraHarness.run(.init(identity: .canon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.clockUpdate))
                let start = try await camera.readClock()
                #expect(abs(start.secondsSince1970 - CameraClockTime.now().secondsSince1970) <= 2, "\(start)")

                let past = CameraClockTime(secondsSince1970: 1_000_000_000)
                try await camera.updateClock(to: past)
                let offset = Int64(harness.simulator.clockOffset)
                #expect(abs(offset + CameraClockTime.now().secondsSince1970 - past.secondsSince1970) <= 2)
                // The camera reported the new time once; the client moves it on by the time since.
                let read = try await camera.readClock()
                #expect(read >= past && read.secondsSince1970 <= past.secondsSince1970 + 5, "\(read)")
            }
        }

        @Test func aCameraWithoutAClockSaysSo() async throws {
            let sony = CameraSimulator.Configuration(identity: .sony, sampleImageCount: 0)
            try await CameraHarness.run(sony) { harness in
                let camera = harness.camera
                #expect(!camera.supportedFunctionality.contains(.clockUpdate))
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.updateClock(to: .now())
                }
                #expect(refused?.code == .notAvailable, "\(String(describing: refused))")
                await #expect(throws: ViewfinderError.self) { _ = try await camera.readClock() }
            }
        }
    }
}
