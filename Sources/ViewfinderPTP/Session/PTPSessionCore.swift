import Synchronization
import ViewfinderCore
import ViewfinderSystem

/// The shared state of a session: its phase, its transport, its command thread and its event stream.
///
/// Transactions run as jobs on one dedicated command thread, so they are strictly one at a time; the transport's
/// own thread delivers events. Any thread may end the session: the transport is shut down (which wakes the command
/// thread) and the event stream finished, both after the lock.
final class PTPSessionCore: PTPEventSink {
    let configuration: PTPSession.Configuration
    let transport: any PTPTransport
    /// The thread every transaction runs on.
    let commandThread: IOThread
    private let phaseState = Locked(PTPSession.State.opening)
    private let eventContinuation: AsyncThrowingStream<PTPEvent, any Error>.Continuation
    private let droppedEvents = Atomic(0)
    /// Runs the transactions; touched only by jobs on the command thread.
    private let runner: PTPTransactionRunner

    init(
        transport: any PTPTransport, configuration: PTPSession.Configuration,
        events: AsyncThrowingStream<PTPEvent, any Error>.Continuation
    ) throws(PlatformThread.StartError) {
        self.transport = transport
        self.configuration = configuration
        eventContinuation = events
        runner = PTPTransactionRunner(transport: transport, configuration: configuration)
        commandThread = try IOThread(name: "\(transport.threadName)-cmd")
    }

    var phase: PTPSession.State { phaseState.withLock { $0 } }

    var droppedEventCount: Int { droppedEvents.load(ordering: .relaxed) }

    /// Moves the session to `phase` unless it is closed already.
    func enter(_ phase: PTPSession.State) {
        phaseState.withLock { state in
            if case .closed = state { return }
            state = phase
        }
    }

    /// Closes the session: shuts the transport down, which wakes its threads, and finishes the event stream with
    /// `reason` (normally when `nil`).
    ///
    /// - Returns: `false` when the session was closed already.
    @discardableResult
    func finish(_ reason: ViewfinderError?) -> Bool {
        let changed = phaseState.withLock { state in
            if case .closed = state { return false }
            state = .closed(reason)
            return true
        }
        guard changed else { return false }
        transport.shutdown()
        if let reason {
            eventContinuation.finish(throwing: reason)
        } else {
            eventContinuation.finish()
        }
        return true
    }

    /// Ends the command thread once the jobs queued have run, closing the transport last.
    func stop() {
        let transport = transport
        commandThread.stop { transport.close(gracefully: false) }
    }

    // MARK: Events

    func receive(_ event: PTPEvent) {
        if case .dropped = eventContinuation.yield(event) {
            droppedEvents.add(1, ordering: .relaxed)
        }
    }

    func fail(_ error: ViewfinderError) {
        switch phase {
        case .opening, .open:
            finish(error)
        case .closing, .closed:
            break
        }
    }

    // MARK: Transactions

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
                    continuation.resume(with: Swift.Result { try body(flag) })
                }
                if !accepted {
                    continuation.resume(throwing: notOpenError())
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Opens the PTP session and reads the device information; runs on the command thread.
    func openSession() throws(ViewfinderError) -> PTPDeviceInfo {
        try transport.startEvents(self)
        do {
            _ = try runner.run(.openSession, parameters: [configuration.sessionID], transactionID: 0)
        } catch  where error.responseCode == PTPResponseCode.sessionAlreadyOpen.rawValue {
            // Over USB, a previous program's session, left open when it exited: closed, and this one opened in its
            // place. A camera that will not close it, or says so over another transport, keeps its session, and the
            // transactions go on in it, as libgphoto2 does.
            if transport.sessionsOutliveConnections, (try? runner.run(.closeSession)) != nil {
                do {
                    _ = try runner.run(.openSession, parameters: [configuration.sessionID], transactionID: 0)
                } catch  where error.responseCode == PTPResponseCode.sessionAlreadyOpen.rawValue {}
            }
        }
        let collector = PTPDatasetCollector(
            limit: configuration.maximumDatasetLength, subject: "the camera's answer to GetDeviceInfo")
        var tooLong: (any Error)?
        _ = try runner.runWaking(timeout: configuration.wakeUpTimeout) { () throws(ViewfinderError) in
            collector.reset()
            return try runner.run(
                .getDeviceInfo, parameters: [], dataOut: nil,
                dataIn: .stream(consumer: { try collector.append($0) }, progress: nil), cancellation: nil,
                consumerError: &tooLong)
        }
        if let tooLong {
            throw tooLong as? ViewfinderError ?? ViewfinderError(.malformedData, "\(tooLong)")
        }
        return try PTPDeviceInfo(decoding: collector.bytes)
    }

    /// Ends the PTP session with CloseSession and lets the transport end its connection in order; runs on the
    /// command thread.
    func closeSession() {
        guard case .open = phase else { return }
        enter(.closing)
        transport.limitTimeouts(to: .seconds(2))
        _ = try? runner.run(.closeSession)
        transport.close(gracefully: true)
    }

    /// Runs a transaction on an open session; transport failures end the session.
    ///
    /// - Throws: the error a streaming consumer threw, unchanged, or a `ViewfinderError`.
    func transaction(
        _ operation: PTPOperationCode, parameters: [UInt32], dataOut: [UInt8]?, dataIn: PTPDataInHandling,
        cancellation: PTPCancellationFlag, timeout: Duration? = nil
    ) throws -> PTPTransactionResult {
        guard case .open = phase else {
            throw notOpenError()
        }
        if let timeout {
            transport.useTimeout(timeout)
        }
        defer {
            if timeout != nil { transport.useTimeout(nil) }
        }
        var consumerError: (any Error)?
        let result: PTPTransactionResult
        do throws(ViewfinderError) {
            result = try runner.runWaking(timeout: configuration.wakeUpTimeout) { () throws(ViewfinderError) in
                try runner.run(
                    operation, parameters: parameters, dataOut: dataOut, dataIn: dataIn, cancellation: cancellation,
                    consumerError: &consumerError)
            }
        } catch {
            // A camera slow to answer once is asked again: its late answer will be skipped. Twice in a row, it is gone.
            let keptAfterTimeout = error.code == .timeout && transport.isInStep && !runner.timedOutLast
            runner.timedOutLast = error.code == .timeout
            if Self.endsSession(error) && !keptAfterTimeout {
                finish(error)
            }
            throw error
        }
        runner.timedOutLast = false
        if let consumerError {
            throw consumerError
        }
        return result
    }

    /// Whether an error leaves the transport out of step, so the session must end.
    static func endsSession(_ error: ViewfinderError) -> Bool {
        error.code != .protocolFailure && error.code != .cancelled && error.code != .invalidArgument
    }
}
