import Dispatch
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The sockets a simulator has open, so that stopping it can wake every thread that waits on one.
final class SimulatorSockets: Sendable {
    private struct State {
        var sockets: [Int32: Socket] = [:]
        var isStopping = false
    }

    private let state = Locked(State())

    /// Records a socket; returns `false` (and closes it) when the simulator is stopping.
    func register(_ socket: Socket) -> Bool {
        let accepted = state.withLock { state in
            guard !state.isStopping else { return false }
            state.sockets[socket.descriptor] = socket
            return true
        }
        if !accepted { socket.close() }
        return accepted
    }

    /// Forgets and closes a socket; called by its owner only.
    func close(_ socket: Socket) {
        state.withLock { _ = $0.sockets.removeValue(forKey: socket.descriptor) }
        socket.close()
    }

    /// Shuts every socket down; they stay open until their owners close them.
    ///
    /// - Parameter resetting: Whether closing them later resets the connections rather than ending them in order.
    func shutDownAll(resetting: Bool = false) {
        state.withLock { state in
            state.isStopping = true
            for socket in state.sockets.values {
                if resetting { socket.resetOnClose() }
                socket.shutdown()
            }
        }
    }
}

/// A session's event connection and the work that finishes after replies: one thread that sends events in order,
/// runs scheduled jobs (captures, battery drain) and sends what they report, and one that reads the connection to
/// answer the client's probes.
final class SimulatorEventPump: SimulatorSessionContext, Sendable {
    private struct Job {
        var deadline: ContinuousClock.Instant
        var work: @Sendable () -> [PTPEvent]
    }

    private struct State {
        var pending: [PTPEvent] = []
        var probeAnswers = 0
        var jobs: [Job] = []
        var isStopping = false
        var connection: PTPIPConnection?
        /// Where events go instead of a PTP/IP event connection, such as a USB interrupt pipe.
        var outlet: (@Sendable ([PTPEvent]) -> Void)?
    }

    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let readerDone = DispatchSemaphore(value: 0)
    private let sockets: SimulatorSockets
    private let group: DispatchGroup
    private let silence: Locked<Bool>
    private let answersProbes: Bool
    private let probesAnswered: Locked<Int>?
    private let log: (@Sendable (String) -> Void)?

    /// Starts the pump's thread, named `name`.
    ///
    /// - Parameters:
    ///   - silence: While `true`, nothing is sent: no events, no answers to probes.
    ///   - answersProbes: Whether probe requests are answered, as they are but by a strict camera.
    ///   - probesAnswered: Counts the answers to probes the pump sends, when given.
    /// - Throws: ``PlatformThread/StartError`` when the system grants no thread.
    init(
        name: String, sockets: SimulatorSockets, group: DispatchGroup, silence: Locked<Bool>,
        answersProbes: Bool = true, probesAnswered: Locked<Int>? = nil, log: (@Sendable (String) -> Void)?
    ) throws(PlatformThread.StartError) {
        self.sockets = sockets
        self.group = group
        self.silence = silence
        self.answersProbes = answersProbes
        self.probesAnswered = probesAnswered
        self.log = log
        group.enter()
        do {
            try IOThread.detach(name: name) { [self] in
                run()
                group.leave()
            }
        } catch {
            group.leave()
            throw error
        }
    }

    /// Hands the event connection over and starts reading it; the pump closes it when it stops.
    ///
    /// - Throws: ``PlatformThread/StartError`` when the system grants no thread to read it; the connection is not
    ///   taken over then.
    func attach(_ connection: PTPIPConnection) throws(PlatformThread.StartError) {
        group.enter()
        do {
            try IOThread.detach(name: "sim-probes") { [self] in
                readProbes(from: connection)
                readerDone.signal()
                group.leave()
            }
        } catch {
            group.leave()
            throw error
        }
        state.withLock { $0.connection = connection }
        wakeUp.signal()
    }

    /// Sends events to `outlet` from now on, on the pump's thread, rather than to a PTP/IP event connection.
    func deliver(to outlet: @escaping @Sendable ([PTPEvent]) -> Void) {
        state.withLock { $0.outlet = outlet }
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
            let (pending, probeAnswers, due, stopping, next, outlet) = state.withLock { state in
                let due = state.jobs.filter { $0.deadline <= now }
                state.jobs.removeAll { $0.deadline <= now }
                defer {
                    state.pending = []
                    state.probeAnswers = 0
                }
                connection = state.connection
                return (
                    state.pending, state.probeAnswers, due, state.isStopping, state.jobs.map(\.deadline).min(),
                    state.outlet
                )
            }
            var events = pending
            if !stopping {
                for job in due { events += job.work() }
            }
            if !silence.withLock({ $0 }) {
                if let outlet, !events.isEmpty { outlet(events) }
                if let connection {
                    let packets =
                        events.map {
                            PTPIPPacket.event(code: $0.code, transactionID: $0.transactionID, parameters: $0.parameters)
                        } + Array(repeating: .probeResponse, count: probeAnswers)
                    if !packets.isEmpty { send(packets, on: connection) }
                    if probeAnswers > 0 { probesAnswered?.withLock { $0 += probeAnswers } }
                }
            }
            if stopping { break }
            let wait = min(next.map { now.duration(to: $0) } ?? .seconds(1), .seconds(1))
            _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(max(0, wait.inSeconds) * 1e9)))
        }
        // Jobs that never ran hold the pump (a repeating job reschedules itself through it): drop them, or the pump,
        // its connection and the camera would outlive the session.
        state.withLock { state in
            state.jobs = []
            state.connection = nil
            state.outlet = nil
        }
        if let connection {
            // Wake the reader and let it finish before the descriptor is closed.
            connection.socket.shutdown()
            _ = readerDone.wait(timeout: .now() + 5)
            sockets.close(connection.socket)
        }
    }

    /// Reads the event connection until it closes, queueing an answer to each probe request.
    ///
    /// Packets the client sends here other than probes carry nothing for the camera and are dropped.
    private func readProbes(from connection: PTPIPConnection) {
        while !state.withLock({ $0.isStopping }) {
            do {
                if connection.bufferedCount == 0 {
                    let ready = try Poll.wait(
                        connection.socket.descriptor, for: Poll.readable, until: .now + .seconds(1))
                    guard ready != 0 else { continue }
                }
                if try connection.readPacket(while: "reading the event connection") == .probeRequest, answersProbes {
                    state.withLock { $0.probeAnswers += 1 }
                    wakeUp.signal()
                }
            } catch {
                return
            }
        }
    }

    private func send(_ packets: [PTPIPPacket], on connection: PTPIPConnection) {
        for packet in packets {
            do {
                try connection.send(packet, while: "sending \(packet.type)")
            } catch {
                log?("cannot send \(packet.type): \(error.message)")
                return
            }
        }
    }
}
