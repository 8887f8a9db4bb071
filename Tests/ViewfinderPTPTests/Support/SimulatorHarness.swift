import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Collects a session's events in the background so tests can wait for the ones they expect.
final class EventCollector: Sendable {
    private let received = Locked<[PTPEvent]>([])
    private let task: Task<Void, Never>

    init(_ session: PTPSession) {
        let received = received
        task = Task {
            do {
                for try await event in session.events {
                    received.withLock { $0.append(event) }
                }
            } catch {}
        }
    }

    deinit {
        task.cancel()
    }

    /// Every event so far.
    var events: [PTPEvent] { received.withLock { $0 } }

    /// Waits for an event with `code` (and `parameter`, if given) and removes it from the collection.
    func next(_ code: PTPEventCode, parameter: UInt32? = nil) async throws -> PTPEvent {
        var found: PTPEvent?
        try await waitUntil("a \(code) event; got \(events)") {
            found = received.withLock { events in
                guard
                    let index = events.firstIndex(where: {
                        $0.code == code && (parameter == nil || $0.parameters.first == parameter)
                    })
                else { return nil }
                return events.remove(at: index)
            }
            return found != nil
        }
        return found!
    }

    /// Forgets the events received so far.
    func clear() {
        received.withLock { $0.removeAll() }
    }
}

/// A simulator on a free loopback port with a session connected to it.
struct SimulatorHarness {
    let simulator: CameraSimulator
    let session: PTPSession
    let events: EventCollector

    /// Starts a simulator, connects, runs `body`, and tears everything down.
    static func run<Result>(
        _ configuration: CameraSimulator.Configuration = CameraSimulator.Configuration(sampleImageCount: 1),
        _ body: (SimulatorHarness) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.port = 0
        let simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
        do {
            let session = try await PTPSession.connect(
                to: "127.0.0.1", configuration: clientConfiguration(simulator))
            let harness = SimulatorHarness(simulator: simulator, session: session, events: EventCollector(session))
            do {
                let result = try await body(harness)
                await session.close()
                await offThePool { simulator.stop() }
                return result
            } catch {
                await session.close()
                throw error
            }
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
    }

    static func clientConfiguration(_ simulator: CameraSimulator) -> PTPIPTransport.Configuration {
        PTPIPTransport.Configuration(port: simulator.port, clientName: "tests", responseTimeout: .seconds(10))
    }
}

/// The response code of a failed transaction, or `nil` when it succeeded or failed otherwise.
func responseCode(of body: () async throws -> Void) async -> PTPResponseCode? {
    do {
        try await body()
        return nil
    } catch let error as ViewfinderError where error.code == .protocolFailure {
        return error.responseCode.map(PTPResponseCode.init(rawValue:))
    } catch {
        return nil
    }
}
