import Foundation
import ViewfinderCore
import ViewfinderRig
import ViewfinderSystem

/// A rig of many hosts, coordinated through an MQTT broker: the coordinator's side of ``RigAgent``.
///
/// A `NetworkRig` learns the hosts from their retained records, sets their cameras, fires them together at an
/// instant on the hosts' clocks, and pulls their pictures over HTTP. Its reports have the shapes of
/// `CameraRig`'s: a `RigReport` with an outcome per camera, each camera named `HOST/CAMERA`.
///
/// ```swift
/// let rig = try NetworkRig(configuration: .init(broker: try RigBroker(url: "mqtt://10.0.0.1"), rig: "studio"))
/// try await rig.connect()
/// let hosts = await rig.waitForHosts(count: 16, timeout: .seconds(10))
/// _ = await rig.measureClocks()
/// let take = try await rig.capturePictures(into: "/srv/takes/0001")
/// print("shutter requests within \(take.requestSpread) of each other")
/// rig.disconnect()
/// ```
///
/// A host whose agent goes away during an operation (its last will arrives) is reported at once, and the other
/// hosts finish; a host that comes back while the operation still waits is asked again, and answers from its record
/// of the command, so no command is applied twice. After a broker restart the coordinator reconnects and asks again
/// the same way.
public final class NetworkRig: Sendable {
    /// The broker, the rig's name, and the limits of a take.
    public struct Configuration: Sendable {
        /// The broker.
        public var broker: RigBroker
        /// The rig's name: its topics are under `vf/RIG/`.
        public var rig: String
        /// How long before the shutters the fire command goes out: enough for it to reach every host.
        public var lead = Duration.milliseconds(250)
        /// How far a host's clock may be from the coordinator's, beyond the uncertainty of the estimate, for its
        /// cameras to be fired.
        public var maximumClockOffset = Duration.milliseconds(5)
        /// How long before its instant a fire must reach a host (the agents' ``RigAgent/Configuration/minimumLead``).
        public var minimumLead = Duration.milliseconds(20)
        /// How many files are fetched at once, from all hosts together.
        public var downloadConcurrency = 8
        /// Where the coordinator writes what it hears: hosts that come and go, refused messages.
        public var log: @Sendable (String) -> Void = { _ in }

        /// A configuration for the rig `rig` at `broker`.
        public init(broker: RigBroker, rig: String = "default") {
            self.broker = broker
            self.rig = rig
        }
    }

    /// The configuration the rig was made with.
    public let configuration: Configuration
    let topics: RigTopics
    /// This coordinator's name on the broker: its replies come to `vf/RIG/coord/ID/reply`.
    let identifier: String
    let refusals: RefusalLog
    let state = Locked(State())

    struct State {
        var client: MQTTClient?
        var hosts: [String: HostEntry] = [:]
        /// When each host was last heard from: its record, or an answer to this coordinator.
        var lastHeard: [String: ContinuousClock.Instant] = [:]
        var pending: [String: PendingCommand] = [:]
        var connectWaiters: [CheckedContinuation<Void, Never>] = []
        var hostWaiters: [UUID: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
        var connections = 0
        /// Whether the records the broker kept have all come: hosts that come and go after that are logged.
        var isSynchronized = false
        var lastProblem: String?
        var nextCommand = 0
    }

    struct HostEntry {
        var record: RigWire.HostState
        var estimate: RigClockEstimate?
    }

    /// A command waiting for its answers.
    struct PendingCommand {
        var command: RigWire.Command
        var expected: Set<String>
        var sent = ContinuousClock.now
        var replies: [String: (reply: RigWire.Reply, arrived: Int64)] = [:]
        var lost: [String: String] = [:]
        var continuation: CheckedContinuation<Void, Never>?
        var isComplete: Bool { expected.allSatisfy { replies[$0] != nil || lost[$0] != nil } }
    }

