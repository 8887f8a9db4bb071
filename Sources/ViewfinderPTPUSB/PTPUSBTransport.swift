import CViewfinderUSB
import Synchronization
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// PTP over USB (the Still Image Capture Device class): requests, data and responses as containers on the bulk
/// pipes, events on the interrupt pipe, class requests on the control pipe.
///
/// ``PTPUSBEndpoint`` opens one for a `PTPCamera` or a `PTPSession`. Data-in phases are read straight into the
/// session's buffers in transfers of whole packets; a data-out phase goes in transfers of whole packets too, with the
/// zero-length packet the class asks for after a phase that fills its last packet.
///
/// It tolerates what real cameras do, as libgphoto2 does:
///
/// - At open, it cleans up after a previous program (``Cleanup``): it asks the camera's status, clears the
///   endpoints the camera reports halted, drops stale events and stale bulk data, and when the camera is busy or
///   still sending (a program killed during a download leaves it so) cancels, resets if need be, and drains, so the
///   camera connects again without a replug.
/// - A response or data container of an older transaction is skipped and counted (``staleContainerCount``); a
///   newer one ends the session with `ViewfinderError/Code/malformedData`.
/// - A stall is cleared; where nothing had gone through yet and the camera says it is ready, the transfer is tried
///   once more. Otherwise the transaction fails: with `ViewfinderError/Code/protocolFailure` and the status's code
///   when the camera reports why (the session stays open), else with `ViewfinderError/Code/io` (`EPIPE`).
/// - Events split across interrupt transfers are put together; junk on the interrupt pipe is dropped and counted
///   (``droppedEventTransferCount``).
/// - A data phase whose length says `0xFFFFFFFF` is read until its short packet.
/// - A streamed download the caller gives up stops with the class's Cancel request instead of draining the rest.
///
/// Calls other than ``shutdown()`` come from the session's command thread, one at a time; events come on the
/// device handle's own thread. Hence `@unchecked Sendable`: the mutable state belongs to the command thread.
public final class PTPUSBTransport: PTPTransport, @unchecked Sendable {
    /// The camera, such as `Nikon DSC D750 (usb 1:4)`.
    public let endpoint: String
    /// The camera the transport talks to.
    public let device: USBCameraDevice
    /// The timeouts the transport was opened with.
    public let configuration: Configuration
    /// What the transport found on the camera when it opened, and what it did about it.
    public internal(set) var cleanup = Cleanup()

    /// `usb` and the bus and address, such as `usb1-4`, cut to 8 bytes.
    public var threadName: String { String("usb\(device.bus)-\(device.address)".prefix(8)) }

    /// True: a program that exits without closing its session leaves it open on the camera.
    public var sessionsOutliveConnections: Bool { true }

    /// The transfers from the interrupt pipe dropped as junk since the transport opened: ones that cannot start an
    /// event container, and containers that never came whole.
    public var droppedEventTransferCount: Int { counters.droppedEventTransfers.load(ordering: .relaxed) }

    /// The response and data containers of older transactions skipped since the transport opened: answers the camera
    /// sent late, after their transaction had ended.
    public var staleContainerCount: Int { counters.staleContainers.load(ordering: .relaxed) }

    let io: any USBDeviceIO
    let pipes: USBCameraDevice.Pipes
    /// How long a transfer may make no progress; shortened while the session closes.
    let timeout: Locked<Duration>
    /// Bytes read from the bulk-in pipe that belong to the data phase under way and were not handed out yet.
    var bounce: [UInt8]
    var bounceRange = 0..<0
    /// What is left of the data-in phase under way: its bytes not read yet, and whether its length is known.
    var dataRemaining: Int?
    var dataUnbounded = false
    let eventBuffer: EventBuffer
    private let counters = Counters()

