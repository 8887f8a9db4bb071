import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// The focus motor driven in steps, against the simulated cameras over loopback TCP: Canon's DriveLens and
    /// Nikon's MfDrive move the simulated lens, whose position the tests read back; outside live view, at the end of
    /// the lens's travel and on a camera without a focus motor the call fails with `notAvailable`.
    @Suite(.timeLimit(.minutes(3))) struct FocusDriveTests {
        static let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)
        static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
        /// Where the simulated lens starts: half way between the closest distance and infinity.
        static let start = 5000

        /// Runs `body` with the camera's live view on: a subscriber that took one frame and asks for no more.
        static func withLiveView(_ camera: PTPCamera, _ body: () async throws -> Void) async throws {
            let frames = Atomic(0)
            let cancellable = camera.liveViewPublisher.sinkWithReadyHandler { _ in
            } receiveValue: { _, _ in
                frames.add(1, ordering: .relaxed)
            }
            try await waitUntil("a live view frame") { frames.load(ordering: .relaxed) > 0 }
            try await body()
            cancellable.cancel()
        }

        /// Drives the focus through the completion handler form.
        static func driveFocusWithCompletion(
            _ camera: PTPCamera, _ amount: FocusDriveAmount, towards direction: FocusDriveDirection
        ) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                camera.driveFocus(amount, towards: direction) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }

        /// Drives the focus with live view off: the camera offers the drive, the call fails saying live view must be on,
        /// and the lens stays where it was.
        static func expectRefusalOutsideLiveView(_ harness: CameraHarness) async -> ViewfinderError? {
            let camera = harness.camera
            #expect(camera.supportedFunctionality.contains(.directFocusDrive))
            let refused = await #expect(throws: ViewfinderError.self) {
                try await camera.driveFocus(.small, towards: .towardsInfinity)
            }
            #expect(refused?.code == .notAvailable)
            #expect(refused?.message.contains("live view") == true, "\(String(describing: refused))")
            #expect(harness.simulator.focusPosition == Self.start)
            return refused
        }

        @Test func canonDrivesTheLensWithDriveLensInLiveView() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                // The dialect knows from the camera's EVFMode that live view is off, and sends nothing.
                _ = await Self.expectRefusalOutsideLiveView(harness)
                #expect(harness.simulator.requestsAnswered(.canonEOSDriveLens) == 0)

                try await Self.withLiveView(camera) {
                    // DriveLens 0x8001: a small step (10 of the motor's) towards infinity.
                    try await camera.driveFocus(.small, towards: .towardsInfinity)
                    #expect(harness.simulator.focusPosition == Self.start + 10)
                    try await camera.driveFocus(.medium, towards: .towardsInfinity)
                    #expect(harness.simulator.focusPosition == Self.start + 110)
                    // DriveLens 3: a large step (1000) towards the camera.
                    try await camera.driveFocus(.large, towards: .towardsCamera)
                    #expect(harness.simulator.focusPosition == Self.start - 890)
                    try await Self.driveFocusWithCompletion(camera, .small, towards: .towardsCamera)
                    #expect(harness.simulator.focusPosition == Self.start - 900)
                }
                #expect(harness.simulator.requestsAnswered(.canonEOSDriveLens) == 4)
            }
        }

        @Test func nikonDrivesTheLensWithMfDriveUntilTheEndOfItsTravel() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                // The camera answers NotLiveView.
                let refused = await Self.expectRefusalOutsideLiveView(harness)
                #expect(refused?.responseCode == PTPResponseCode.nikonNotLiveView.rawValue)

                try await Self.withLiveView(camera) {
                    try await camera.driveFocus(.small, towards: .towardsCamera)
                    #expect(harness.simulator.focusPosition == Self.start - 10)
                    try await Self.driveFocusWithCompletion(camera, .medium, towards: .towardsInfinity)
                    #expect(harness.simulator.focusPosition == Self.start + 90)
                    // Large steps of 1000 reach infinity (10 000) on the fifth; the sixth finds nothing to move.
                    for _ in 0..<5 {
                        try await camera.driveFocus(.large, towards: .towardsInfinity)
                    }
                    #expect(harness.simulator.focusPosition == 10_000)
                    let atEnd = await #expect(throws: ViewfinderError.self) {
                        try await camera.driveFocus(.large, towards: .towardsInfinity)
                    }
                    #expect(atEnd?.code == .notAvailable)
                    #expect(atEnd?.message.contains("end of its travel") == true, "\(String(describing: atEnd))")
                    #expect(atEnd?.responseCode == PTPResponseCode.nikonMfDriveStepEnd.rawValue)
                    // The other way it moves again.
                    try await camera.driveFocus(.large, towards: .towardsCamera)
                    #expect(harness.simulator.focusPosition == 9000)
                }
            }
        }

        @Test func aCameraWithoutAFocusMotorSaysSo() async throws {
            try await CameraHarness.run(CameraSimulator.Configuration(sampleImageCount: 0)) { harness in
                let camera = harness.camera
                #expect(!camera.supportedFunctionality.contains(.directFocusDrive))
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.driveFocus(.small, towards: .towardsInfinity)
                }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("drive the focus") == true, "\(String(describing: refused))")
            }
        }
    }
}
