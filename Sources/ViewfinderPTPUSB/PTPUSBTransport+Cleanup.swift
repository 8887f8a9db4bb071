import CViewfinderUSB
import ViewfinderCore
import ViewfinderPTP

#if canImport(Glibc)
import Glibc
#endif

extension PTPUSBTransport {
    /// What the transport found on the camera when it opened, and what it did to bring the camera back to idle: a
    /// program that ends in the middle of a transaction (killed during a download, say) leaves the camera busy,
    /// with stale data in its pipes.
    public struct Cleanup: Hashable, Sendable {
        /// The camera's status when the transport opened; `nil` when it did not answer Get Device Status.
        public var status: PTPResponseCode?
        /// The endpoints that were halted and were cleared.
        public var clearedEndpoints: [UInt8] = []
        /// The stale bytes read from the bulk-in pipe and dropped.
        public var drainedBytes = 0
        /// The stale transfers read from the interrupt pipe and dropped.
        public var drainedEventTransfers = 0
        /// Whether the camera was busy or kept sending, and was sent the class's Cancel request.
        public var cancelled = false
        /// Whether the camera stayed busy after the Cancel request and was reset with the class's Device Reset
        /// request, which ended the session it had open.
        public var reset = false

        /// Creates a record of nothing found.
        public init() {}

        /// Whether the camera was found as a previous program left it: busy, halted, or with stale data.
        public var foundLeftovers: Bool {
            !clearedEndpoints.isEmpty || drainedBytes > 0 || drainedEventTransfers > 0 || cancelled || reset
        }
    }

    /// The ID the Cancel request names when the transaction under way is a previous program's: unknown, and one no
    /// transaction has, so a camera that checks the ID ignores it (and is reset).
    static let unknownTransactionID: UInt32 = 0xFFFF_FFFF
    /// How long a pipe must stay silent to count as drained.
    static let quietPeriod = Duration.milliseconds(50)
    /// The most stale bytes read in one go before a camera that keeps sending is cancelled (or reset): more than a
    /// camera holds in its buffers once it stops.
    static let maximumDrainBytes = 16 << 20
    /// The most stale transfers read from the interrupt pipe.
    static let maximumEventDrains = 64
    /// The most rounds of draining and asking the status while the camera settles.
    static let maximumSettleRounds = 100
    /// How long a status request, and a camera settling, may take at most.
    static let settleTimeout = Duration.seconds(5)

    /// How settling ended.
    enum Settling: Equatable {
        /// The pipes are quiet and the camera says it is ready, or does not say.
        case ready
        /// The pipes are quiet, but the camera still says it is busy.
        case busy
        /// The camera kept sending.
        case sending
    }

    /// Brings the camera back to idle after a previous program: asks its status, clears the endpoints it reports
    /// halted and drops stale events; then, when it is busy, cancels the transaction under way, else drops stale
    /// bulk data and cancels only when it keeps sending; a camera that stays busy is reset, and drained again.
    func cleanUpAfterPreviousProgram() throws(ViewfinderError) {
        var report = Cleanup()
        defer { cleanup = report }
        let status = try? deviceStatus(timeout: statusTimeout)
        report.status = status?.code
        try clearHalts(named: status, into: &report)
        try drainEvents(into: &report)
        if status?.isBusy != true, try drainBulkIn(into: &report) { return }
        report.cancelled = (try? cancel(transactionID: Self.unknownTransactionID)) != nil
        guard try settle(into: &report) != .ready else { return }
        do {
            try reset()
            report.reset = true
        } catch  where error.code == .notAvailable {
            // A camera without the request: what settles next decides.
        }
        guard try settle(into: &report) != .sending else {
            throw ViewfinderError(
                .deviceBusy,
                "the camera on \(io.path) keeps sending the data of an earlier transaction after the Cancel and "
                    + "Device Reset requests: turn it off and on again")
        }
    }

    /// Drains the bulk-in pipe and asks the camera's status until it is quiet and ready, for at most
    /// ``maximumSettleRounds`` rounds and ``settleTimeout``; a camera that keeps sending ends it at once.
    func settle(into report: inout Cleanup) throws(ViewfinderError) -> Settling {
        let end = ContinuousClock.now + Self.settleTimeout
        var rounds = 0
        while rounds < Self.maximumSettleRounds, ContinuousClock.now < end {
            rounds += 1
            guard try drainBulkIn(into: &report, until: end) else { return .sending }
            let status = try? deviceStatus(timeout: statusTimeout)
            try clearHalts(named: status, into: &report)
            guard status?.isBusy == true else { return .ready }
        }
        return .busy
    }

