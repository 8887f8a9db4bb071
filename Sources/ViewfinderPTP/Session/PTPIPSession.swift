import ViewfinderCore

/// A PTP/IP session with a camera: a command connection for transactions and an event connection for the
/// camera's events.
///
/// ``connect(to:configuration:)`` opens both TCP connections, performs the PTP/IP handshake, opens a PTP session
/// and reads the camera's ``PTPDeviceInfo``. Transactions then run one at a time, in the order they are called,
/// with increasing transaction IDs:
///
/// ```swift
/// let session = try await PTPIPSession.connect(to: "192.168.1.1")
/// let handles = try await session.objectHandles()
/// let jpeg = try await session.transaction(.getObject, parameters: [handles[0]]).data
/// for try await event in session.events {
///     print("camera says \(event.code)")
/// }
/// await session.close()
/// ```
///
/// ## Threads and I/O
///
/// Every blocking socket call runs on one of the session's two dedicated threads, never on Swift's cooperative
/// thread pool: async callers wait on a continuation while the command thread talks to the camera, and the event
/// thread reads events as they come. Data-in phases are received straight into the result's memory, or handed to a
/// consumer in slices, so large downloads are not copied needlessly.
///
/// ## Errors
///
/// A transaction the camera refuses throws `ViewfinderError/Code/protocolFailure` with the
/// camera's response code, and the session stays open. A camera that stops answering
/// (`ViewfinderError/Code/timeout`), closes a connection
/// (`ViewfinderError/Code/disconnected`) or sends something that is not PTP/IP
/// (`ViewfinderError/Code/malformedData`) ends the session: ``state`` becomes
/// ``State/closed(_:)`` with the error, ``events`` finishes with it, and later calls throw
/// `ViewfinderError/Code/notConnected`.
public final class PTPIPSession: Sendable {
    /// Where a session is in its life.
    public enum State: Hashable, Sendable {
        /// Connecting and opening the PTP session.
        case opening
        /// Ready for transactions.
        case open
        /// Closing the PTP session.
        case closing
        /// Closed: normally when the reason is `nil`, or because of the error.
        case closed(ViewfinderError?)
    }

    /// The camera's address.
    public let host: String
    /// The configuration the session was opened with.
    public let configuration: Configuration
    /// The camera's name, from its handshake.
    public let responderName: String
    /// The camera's identifier, from its handshake.
    public let responderGUID: PTPIPGUID
    /// The connection number the camera assigned.
    public let connectionNumber: UInt32
    /// What the camera said about itself when the session opened.
    public let deviceInfo: PTPDeviceInfo
    /// The camera's events, in order, as long as the session is open.
    ///
    /// Meant for one consumer. The stream keeps at most ``Configuration/eventBufferCapacity`` events that have not
    /// been consumed yet and drops the oldest beyond that (see ``droppedEventCount``). It finishes when the session
    /// closes, with the error that ended the session if one did.
    public let events: AsyncThrowingStream<PTPEvent, any Error>

    let core: PTPIPSessionCore

    private init(
        host: String, configuration: Configuration, core: PTPIPSessionCore,
        events: AsyncThrowingStream<PTPEvent, any Error>,
        handshake: Handshake
    ) {
        self.host = host
        self.configuration = configuration
        self.core = core
        self.events = events
        responderName = handshake.name
        responderGUID = handshake.guid
        connectionNumber = handshake.connectionNumber
        deviceInfo = handshake.deviceInfo
    }

    deinit {
        core.finish(nil)
        core.commandThread.stop(then: Self.closeChannel(of: core))
    }

    /// Where the session is in its life.
    public var state: State { core.phase }

    /// The longest packet the event connection accepts; an event packet has 26 bytes at most.
    public static let maximumEventPacketLength = 1 << 10

    /// The number of events dropped because the consumer of ``events`` fell behind.
    public var droppedEventCount: Int { core.droppedEvents.load(ordering: .relaxed) }