    /// The interrupt pipe's buffer, a packet long: written by the device, then read on its thread only.
    struct EventBuffer: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
    }

    /// The counts the app may read while the device's thread adds to them.
    private final class Counters: Sendable {
        let droppedEventTransfers = Atomic(0)
        let staleContainers = Atomic(0)
    }

    /// The most containers of older transactions skipped while waiting for one answer.
    static let maximumStaleContainers = 16
    /// The most stalls of the interrupt pipe in a row that are cleared before the events fail.
    static let maximumEventStalls = 3

    /// The timeouts of a USB transport.
    public struct Configuration: Sendable {
        /// How long a transfer may make no progress before the call fails with `ViewfinderError/Code/timeout`.
        public var timeout: Duration
        /// The bytes of the largest single transfer: data phases longer than this go in several.
        public var transferSize: Int

        /// Creates a configuration.
        public init(timeout: Duration = .seconds(10), transferSize: Int = 1 << 20) {
            self.timeout = timeout
            self.transferSize = transferSize
        }
    }

    /// Opens `device`'s device file, claims its PTP interface, and cleans up what a previous program left on the
    /// camera (see ``cleanup``).
    ///
    /// - Throws: `ViewfinderError/Code/permissionDenied` naming the udev rule to add,
    ///   `ViewfinderError/Code/deviceBusy` when another program holds the camera or the camera keeps sending after
    ///   Cancel and Device Reset, `ViewfinderError/Code/notFound` when it is gone.
    public convenience init(device: USBCameraDevice, configuration: Configuration = Configuration())
        throws(ViewfinderError)
    {
        guard let pipes = device.pipes else {
            throw ViewfinderError(
                .notAvailable, "\(device) has no PTP interface with bulk-in, bulk-out and interrupt pipes")
        }
        let handle = try USBDeviceHandle(
            path: device.path, interface: pipes.interface, udevHint: device.udevRuleHint)
        try self.init(device: device, pipes: pipes, configuration: configuration, io: handle)
    }

    /// Opens a transport over `io`, the device `device` describes, and cleans up after a previous program.
    init(device: USBCameraDevice, pipes: USBCameraDevice.Pipes, configuration: Configuration, io: any USBDeviceIO)
        throws(ViewfinderError)
    {
        self.device = device
        self.pipes = pipes
        self.configuration = configuration
        self.io = io
        endpoint = device.description
        timeout = Locked(configuration.timeout)
        let packet = max(Int(pipes.bulkInPacketSize), 64)
        bounce = [UInt8](repeating: 0, count: max(packet, 64 * 1024 / packet * packet))
        // A packet at a time: an event that fills its last packet is not held back until the next one comes.
        eventBuffer = EventBuffer(
            bytes: .allocate(byteCount: max(Int(pipes.interruptPacketSize), 8), alignment: 16))
        do {
            try cleanUpAfterPreviousProgram()
        } catch {
            io.close()
            throw error
        }
    }

    deinit {
        io.close()
        eventBuffer.bytes.deallocate()
    }

    var deadline: ContinuousClock.Instant { .now + timeout.withLock { $0 } }

    // MARK: PTPTransport

    /// Sends an operation request as a command container.
    public func send(_ request: PTPRequest, hasDataOut: Bool) throws(ViewfinderError) {
        var bytes = PTPUSBContainer.encode(
            .command, code: request.code.rawValue, transactionID: request.transactionID, parameters: request.parameters)
        let deadline = deadline
        try clearingStalls(on: pipes.bulkOut, retryingOnce: true, while: "sending \(request.code)") {
            () throws(ViewfinderError) in
            try typedThrows {
                try bytes.withUnsafeMutableBytes { raw in
                    _ = try io.transfer(
                        UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkOut, raw, zeroPacket: true,
                        until: deadline, while: "sending \(request.code)")
                }
            }
        }
        dataRemaining = nil
        dataUnbounded = false
        bounceRange = 0..<0
    }

    /// Sends a data-out phase: the header and the first bytes in one transfer of whole packets, the rest straight
    /// from `bytes`.
    public func sendData(_ bytes: UnsafeRawBufferPointer, transactionID: UInt32) throws(ViewfinderError) {
        let total = PTPUSBContainer.headerLength + bytes.count
        let header = PTPUSBContainer(
            length: total > Int(UInt32.max) ? PTPUSBContainer.unknownLength : UInt32(total), kind: .data, code: 0,
            transactionID: transactionID
        ).bytes
        let packet = Int(pipes.bulkOutPacketSize)
        // The first transfer: the header and as many bytes as make it whole packets (or everything).
        let firstPayload = min(bytes.count, max(packet, bounce.count) - header.count)
        let first = header.count + firstPayload
        bounce.replaceSubrange(0..<header.count, with: header)
        if firstPayload > 0 {
            bounce.withUnsafeMutableBytes { raw in
                (raw.baseAddress! + header.count).copyMemory(from: bytes.baseAddress!, byteCount: firstPayload)
            }
        }
        let lastTransfer = first == total
        let deadline = deadline
        let bulk = UInt8(USBDEVFS_URB_TYPE_BULK)
        try clearingStalls(
            on: pipes.bulkOut, retryingOnce: true, while: "sending data for transaction \(transactionID)"
        ) {
            () throws(ViewfinderError) in
            try typedThrows {
                try bounce.withUnsafeMutableBytes { raw in
                    _ = try io.transfer(
                        bulk, endpoint: pipes.bulkOut, UnsafeMutableRawBufferPointer(rebasing: raw[0..<first]),
                        zeroPacket: lastTransfer, until: deadline,
                        while: "sending data for transaction \(transactionID)")
                }
            }
        }
        var offset = firstPayload
        while offset < bytes.count {
            let count = min(configuration.transferSize / packet * packet, bytes.count - offset)
            let piece = UnsafeMutableRawBufferPointer(
                start: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + offset), count: count)
            offset += count
            try clearingStalls(
                on: pipes.bulkOut, retryingOnce: false, while: "sending data for transaction \(transactionID)"
            ) {
                () throws(ViewfinderError) in
                _ = try io.transfer(
                    bulk, endpoint: pipes.bulkOut, piece, zeroPacket: offset == bytes.count, until: deadline,
                    while: "sending data for transaction \(transactionID)")
            }
        }
    }

    /// Reads the next container of transaction `transactionID`: a data phase's start, or the response; containers
    /// of older transactions are skipped.
    public func receivePhase(of transactionID: UInt32) throws(ViewfinderError) -> PTPInboundPhase {
        var skipped = 0
        while true {
            let count = try readContainerStart(of: transactionID)
            let header = try typedThrows {
                try bounce.withUnsafeBytes {
                    try PTPUSBContainer(decoding: UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                }
            }
            if header.kind == .command || header.kind == .event {
                throw ViewfinderError(
                    .malformedData, "the camera sent a \(header.kind) container where data or a response belongs")
            }
            if header.transactionID == transactionID {
                return try phase(starting: header, count: count)
            }
            guard Self.isStale(header.transactionID, during: transactionID) else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera answered transaction \(header.transactionID), which has not started, while "
                        + "transaction \(transactionID) was under way")
            }
            skipped += 1
            guard skipped <= Self.maximumStaleContainers else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera sent more than \(Self.maximumStaleContainers) containers of earlier transactions "
                        + "while transaction \(transactionID) was under way")
            }
            counters.staleContainers.add(1, ordering: .relaxed)
            if header.kind == .data {
                try skipStaleData(header, count: count, during: transactionID)
            }
        }
    }

    /// Reads the next bytes of the data phase: what the first transfer brought, then transfers of whole packets
    /// straight into `buffer`.
    public func receiveData(into buffer: UnsafeMutableRawBufferPointer) throws(ViewfinderError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        if !bounceRange.isEmpty {
            let count = min(buffer.count, bounceRange.count)
            bounce.withUnsafeBytes { raw in
                buffer.baseAddress!.copyMemory(from: raw.baseAddress! + bounceRange.lowerBound, byteCount: count)
            }
            bounceRange = bounceRange.lowerBound + count..<bounceRange.upperBound
            return count
        }
        let packet = Int(pipes.bulkInPacketSize)
        let wanted: Int
        if let remaining = dataRemaining {
            guard remaining > 0 else { return 0 }
            wanted = min(remaining, buffer.count, configuration.transferSize)
        } else {
            guard dataUnbounded else { return 0 }
            wanted = min(buffer.count, configuration.transferSize)
        }
        // A transfer shorter than what is still to come must be whole packets, or the camera's next full packet
        // would overflow it; when the buffer cannot take one, the bytes come through the bounce buffer.
        let last = dataRemaining.map { wanted == $0 } ?? false
        let size = last ? wanted : wanted / packet * packet
        if size == 0 {
            let read = try readData(into: 0..<bounce.count)
            bounceRange = 0..<read
            let count = try receiveData(into: buffer)
            if let remaining = dataRemaining { dataRemaining = remaining - read }
            if read < bounce.count, dataRemaining == nil { dataUnbounded = false }
            return count
        }
        let deadline = deadline
        let count = try clearingStalls(on: pipes.bulkIn, retryingOnce: false, while: "receiving data") {
            () throws(ViewfinderError) in
            try io.transfer(
                UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkIn,
                UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]), zeroPacket: false, until: deadline,
                while: "receiving data")
        }
        if let remaining = dataRemaining {
            guard count == size || count == remaining else {
                throw ViewfinderError(
                    .malformedData, "the camera ended a data phase with \(remaining - count) of its bytes missing")
            }
            dataRemaining = remaining - count
        } else if count < size {
            // A phase of unknown length ends with its first short packet.
            dataUnbounded = false
        }
        return count
    }

    /// Starts reading the interrupt pipe a packet at a time, passing each event to `sink` once its container is
    /// whole; junk is dropped and counted, and a stall is cleared.
    public func startEvents(_ sink: PTPEventSink) throws(ViewfinderError) {
        let state = Locked((assembler: PTPUSBEventAssembler(), stalls: 0))
        let (io, interrupt, counters, path) = (io, pipes.interrupt, counters, io.path)
        try io.repeatTransfer(UInt8(USBDEVFS_URB_TYPE_INTERRUPT), endpoint: interrupt, eventBuffer.bytes) {
            [eventBuffer] result in
            switch result {
            case .failure(let error) where error.isStall:
                let stalls = state.withLock { state in
                    state.stalls += 1
                    return state.stalls
                }
                if stalls <= Self.maximumEventStalls, (try? io.clearHalt(endpoint: interrupt)) != nil {
                    return true
                }
                sink.fail(
                    ViewfinderError(
                        .io, "the camera on \(path) stalled its interrupt pipe \(stalls) times in a row", errno: EPIPE))
                return false
            case .failure(let error):
                sink.fail(error)
                return false
            case .success(let count):
                let output = state.withLock { state in
                    state.stalls = 0
                    return state.assembler.take(
                        UnsafeRawBufferPointer(rebasing: eventBuffer.bytes[0..<count]), at: .now)
                }
                if output.junk > 0 { counters.droppedEventTransfers.add(output.junk, ordering: .relaxed) }
                for event in output.events { sink.receive(event) }
                return true
            }
        }
    }

    /// Stops the data-in phase of transaction `transactionID` with the class's Cancel request, instead of reading
    /// the rest: the camera stops sending, what it had sent already is drained, and the transaction ends without a
    /// response once the camera says it is ready.
    ///
    /// - Returns: `false` when the phase has no bytes left to come, or the camera does not take the request; the
    ///   session then reads the rest, if any, and drops it.
    /// - Throws: `ViewfinderError/Code/timeout` when the camera does not stop or stay ready; it is reset, which ends
    ///   its session.
    public func cancelDataIn(of transactionID: UInt32) throws(ViewfinderError) -> Bool {
        let ended = bounceRange.isEmpty && (dataRemaining.map { $0 == 0 } ?? !dataUnbounded)
        guard !ended else { return false }
        do {
            try cancel(transactionID: transactionID)
        } catch  where error.code == .notAvailable {
            return false
        }
        bounceRange = 0..<0
        dataRemaining = 0
        dataUnbounded = false
        var report = Cleanup()
        guard try settle(into: &report) == .ready else {
            try? reset()
            throw ViewfinderError(
                .timeout,
                "the camera on \(io.path) did not stop transaction \(transactionID) after the Cancel request; it was "
                    + "reset, which ended its session")
        }
        return true
    }

    /// Shortens later waits to at most `limit`.
    public func limitTimeouts(to limit: Duration) {
        timeout.withLock { $0 = min($0, limit) }
    }

    /// Ends every transfer under way and makes later calls fail.
    public func shutdown() {
        io.shutdown()
    }

    /// Releases the interface and closes the device file.
    public func close(gracefully: Bool) {
        io.close()
    }

    // MARK: Reading

    /// Reads one transfer from the bulk-in pipe into `range` of the bounce buffer, waiting until `deadline`.
    func readBulk(
        into range: Range<Int>, until deadline: ContinuousClock.Instant, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int {
        let activity = activity()
        return try typedThrows {
            try bounce.withUnsafeMutableBytes { raw in
                try io.transfer(
                    UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkIn,
                    UnsafeMutableRawBufferPointer(rebasing: raw[range]), zeroPacket: false, until: deadline,
                    while: activity)
            }
        }
    }

    /// Reads one transfer of the data phase under way into `range` of the bounce buffer.
    private func readData(into range: Range<Int>) throws(ViewfinderError) -> Int {
        let deadline = deadline
        return try clearingStalls(on: pipes.bulkIn, retryingOnce: false, while: "receiving data") {
            () throws(ViewfinderError) in
            try readBulk(into: range, until: deadline, while: "receiving data")
        }
    }

    /// Reads the first transfer of a container into the bounce buffer, skipping the zero-length packets that end
    /// data phases which fill their last packet.
    private func readContainerStart(of transactionID: UInt32) throws(ViewfinderError) -> Int {
        var count = 0
        for _ in 0..<3 {
            let deadline = deadline
            count = try clearingStalls(
                on: pipes.bulkIn, retryingOnce: true, while: "waiting for the answer to transaction \(transactionID)"
            ) { () throws(ViewfinderError) in
                try readBulk(
                    into: 0..<bounce.count, until: deadline,
                    while: "waiting for the answer to transaction \(transactionID)")
            }
            if count > 0 { break }
        }
        return count
    }

    /// The phase a container of the transaction under way starts, whose first `count` bytes are in the bounce
    /// buffer.
    private func phase(starting header: PTPUSBContainer, count: Int) throws(ViewfinderError) -> PTPInboundPhase {
        if header.kind == .response {
            let parameters = try typedThrows {
                try bounce.withUnsafeBytes {
                    try header.parameters(in: UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                }
            }
            return .response(
                PTPResponse(
                    code: PTPResponseCode(header.code), transactionID: header.transactionID, parameters: parameters))
        }
        let payload = count - PTPUSBContainer.headerLength
        bounceRange = PTPUSBContainer.headerLength..<count
        if header.length == PTPUSBContainer.unknownLength {
            // Longer than 4 GiB, or a camera that does not say: the phase ends with a short packet.
            dataUnbounded = count == bounce.count
            dataRemaining = nil
            return .data(totalLength: nil)
        }
        let total = Int(header.length) - PTPUSBContainer.headerLength
        guard payload <= total else {
            bounceRange = 0..<0
            throw ViewfinderError(
                .malformedData, "the camera sent \(payload) bytes in a data phase of \(total) bytes")
        }
        dataUnbounded = false
        dataRemaining = total - payload
        return .data(totalLength: total)
    }

    /// Reads and drops the rest of an earlier transaction's data phase, whose first `count` bytes came; a transfer
    /// shorter than asked for is the phase's short packet, its end.
    private func skipStaleData(_ header: PTPUSBContainer, count: Int, during transactionID: UInt32)
        throws(ViewfinderError)
    {
        func read(_ size: Int) throws(ViewfinderError) -> Int {
            let deadline = deadline
            return try clearingStalls(on: pipes.bulkIn, retryingOnce: false, while: "skipping a late data phase") {
                () throws(ViewfinderError) in
                try readBulk(
                    into: 0..<size, until: deadline,
                    while: "skipping the data of transaction \(header.transactionID) during \(transactionID)")
            }
        }
        guard header.length != PTPUSBContainer.unknownLength else {
            var last = count
            while last == bounce.count { last = try read(bounce.count) }
            return
        }
        var remaining = Int(header.length) - count
        while remaining > 0 {
            let size = min(remaining, bounce.count)
            let received = try read(size)
            remaining -= received
            if received < size { return }
        }
    }

    /// Whether `id` belongs to a transaction before `current`: transaction IDs count up and wrap, and a session's
    /// first transaction, 0, comes after every transaction of the session before.
    static func isStale(_ id: UInt32, during current: UInt32) -> Bool {
        current == 0 ? id != 0 : Int32(bitPattern: id &- current) < 0
    }
}
