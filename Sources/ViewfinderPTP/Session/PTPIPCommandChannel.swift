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

/// The command connection of a session and everything that runs transactions on it.
///
/// Lives on the session's command thread: only jobs on that thread touch it, hence `@unchecked Sendable`.
package final class PTPIPCommandChannel: @unchecked Sendable {
    /// The command connection.
    package let connection: PTPIPConnection
    private let configuration: PTPIPSession.Configuration
    private var nextTransactionID: UInt32 = 1
    private let scratch: UnsafeMutableRawBufferPointer

    /// The largest piece of a data phase received or handed to a consumer at once.
    private static let sliceLength = 1 << 20

    /// Wraps a command connection whose handshake is done.
    package init(connection: PTPIPConnection, configuration: PTPIPSession.Configuration) {
        self.connection = connection
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
    ///   connection stays usable); transport errors (timeout, disconnected, malformed data) leave it unusable.
    package func run(
        _ operation: PTPOperationCode, parameters: [UInt32], transactionID: UInt32? = nil, dataOut: [UInt8]?,
        dataIn: PTPDataInHandling, cancellation: PTPCancellationFlag?, consumerError: inout (any Error)?
    ) throws(ViewfinderError) -> PTPTransactionResult {
        guard parameters.count <= PTPIPPacket.maximumParameterCount else {
            throw ViewfinderError(.invalidArgument, "\(operation) takes at most 5 parameters, not \(parameters.count)")
        }
        let id = transactionID ?? takeTransactionID()
        let activity = "\(operation) (transaction \(id))"
        try connection.send(
            .operationRequest(
                dataPhase: dataOut == nil ? .noDataOrDataIn : .dataOut, code: operation, transactionID: id,
                parameters: parameters),
            while: "sending \(activity)")
        if let dataOut {
            try send(dataOut, transactionID: id, activity: activity)
        }
        var inbound = DataInPhase(transactionID: id, activity: activity, handling: dataIn, cancellation: cancellation)
        var next = try readAnsweringProbes(while: "waiting for the answer to \(activity)")
        var data: [UInt8] = []
        if case .packet(.startData(let startID, let total)) = next {
            try inbound.check(startID)
            (data, next) = try receive(total: total, phase: &inbound)
        }
        guard case .packet(.operationResponse(let code, let responseID, let responseParameters)) = next else {
            throw ViewfinderError(
                .malformedData, "expected the response to \(activity), but got \(Self.describe(next))")
        }
        try inbound.check(responseID)
        let response = PTPResponse(code: code, transactionID: responseID, parameters: responseParameters)
        if let problem = inbound.problem {
            throw problem
        }
        consumerError = inbound.consumerError
        guard code == .ok || consumerError != nil else {
            throw ViewfinderError(
                .protocolFailure, "the camera answered \(activity) with \(code)", responseCode: code.rawValue)
        }
        return PTPTransactionResult(response: response, data: data)
    }

    /// Runs a transaction without a data-out phase that collects its data-in phase, if any.
    package func run(
        _ operation: PTPOperationCode, parameters: [UInt32] = [], transactionID: UInt32? = nil
    ) throws(ViewfinderError) -> PTPTransactionResult {
        var unused: (any Error)?
        return try run(
            operation, parameters: parameters, transactionID: transactionID, dataOut: nil,
            dataIn: .collect(progress: nil), cancellation: nil, consumerError: &unused)
    }

    private static func describe(_ incoming: PTPIPConnection.Incoming) -> String {
        switch incoming {
        case .packet(let packet): "a \(packet.type) packet"
        case .data(let isLast, _, _): isLast ? "an EndData packet" : "a Data packet"
        }
    }

    /// Reads the next packet, answering probes on the way.
    ///
    /// Probes are no progress: a camera that sends nothing else for longer than the connection's timeout fails with
    /// `ViewfinderError/Code/timeout`, as a silent one does.
    private func readAnsweringProbes(while activity: String) throws(ViewfinderError) -> PTPIPConnection.Incoming {
        let deadline = ContinuousClock.now + connection.timeout
        while true {
            let incoming = try connection.readNext(while: activity)
            guard incoming == .packet(.probeRequest) else { return incoming }
            try Self.checkProgress(before: deadline, timeout: connection.timeout, while: activity)
            try connection.send(.probeResponse, while: "answering a probe")
        }
    }

    /// Fails with `ViewfinderError/Code/timeout` once `deadline`, the end of the wait for progress, has passed.
    private static func checkProgress(
        before deadline: ContinuousClock.Instant, timeout: Duration, while activity: String
    ) throws(ViewfinderError) {
        guard ContinuousClock.now < deadline else {
            throw ViewfinderError(
                .timeout, "no progress within \(timeout) while \(activity); the camera sends only empty packets")
        }
    }

    /// Sends a data-out phase: StartData, then Data packets, the last piece in EndData.
    private func send(_ bytes: [UInt8], transactionID: UInt32, activity: String) throws(ViewfinderError) {
        try connection.send(
            .startData(transactionID: transactionID, totalLength: UInt64(bytes.count)), while: "sending \(activity)")
        try typedThrows {
            try bytes.withUnsafeBytes { raw in
                var offset = 0
                repeat {
                    let count = min(configuration.dataOutChunkSize, raw.count - offset)
                    let piece = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
                    offset += count
                    try connection.sendData(
                        transactionID: transactionID, piece, isLast: offset == raw.count,
                        while: "sending data for \(activity)")
                } while offset < raw.count
            }
        }
    }

    /// The state of a data-in phase.
    struct DataInPhase {
        let transactionID: UInt32
        let activity: String
        let handling: PTPDataInHandling
        let cancellation: PTPCancellationFlag?
        /// A failure to report once the phase has been drained.
        var problem: ViewfinderError?
        /// The first error the consumer threw; later chunks are drained without it.
        var consumerError: (any Error)?

        init(
            transactionID: UInt32, activity: String, handling: PTPDataInHandling, cancellation: PTPCancellationFlag?
        ) {
            self.transactionID = transactionID
            self.activity = activity
            self.handling = handling
            self.cancellation = cancellation
        }

        func check(_ id: UInt32) throws(ViewfinderError) {
            guard id == transactionID else {
                throw ViewfinderError(
                    .malformedData, "the camera answered \(activity) with the ID of transaction \(id)")
            }
        }

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

    /// Receives a data-in phase of `total` bytes (`UInt64.max` when unknown) and reads the packet after it.
    private func receive(
        total announced: UInt64, phase: inout DataInPhase
    ) throws(ViewfinderError) -> ([UInt8], PTPIPConnection.Incoming) {
        let total: Int? = announced == .max ? nil : Int(exactly: announced)
        if announced != .max, total == nil {
            throw ViewfinderError(.malformedData, "\(phase.activity) announced \(announced) bytes of data")
        }
        switch phase.handling {
        case .stream(let consumer, _):
            let next = try receivePackets(total: total, phase: &phase) {
                (offset, count, phase) throws(ViewfinderError) in
                try self.deliver(count, at: offset, total: total, phase: &phase) { try consumer($0) }
            }
            return ([], next)
        case .collect:
            if let total, total > configuration.maximumInMemoryDataLength {
                phase.problem = ViewfinderError(
                    .invalidArgument,
                    "\(phase.activity) returns \(total) bytes, more than the \(configuration.maximumInMemoryDataLength) "
                        + "collected in memory; use a streaming transaction")
            }
            guard let total, phase.problem == nil else {
                return try collectGrowing(total: total, phase: &phase)
            }
            var next = PTPIPConnection.Incoming.packet(.probeResponse)
            var phaseCopy = phase
            let data = try typedThrows {
                try [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                    let base = UnsafeMutableRawBufferPointer(buffer)
                    Self.preferHugePages(base)
                    next = try receivePackets(total: total, phase: &phaseCopy) {
                        (offset, count, phase) throws(ViewfinderError) in
                        try self.read(count, into: base, at: offset, total: total, phase: &phase)
                    }
                    initialized = total
                }
            }
            phase = phaseCopy
            return (phase.problem == nil ? data : [], next)
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

    /// Collects a data-in phase of unknown length, within the in-memory limit.
    private func collectGrowing(
        total: Int?, phase: inout DataInPhase
    ) throws(ViewfinderError) -> ([UInt8], PTPIPConnection.Incoming) {
        var data: [UInt8] = []
        let limit = configuration.maximumInMemoryDataLength
        let next = try receivePackets(total: total, phase: &phase) { (offset, count, phase) throws(ViewfinderError) in
            if phase.problem == nil, offset + count > limit {
                phase.problem = ViewfinderError(
                    .invalidArgument,
                    "\(phase.activity) returns more than the \(limit) bytes collected in memory; use a streaming "
                        + "transaction")
                data = []
            }
            try self.deliver(count, at: offset, total: total, phase: &phase) { data.append(contentsOf: $0) }
        }
        return (data, next)
    }

    /// Reads Data and EndData packets until the phase ends, calling `consume` with each payload's offset and length;
    /// `consume` must read exactly that many payload bytes.
    ///
    /// - Returns: The packet that follows the phase.
    private func receivePackets(
        total: Int?, phase: inout DataInPhase,
        consume: (Int, Int, inout DataInPhase) throws(ViewfinderError) -> Void
    ) throws(ViewfinderError) -> PTPIPConnection.Incoming {
        var received = 0
        var progressDeadline = ContinuousClock.now + connection.timeout
        while true {
            let incoming = try readAnsweringProbes(while: "receiving the data of \(phase.activity)")
            switch incoming {
            case .data(let isLast, let id, let count):
                try phase.check(id)
                if count > 0 {
                    progressDeadline = ContinuousClock.now + connection.timeout
                } else if !isLast {
                    try Self.checkProgress(
                        before: progressDeadline, timeout: connection.timeout,
                        while: "receiving the data of \(phase.activity)")
                }
                if let total, count > total - received {
                    throw ViewfinderError(
                        .malformedData,
                        "the camera sent more than the \(total) bytes it announced for \(phase.activity)")
                }
                try consume(received, count, &phase)
                received += count
                if isLast {
                    try Self.checkComplete(received, total, phase)
                    return try readAnsweringProbes(while: "waiting for the answer to \(phase.activity)")
                }
            case .packet(.operationResponse):
                // Some responders end the phase with the response instead of an EndData packet.
                try Self.checkComplete(received, total, phase)
                return incoming
            case .packet(let packet):
                throw ViewfinderError(
                    .malformedData, "unexpected \(packet.type) packet in the data phase of \(phase.activity)")
            }
        }
    }

    private static func checkComplete(_ received: Int, _ total: Int?, _ phase: DataInPhase) throws(ViewfinderError) {
        if let total, received != total {
            throw ViewfinderError(
                .malformedData, "the data phase of \(phase.activity) ended after \(received) of \(total) bytes")
        }
    }

    /// Reads `count` payload bytes into `base` at `offset`, in slices so progress is reported as they come.
    private func read(
        _ count: Int, into base: UnsafeMutableRawBufferPointer, at offset: Int, total: Int, phase: inout DataInPhase
    ) throws(ViewfinderError) {
        try readSlices(count, of: Self.sliceLength * 4, phase: &phase) { (done, slice, phase) throws(ViewfinderError) in
            let start = offset + done
            try connection.readPayload(
                into: UnsafeMutableRawBufferPointer(rebasing: base[start..<start + slice]),
                while: "receiving the data of \(phase.activity)")
            phase.report(start + slice, of: total)
        }
    }

    /// Reads `count` payload bytes through the scratch buffer and hands each slice to `consumer`; once `consumer`
    /// throws, the rest is drained.
    private func deliver(
        _ count: Int, at offset: Int, total: Int?, phase: inout DataInPhase,
        _ consumer: (UnsafeRawBufferPointer) throws -> Void
    ) throws(ViewfinderError) {
        try readSlices(count, of: scratch.count, phase: &phase) { (done, slice, phase) throws(ViewfinderError) in
            let chunk = UnsafeMutableRawBufferPointer(rebasing: scratch[..<slice])
            try connection.readPayload(into: chunk, while: "receiving the data of \(phase.activity)")
            do {
                try consumer(UnsafeRawBufferPointer(chunk))
            } catch {
                phase.consumerError = error
            }
            phase.report(offset + done + slice, of: total)
        }
    }

    /// Calls `body` with the offset and length of each slice of `count` payload bytes.
    ///
    /// `body` reads the slice. Once the phase must be drained, the rest is read and dropped instead.
    private func readSlices(
        _ count: Int, of sliceLength: Int, phase: inout DataInPhase,
        _ body: (Int, Int, inout DataInPhase) throws(ViewfinderError) -> Void
    ) throws(ViewfinderError) {
        var done = 0
        while done < count {
            if phase.shouldDrain() {
                try connection.skipPayload(count - done, while: "draining \(phase.activity)")
                return
            }
            let slice = min(sliceLength, count - done)
            try body(done, slice, &phase)
            done += slice
        }
    }
}
