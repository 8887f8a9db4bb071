import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem

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
        try await eventually("a \(code) event; got \(events)") {
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

/// Waits until `condition` holds, checking it every 2 ms, and fails after `checks` checks (10 s when the test runs
/// freely).
///
/// The limit counts checks, not time: on a machine so busy that the test waits seconds for one of Swift's cooperative
/// threads, each check comes late and what the test waits for has had its turns in between, so the test fails only
/// when the condition really does not come.
func eventually(_ what: @autoclosure () -> String, checks: Int = 5000, _ condition: () -> Bool) async throws {
    for _ in 0..<checks {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(2))
    }
    guard condition() else { throw ViewfinderError(.timeout, "gave up waiting for \(what()) after \(checks) checks") }
}

/// Runs a call that blocks its thread, such as ``CameraSimulator/stop()``, on a thread of its own, so it keeps none
/// of Swift's cooperative threads from other tasks.
func offThePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        do {
            try PlatformThread.detach(name: "tests-blocking") { continuation.resume(returning: body()) }
        } catch {
            continuation.resume(returning: body())
        }
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