    /// Makes a coordinator; it does nothing until ``connect(timeout:)``.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a rig name that cannot be part of a topic.
    public init(configuration: Configuration) throws {
        guard RigWire.isValidName(configuration.rig) else {
            throw ViewfinderError(
                .invalidArgument,
                "'\(configuration.rig)' cannot name a rig: use up to 64 letters, digits, '-', '_', '.'")
        }
        self.configuration = configuration
        topics = RigTopics(rig: configuration.rig)
        identifier = "c" + RigAgent.makeSession()
        refusals = RefusalLog(log: configuration.log)
    }

    deinit {
        state.withLock { $0.client }?.stop()
    }

    /// Connects to the broker and learns the hosts it has records of.
    ///
    /// Returns once the broker has sent every retained host record, so ``hosts`` is complete.
    ///
    /// - Throws: `ViewfinderError/Code/connectionFailed` when the broker is not reached within `timeout`, with what
    ///   it or the connection said.
    public func connect(timeout: Duration = .seconds(10)) async throws {
        let client = try MQTTClient(
            clientID: "vf-\(configuration.rig)-\(identifier)", broker: configuration.broker, will: nil,
            maximumMessageSize: RigWire.maximumMessageSize,
            subscriptions: [topics.allStates, topics.replies(to: identifier)]
        ) { [weak self] event in
            self?.handle(event)
        }
        state.withLock { $0.client = client }
        try client.start()
        let connected = await waitForConnection(timeout: timeout)
        guard connected else {
            let problem = state.withLock { $0.lastProblem }
            client.stop()
            throw ViewfinderError(
                .connectionFailed,
                "could not connect to the broker \(configuration.broker.url) within \(timeout)"
                    + (problem.map { ": \($0)" } ?? ""))
        }
        // The broker sends the retained records right after the subscription, before anything published after it.
        try await barrier(client: client, timeout: timeout)
        state.withLock { $0.isSynchronized = true }
    }

    /// Leaves the broker.
    public func disconnect() {
        let client = state.withLock { state -> MQTTClient? in
            defer { state.client = nil }
            return state.client
        }
        client?.stop()
    }

    /// The hosts the broker has records of, online or not, by name.
    public var hosts: [RigHost] {
        state.withLock { state in
            state.hosts.values.map { entry in
                var host = RigHost(record: entry.record)
                host.clockEstimate = entry.estimate
                return host
            }
        }.sorted { $0.name < $1.name }
    }

    /// How many messages on the rig's topics the coordinator refused as malformed or out of bounds.
    public var refusedMessageCount: Int { refusals.total }

    /// Waits until at least `count` hosts are online, or `timeout` passes; returns the hosts online then.
    public func waitForHosts(count: Int, timeout: Duration) async -> [RigHost] {
        let key = UUID()
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.wakeHostWaiter(key)
        }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if Self.onlineCount(state) >= count { return true }
                state.hostWaiters[key] = (count, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        timer.cancel()
        return hosts.filter(\.isOnline)
    }

    private func wakeHostWaiter(_ key: UUID) {
        state.withLock { $0.hostWaiters.removeValue(forKey: key) }?.continuation.resume()
    }

    private static func onlineCount(_ state: State) -> Int {
        state.hosts.values.filter(\.record.online).count
    }

    /// A new command identifier: this coordinator's name and a number.
    func nextCommandID() -> String {
        let number = state.withLock { state in
            state.nextCommand += 1
            return state.nextCommand
        }
        return "\(identifier)-\(number)"
    }

    private func waitForConnection(timeout: Duration) async -> Bool {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.wakeConnectWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.client?.isConnected == true { return true }
                state.connectWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.client?.isConnected ?? false }
    }

