import Dispatch
import ViewfinderConcurrency
import ViewfinderCore
import ViewfinderPTP

/// The sockets a simulator has open, so that stopping it can wake every thread that waits on one.
final class SimulatorSockets: Sendable {
    private struct State {
        var sockets: [Int32: TCPSocket] = [:]
        var isStopping = false
    }

    private let state = Locked(State())

    /// Records a socket; returns `false` (and closes it) when the simulator is stopping.
    func register(_ socket: TCPSocket) -> Bool {
        let accepted = state.withLock { state in
            guard !state.isStopping else { return false }
            state.sockets[socket.descriptor] = socket
            return true
        }
        if !accepted { socket.close() }
        return accepted
    }

    /// Forgets and closes a socket; called by its owner only.
    func close(_ socket: TCPSocket) {
        state.withLock { _ = $0.sockets.removeValue(forKey: socket.descriptor) }
        socket.close()
    }

    /// Shuts every socket down; they stay open until their owners close them.
    func shutDownAll() {
        state.withLock { state in
            state.isStopping = true
            for socket in state.sockets.values {
                socket.shutdown()
            }
        }
    }
}

/// A session's event connection and the work that finishes after replies: one thread that sends events in order,
/// runs scheduled jobs (captures, battery drain) and sends what they report.
final class SimulatorEventPump: SimulatorSessionContext, Sendable {
    private struct Job {
        var deadline: ContinuousClock.Instant
        var work: @Sendable () -> [PTPEvent]
    }

    private struct State {
        var pending: [PTPEvent] = []
        var jobs: [Job] = []
        var isStopping = false
        var connection: PTPIPConnection?
    }

    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let sockets: SimulatorSockets
    private let log: (@Sendable (String) -> Void)?

    /// Starts the pump's thread, named `name`.
    init(name: String, sockets: SimulatorSockets, group: DispatchGroup, log: (@Sendable (String) -> Void)?) {
        self.sockets = sockets
        self.log = log
        group.enter()
        IOThread.detach(name: name) { [self] in
            run()
            group.leave()
        }
    }

    /// Hands the event connection over; the pump closes it when it stops.
    func attach(_ connection: PTPIPConnection) {
        state.withLock { $0.connection = connection }
        wakeUp.signal()
    }

    /// Queues events to send.
    func emit(_ events: [PTPEvent]) {
        guard !events.isEmpty else { return }
        state.withLock { $0.pending += events }
        wakeUp.signal()
    }

    func schedule(after delay: Duration, _ job: @escaping @Sendable () -> [PTPEvent]) {
        state.withLock { $0.jobs.append(Job(deadline: .now + delay, work: job)) }
        wakeUp.signal()
    }

    /// Runs `job` every `interval` until the pump stops.
    func repeatEvery(_ interval: Duration, _ job: @escaping @Sendable () -> [PTPEvent]) {
        schedule(after: interval) { [self] in
            defer { repeatEvery(interval, job) }
            return job()
        }
    }

    /// Stops the thread after it has sent what is queued, and closes the event connection.
    func stop() {
        state.withLock { $0.isStopping = true }
        wakeUp.signal()
    }

    private func run() {
        var connection: PTPIPConnection?
        while true {
            let now = ContinuousClock.now
            let (events, due, stopping, next) = state.withLock { state in
                let due = state.jobs.filter { $0.deadline <= now }
                state.jobs.removeAll { $0.deadline <= now }
                defer { state.pending = [] }
                connection = state.connection
                return (state.pending, due, state.isStopping, state.jobs.map(\.deadline).min())
            }
            var outgoing = events
            if !stopping {
                for job in due {
                    outgoing += job.work()
                }
            }
            if let connection, !outgoing.isEmpty {
                send(outgoing, on: connection)
            }
            if stopping { break }
            let wait = min(next.map { now.duration(to: $0) } ?? .seconds(1), .seconds(1))
            _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(max(0, wait.seconds) * 1e9)))
        }
        // Jobs that never ran hold the pump (a repeating job reschedules itself through it): drop them, or the pump,
        // its connection and the camera would outlive the session.
        state.withLock { state in
            state.jobs = []
            state.connection = nil
        }
        if let connection {
            sockets.close(connection.socket)
        }
    }

    private func send(_ events: [PTPEvent], on connection: PTPIPConnection) {
        for event in events {
            do {
                try connection.send(
                    .event(code: event.code, transactionID: event.transactionID, parameters: event.parameters),
                    while: "sending \(event.code)")
            } catch {
                log?("cannot send \(event.code): \(error.message)")
                return
            }
        }
    }
}
