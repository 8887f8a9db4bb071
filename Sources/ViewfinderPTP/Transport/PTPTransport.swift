import ViewfinderCore

/// Moves PTP containers between this computer and a camera: requests, data phases, responses and events.
///
/// A transport knows how containers travel (PTP/IP packets over two TCP connections, USB bulk and interrupt
/// transfers) and nothing of what operations mean; a ``PTPSession`` runs transactions over it. One transaction at a
/// time, the session calls, on its own thread:
///
/// 1. ``send(_:hasDataOut:)`` with the request;
/// 2. ``sendData(_:transactionID:)`` with the data-out phase, when there is one;
/// 3. ``receivePhase(of:)``: the start of a data-in phase or the response;
/// 4. after a data-in phase's start, ``receiveData(into:)`` until it returns 0, then ``receivePhase(of:)`` again for
///    the response; or, when the caller gives the phase up, ``cancelDataIn(of:)``, which may end the transaction
///    there.
///
/// Every call blocks until it is done, fails with `ViewfinderError/Code/timeout` when the camera makes no
/// progress for the transport's timeout, and with `ViewfinderError/Code/disconnected` when the connection is gone.
/// A failed call leaves the transport out of step: the session ends.
///
/// Events come on a thread the transport owns, from ``startEvents(_:)`` on. ``shutdown()`` may be called from any
/// thread and wakes every blocked call; ``close(gracefully:)`` releases what the transport holds.
///
/// A new transport is a module of its own (`ViewfinderPTPIP` is one) with a ``PTPEndpoint`` that opens it; the
/// session, the dialects and ``PTPCamera`` work over it unchanged.
public protocol PTPTransport: AnyObject, Sendable {
    /// Where the camera is, for messages, such as `192.168.1.1:15740`.
    var endpoint: String { get }

    /// A short name for the threads of a session over this transport, at most 8 bytes, such as `ptp15740`: the
    /// session names its command thread `NAME-cmd`.
    var threadName: String { get }

    /// Whether a session the camera has open when this transport connects can be a previous program's, left open
    /// when that program ended without closing it: true over USB, where a program's exit does not end the camera's
    /// session, so the session closes it and opens its own; false (the default) where the camera ends a session with
    /// its connection, so an open one belongs to another client.
    var sessionsOutliveConnections: Bool { get }

    /// Sends an operation request.
    ///
    /// - Parameters:
    ///   - request: The operation, its transaction ID and parameters.
    ///   - hasDataOut: Whether a data-out phase follows.
    func send(_ request: PTPRequest, hasDataOut: Bool) throws(ViewfinderError)

    /// Sends the data-out phase of a transaction, whole.
    func sendData(_ bytes: UnsafeRawBufferPointer, transactionID: UInt32) throws(ViewfinderError)

    /// Reads what comes next for transaction `transactionID`: the start of a data-in phase or the response.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the camera sends something else, or something for
    ///   another transaction.
    func receivePhase(of transactionID: UInt32) throws(ViewfinderError) -> PTPInboundPhase

    /// Reads the next bytes of the data-in phase under way into `buffer`, straight into its memory.
    ///
    /// - Returns: How many bytes were read, at most `buffer.count`; 0 once the phase has ended.
    /// - Throws: `ViewfinderError/Code/malformedData` when the phase sends more than it announced or breaks off.
    func receiveData(into buffer: UnsafeMutableRawBufferPointer) throws(ViewfinderError) -> Int

    /// Stops the data-in phase under way of transaction `transactionID` before its end, when its bytes are no longer
    /// wanted and the transport can tell the camera so (USB's Cancel request): the transaction then ends there,
    /// without a response.
    ///
    /// - Returns: Whether the phase was stopped. `false`, the default, when the transport cannot: the session reads
    ///   the rest of the phase and drops it, then reads the response.
    func cancelDataIn(of transactionID: UInt32) throws(ViewfinderError) -> Bool

    /// Starts passing the camera's events to `sink`, in order, from a thread of the transport's own.
    ///
    /// - Throws: `ViewfinderError` when the events cannot be followed, such as when no thread could be started.
    func startEvents(_ sink: PTPEventSink) throws(ViewfinderError)

    /// Shortens every later wait for the camera to at most `limit`, as the session does while it closes, so that a
    /// camera gone silent holds the close up briefly; called on the session's thread.
    func limitTimeouts(to limit: Duration)

    /// Waits up to `timeout` for the camera in the transaction about to run (`nil`: the transport's own timeout
    /// again), for an operation that takes long, such as a capture whose response comes after a long exposure; called
    /// on the session's thread.
    func useTimeout(_ timeout: Duration?)

    /// Whether the transport is between containers after a call failed with `ViewfinderError/Code/timeout`: nothing
    /// of a container read halfway, no data phase under way, so that the camera's late answer, when it comes, is
    /// read whole and skipped as stale, and the session can go on. False by default.
    var isInStep: Bool { get }

    /// Wakes every blocked call and makes later ones fail; safe from any thread, and more than once.
    func shutdown()

    /// Releases the transport's connections, after which no call may be made.
    ///
    /// - Parameter gracefully: Whether to end the connection in order, waiting briefly for the camera to let go of
    ///   it (so the next client finds the camera free), rather than dropping it.
    func close(gracefully: Bool)
}

extension PTPTransport {
    /// False: the camera ends a session with its connection.
    public var sessionsOutliveConnections: Bool { false }

    /// Nothing: the transport keeps its own timeout.
    public func useTimeout(_ timeout: Duration?) {}

    /// False: after a timeout, the transport is taken to be out of step.
    public var isInStep: Bool { false }

    /// False: the session reads the rest of the phase and drops it.
    public func cancelDataIn(of transactionID: UInt32) throws(ViewfinderError) -> Bool { false }
}

/// An operation request, as a transport sends it.
public struct PTPRequest: Hashable, Sendable {
    /// The operation.
    public var code: PTPOperationCode
    /// The transaction the request opens.
    public var transactionID: UInt32
    /// Up to five parameters.
    public var parameters: [UInt32]

    /// The most parameters a request or response carries.
    public static let maximumParameterCount = 5

    /// Creates a request.
    public init(code: PTPOperationCode, transactionID: UInt32, parameters: [UInt32] = []) {
        self.code = code
        self.transactionID = transactionID
        self.parameters = parameters
    }
}

/// What follows a request: a data-in phase, or the response.
public enum PTPInboundPhase: Hashable, Sendable {
    /// A data-in phase starts; its total length in bytes when the transport knows it.
    case data(totalLength: Int?)
    /// The camera's response.
    case response(PTPResponse)
}

/// Receives a transport's events.
public protocol PTPEventSink: Sendable {
    /// A camera event arrived.
    func receive(_ event: PTPEvent)

    /// The events stopped because the connection failed; the session ends with `error`.
    func fail(_ error: ViewfinderError)
}

/// Where a PTP camera is and how to reach it: opens a ``PTPTransport`` to it, once per connection.
///
/// ```swift
/// let camera = PTPCamera(endpoint: PTPIPEndpoint(host: "192.168.1.1"))
/// ```
public protocol PTPEndpoint: Sendable, CustomStringConvertible {
    /// Opens a transport to the camera, ready for the session's first transaction.
    ///
    /// - Throws: `ViewfinderError` such as `ViewfinderError/Code/connectionFailed`,
    ///   `ViewfinderError/Code/deviceBusy` or `ViewfinderError/Code/timeout`.
    func openTransport() async throws -> any PTPTransport
}
