import Synchronization
import ViewfinderConcurrency
import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// The shared state of a session: its phase, its sockets, its threads and its event stream.
///
/// Transactions run as jobs on one dedicated command thread, so they are strictly one at a time; events are read
/// by a second dedicated thread. Any thread may fail the session; sockets are shut down under the lock (so a
/// descriptor is never touched after its owner closed it) and the event stream is finished after the lock.
final class PTPIPSessionCore: Sendable {
    struct State {
        var phase: PTPIPSession.State = .opening
        /// The sockets that are open, so that failing the session can wake the threads that wait on them.
        var sockets: [Int32: TCPSocket] = [:]
    }

    /// The command channel, touched only by jobs on the command thread.
    final class ChannelBox: @unchecked Sendable {
        var channel: PTPIPCommandChannel?
    }

    let configuration: PTPIPSession.Configuration
    let commandThread: IOThread
    let state = Locked(State())
    let channelBox = ChannelBox()
    let eventContinuation: AsyncThrowingStream<PTPEvent, any Error>.Continuation
    let droppedEvents = Atomic(0)

    init(
        configuration: PTPIPSession.Configuration,
        eventContinuation: AsyncThrowingStream<PTPEvent, any Error>.Continuation
    ) {
        self.configuration = configuration
        self.eventContinuation = eventContinuation
        commandThread = IOThread(name: "ptp\(configuration.port)-cmd")
    }

    var phase: PTPIPSession.State { state.withLock { $0.phase } }

    /// Records an open socket; closes it and fails when the session is already closed.
    func register(_ socket: TCPSocket) throws(ViewfinderError) {
        let closedReason: ViewfinderError?? = state.withLock { state in
            if case .closed(let reason) = state.phase { return .some(reason) }
            state.sockets[socket.descriptor] = socket
            return .none
        }
        if let closedReason {
            socket.close()
            throw closedReason ?? ViewfinderError(.cancelled, "the session was closed while it was opening")
        }
    }

    /// Forgets and closes a socket; called by the socket's owner only.
    func close(_ socket: TCPSocket) {
        state.withLock { _ = $0.sockets.removeValue(forKey: socket.descriptor) }
        socket.close()
    }

    /// Moves the session to `phase` unless it is closed already.
    func enter(_ phase: PTPIPSession.State) {
        state.withLock { state in
            if case .closed = state.phase { return }
            state.phase = phase
        }
    }

    /// Closes the session: shuts its sockets down, which wakes its threads, and finishes the event stream with
    /// `reason` (normally when `nil`).
    ///
    /// - Returns: `false` when the session was closed already.
    @discardableResult
    func finish(_ reason: ViewfinderError?) -> Bool {
        let changed = state.withLock { state in
            if case .closed = state.phase { return false }
            state.phase = .closed(reason)
            for socket in state.sockets.values {
                socket.shutdown()
            }
            return true
        }
        guard changed else { return false }
        if let reason {
            eventContinuation.finish(throwing: reason)
        } else {
            eventContinuation.finish()
        }
        return true
    }

    /// The error for a call on a session that is not open.
    func notOpenError() -> ViewfinderError {
        switch phase {
        case .closed(let reason?):
            ViewfinderError(.notConnected, "the session with the camera ended: \(reason.message)")
        case .closed(nil), .closing:
            ViewfinderError(.notConnected, "the session with the camera is closed; connect again")
        case .opening, .open:
            ViewfinderError(.notConnected, "the session with the camera is not open")
        }
    }

    /// Runs `body` on the command thread and returns its result; a cancelled task sets the flag `body` sees.
    func perform<Result: Sendable>(
        _ body: @escaping @Sendable (PTPCancellationFlag) throws -> Result
    ) async throws -> Result {
        let flag = PTPCancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let accepted = commandThread.submit {
                    guard !flag.isCancelled else {
                        continuation.resume(throwing: ViewfinderError(.cancelled, "the task was cancelled"))
                        return
                    }
                    do {
                        continuation.resume(returning: try body(flag))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                if !accepted {
                    continuation.resume(throwing: notOpenError())
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Runs a transaction on the command channel of an open session; transport failures end the session.
    ///
    /// - Throws: the error a streaming consumer threw, unchanged, or a `ViewfinderError`.
    func transaction(
        _ operation: PTPOperationCode, parameters: [UInt32], dataOut: [UInt8]?, dataIn: PTPDataInHandling,
        cancellation: PTPCancellationFlag
    ) throws -> PTPTransactionResult {
        guard case .open = phase, let channel = channelBox.channel else {
            throw notOpenError()
        }
        var consumerError: (any Error)?
        let result: PTPTransactionResult
        do throws(ViewfinderError) {
            result = try channel.run(
                operation, parameters: parameters, dataOut: dataOut, dataIn: dataIn, cancellation: cancellation,
                consumerError: &consumerError)
        } catch {
            if Self.endsSession(error) {
                finish(error)
            }
            throw error
        }
        if let consumerError {
            throw consumerError
        }
        return result
    }

    /// Whether an error leaves the command connection out of step, so the session must end.
    static func endsSession(_ error: ViewfinderError) -> Bool {
        error.code != .protocolFailure && error.code != .cancelled && error.code != .invalidArgument
    }

    /// Reads the event connection until it closes, on a thread of its own.
    func startReadingEvents(from connection: PTPIPConnection) {
        IOThread.detach(name: "ptp\(configuration.port)-events") { [self] in
            readEvents(from: connection)
            close(connection.socket)
        }
    }

    private func readEvents(from connection: PTPIPConnection) {
        let probeInterval = configuration.eventProbeInterval
        var isProbing = false
        while true {
            do throws(ViewfinderError) {
                if connection.bufferedCount == 0 {
                    // Events come whenever the camera has one; a silence longer than the probe interval is answered
                    // with a probe, which the camera must answer in time.
                    let wait = isProbing ? configuration.responseTimeout : probeInterval ?? .seconds(60)
                    do {
                        try connection.socket.wait(for: Int16(POLLIN), timeout: wait, while: "waiting for events")
                    } catch  where error.code == .timeout {
                        if isProbing {
                            throw ViewfinderError(
                                .timeout,
                                "the camera did not answer a probe within \(configuration.responseTimeout.seconds) s "
                                    + "after \((probeInterval ?? .zero).seconds) s of silence; it may have left the "
                                    + "network or been switched off")
                        }
                        if probeInterval != nil {
                            try connection.send(.probeRequest, while: "probing the camera on the event connection")
                            isProbing = true
                        }
                        continue
                    }
                }
                let packet = try connection.readPacket(while: "reading an event")
                // Any packet shows the camera is there.
                isProbing = false
                switch packet {
                case .event(let code, let transactionID, let parameters):
                    let event = PTPEvent(code: code, transactionID: transactionID, parameters: parameters)
                    if case .dropped = eventContinuation.yield(event) {
                        droppedEvents.add(1, ordering: .relaxed)
                    }
                case .probeRequest:
                    try connection.send(.probeResponse, while: "answering a probe on the event connection")
                case .probeResponse:
                    continue
                case let packet:
                    throw ViewfinderError(.malformedData, "unexpected \(packet.type) packet on the event connection")
                }
            } catch {
                switch phase {
                case .opening, .open:
                    finish(
                        ViewfinderError(error.code, "the event connection failed: \(error.message)", errno: error.errno)
                    )
                case .closing, .closed:
                    break
                }
                return
            }
        }
    }
}
