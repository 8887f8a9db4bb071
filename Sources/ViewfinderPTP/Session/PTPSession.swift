import ViewfinderCore
import ViewfinderSystem

/// A PTP session with a camera over a ``PTPTransport``: transactions, the standard operations and datasets, and
/// the camera's events.
///
/// ``open(over:configuration:)`` opens a PTP session on a transport that is ready and reads the camera's
/// ``PTPDeviceInfo``. Transactions then run one at a time, in the order they are called, with increasing
/// transaction IDs. `ViewfinderPTPIP` adds `PTPSession.connect(to:)` for cameras on the network:
///
/// ```swift
/// let session = try await PTPSession.connect(to: "192.168.1.1")
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
/// Every blocking call runs on the session's own command thread (and the transport's event thread), never on
/// Swift's cooperative thread pool: async callers wait on a continuation while the command thread talks to the
/// camera. Data-in phases are received straight into the result's memory, or handed to a consumer in slices, so
/// large downloads are not copied needlessly.
///
/// ## Errors
///
/// A transaction the camera refuses throws `ViewfinderError/Code/protocolFailure` with the camera's response code,
/// and the session stays open. A camera that stops answering (`ViewfinderError/Code/timeout`), closes the
/// connection (`ViewfinderError/Code/disconnected`) or sends something that does not follow the protocol
/// (`ViewfinderError/Code/malformedData`) ends the session: ``state`` becomes ``State/closed(_:)`` with the error,
/// ``events`` finishes with it, and later calls throw `ViewfinderError/Code/notConnected`.
public final class PTPSession: Sendable {
    /// Where a session is in its life.
    public enum State: Hashable, Sendable {
        /// Opening the PTP session.
        case opening
        /// Ready for transactions.
        case open
        /// Closing the PTP session.
        case closing
        /// Closed: normally when the reason is `nil`, or because of the error.
        case closed(ViewfinderError?)
    }

    /// The configuration the session was opened with.
    public let configuration: Configuration
    /// What the camera said about itself when the session opened.
    public let deviceInfo: PTPDeviceInfo
    /// The camera's events, in order, as long as the session is open.
    ///
    /// Meant for one consumer. The stream keeps at most ``Configuration/eventBufferCapacity`` events that have not
    /// been consumed yet and drops the oldest beyond that (see ``droppedEventCount``). It finishes when the session
    /// closes, with the error that ended the session if one did.
    public let events: AsyncThrowingStream<PTPEvent, any Error>

    let core: PTPSessionCore

    private init(core: PTPSessionCore, events: AsyncThrowingStream<PTPEvent, any Error>, deviceInfo: PTPDeviceInfo) {
        configuration = core.configuration
        self.core = core
        self.events = events
        self.deviceInfo = deviceInfo
    }

    deinit {
        core.finish(nil)
        core.stop()
    }

    /// The transport the session runs over.
    public var transport: any PTPTransport { core.transport }

    /// Where the camera is, for messages.
    public var endpoint: String { core.transport.endpoint }

    /// Where the session is in its life.
    public var state: State { core.phase }

    /// The number of events dropped because the consumer of ``events`` fell behind.
    public var droppedEventCount: Int { core.droppedEventCount }

    /// Opens a PTP session over a transport that is ready, and reads the camera's device information.
    ///
    /// The session takes the transport over: it closes it when the session ends, and when opening fails.
    ///
    /// - Parameters:
    ///   - transport: The transport, as its ``PTPEndpoint`` opened it.
    ///   - configuration: The session ID and the limits on what the camera may send.
    /// - Throws: `ViewfinderError` from the transport, such as `ViewfinderError/Code/timeout`, and the codes of
    ///   failed transactions.
    public static func open(over transport: any PTPTransport, configuration: Configuration = Configuration())
        async throws -> PTPSession
    {
        let (events, continuation) = AsyncThrowingStream<PTPEvent, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(configuration.eventBufferCapacity))
        let core: PTPSessionCore
        do {
            core = try PTPSessionCore(transport: transport, configuration: configuration, events: continuation)
        } catch {
            continuation.finish()
            transport.close(gracefully: false)
            throw ViewfinderError(.io, "cannot start the session's thread: \(error)")
        }
        do {
            let info = try await core.perform { _ in try core.openSession() }
            core.enter(.open)
            return PTPSession(core: core, events: events, deviceInfo: info)
        } catch {
            let failure = error as? ViewfinderError ?? ViewfinderError(.connectionFailed, "\(error)")
            core.finish(failure)
            core.stop()
            throw failure
        }
    }

    /// Closes the session: ends the PTP session with the camera, then closes the transport.
    ///
    /// Waits for transactions already queued, and for the camera to let go of the connection (at most two seconds),
    /// so that a new session finds the camera free. Safe to call more than once.
    public func close() async {
        let core = core
        _ = try? await core.perform { _ in core.closeSession() }
        core.finish(nil)
        core.stop()
    }
}

extension PTPSession {
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
    ///   - timeout: How long to wait for the camera in this transaction, for one that takes long (such as a capture
    ///     whose response comes after its exposure); the transport's own timeout when `nil`.
    /// - Returns: The response and the data-in bytes.
    /// - Throws: `ViewfinderError/Code/protocolFailure` with the response code when the camera answers with anything
    ///   but OK; see ``PTPSession`` for the errors that end the session.
    public func transaction(
        _ operation: PTPOperationCode, parameters: [UInt32] = [], sending dataOut: [UInt8]? = nil,
        progress: (@Sendable (PTPTransferProgress) -> Void)? = nil, timeout: Duration? = nil
    ) async throws -> PTPTransactionResult {
        let core = core
        return try await core.perform { flag in
            try core.transaction(
                operation, parameters: parameters, dataOut: dataOut, dataIn: .collect(progress: progress),
                cancellation: flag, timeout: timeout)
        }
    }

    /// Runs a transaction and hands its data-in phase to `consumer` in slices as it arrives.
    ///
    /// `consumer` runs on the session's I/O thread; each slice is valid only during the call. When `consumer`
    /// throws, the rest of the data is drained (the session stays usable) and the transaction rethrows that error.
    ///
    /// ```swift
    /// try await session.transaction(.getObject, parameters: [handle]) { chunk in
    ///     try file.writeAll(chunk)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - parameters: Up to five parameters.
    ///   - dataOut: Bytes to send in a data-out phase.
    ///   - progress: Called on the session's I/O thread as bytes arrive.
    ///   - consumer: Receives the data, slice by slice.
    /// - Returns: The camera's response.
    public func transaction(
        _ operation: PTPOperationCode, parameters: [UInt32] = [], sending dataOut: [UInt8]? = nil,
        progress: (@Sendable (PTPTransferProgress) -> Void)? = nil,
        receiving consumer: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void
    ) async throws -> PTPResponse {
        let core = core
        return try await core.perform { flag in
            try core.transaction(
                operation, parameters: parameters, dataOut: dataOut,
                dataIn: .stream(consumer: consumer, progress: progress), cancellation: flag
            ).response
        }
    }
}
