import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderRigNetwork

/// An MQTT client of the test's own, beside the agents and coordinators: it publishes what the test writes, and
/// keeps every message it hears.
final class RecordingClient: Sendable {
    let client: MQTTClient
    let messages = Locked<[MQTTClient.Message]>([])
    private let connected = Locked(false)

    /// Connects to `broker` and subscribes to `subscriptions`.
    init(broker: RigBroker, subscriptions: [String]) async throws {
        let messages = messages
        let connected = connected
        client = try MQTTClient(
            clientID: "vf-test-\(RigAgent.makeSession())", broker: broker, will: nil,
            maximumMessageSize: 1 << 20, subscriptions: subscriptions
        ) { event in
            switch event {
            case .connected: connected.withLock { $0 = true }
            case .message(let message): messages.withLock { $0.append(message) }
            default: break
            }
        }
        try client.start()
        try await waitUntil("the test's client to connect") { connected.withLock { $0 } }
    }

    /// Publishes `payload` on `topic`, asking for answers on `responseTopic` with `correlation`.
    func publish(
        _ payload: [UInt8], on topic: String, responseTopic: String? = nil, correlation: String? = nil,
        retain: Bool = false
    ) throws {
        try client.publish(
            MQTTClient.Outgoing(
                topic: topic, payload: payload, retain: retain, responseTopic: responseTopic,
                correlationData: correlation.map { Array($0.utf8) }))
    }

    /// The messages heard on `topic` so far.
    func messages(on topic: String) -> [MQTTClient.Message] {
        messages.withLock { $0.filter { $0.topic == topic } }
    }

    /// Leaves the broker, off the cooperative pool (it waits for the client's thread).
    func stop() async {
        await offThePool { [client] in client.stop() }
    }
}
