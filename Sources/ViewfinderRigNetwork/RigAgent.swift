import Foundation
import ViewfinderCore
import ViewfinderRig
import ViewfinderSystem

/// One host of a rig of many hosts: drives the host's cameras (a `CameraRig`) on the commands a coordinator sends
/// through an MQTT broker, and serves their pictures over HTTP.
///
/// ```swift
/// let cameras = try CameraRig(members: [RigMember(name: "cam0", camera: PTPCamera(host: "10.0.5.21"))])
/// _ = await cameras.connect()
/// var configuration = RigAgent.Configuration(
///     broker: try RigBroker(url: "mqtt://10.0.0.1"), host: "h03", storage: "/var/tmp/takes")
/// configuration.log = { print($0) }
/// let agent = try RigAgent(rig: cameras, configuration: configuration)
/// try agent.start()
/// // … until the host shuts down:
/// agent.stop()
/// ```
///
/// - **Presence.** The agent keeps a retained record on `vf/RIG/host/HOST/state`: its cameras, its version, its
///   clock (``RigClockStatus``) and where its files are. The broker holds its last will, the same topic saying
///   "offline", and publishes it when the agent's connection ends without a goodbye (a crash, a cut link: after one
///   and a half keep-alives).
/// - **Commands** come on `vf/RIG/cmd`, each with an identifier: a command that arrives twice (MQTT's QoS 1 may
///   deliver it again) is applied once, and its answer sent again. A fire names an instant on the hosts' clocks: the
///   agent turns it into a deadline on its monotonic clock, and a fire that arrives less than
///   ``Configuration/minimumLead`` before it is answered "late" and not executed, so a take is never fired late.
///   A take fires once: a second fire of the same take is refused.
/// - **Pictures** stay on the host, in a folder per take under ``Configuration/storage``, and are served by the
///   tool's HTTP server (with its token and its bounds); the answer to a fire lists them with their sizes and
///   SHA-256 digests. Nothing but small JSON messages goes through the broker.
/// - **Reconnection.** After a broker restart or a lost link the agent connects again every second, says so in its
///   log, and publishes its record again.
///
/// See <doc:RigMessageFormat> for the messages, which any MQTT 5 client can send.
public final class RigAgent: Sendable {
    /// Where the agent meets its coordinator, what it is called, and where it keeps pictures.
    public struct Configuration: Sendable {
        /// The broker.
        public var broker: RigBroker
        /// The rig's name: its topics are under `vf/RIG/`.
        public var rig = "default"
        /// This host's name in the rig.
        public var host: String
        /// The folder that holds a folder per take.
        public var storage: String
        /// The numeric address the file server listens on.
        public var filesBindAddress = "0.0.0.0"
        /// The file server's port; 0 picks a free one.
        public var filesPort: UInt16 = 0
        /// The address the coordinator fetches files at; the address of the connection to the broker when `nil`.
        public var advertisedAddress: String?
        /// The agent's program and version, as its record shows it.
        public var agentVersion = "viewfinder"
        /// How long before its instant a fire must arrive to be executed.
        public var minimumLead = Duration.milliseconds(20)
        /// How many commands may run at once; more are answered "busy".
        public var maximumConcurrentCommands = 8
        /// An error added to this host's clock, as if it were off by that much: for trying the coordinator's clock
        /// check on hosts that share one clock, such as simulated hosts on one machine.
        public var simulatedClockError = Duration.zero
        /// Applies a `set` command to one camera, and returns what the camera shows afterwards.
        ///
        /// It gets the property's name and value as the command gives them. Without it, the agent refuses `set`.
        public var applySetting: (@Sendable (RigMember, _ property: String, _ value: String) async throws -> String)?
        /// Where the agent writes what it does: connections, commands, refusals.
        public var log: @Sendable (String) -> Void = { _ in }

        /// A configuration for host `host`, its pictures under `storage`.
        public init(broker: RigBroker, rig: String = "default", host: String, storage: String) {
            self.broker = broker
            self.rig = rig
            self.host = host
            self.storage = storage
        }
    }

    /// The host's cameras.
    public let rig: CameraRig
    /// The configuration the agent was made with.
    public let configuration: Configuration
    let topics: RigTopics
    let ledger = CommandLedger()
    /// The takes fired: a take fires once, whatever command asks for it.
    let takes = CommandLedger()
    let refusals: RefusalLog
    let files: RigFileServer
    private let state = Locked(State())

    private struct State {
        var client: MQTTClient?
        var session = ""
        var connections = 0
        var isStopped = false
        /// The address the file server was last advertised at.
        var filesURL: String?
    }

    /// Makes an agent for `rig`'s cameras; it does nothing until ``start()``.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a rig or host name that cannot be part of a topic, or a
    ///   storage folder that cannot be made.
    public init(rig: CameraRig, configuration: Configuration) throws {
        for (name, what) in [(configuration.rig, "rig"), (configuration.host, "host")] where !RigWire.isValidName(name)
        {
            throw ViewfinderError(
                .invalidArgument, "'\(name)' cannot name a \(what): use up to 64 letters, digits, '-', '_' and '.'")
        }
        do {
            try FileManager.default.createDirectory(atPath: configuration.storage, withIntermediateDirectories: true)
        } catch {
            throw ViewfinderError(.invalidArgument, "cannot make the folder \(configuration.storage): \(error)")
        }
        self.rig = rig
        self.configuration = configuration
        topics = RigTopics(rig: configuration.rig)
        refusals = RefusalLog(log: configuration.log)
        files = try RigFileServer(
            storage: configuration.storage, bindAddress: configuration.filesBindAddress, port: configuration.filesPort,
            allowedHosts: configuration.advertisedAddress.map { [$0] } ?? [])
    }

