import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Connecting to a camera that asks its user before it lets a new computer in, as Canon and Nikon bodies do over
    /// WiFi: the simulated camera holds the handshake until the test answers for its user, and the client reports
    /// the wait to its handler instead of timing out.
    @Suite(.timeLimit(.minutes(2))) struct UserInterventionTests {
        /// What a handler heard, in order.
        final class Heard: Sendable {
            private let events = Locked<[CameraUserInterventionEvent]>([])

            func record(_ event: CameraUserInterventionEvent) {
                events.withLock { $0.append(event) }
            }

            /// `required` or `resolved` for each event.
            var names: [String] {
                events.withLock { events in
                    events.map { if case .required = $0 { "required" } else { "resolved" } }
                }
            }

            /// The intervention of the first `required` event.
            var intervention: CameraUserIntervention? {
                events.withLock { events in
                    events.lazy.compactMap { if case .required(let intervention) = $0 { intervention } else { nil } }
                        .first
                }
            }
        }

        /// A Canon (or another camera) that knows no client and asks its user for an hour unless the test answers.
        static func asking(_ identity: CameraSimulator.Identity) -> CameraSimulator.Configuration {
            var configuration = CameraSimulator.Configuration(identity: identity, sampleImageCount: 0)
            configuration.pairedClients = []
            configuration.pairingPrompt = .seconds(3600)
            return configuration
        }

        static let canon = asking(.canon)

        /// A transport that takes a handshake unanswered for 100 ms as the camera asking its user.
        static func transport(timeout: Duration = .seconds(60)) -> PTPIPTransport.Configuration {
            PTPIPTransport.Configuration(userInterventionDelay: .milliseconds(100), userInterventionTimeout: timeout)
        }

        /// Canon and Nikon bodies ask over WiFi as Sony bodies do, and each is reported the same way.
        @Test(arguments: [CameraSimulator.Identity.canon, .nikon, .sony])
        func aConfirmedConnectionConnectsAndIsKnownFromThenOn(_ identity: CameraSimulator.Identity) async throws {
            try await CameraHarness.run(Self.asking(identity), transport: Self.transport(), connect: false) {
                harness in
                let camera = harness.camera
                let heard = Heard()
                let connecting = Task { try await camera.connect(userIntervention: heard.record) }
                try await waitUntil("the client to report the camera asking its user") {
                    heard.names == ["required"] && harness.simulator.clientsAwaitingPairing == 1
                }
                #expect(heard.intervention?.kind == .confirmOnCamera)
                #expect(heard.intervention?.message.contains("Confirm the connection on the camera's screen") == true)
                #expect(camera.connectionState == .connecting)
                harness.simulator.confirmPairing()
                let warnings = try await connecting.value
                #expect(warnings.isEmpty)
                #expect(camera.connectionState == .connected)
                #expect(heard.names == ["required", "resolved"])
                #expect(harness.simulator.pairingRequests == 1)

                // The camera remembers the computer: the next connection goes straight in.
                try await camera.disconnect()
                let again = Heard()
                try await camera.connect(userIntervention: again.record)
                #expect(camera.connectionState == .connected)
                #expect(again.names.isEmpty)
                #expect(harness.simulator.pairingRequests == 1)
            }
        }

        @Test func aCancelledInterventionEndsTheConnectionWithAClearError() async throws {
            try await CameraHarness.run(Self.canon, transport: Self.transport(), connect: false) { harness in
                let camera = harness.camera
                let heard = Heard()
                let connecting = Task { try await camera.connect(userIntervention: heard.record) }
                try await waitUntil("the client to report the camera asking its user") { heard.intervention != nil }
                heard.intervention?.cancel()
                let error = await #expect(throws: ViewfinderError.self) { try await connecting.value }
                #expect(error?.code == .cancelled)
                #expect(error?.message.contains("cancelled while the camera asked its user") == true)
                #expect(heard.names == ["required", "resolved"])
                #expect(camera.connectionState == .notConnected)
                // The camera sees the client leave, and stops asking.
                try await waitUntil("the camera to see the client go") {
                    harness.simulator.clientsAwaitingPairing == 0
                }
            }
        }

        @Test func aConnectionNobodyConfirmsFailsAtItsDeadline() async throws {
            let transport = Self.transport(timeout: .milliseconds(300))
            try await CameraHarness.run(Self.canon, transport: transport, connect: false) { harness in
                let camera = harness.camera
                let heard = Heard()
                // The completion-handler form, with the same handler.
                let result = await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<[CameraConnectionWarning], any Error>, Never>) in
                    camera.connect(userIntervention: heard.record) { continuation.resume(returning: $0) }
                }
                let error = try #require(throws: ViewfinderError.self) { try result.get() }
                #expect(error.code == .timeout)
                #expect(error.message.contains("nobody confirmed the connection"), "\(error)")
                #expect(heard.names == ["required", "resolved"])
                #expect(heard.intervention?.deadline == .milliseconds(300))
                #expect(camera.connectionState == .notConnected)
            }
        }

        @Test func aDeclinedConnectionIsRefusedAsNotPaired() async throws {
            try await CameraHarness.run(Self.canon, transport: Self.transport(), connect: false) { harness in
                let camera = harness.camera
                let heard = Heard()
                let connecting = Task { try await camera.connect(userIntervention: heard.record) }
                try await waitUntil("the camera to ask its user") {
                    heard.intervention != nil && harness.simulator.clientsAwaitingPairing == 1
                }
                harness.simulator.declinePairing()
                let error = await #expect(throws: ViewfinderError.self) { try await connecting.value }
                #expect(error?.code == .pairingRequired)
                #expect(heard.names == ["required", "resolved"])
            }
        }
    }
}
