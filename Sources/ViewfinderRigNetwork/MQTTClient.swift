import CMosquitto
import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A connection to an MQTT 5 broker through libmosquitto, kept on a thread of its own that reconnects after a lost
/// link or a broker restart.
///
/// Everything the connection hears comes to one handler as an ``Event``, on the connection's thread: the handler
/// must not block it (it hands work to tasks). Subscriptions are made again after every reconnection, as sessions
/// start clean. A message longer than ``maximumMessageSize`` is dropped as it arrives, with an
/// ``Event/refused(topic:reason:)``.
///
/// This is the rig's seam to its transport: the agent and the coordinator publish, subscribe and hear events here
/// and nowhere else, so another broker's client would replace this file alone.
final class MQTTClient: Sendable {
    /// A message as it arrived.
    struct Message: Sendable {
        /// The topic it was published to.
        var topic: String
        /// Its bytes.
        var payload: [UInt8]
        /// Whether the broker kept it for late subscribers and sent it from there.
        var isRetained: Bool
        /// Where the sender wants its answer (MQTT 5's Response Topic).
        var responseTopic: String?
        /// What the answer should carry to be matched with its request (MQTT 5's Correlation Data).
        var correlationData: [UInt8]?
    }

    /// What the connection tells its handler.
    enum Event: Sendable {
        /// The broker accepted the connection (the first one, or again after a loss); subscriptions are in place.
        case connected
        /// The broker refused the connection, with its reason; the client tries again.
        case rejected(String)
        /// The connection ended other than by ``stop(sayingLast:)``; the client reconnects.
        case disconnected(String)
        /// A message arrived on a subscribed topic.
        case message(Message)
        /// A message on `topic` was dropped as it arrived, for `reason`.
        case refused(topic: String, reason: String)
        /// The client reported a problem, such as a TLS failure.
        case problem(String)
    }

    /// A message to publish.
    struct Outgoing: Sendable {
        var topic: String
        var payload: [UInt8]
        var qos: Int32 = 1
        var retain = false
        var responseTopic: String?
        var correlationData: [UInt8]?
        /// How long the broker keeps it for a subscriber before dropping it (whole seconds, at least one).
        var expiry: Duration?
    }

    /// The longest message taken: longer ones are dropped as they arrive.
    let maximumMessageSize: Int
    /// The broker, for messages.
    let broker: RigBroker
    /// libmosquitto's client: its calls lock what they share with the client's thread, as `mosquitto_loop_start`
    /// sets the client up for threads.
    nonisolated(unsafe) private let handle: OpaquePointer
    private let callbacks: Unmanaged<Callbacks>
    private let state = Locked(State())

    private struct State {
        var isStarted = false
        var isStopped = false
    }

    /// libmosquitto's global set-up, done once per process.
    private static let libraryReady: Bool = { mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue }()

    /// Creates a client that has not connected yet.
    ///
    /// - Parameters:
    ///   - clientID: The client's identifier at the broker: a second connection with it ends the first.
    ///   - broker: Where to connect and how to log in.
    ///   - will: What the broker publishes (retained) when the connection ends without ``stop(sayingLast:)``.
    ///   - maximumMessageSize: The longest message taken.
    ///   - subscriptions: The topic filters subscribed to at every connection.
    ///   - handler: Called on the client's thread with everything the connection hears.
    /// - Throws: `ViewfinderError` when libmosquitto cannot be set up with these options.
    init(
        clientID: String, broker: RigBroker, will: Outgoing?, maximumMessageSize: Int, subscriptions: [String],
        handler: @escaping @Sendable (Event) -> Void
    ) throws {
        guard Self.libraryReady else { throw ViewfinderError(.io, "libmosquitto could not be initialised") }
        let callbacks = Unmanaged.passRetained(
            Callbacks(subscriptions: subscriptions, maximumMessageSize: maximumMessageSize, handler: handler))
        guard let handle = mosquitto_new(clientID, true, callbacks.toOpaque()) else {
            callbacks.release()
            throw ViewfinderError(.io, "libmosquitto could not make a client")
        }
        self.handle = handle
        self.callbacks = callbacks
        self.broker = broker
        self.maximumMessageSize = maximumMessageSize
        do {
            try configure(clientID: clientID, will: will)
        } catch {
            mosquitto_destroy(handle)
            callbacks.release()
            throw error
        }
    }

    deinit {
        mosquitto_loop_stop(handle, true)
        mosquitto_destroy(handle)
        callbacks.release()
    }

