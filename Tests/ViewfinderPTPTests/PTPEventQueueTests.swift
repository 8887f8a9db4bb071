import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Handing a connection's events to its dialect: in order, without holding up the next, and with the dialect told
/// when events were dropped so that it reads again what they would have said.
@Suite struct PTPEventQueueTests {
    /// A dialect whose handlers wait at a gate, recording what they were given.
    final class GatedDialect: PTPDialect {
        static let name = "gated"
        static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool { false }
        static func open(_ connection: PTPConnection) async throws -> GatedDialect {
            throw ViewfinderError(.notAvailable, "not for cameras")
        }

        let gate = Locked(false)
        let handled = Locked<[UInt32]>([])
        let observed = Locked<[UInt32]>([])
        let missed = Locked(0)

        var functionality: CameraFunctionality { [] }

        func observe(_ event: PTPEvent) {
            observed.withLock { $0.append(event.parameters.first ?? 0) }
        }

        func handle(_ event: PTPEvent) async {
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            handled.withLock { $0.append(event.parameters.first ?? 0) }
        }

        func eventsWereMissed() async {
            missed.withLock { $0 += 1 }
        }

        func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {}
        func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {}
        func connectionEnded(with error: ViewfinderError) {}
    }

    @Test func handlersRunInOrderAndDroppedEventsAreReadAgain() async throws {
        let release = Locked(false)
        let responder = try ScriptedResponder { _ in
            while !release.withLock({ $0 }) { pause(milliseconds: 5) }
        }
        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: .init(port: responder.port, clientName: "tests"))
        let dialect = GatedDialect()
        let queue = PTPEventQueue(dialect: dialect, session: session)
        let total = PTPEventQueue.capacity + 10
        for index in 0..<total {
            queue.enqueue(PTPEvent(code: .devicePropChanged, parameters: [UInt32(index)]))
        }
        // The first handler took one event and waits at the gate; the queue holds the newest it can, the rest dropped.
        dialect.gate.withLock { $0 = true }
        await queue.finish()
        let handled = dialect.handled.withLock { $0 }
        #expect(handled == handled.sorted(), "handlers ran out of order: \(handled)")
        #expect(handled.count < total && handled.last == UInt32(total - 1), "\(handled)")
        #expect(dialect.missed.withLock { $0 } == 1)
        release.withLock { $0 = true }
        await session.close()
    }
}
