import CViewfinderUSB
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// PTP over USB (the Still Image Capture Device class): requests, data and responses as containers on the bulk
/// pipes, events on the interrupt pipe, class requests on the control pipe.
///
/// ``PTPUSBEndpoint`` opens one for a `PTPCamera` or a `PTPSession`. Data-in phases are read straight into the
/// session's buffers in transfers of whole packets; a data-out phase goes in transfers of whole packets too, with the
/// zero-length packet the class asks for after a phase that fills its last packet.
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

    /// `usb` and the bus and address, such as `usb1-4`, cut to 8 bytes.
    public var threadName: String { String("usb\(device.bus)-\(device.address)".prefix(8)) }

    /// True: a program that exits without closing its session leaves it open on the camera.
    public var sessionsOutliveConnections: Bool { true }

    private let handle: USBDeviceHandle
    private let pipes: USBCameraDevice.Pipes
    /// How long a transfer may make no progress; shortened while the session closes.
    private let timeout: Locked<Duration>
    /// Bytes read from the bulk-in pipe that belong to the data phase under way and were not handed out yet.
    private var bounce: [UInt8]
    private var bounceRange = 0..<0
    /// What is left of the data-in phase under way: its bytes not read yet, and whether its length is known.
    private var dataRemaining: Int?
    private var dataUnbounded = false
    private let eventBuffer: EventBuffer

    /// The interrupt pipe's buffer: written by the kernel, then read on the reaping thread only.
    private struct EventBuffer: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
    }

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

    /// Opens `device`'s device file and claims its PTP interface.
    ///
    /// - Throws: `ViewfinderError/Code/permissionDenied` naming the udev rule to add,
    ///   `ViewfinderError/Code/deviceBusy` when another program holds the camera, `ViewfinderError/Code/notFound`
    ///   when it is gone.
    public init(device: USBCameraDevice, configuration: Configuration = Configuration()) throws(ViewfinderError) {
        guard let pipes = device.pipes else {
            throw ViewfinderError(
                .notAvailable, "\(device) has no PTP interface with bulk-in, bulk-out and interrupt pipes")
        }
        self.device = device
        self.pipes = pipes
        self.configuration = configuration
        endpoint = device.description
        timeout = Locked(configuration.timeout)
        let packet = max(Int(pipes.bulkInPacketSize), 64)
        bounce = [UInt8](repeating: 0, count: max(packet, 64 * 1024 / packet * packet))
        eventBuffer = EventBuffer(
            bytes: .allocate(byteCount: max(Int(pipes.interruptPacketSize), 64), alignment: 16))
        handle = try USBDeviceHandle(path: device.path, interface: pipes.interface, udevHint: device.udevRuleHint)
    }

    deinit {
        handle.close()
        eventBuffer.bytes.deallocate()
    }

    private var deadline: ContinuousClock.Instant { .now + timeout.withLock { $0 } }

    // MARK: PTPTransport

    /// Sends an operation request as a command container.
    public func send(_ request: PTPRequest, hasDataOut: Bool) throws(ViewfinderError) {
        var bytes = PTPUSBContainer.encode(
            .command, code: request.code.rawValue, transactionID: request.transactionID, parameters: request.parameters)
        let deadline = deadline
        try typedThrows {
            try bytes.withUnsafeMutableBytes { raw in
                _ = try handle.transfer(
                    UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkOut, raw, zeroPacket: true, until: deadline,
                    while: "sending \(request.code)")
            }
        }
        dataRemaining = nil
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
        try typedThrows {
            try bounce.withUnsafeMutableBytes { raw in
                _ = try handle.transfer(
                    UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkOut,
                    UnsafeMutableRawBufferPointer(rebasing: raw[0..<first]), zeroPacket: lastTransfer,
                    until: deadline, while: "sending data for transaction \(transactionID)")
            }
        }
        var offset = firstPayload
        while offset < bytes.count {
            let count = min(configuration.transferSize / packet * packet, bytes.count - offset)
            let piece = UnsafeMutableRawBufferPointer(
                start: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + offset), count: count)
            offset += count
            _ = try handle.transfer(
                UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkOut, piece, zeroPacket: offset == bytes.count,
                until: deadline, while: "sending data for transaction \(transactionID)")
        }
    }

    /// Reads the next container: a data phase's start, or the response.
    public func receivePhase(of transactionID: UInt32) throws(ViewfinderError) -> PTPInboundPhase {
        // A zero-length packet may end a data phase that filled its last packet: skip it.
        var count = 0
        for _ in 0..<3 {
            count = try readBulk(
                into: 0..<bounce.count, while: "waiting for the answer to transaction \(transactionID)")
            if count > 0 { break }
        }
        return try typedThrows {
            try bounce.withUnsafeBytes { raw -> PTPInboundPhase in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                let header = try PTPUSBContainer(decoding: bytes)
                guard header.transactionID == transactionID else {
                    throw ViewfinderError(
                        .malformedData,
                        "the camera answered transaction \(header.transactionID) while transaction \(transactionID) "
                            + "was under way")
                }
                switch header.kind {
                case .response:
                    return .response(
                        PTPResponse(
                            code: PTPResponseCode(header.code), transactionID: transactionID,
                            parameters: try header.parameters(in: bytes)))
                case .data:
                    let payload = count - PTPUSBContainer.headerLength
                    bounceRange = PTPUSBContainer.headerLength..<count
                    if header.length == PTPUSBContainer.unknownLength {
                        // Longer than 4 GiB: the phase ends with a short packet.
                        dataUnbounded = count == bounce.count
                        dataRemaining = nil
                        return .data(totalLength: nil)
                    }
                    let total = Int(header.length) - PTPUSBContainer.headerLength
                    guard payload <= total else {
                        throw ViewfinderError(
                            .malformedData, "the camera sent \(payload) bytes in a data phase of \(total) bytes")
                    }
                    dataUnbounded = false
                    dataRemaining = total - payload
                    return .data(totalLength: total)
                case .command, .event:
                    throw ViewfinderError(
                        .malformedData, "the camera sent a \(header.kind) container where data or a response belongs")
                }
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
        let count: Int
        if size == 0 {
            let read = try readBulk(into: 0..<bounce.count, while: "receiving data")
            bounceRange = 0..<read
            count = try receiveData(into: buffer)
            if let remaining = dataRemaining { dataRemaining = remaining - read }
            if read < bounce.count, dataRemaining == nil { dataUnbounded = false }
            return count
        }
        count = try handle.transfer(
            UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkIn,
            UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]), until: deadline, while: "receiving data")
        if let remaining = dataRemaining {
            guard count == size || count == remaining else {
                throw ViewfinderError(
                    .malformedData, "the camera ended a data phase with \(remaining - count) of its bytes missing")
            }
            dataRemaining = remaining - count
        } else if count < size {
            dataUnbounded = false
        }
        return count
    }

    /// Starts reading the interrupt pipe, passing each event container to `sink`.
    public func startEvents(_ sink: PTPEventSink) throws(ViewfinderError) {
        let path = device.path
        try handle.repeatTransfer(UInt8(USBDEVFS_URB_TYPE_INTERRUPT), endpoint: pipes.interrupt, eventBuffer.bytes) {
            [eventBuffer] result in
            switch result {
            case .failure(let error):
                sink.fail(error)
                return false
            case .success(let count):
                do throws(ViewfinderError) {
                    let bytes = UnsafeRawBufferPointer(rebasing: eventBuffer.bytes[0..<count])
                    let header = try PTPUSBContainer(decoding: bytes)
                    guard header.kind == .event else {
                        throw ViewfinderError(
                            .malformedData, "the camera on \(path) sent a \(header.kind) container as an event")
                    }
                    sink.receive(
                        PTPEvent(
                            code: PTPEventCode(header.code), transactionID: header.transactionID,
                            parameters: Array(try header.parameters(in: bytes).prefix(3))))
                    return true
                } catch {
                    sink.fail(error)
                    return false
                }
            }
        }
    }

    /// Shortens later waits to at most `limit`.
    public func limitTimeouts(to limit: Duration) {
        timeout.withLock { $0 = min($0, limit) }
    }

    /// Ends every transfer under way and makes later calls fail.
    public func shutdown() {
        handle.shutdown()
    }

    /// Releases the interface and closes the device file.
    public func close(gracefully: Bool) {
        handle.close()
    }

    // MARK: Class requests

    /// The camera's status (the class's Get Device Status request): a response code, such as `ok` or
    /// `deviceBusy`.
    public func deviceStatus() throws(ViewfinderError) -> PTPResponseCode {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = try typedThrows {
            try bytes.withUnsafeMutableBytes { raw in
                try handle.control(
                    requestType: 0xA1, request: 0x67, value: 0, index: UInt16(pipes.interface), data: raw,
                    timeout: timeout.withLock { $0 }, while: "asking the camera's status")
            }
        }
        guard count >= 4 else {
            throw ViewfinderError(.malformedData, "the camera's status has \(count) bytes, fewer than 4")
        }
        return PTPResponseCode(UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
    }

    /// Asks the camera to cancel transaction `transactionID` (the class's Cancel request).
    public func cancel(transactionID: UInt32) throws(ViewfinderError) {
        var bytes: [UInt8] = [0x01, 0x40]
        withUnsafeBytes(of: transactionID.littleEndian) { bytes.append(contentsOf: $0) }
        _ = try typedThrows {
            try bytes.withUnsafeMutableBytes { raw in
                try handle.control(
                    requestType: 0x21, request: 0x64, value: 0, index: UInt16(pipes.interface), data: raw,
                    timeout: timeout.withLock { $0 }, while: "cancelling transaction \(transactionID)")
            }
        }
    }

    /// Resets the camera's PTP function (the class's Device Reset request): it ends the session and clears its
    /// pipes.
    public func reset() throws(ViewfinderError) {
        _ = try handle.control(
            requestType: 0x21, request: 0x66, value: 0, index: UInt16(pipes.interface),
            data: UnsafeMutableRawBufferPointer(start: nil, count: 0), timeout: timeout.withLock { $0 },
            while: "resetting the camera")
    }

    // MARK: Reading

    /// Reads one transfer from the bulk-in pipe into `range` of the bounce buffer.
    private func readBulk(into range: Range<Int>, while activity: @autoclosure () -> String) throws(ViewfinderError)
        -> Int
    {
        let deadline = deadline
        let activity = activity()
        return try typedThrows {
            try bounce.withUnsafeMutableBytes { raw in
                try handle.transfer(
                    UInt8(USBDEVFS_URB_TYPE_BULK), endpoint: pipes.bulkIn,
                    UnsafeMutableRawBufferPointer(rebasing: raw[range]), until: deadline, while: activity)
            }
        }
    }
}