    private func configure(clientID: String, will: Outgoing?) throws {
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "choose MQTT 5")
        try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "turn off Nagle's algorithm")
        // QoS 1 messages the broker may have in flight to this client at once: a bound on what it pushes unasked.
        try check(mosquitto_int_option(handle, MOSQ_OPT_RECEIVE_MAXIMUM, 64), "bound the messages in flight")
        try check(mosquitto_reconnect_delay_set(handle, 1, 1, false), "set the reconnection delay")
        if let username = broker.username {
            try check(mosquitto_username_pw_set(handle, username, broker.password), "set the user name")
        }
        if let tls = broker.tls {
            if let authorities = tls.certificateAuthorityFile {
                try check(
                    mosquitto_tls_set(handle, authorities, nil, tls.certificateFile, tls.keyFile, nil),
                    "set up TLS with \(authorities)")
            } else {
                try check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "trust the system's authorities")
                if tls.certificateFile != nil || tls.keyFile != nil {
                    throw ViewfinderError(
                        .invalidArgument, "a client certificate needs the certificate authority file as well")
                }
            }
            if tls.allowsMismatchedHostName {
                try check(mosquitto_tls_insecure_set(handle, true), "accept the broker's certificate's names")
            }
        }
        if let will {
            try check(
                will.payload.withUnsafeBytes { bytes in
                    mosquitto_will_set_v5(
                        handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos, will.retain, nil)
                }, "set the last will")
        }
        mosquitto_connect_v5_callback_set(handle) { _, context, code, _, _ in
            Callbacks.from(context)?.connected(code)
        }
        mosquitto_disconnect_v5_callback_set(handle) { _, context, code, _ in
            Callbacks.from(context)?.disconnected(code)
        }
        mosquitto_message_v5_callback_set(handle) { _, context, message, properties in
            guard let message else { return }
            Callbacks.from(context)?.received(message.pointee, properties: properties)
        }
        mosquitto_log_callback_set(handle) { _, context, level, text in
            guard level & Int32(MOSQ_LOG_ERR) != 0, let text else { return }
            Callbacks.from(context)?.handler(.problem(String(cString: text)))
        }
        callbacks.takeUnretainedValue().client = handle
    }

    /// Starts connecting on the client's own thread, which keeps reconnecting until ``stop(sayingLast:)``.
    ///
    /// - Throws: `ViewfinderError` when the broker's name does not resolve or the thread cannot start; a broker that
    ///   does not answer yet is tried again every second.
    func start() throws {
        let first = state.withLock { state -> Bool in
            defer { state.isStarted = true }
            return !state.isStarted
        }
        guard first else { return }
        let keepAlive = Int32(clamping: max(5, broker.keepAlive.components.seconds))
        let code = mosquitto_connect_async(handle, broker.host, Int32(broker.port), keepAlive)
        switch code {
        case MOSQ_ERR_SUCCESS.rawValue, MOSQ_ERR_ERRNO.rawValue:
            // An unreachable broker is tried again by the loop.
            break
        case MOSQ_ERR_EAI.rawValue:
            throw ViewfinderError(.connectionFailed, "cannot find the broker \(broker.url): its name does not resolve")
        default:
            try check(code, "connect to \(broker.url)")
        }
        try check(mosquitto_loop_start(handle), "start the MQTT client's thread")
    }

    /// Publishes `message`.
    ///
    /// - Throws: `ViewfinderError/Code/notConnected` while the connection is down, or what libmosquitto refused.
    func publish(_ message: Outgoing) throws {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let topic = message.responseTopic {
            try check(
                mosquitto_property_add_string(&properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), topic), "reply")
        }
        if let data = message.correlationData {
            try check(
                data.withUnsafeBytes { bytes in
                    mosquitto_property_add_binary(
                        &properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), bytes.baseAddress, UInt16(bytes.count))
                }, "add the correlation data")
        }
        if let expiry = message.expiry {
            let seconds = max(
                1, UInt32(clamping: expiry.components.seconds + (expiry.components.attoseconds > 0 ? 1 : 0)))
            try check(
                mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), seconds),
                "add the expiry")
        }
        let code = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(
                handle, nil, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos, message.retain,
                properties)
        }
        if code == MOSQ_ERR_NO_CONN.rawValue {
            throw ViewfinderError(.notConnected, "not connected to the broker \(broker.url)")
        }
        try check(code, "publish on \(message.topic)")
    }

    /// Publishes `last` (when given) and closes the connection, then waits for the client's thread to end.
    ///
    /// The broker keeps the last will for connections that end otherwise; a clean end sends none, so a retained
    /// record that should say "gone" is `last`.
    func stop(sayingLast last: Outgoing? = nil) {
        let proceed = state.withLock { state -> Bool in
            defer { state.isStopped = true }
            return state.isStarted && !state.isStopped
        }
        guard proceed else { return }
        callbacks.takeUnretainedValue().isStopping.withLock { $0 = true }
        if let last { try? publish(last) }
        mosquitto_disconnect_v5(handle, Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue), nil)
        mosquitto_loop_stop(handle, false)
    }

    /// Whether the broker has accepted the connection and it has not ended since.
    var isConnected: Bool { callbacks.takeUnretainedValue().isConnected.withLock { $0 } }

    /// The numeric local address of the connection to the broker: the address that reaches the broker, and so
    /// most likely one where the broker's other clients reach this host.
    var localAddress: String? {
        let descriptor = mosquitto_socket(handle)
        guard descriptor >= 0 else { return nil }
        let (result, address) = SocketAddress.filling { getsockname(descriptor, $0, &$1) }
        return result == 0 ? address.host : nil
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw ViewfinderError(.io, "MQTT: could not \(what): \(String(cString: mosquitto_strerror(code)))")
    }
}