    /// Starts serving files and connecting to the broker; the agent keeps connecting until ``stop()``.
    ///
    /// - Throws: `ViewfinderError` when the file server cannot listen or the broker's name does not resolve.
    public func start() throws {
        try files.start()
        let session = RigAgent.makeSession()
        let offline = RigWire.HostState(host: configuration.host, online: false, session: session)
        let client = try MQTTClient(
            clientID: "vf-\(configuration.rig)-\(configuration.host)", broker: configuration.broker,
            will: MQTTClient.Outgoing(
                topic: topics.state(of: configuration.host), payload: RigWire.encode(offline), retain: true),
            maximumMessageSize: RigWire.maximumMessageSize, subscriptions: [topics.commands]
        ) { [weak self] event in
            self?.handle(event)
        }
        state.withLock { state in
            state.client = client
            state.session = session
        }
        do {
            try client.start()
        } catch {
            files.stop()
            throw error
        }
        configuration.log(
            "connecting to \(configuration.broker.url) as host \(configuration.host) of rig \(configuration.rig); "
                + "files on port \(files.port)")
    }

    /// Says "offline" on the host's state topic, leaves the broker, and stops serving files.
    public func stop() {
        let client = state.withLock { state -> MQTTClient? in
            defer { state.isStopped = true }
            return state.isStopped ? nil : state.client
        }
        guard let client else { return }
        let offline = RigWire.HostState(
            host: configuration.host, online: false, session: state.withLock { $0.session })
        client.stop(
            sayingLast: MQTTClient.Outgoing(
                topic: topics.state(of: configuration.host), payload: RigWire.encode(offline), retain: true))
        files.stop()
        configuration.log("left the broker")
    }

    /// Whether the agent is connected to the broker now.
    public var isConnected: Bool { state.withLock { $0.client }?.isConnected ?? false }

    /// How many messages on the rig's topics the agent refused as malformed or out of bounds.
    public var refusedMessageCount: Int { refusals.total }

    /// A new identifier for one run of the agent.
    static func makeSession() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    private func handle(_ event: MQTTClient.Event) {
        switch event {
        case .connected:
            let again = state.withLock { state in
                state.connections += 1
                return state.connections > 1
            }
            configuration.log(
                again
                    ? "connected to \(configuration.broker.url) again" : "connected to \(configuration.broker.url)")
            publishState()
        case .rejected(let reason):
            configuration.log("the broker \(configuration.broker.url) refused the connection: \(reason); trying again")
        case .disconnected(let reason):
            configuration.log("lost the broker \(configuration.broker.url) (\(reason)); reconnecting")
        case .refused(let topic, let reason):
            refusals.refused(on: topic, because: reason)
        case .problem(let reason):
            configuration.log("MQTT: \(reason)")
        case .message(let message):
            receive(message)
        }
    }

    /// Publishes the host's record: online, its cameras, its clock and its files.
    func publishState() {
        let (client, session) = state.withLock { ($0.client, $0.session) }
        guard let client else { return }
        let address = configuration.advertisedAddress ?? client.localAddress ?? "127.0.0.1"
        let url = "http://\(HostPort.text(address, port: files.port))/"
        state.withLock { $0.filesURL = url }
        let record = RigWire.HostState(
            host: configuration.host, online: true, session: session, agent: configuration.agentVersion,
            cameras: rig.members.map { member in
                let info = member.camera.deviceInfo
                return RigWire.Camera(
                    name: member.name, manufacturer: info?.manufacturer, model: info?.model,
                    serial: info?.serialNumber, connected: member.camera.connectionState == .connected)
            },
            clock: clockStatus().wire,
            files: RigWire.Files(url: url, token: files.token),
            keepaliveSeconds: Int(configuration.broker.keepAlive.components.seconds))
        do {
            try client.publish(
                MQTTClient.Outgoing(
                    topic: topics.state(of: configuration.host), payload: RigWire.encode(record), retain: true))
        } catch {
            configuration.log("could not publish this host's record: \(error)")
        }
    }

    /// The URL the file server's paths are under, as the host's record gives it.
    func filesURL() -> String {
        state.withLock { $0.filesURL } ?? "http://\(configuration.advertisedAddress ?? "127.0.0.1"):\(files.port)/"
    }

    /// The host's clock as its record reports it, with the simulated error added to its offset.
    func clockStatus() -> RigClockStatus {
        var status = RigClockStatus.current()
        if configuration.simulatedClockError != .zero {
            status.offset = (status.offset ?? .zero) + configuration.simulatedClockError
        }
        return status
    }

    /// This host's CLOCK_REALTIME in nanoseconds, with the simulated error.
    func now() -> Int64 {
        let error = configuration.simulatedClockError.components
        return realtimeNanoseconds() + error.seconds * 1_000_000_000 + error.attoseconds / 1_000_000_000
    }

    /// Sends `reply` to the command's sender, and keeps it for copies of the command that arrive later.
    func send(_ reply: RigWire.Reply, to request: MQTTClient.Message) {
        var reply = reply
        reply.sentNs = now()
        let bytes = RigWire.encode(reply)
        ledger.finish(reply.id, answer: bytes)
        publish(bytes, answering: request)
    }

    /// Publishes an answer's bytes on the request's response topic.
    func publish(_ bytes: [UInt8], answering request: MQTTClient.Message) {
        guard let topic = request.responseTopic, let client = state.withLock({ $0.client }) else { return }
        do {
            try client.publish(
                MQTTClient.Outgoing(topic: topic, payload: bytes, correlationData: request.correlationData))
        } catch {
            configuration.log("could not answer on \(topic): \(error)")
        }
    }
}