    /// Connects to a camera and opens a session.
    ///
    /// - Parameters:
    ///   - host: The camera's host name or IP address.
    ///   - configuration: The port, names and timeouts to use.
    /// - Throws: `ViewfinderError` with `ViewfinderError/Code/connectionFailed` when
    ///   the camera cannot be reached, `ViewfinderError/Code/deviceBusy` when it refuses because
    ///   another client has it, `ViewfinderError/Code/timeout` when it does not answer in time,
    ///   and the codes of failed transactions.
    public static func connect(to host: String, configuration: Configuration = Configuration()) async throws
        -> PTPIPSession
    {
        let (events, continuation) = AsyncThrowingStream<PTPEvent, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(configuration.eventBufferCapacity))
        let core = PTPIPSessionCore(configuration: configuration, eventContinuation: continuation)
        do {
            let handshake = try await core.perform { _ in try Self.open(host: host, core: core) }
            core.enter(.open)
            return PTPIPSession(
                host: host, configuration: configuration, core: core, events: events, handshake: handshake)
        } catch {
            let failure = error as? ViewfinderError ?? ViewfinderError(.connectionFailed, "\(error)")
            core.finish(failure)
            core.commandThread.stop(then: closeChannel(of: core))
            throw failure
        }
    }

    /// Closes the session: ends the PTP session with the camera, then closes both connections.
    ///
    /// Waits for transactions already queued, and for the camera to close its side of the command connection (at
    /// most two seconds), so that a new session finds the camera free. Safe to call more than once.
    public func close() async {
        let core = core
        _ = try? await core.perform { _ in
            guard case .open = core.phase, let channel = core.channelBox.channel else { return }
            core.enter(.closing)
            channel.connection.timeout = min(core.configuration.responseTimeout, .seconds(2))
            _ = try? channel.run(.closeSession)
            // Let the camera see the end of the connection and let go of it, so the next client finds it free.
            channel.connection.finish(timeout: min(core.configuration.responseTimeout, .seconds(2)))
        }
        core.finish(nil)
        core.commandThread.stop(then: Self.closeChannel(of: core))
    }

    /// A job that closes the command connection, for the end of the command thread.
    private static func closeChannel(of core: PTPIPSessionCore) -> @Sendable () -> Void {
        {
            if let channel = core.channelBox.channel {
                core.close(channel.connection.socket)
                core.channelBox.channel = nil
            }
        }
    }

    /// What the handshake learnt.
    struct Handshake: Sendable {
        var connectionNumber: UInt32
        var guid: PTPIPGUID
        var name: String
        var deviceInfo: PTPDeviceInfo
    }

    /// Connects both channels, opens the session and reads the device info; runs on the command thread.
    private static func open(host: String, core: PTPIPSessionCore) throws(ViewfinderError) -> Handshake {
        let configuration = core.configuration
        let commandSocket = try TCPSocket.connect(
            host: host, port: configuration.port, timeout: configuration.connectTimeout)
        try core.register(commandSocket)
        commandSocket.setNoDelay()
        let command = PTPIPConnection(
            socket: commandSocket, timeout: configuration.responseTimeout,
            maximumControlPacketLength: configuration.maximumControlPacketLength)
        let channel = PTPIPCommandChannel(connection: command, configuration: configuration)
        core.channelBox.channel = channel
        try command.send(
            .initCommandRequest(
                guid: configuration.clientGUID, name: configuration.clientName, version: PTPIPPacket.protocolVersion),
            while: "opening the command connection to \(commandSocket.endpoint)")
        let handshake: Handshake
        switch try command.readPacket(while: "waiting for \(commandSocket.endpoint) to accept the connection") {
        case .initCommandAck(let number, let guid, let name, _):
            handshake = Handshake(
                connectionNumber: number, guid: guid, name: name,
                deviceInfo: PTPDeviceInfo(
                    operationsSupported: [], eventsSupported: [], devicePropertiesSupported: [], captureFormats: [],
                    imageFormats: [], manufacturer: "", model: "", deviceVersion: "", serialNumber: ""))
        case .initFail(let reason):
            throw refusal(PTPIPInitFailReason(rawValue: reason), endpoint: commandSocket.endpoint)
        case let packet:
            throw ViewfinderError(
                .malformedData, "\(commandSocket.endpoint) answered the handshake with \(packet.type)")
        }
        let eventSocket = try TCPSocket.connect(
            host: host, port: configuration.port, timeout: configuration.connectTimeout)
        try core.register(eventSocket)
        eventSocket.setNoDelay()
        let events = PTPIPConnection(
            socket: eventSocket, timeout: configuration.responseTimeout,
            maximumControlPacketLength: PTPIPSession.maximumEventPacketLength)
        do throws(ViewfinderError) {
            try events.send(
                .initEventRequest(connectionNumber: handshake.connectionNumber),
                while: "opening the event connection to \(eventSocket.endpoint)")
            switch try events.readPacket(while: "waiting for \(eventSocket.endpoint) to accept the event connection") {
            case .initEventAck:
                break
            case .initFail(let reason):
                throw refusal(PTPIPInitFailReason(rawValue: reason), endpoint: eventSocket.endpoint)
            case let packet:
                throw ViewfinderError(
                    .malformedData, "\(eventSocket.endpoint) answered InitEventRequest with \(packet.type)")
            }
        } catch {
            core.close(eventSocket)
            throw error
        }
        core.startReadingEvents(from: events)
        _ = try channel.run(.openSession, parameters: [configuration.sessionID], transactionID: 0)
        let info = PTPDatasetCollector(
            limit: configuration.maximumDatasetLength, subject: "the camera's answer to GetDeviceInfo")
        var tooLong: (any Error)?
        _ = try channel.run(
            .getDeviceInfo, parameters: [], dataOut: nil,
            dataIn: .stream(consumer: { try info.append($0) }, progress: nil), cancellation: nil,
            consumerError: &tooLong)
        if let tooLong {
            throw tooLong as? ViewfinderError ?? ViewfinderError(.malformedData, "\(tooLong)")
        }
        var result = handshake
        result.deviceInfo = try PTPDeviceInfo(decoding: info.bytes)
        return result
    }

    private static func refusal(_ reason: PTPIPInitFailReason, endpoint: String) -> ViewfinderError {
        let code: ViewfinderError.Code = reason == .busy ? .deviceBusy : .connectionFailed
        return ViewfinderError(code, "\(endpoint) refused the connection: \(reason); close other clients and retry")
    }
}