/// What libmosquitto's callbacks reach: the handler and the subscriptions, apart from the client so that the client
/// can go while its thread ends.
private final class Callbacks: @unchecked Sendable {
    // Unchecked: `client` is set once before the client's thread starts and read only on that thread.
    let handler: @Sendable (MQTTClient.Event) -> Void
    let subscriptions: [String]
    let maximumMessageSize: Int
    let isConnected = Locked(false)
    let isStopping = Locked(false)
    var client: OpaquePointer?

    init(subscriptions: [String], maximumMessageSize: Int, handler: @escaping @Sendable (MQTTClient.Event) -> Void) {
        self.subscriptions = subscriptions
        self.maximumMessageSize = maximumMessageSize
        self.handler = handler
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> Callbacks? {
        context.map { Unmanaged<Callbacks>.fromOpaque($0).takeUnretainedValue() }
    }

    func connected(_ code: Int32) {
        guard code == 0 else {
            handler(.rejected(String(cString: mosquitto_reason_string(code))))
            return
        }
        for filter in subscriptions {
            let result = mosquitto_subscribe_v5(client, nil, filter, 1, 0, nil)
            if result != MOSQ_ERR_SUCCESS.rawValue {
                handler(.problem("could not subscribe to \(filter): \(String(cString: mosquitto_strerror(result)))"))
            }
        }
        isConnected.withLock { $0 = true }
        handler(.connected)
    }

    func disconnected(_ code: Int32) {
        let was = isConnected.withLock { connected in
            defer { connected = false }
            return connected
        }
        guard !isStopping.withLock({ $0 }), was else { return }
        // libmosquitto's own codes are small; MQTT 5's reason codes from the broker's DISCONNECT are 128 and up.
        let reason = String(cString: code < 128 ? mosquitto_strerror(code) : mosquitto_reason_string(code))
        handler(.disconnected(reason))
    }

    func received(_ message: mosquitto_message, properties: OpaquePointer?) {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        guard message.payloadlen <= maximumMessageSize else {
            handler(
                .refused(
                    topic: topic,
                    reason: "it holds \(message.payloadlen) bytes, more than the \(maximumMessageSize) taken"))
            return
        }
        let payload =
            message.payloadlen > 0 && message.payload != nil
            ? Array(UnsafeRawBufferPointer(start: message.payload, count: Int(message.payloadlen))) : []
        var responseTopic: String?
        var text: UnsafeMutablePointer<CChar>?
        if mosquitto_property_read_string(properties, Int32(MQTT_PROP_RESPONSE_TOPIC.rawValue), &text, false) != nil,
            let text
        {
            responseTopic = String(cString: text)
            free(text)
        }
        var correlation: [UInt8]?
        var data: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        if mosquitto_property_read_binary(properties, Int32(MQTT_PROP_CORRELATION_DATA.rawValue), &data, &length, false)
            != nil, let data
        {
            correlation = Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
            free(data)
        }
        handler(
            .message(
                MQTTClient.Message(
                    topic: topic, payload: payload, isRetained: message.retain, responseTopic: responseTopic,
                    correlationData: correlation)))
    }
}
