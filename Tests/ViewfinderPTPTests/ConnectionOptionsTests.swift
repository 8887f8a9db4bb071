import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Connecting with the clock set and disconnecting with the camera turned off, against the simulated cameras: the
    /// Nikon's clock is set through DateTime as it connects and it takes PowerDown as it disconnects; the Sony, with
    /// no clock to set, connects with a warning; the Canon, with no PowerDown, refuses before anything closes.
    @Suite(.timeLimit(.minutes(2))) struct ConnectionOptionsTests {
        static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)

        @Test func connectingWithClockSyncSetsTheNikonsClock() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                // 2001-09-09T01:46:40Z: the camera's clock runs about 25 years behind.
                try await camera.updateClock(to: CameraClockTime(secondsSince1970: 1_000_000_000))
                #expect(harness.simulator.clockOffset < -100_000_000)
                try await camera.disconnect()

                let warnings = try await camera.connect(options: .synchronizeClock)
                #expect(warnings.isEmpty, "\(warnings)")
                #expect(camera.connectionState == .connected)
                #expect(abs(harness.simulator.clockOffset) <= 2, "offset \(harness.simulator.clockOffset)")
            }
        }

        @Test func aCameraWithoutAClockConnectsWithAWarning() async throws {
            let sony = CameraSimulator.Configuration(identity: .sony, sampleImageCount: 0)
            try await CameraHarness.run(sony, connect: false) { harness in
                let camera = harness.camera
                let result = try await withCheckedThrowingContinuation {
                    (continuation: CheckedContinuation<[CameraConnectionWarning], any Error>) in
                    camera.connect(options: .synchronizeClock) { continuation.resume(with: $0) }
                }
                #expect(camera.connectionState == .connected)
                #expect(result.map(\.kind) == [.clockSyncNotSupported], "\(result)")
            }
        }

        @Test func disconnectingTurnsTheNikonOffWithPowerDown() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.powerOffOnDisconnect))
                try await camera.disconnect(poweringOffCamera: true)
                #expect(harness.simulator.requestsAnswered(.powerDown) == 1)
                #expect(camera.connectionState == .notConnected)
            }
        }

        @Test func aCameraWithoutPowerDownRefusesBeforeClosing() async throws {
            let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)
            try await CameraHarness.run(canon) { harness in
                let camera = harness.camera
                #expect(!camera.supportedFunctionality.contains(.powerOffOnDisconnect))
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.disconnect(poweringOffCamera: true)
                }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("turn the camera off") == true, "\(String(describing: refused))")
                #expect(camera.connectionState == .connected)
                #expect(harness.simulator.requestsAnswered(.powerDown) == 0)
            }
        }
    }
}
