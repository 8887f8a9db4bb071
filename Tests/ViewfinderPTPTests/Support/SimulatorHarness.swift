import ViewfinderConcurrency
import ViewfinderCore
import ViewfinderSimulator

@testable import ViewfinderPTP

/// Collects a session's events in the background so tests can wait for the ones they expect.
final class EventCollector: Sendable {
    private let received = Locked<[PTPEvent]>([])
    private let task: Task<Void, Never>

    init(_ session: PTPIPSession) {
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
    func next(
        _ code: PTPEventCode, parameter: UInt32? = nil, timeout: Duration = .seconds(10)
    ) async throws -> PTPEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found: PTPEvent? = received.withLock { events in
                guard
                    let index = events.firstIndex(where: {
                        $0.code == code && (parameter == nil || $0.parameters.first == parameter)
                    })
                else { return nil }
                return events.remove(at: index)
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(.timeout, "no \(code) event within \(timeout); got \(events)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Forgets the events received so far.
    func clear() {
        received.withLock { $0.removeAll() }
    }
}

/// A simulator on a free loopback port with a session connected to it.
struct SimulatorHarness {
    let simulator: CameraSimulator
    let session: PTPIPSession
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
        defer { simulator.stop() }
        let session = try await PTPIPSession.connect(to: "127.0.0.1", configuration: clientConfiguration(simulator))
        let harness = SimulatorHarness(simulator: simulator, session: session, events: EventCollector(session))
        do {
            let result = try await body(harness)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }

    static func clientConfiguration(_ simulator: CameraSimulator) -> PTPIPSession.Configuration {
        PTPIPSession.Configuration(port: simulator.port, clientName: "tests", responseTimeout: .seconds(10))
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