    private func wakeConnectWaiters() {
        let waiters = state.withLock { state in
            defer { state.connectWaiters = [] }
            return state.connectWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until a message this coordinator publishes to itself comes back: everything the broker had queued for
    /// it before has come too.
    private func barrier(client: MQTTClient, timeout: Duration) async throws {
        let id = nextCommandID()
        let marker = RigWire.Reply(
            id: id, op: "ping", host: identifier, status: "ok", receivedNs: 0, sentNs: realtimeNanoseconds())
        state.withLock { state in
            state.pending[id] = PendingCommand(
                command: RigWire.Command(op: "ping", id: id), expected: [identifier])
        }
        try client.publish(
            MQTTClient.Outgoing(
                topic: topics.replies(to: identifier), payload: RigWire.encode(marker), correlationData: Array(id.utf8))
        )
        _ = await waitForReplies(id, until: .now + timeout)
    }

    private func handle(_ event: MQTTClient.Event) {
        switch event {
        case .connected:
            let (again, waiters) = state.withLock { state in
                state.connections += 1
                defer { state.connectWaiters = [] }
                return (state.connections > 1, state.connectWaiters)
            }
            for waiter in waiters { waiter.resume() }
            if again {
                configuration.log("connected to the broker \(configuration.broker.url) again; asking the hosts again")
                resendPending(to: nil)
            }
        case .rejected(let reason):
            state.withLock { $0.lastProblem = "it refused the connection: \(reason)" }
            configuration.log("the broker \(configuration.broker.url) refused the connection: \(reason)")
        case .disconnected(let reason):
            configuration.log("lost the broker \(configuration.broker.url) (\(reason)); reconnecting")
        case .refused(let topic, let reason):
            refusals.refused(on: topic, because: reason)
        case .problem(let reason):
            state.withLock { $0.lastProblem = reason }
            configuration.log("MQTT: \(reason)")
        case .message(let message):
            if let host = topics.host(ofState: message.topic) {
                receiveState(message, of: host)
            } else {
                receiveReply(message)
            }
        }
    }

    private func receiveState(_ message: MQTTClient.Message, of host: String) {
        let record: RigWire.HostState?
        if message.payload.isEmpty {
            record = nil
        } else {
            do {
                record = try RigWire.decode(RigWire.HostState.self, from: message.payload)
            } catch {
                refusals.refused(on: message.topic, because: error.description)
                return
            }
            guard record?.host == host else {
                refusals.refused(
                    on: message.topic, because: "it describes host '\(record?.host ?? "")' on another's topic")
                return
            }
        }
        let (was, waiters, lost, logs) = state.withLock { state in
            let was = state.hosts[host]?.record.online
            if let record {
                state.lastHeard[host] = .now
                var entry = state.hosts[host] ?? HostEntry(record: record)
                if entry.record.session != record.session { entry.estimate = nil }
                entry.record = record
                state.hosts[host] = entry
            } else {
                state.hosts[host] = nil
            }
            var lost: [CheckedContinuation<Void, Never>] = []
            if record?.online != true {
                for (id, var pending) in state.pending
                where pending.expected.contains(host) && pending.replies[host] == nil {
                    pending.lost[host] = "host \(host) went offline (its connection to the broker ended)"
                    if pending.isComplete, let continuation = pending.continuation {
                        pending.continuation = nil
                        lost.append(continuation)
                    }
                    state.pending[id] = pending
                }
            }
            let count = Self.onlineCount(state)
            let ready = state.hostWaiters.filter { $0.value.count <= count }
            for key in ready.keys { state.hostWaiters[key] = nil }
            return (was, ready.values.map(\.continuation), lost, state.isSynchronized)
        }
        for continuation in waiters + lost { continuation.resume() }
        let isOnline = record?.online == true
        if isOnline, was != true, logs {
            configuration.log("host \(host) is online" + (was == false ? " again" : ""))
        } else if !isOnline, was == true {
            configuration.log("host \(host) went offline")
        }
        // An agent publishes its record at every connection: one that reconnected (after a lost link, or a broker
        // restart that sent no last will) may have missed a command, or its answer may have been lost.
        if isOnline { resendPending(to: host) }
    }

    private func receiveReply(_ message: MQTTClient.Message) {
        let arrived = realtimeNanoseconds()
        let reply: RigWire.Reply
        do {
            reply = try RigWire.decode(RigWire.Reply.self, from: message.payload)
        } catch {
            refusals.refused(on: message.topic, because: error.description)
            return
        }
        let correlation = message.correlationData.map { String(decoding: $0, as: UTF8.self) }
        let (accepted, continuation) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            if correlation == reply.id, reply.id.hasPrefix(identifier + "-") { state.lastHeard[reply.host] = .now }
            guard correlation == reply.id, var pending = state.pending[reply.id], pending.expected.contains(reply.host)
            else { return (false, nil) }
            pending.replies[reply.host] = (reply, arrived)
            pending.lost[reply.host] = nil
            var continuation: CheckedContinuation<Void, Never>?
            if pending.isComplete {
                continuation = pending.continuation
                pending.continuation = nil
            }
            state.pending[reply.id] = pending
            return (true, continuation)
        }
        guard accepted else {
            // Answers to a command this coordinator gave up on come late; anything else is refused.
            if !reply.id.hasPrefix(identifier + "-") || correlation != reply.id {
                refusals.refused(on: message.topic, because: "it answers no command of this coordinator (\(reply.id))")
            }
            return
        }
        continuation?.resume()
    }

    /// Sends pending commands again, to `host` alone or to every host that has not answered.
    private func resendPending(to host: String?) {
        let (client, commands) = state.withLock { state in
            (
                state.client,
                state.pending.values.compactMap { pending -> RigWire.Command? in
                    let waiting = pending.expected.filter { pending.replies[$0] == nil }
                    let targets = host.map { waiting.contains($0) ? [$0] : [] } ?? waiting.sorted()
                    guard !targets.isEmpty, pending.command.op != "ping" else { return nil }
                    var command = pending.command
                    command.hosts = targets
                    return command
                }
            )
        }
        for command in commands {
            try? client?.publish(outgoing(command))
        }
    }

    /// The message that carries `command`, asking for the answers on this coordinator's reply topic.
    func outgoing(_ command: RigWire.Command, expiry: Duration? = nil) -> MQTTClient.Outgoing {
        MQTTClient.Outgoing(
            topic: topics.commands, payload: RigWire.encode(command), responseTopic: topics.replies(to: identifier),
            correlationData: Array(command.id.utf8), expiry: expiry)
    }

    /// Publishes `command` to `hosts` and waits for their answers until `timeout` has passed; returns the answers by
    /// host, with their arrival time, and the lost hosts.
    ///
    /// A host that goes offline meanwhile (its last will) is lost at once; one that goes silent (see
    /// ``watchForSilence(_:)``) is lost after one and a half of its keep-alives.
    func request(
        _ command: RigWire.Command, hosts: [String], timeout: Duration, expiry: Duration? = nil
    ) async throws -> (replies: [String: (reply: RigWire.Reply, arrived: Int64)], lost: [String: String]) {
        var command = command
        command.hosts = hosts
        let client = state.withLock { state -> MQTTClient? in
            state.pending[command.id] = PendingCommand(command: command, expected: Set(hosts))
            return state.client
        }
        guard let client else {
            state.withLock { _ = $0.pending.removeValue(forKey: command.id) }
            throw ViewfinderError(.notConnected, "the rig is not connected to its broker")
        }
        do {
            try client.publish(outgoing(command, expiry: expiry))
        } catch {
            state.withLock { _ = $0.pending.removeValue(forKey: command.id) }
            throw error
        }
        let watch = command.op == "ping" ? nil : watchForSilence(command.id)
        let pending = await waitForReplies(command.id, until: .now + timeout)
        watch?.cancel()
        return (pending?.replies ?? [:], pending?.lost ?? [:])
    }

    /// Waits until command `id` has every answer or `deadline` passes, and takes it off the pending list.
    private func waitForReplies(_ id: String, until deadline: ContinuousClock.Instant) async -> PendingCommand? {
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.finishWaiting(id)
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard var pending = state.pending[id], !pending.isComplete else { return true }
                pending.continuation = continuation
                state.pending[id] = pending
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.pending.removeValue(forKey: id) }
    }

    private func finishWaiting(_ id: String) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.pending[id]?.continuation = nil }
            return state.pending[id]?.continuation
        }
        continuation?.resume()
    }
}