extension PTPIPSession {
    /// Runs a transaction and collects its data-in phase, if any, in memory.
    ///
    /// The data is received straight into the returned array's memory. Transactions run one at a time in call
    /// order. Cancelling the calling task before the request is sent, or during the data phase, throws
    /// `ViewfinderError/Code/cancelled` (the rest of the data is drained so the session stays usable).
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - parameters: Up to five parameters.
    ///   - dataOut: Bytes to send in a data-out phase, such as a new property value.
    ///   - progress: Called on the session's I/O thread as data-in bytes arrive.
    /// - Returns: The response and the data-in bytes.
    /// - Throws: `ViewfinderError/Code/protocolFailure` with the response code when the camera
    ///   answers with anything but OK; see ``PTPIPSession`` for the errors that end the session.
    public func transaction(
        _ operation: PTPOperationCode, parameters: [UInt32] = [], sending dataOut: [UInt8]? = nil,
        progress: (@Sendable (PTPTransferProgress) -> Void)? = nil
    ) async throws -> PTPTransactionResult {
        let core = core
        return try await core.perform { flag in
            try core.transaction(
                operation, parameters: parameters, dataOut: dataOut, dataIn: .collect(progress: progress),
                cancellation: flag)
        }
    }

    /// Runs a transaction and hands its data-in phase to `consumer` in slices as it arrives.
    ///
    /// `consumer` runs on the session's I/O thread; each slice is valid only during the call. When `consumer`
    /// throws, the rest of the data is drained (the session stays usable) and the transaction rethrows that error.
    ///
    /// ```swift
    /// let file = try FileDescriptor.open("DSC_0001.NEF", .writeOnly, options: .create)
    /// try await session.transaction(.getObject, parameters: [handle]) { chunk in
    ///     _ = try file.write(chunk)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - parameters: Up to five parameters.
    ///   - progress: Called on the session's I/O thread as bytes arrive.
    ///   - consumer: Receives the data, slice by slice.
    /// - Returns: The camera's response.
    public func transaction(
        _ operation: PTPOperationCode, parameters: [UInt32] = [],
        progress: (@Sendable (PTPTransferProgress) -> Void)? = nil,
        receiving consumer: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void
    ) async throws -> PTPResponse {
        let core = core
        return try await core.perform { flag in
            try core.transaction(
                operation, parameters: parameters, dataOut: nil,
                dataIn: .stream(consumer: consumer, progress: progress), cancellation: flag
            ).response
        }
    }
}
