import Synchronization
import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// What a transaction does with its data-in phase.
package enum PTPDataInHandling: Sendable {
    /// Collect it in memory, reporting progress.
    case collect(progress: (@Sendable (PTPTransferProgress) -> Void)?)
    /// Hand each chunk to `consumer` as it arrives, reporting progress.
    case stream(
        consumer: @Sendable (UnsafeRawBufferPointer) throws -> Void,
        progress: (@Sendable (PTPTransferProgress) -> Void)?)
}

/// A flag that a task's cancellation handler sets and the command thread reads.
package final class PTPCancellationFlag: Sendable {
    private let cancelled = Atomic(false)

    /// Creates a flag that is not set.
    package init() {}

    /// Whether the task was cancelled.
    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the task as cancelled.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
    }
}

/// Runs transactions over a transport: transaction IDs, data-out phases, and data-in phases collected in memory or
/// streamed to a consumer, within the session's limits, whatever the transport.
///
/// Lives on the session's command thread: only jobs on that thread touch it, hence `@unchecked Sendable`.
package final class PTPTransactionRunner: @unchecked Sendable {
    private let transport: any PTPTransport
    private let configuration: PTPSession.Configuration
    private var nextTransactionID: UInt32 = 1
    /// Whether the camera has answered something other than DeviceBusy since its session opened.
    private var isAwake = false
    /// Whether the last transaction timed out, on the command thread: a second timeout in a row ends the session.
    package var timedOutLast = false
    private let scratch: UnsafeMutableRawBufferPointer

    /// The largest piece of a data phase handed to a consumer at once.
    private static let sliceLength = 1 << 20

    /// Creates a runner for `transport`, with the session's limits.
    package init(transport: any PTPTransport, configuration: PTPSession.Configuration) {
        self.transport = transport
        self.configuration = configuration
        scratch = .allocate(byteCount: Self.sliceLength, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    /// Takes the next transaction ID: they count up from 1 and skip 0 and `0xFFFFFFFF` when they wrap.
    private func takeTransactionID() -> UInt32 {
        let id = nextTransactionID
        nextTransactionID = id >= 0xFFFF_FFFE ? 1 : id + 1
        return id
    }

    /// Runs one transaction.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - parameters: Up to five parameters.
    ///   - transactionID: The ID to use; the next one when `nil`.
    ///   - dataOut: Bytes to send in a data-out phase.
    ///   - dataIn: What to do with a data-in phase.
    ///   - cancellation: Set when the caller's task is cancelled.
    ///   - consumerError: Set to the first error a streaming consumer threw; the data is drained and the response
    ///     read regardless, and the caller reports this error instead of the result.
    /// - Returns: The response and the collected data-in bytes.
    /// - Throws: `ViewfinderError/Code/protocolFailure` when the camera answers with anything but OK (the
    ///   transport stays usable); transport errors (timeout, disconnected, malformed data) leave it unusable.
    package func run(
        _ operation: PTPOperationCode, parameters: [UInt32], transactionID: UInt32? = nil, dataOut: [UInt8]?,
        dataIn: PTPDataInHandling, cancellation: PTPCancellationFlag?, consumerError: inout (any Error)?
    ) throws(ViewfinderError) -> PTPTransactionResult {
        guard parameters.count <= PTPRequest.maximumParameterCount else {
            throw ViewfinderError(.invalidArgument, "\(operation) takes at most 5 parameters, not \(parameters.count)")
        }
        let id = transactionID ?? takeTransactionID()
        // Made only for a message: a string per transaction costs more than the rest of the bookkeeping.
        func activity() -> String { "\(operation) (transaction \(id))" }
        try transport.send(
            PTPRequest(code: operation, transactionID: id, parameters: parameters), hasDataOut: dataOut != nil)
        if let dataOut {
            try typedThrows { try dataOut.withUnsafeBytes { try transport.sendData($0, transactionID: id) } }
        }
        var inbound = DataInPhase(
            operation: operation, transactionID: id, handling: dataIn, cancellation: cancellation)
        var next = try transport.receivePhase(of: id)
        var data: [UInt8] = []
        if case .data(let total) = next {
            data = try receive(total: total, phase: &inbound)
            if inbound.stopped {
                // The transport stopped the phase: the transaction ended without a response.
                if let problem = inbound.problem { throw problem }
                consumerError = inbound.consumerError
                return PTPTransactionResult(
                    response: PTPResponse(code: .transactionCancelled, transactionID: id), data: [])
            }
            next = try transport.receivePhase(of: id)
        }
        guard case .response(let response) = next else {
            throw ViewfinderError(.malformedData, "the camera began a second data phase for \(activity())")
        }
        guard response.transactionID == id else {
            throw ViewfinderError(
                .malformedData, "the camera answered \(activity()) with the ID of transaction \(response.transactionID)"
            )
        }
        if let problem = inbound.problem {
            throw problem
        }
        consumerError = inbound.consumerError
        guard response.code == .ok || consumerError != nil else {
            throw ViewfinderError(
                .protocolFailure, "the camera answered \(activity()) with \(response.code)",
                responseCode: response.code.rawValue)
        }
        return PTPTransactionResult(response: response, data: data)
    }

    /// Runs `transaction`, trying it again while a camera waking after its session opened answers DeviceBusy.
    ///
    /// Real bodies are busy for their first requests: the pauses start at 50 ms and double, for up to `timeout`. Once
    /// the camera has answered anything else, DeviceBusy is an answer like any other.
    package func runWaking<Result>(
        timeout: Duration, _ transaction: () throws(ViewfinderError) -> Result
    ) throws(ViewfinderError) -> Result {
        guard !isAwake else { return try transaction() }
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(50)
        while true {
            do {
                let result = try transaction()
                isAwake = true
                return result
            } catch  where error.responseCode == PTPResponseCode.deviceBusy.rawValue && .now + pause < deadline {
                var time = timespec(
                    tv_sec: Int(pause.components.seconds), tv_nsec: Int(pause.components.attoseconds / 1_000_000_000))
                var left = timespec()
                while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
                pause *= 2
            } catch {
                if error.code == .protocolFailure { isAwake = true }
                throw error
            }
        }
    }

    /// Runs a transaction without a data-out phase that collects its data-in phase, if any.
    func run(
        _ operation: PTPOperationCode, parameters: [UInt32] = [], transactionID: UInt32? = nil
    ) throws(ViewfinderError) -> PTPTransactionResult {
        var unused: (any Error)?
        return try run(
            operation, parameters: parameters, transactionID: transactionID, dataOut: nil,
            dataIn: .collect(progress: nil), cancellation: nil, consumerError: &unused)
    }

    /// The state of a data-in phase.
    struct DataInPhase {
        let operation: PTPOperationCode
        let transactionID: UInt32
        /// The transaction, for messages.
        var activity: String { "\(operation) (transaction \(transactionID))" }
        let handling: PTPDataInHandling
        let cancellation: PTPCancellationFlag?
        /// A failure to report once the phase has been drained.
        var problem: ViewfinderError?
        /// The first error the consumer threw; later chunks are drained without it.
        var consumerError: (any Error)?
        /// Whether the transport stopped the phase instead of draining it: no response follows.
        var stopped = false
        /// Whether the caller gave the phase up, so that it may end short: the transport may have asked the camera to
        /// stop it (PTP/IP's Cancel), and a camera that does ends it early, in step.
        var givenUp = false

        /// Whether the rest of the phase should be read and dropped.
        mutating func shouldDrain() -> Bool {
            if problem == nil, cancellation?.isCancelled == true {
                problem = ViewfinderError(.cancelled, "\(activity) was cancelled during its data phase")
            }
            return problem != nil || consumerError != nil
        }

        func report(_ completed: Int, of total: Int?) {
            switch handling {
            case .collect(let progress), .stream(_, let progress):
                progress?(PTPTransferProgress(completedBytes: completed, totalBytes: total))
            }
        }
    }

    /// Receives a data-in phase of `total` bytes (unknown when `nil`), until the transport says it ended.
    private func receive(total: Int?, phase: inout DataInPhase) throws(ViewfinderError) -> [UInt8] {
        var received = 0
        switch phase.handling {
        case .stream(let consumer, _):
            // The consumer hears the phase's length before its first slice.
            phase.report(0, of: total)
            try receiveSlices(total: total, received: &received, phase: &phase) { count, phase in
                do {
                    try consumer(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
                } catch {
                    phase.consumerError = error
                }
            }
            return []
        case .collect:
            let limit = configuration.maximumInMemoryDataLength
            if let total, total > limit {
                phase.problem = ViewfinderError(
                    .invalidArgument,
                    "\(phase.activity) returns \(total) bytes, more than the \(limit) collected in memory; use a "
                        + "streaming transaction")
            }
            guard let total, phase.problem == nil else {
                return try collectGrowing(total: total, received: &received, phase: &phase)
            }
            var phaseCopy = phase
            let data = try typedThrows {
                try [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                    let base = UnsafeMutableRawBufferPointer(buffer)
                    Self.preferHugePages(base)
                    try receiveInPlace(into: base, received: &received, phase: &phaseCopy)
                    initialized = received
                }
            }
            phase = phaseCopy
            if !phase.givenUp { try Self.checkComplete(received, total, phase) }
            return phase.problem == nil ? data : []
        }
    }

    /// Receives a phase of known length straight into `base`, in slices so progress is reported as they come; once
    /// the phase must be drained, the rest goes through the scratch buffer and is dropped.
    private func receiveInPlace(
        into base: UnsafeMutableRawBufferPointer, received: inout Int, phase: inout DataInPhase
    ) throws(ViewfinderError) {
        while true {
            if phase.shouldDrain() {
                try drain(&received, phase: &phase)
                return
            }
            let end = min(base.count, received + Self.sliceLength * 4)
            // A full buffer still reads once more: the transport reports the end of the phase, or too much data.
            let target =
                end > received
                ? UnsafeMutableRawBufferPointer(rebasing: base[received..<end])
                : UnsafeMutableRawBufferPointer(rebasing: scratch[..<1])
            let count = try transport.receiveData(into: target)
            if count == 0 { return }
            guard end > received else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera sent more than the \(base.count) bytes it announced for \(phase.activity)")
            }
            received += count
            phase.report(received, of: base.count)
        }
    }

    /// Collects a data-in phase of unknown length, within the in-memory limit.
    private func collectGrowing(total: Int?, received: inout Int, phase: inout DataInPhase) throws(ViewfinderError)
        -> [UInt8]
    {
        var data: [UInt8] = []
        let limit = configuration.maximumInMemoryDataLength
        try receiveSlices(total: total, received: &received, phase: &phase) { count, phase in
            guard phase.problem == nil else { return }
            guard data.count + count <= limit else {
                phase.problem = ViewfinderError(
                    .invalidArgument,
                    "\(phase.activity) returns more than the \(limit) bytes collected in memory; use a streaming "
                        + "transaction")
                data = []
                return
            }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count]))
        }
        return data
    }

    /// Reads the phase through the scratch buffer and calls `deliver` with the length of each slice, until the phase
    /// ends; once the phase must be drained, the rest is read and dropped.
    private func receiveSlices(
        total: Int?, received: inout Int, phase: inout DataInPhase,
        _ deliver: (Int, inout DataInPhase) -> Void
    ) throws(ViewfinderError) {
        while true {
            if phase.shouldDrain() {
                try drain(&received, phase: &phase)
                if let total, !phase.givenUp { try Self.checkComplete(received, total, phase) }
                return
            }
            let count = try transport.receiveData(into: scratch)
            if count == 0 {
                if let total { try Self.checkComplete(received, total, phase) }
                return
            }
            received += count
            deliver(count, &phase)
            phase.report(received, of: total)
        }
    }

    /// Stops the rest of the phase where the transport can, else reads and drops it.
    private func drain(_ received: inout Int, phase: inout DataInPhase) throws(ViewfinderError) {
        phase.givenUp = true
        if try transport.cancelDataIn(of: phase.transactionID) {
            phase.stopped = true
            return
        }
        while true {
            let count = try transport.receiveData(into: scratch)
            if count == 0 { return }
            received += count
        }
    }

    /// Fails when the phase ended before the length it announced: the transport is out of step then.
    private static func checkComplete(_ received: Int, _ total: Int, _ phase: DataInPhase) throws(ViewfinderError) {
        guard received == total else {
            throw ViewfinderError(
                .malformedData, "the data phase of \(phase.activity) ended after \(received) of \(total) bytes")
        }
    }

    /// Asks the kernel to back a large receive buffer with transparent huge pages, so receiving tens of megabytes
    /// into fresh memory takes a few dozen page faults instead of thousands.
    private static func preferHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        let hugePage = 2 << 20
        guard buffer.count >= 4 * hugePage, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }
}

/// Runs `body`, which throws only `ViewfinderError`s, inside standard-library calls that rethrow untyped errors.
package func typedThrows<Result>(_ body: () throws -> Result) throws(ViewfinderError) -> Result {
    do {
        return try body()
    } catch let error as ViewfinderError {
        throw error
    } catch {
        throw ViewfinderError(.io, "unexpected error: \(error)")
    }
}