    /// Reads and drops what the bulk-in pipe holds until it stays silent for ``quietPeriod``.
    ///
    /// - Returns: Whether it went quiet, rather than sending ``maximumDrainBytes`` or until `end`.
    func drainBulkIn(into report: inout Cleanup, until end: ContinuousClock.Instant? = nil) throws(ViewfinderError)
        -> Bool
    {
        let end = end ?? ContinuousClock.now + Self.settleTimeout
        var drained = 0
        var stalls = 0
        while drained < Self.maximumDrainBytes, ContinuousClock.now < end {
            do {
                let count = try readBulk(
                    into: 0..<bounce.count, until: min(end, .now + Self.quietPeriod),
                    while: "draining stale data from the camera")
                drained += count
                report.drainedBytes += count
            } catch  where error.code == .timeout {
                return true
            } catch  where error.isStall {
                // Halted: there is nothing to read until it is cleared.
                stalls += 1
                try clearHalt(pipes.bulkIn, into: &report)
                if stalls > 1 { return true }
            }
        }
        return false
    }

    /// Reads and drops the events waiting on the interrupt pipe, before the session's own.
    private func drainEvents(into report: inout Cleanup) throws(ViewfinderError) {
        var stalls = 0
        for _ in 0..<Self.maximumEventDrains {
            do {
                _ = try io.transfer(
                    UInt8(USBDEVFS_URB_TYPE_INTERRUPT), endpoint: pipes.interrupt, eventBuffer.bytes,
                    zeroPacket: false, until: .now + Self.quietPeriod, while: "draining stale events from the camera")
                report.drainedEventTransfers += 1
            } catch  where error.code == .timeout {
                return
            } catch  where error.isStall {
                stalls += 1
                try clearHalt(pipes.interrupt, into: &report)
                if stalls > 1 { return }
            }
        }
    }

    /// Clears the halted endpoints `status` names that are this interface's.
    private func clearHalts(named status: DeviceStatus?, into report: inout Cleanup) throws(ViewfinderError) {
        let ours = [pipes.bulkIn, pipes.bulkOut, pipes.interrupt]
        for named in status?.haltedEndpoints ?? [] {
            // Cameras name an endpoint by its address, or by its number alone.
            let matches = ours.contains(named) ? [named] : ours.filter { $0 & 0x0F == named & 0x0F }
            for endpoint in matches { try clearHalt(endpoint, into: &report) }
        }
    }

    private func clearHalt(_ endpoint: UInt8, into report: inout Cleanup) throws(ViewfinderError) {
        try io.clearHalt(endpoint: endpoint)
        if !report.clearedEndpoints.contains(endpoint) { report.clearedEndpoints.append(endpoint) }
    }

    /// How long a status request may take: cameras that do not answer it should not hold anything up for long.
    private var statusTimeout: Duration { min(timeout.withLock { $0 }, Self.settleTimeout) }

    // MARK: Stalls

    /// Runs a transfer, clearing the halt when the camera stalls it, which ends the transaction unless `retryingOnce`
    /// (for a transfer that nothing of had gone through yet) and the camera says it is ready: then, as libgphoto2
    /// does, the transfer runs once more.
    ///
    /// - Throws: What ``stopped(on:while:)`` makes of the stall, or `ViewfinderError/Code/io` (`EPIPE`) when the
    ///   camera does not say why it stopped the phase, or the transfer stalls again.
    func clearingStalls<Result>(
        on endpoint: UInt8, retryingOnce: Bool, while activity: @autoclosure () -> String,
        _ body: () throws(ViewfinderError) -> Result
    ) throws(ViewfinderError) -> Result {
        do {
            return try body()
        } catch  where error.isStall {
            bounceRange = 0..<0
            dataRemaining = 0
            dataUnbounded = false
            if let failure = try stopped(on: endpoint, while: activity()) { throw failure }
            guard retryingOnce else {
                throw ViewfinderError(
                    .io,
                    "the camera on \(io.path) stalled endpoint \(USBEndpointName(endpoint)) in the middle of a "
                        + "phase while \(activity()); the halt was cleared", errno: EPIPE)
            }
        }
        do {
            return try body()
        } catch  where error.isStall {
            try io.clearHalt(endpoint: endpoint)
            throw ViewfinderError(
                .io,
                "the camera on \(io.path) stalled endpoint \(USBEndpointName(endpoint)) twice while \(activity()); "
                    + "the halt was cleared", errno: EPIPE)
        }
    }

    /// Clears the halt of `endpoint`, and the others the camera reports, and asks the camera why it stalled.
    ///
    /// - Returns: `nil` when the camera says it is ready or busy, or does not say; otherwise the error that ends
    ///   the transaction, `ViewfinderError/Code/protocolFailure` with the status's code: the camera ended the
    ///   transaction itself, so the transport stays in step.
    private func stopped(on endpoint: UInt8, while activity: String) throws(ViewfinderError) -> ViewfinderError? {
        try io.clearHalt(endpoint: endpoint)
        var report = Cleanup()
        let status = try? deviceStatus(timeout: statusTimeout)
        try clearHalts(named: status, into: &report)
        guard let status, status.code != .ok, status.code != .deviceBusy else { return nil }
        return ViewfinderError(
            .protocolFailure,
            "the camera on \(io.path) stopped the transaction while \(activity): it stalled endpoint "
                + "\(USBEndpointName(endpoint)) and gives its status as \(status.code); the halt was cleared",
            responseCode: status.code.rawValue)
    }
}
