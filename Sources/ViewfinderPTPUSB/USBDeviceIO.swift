import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// The operations on a USB device that ``PTPUSBTransport`` uses: transfers on its pipes, control requests, and
/// clearing a halted endpoint.
///
/// ``USBDeviceHandle`` does them with usbdevfs URBs; tests give the transport a scripted device instead.
///
/// A transfer the device answers with a stall (a halted endpoint) throws ``ViewfinderError/stall(on:path:while:)``:
/// the endpoint stays halted until ``clearHalt(endpoint:)``, and the transport decides what the stall means.
protocol USBDeviceIO: Sendable {
    /// The device file's path, for messages.
    var path: String { get }

    /// Runs one bulk or interrupt transfer on `endpoint` (bit 7 set for IN) and waits for it until `deadline`.
    ///
    /// - Parameters:
    ///   - type: `USBDEVFS_URB_TYPE_BULK` or `USBDEVFS_URB_TYPE_INTERRUPT`.
    ///   - zeroPacket: For OUT transfers, whether to end with a zero-length packet when the length is a whole number
    ///     of packets.
    /// - Returns: The bytes transferred: an IN transfer ends at the device's first short packet or when `buffer` is
    ///   full.
    /// - Throws: `ViewfinderError/Code/timeout` at the deadline, `ViewfinderError/Code/disconnected`, a stall, and
    ///   `ViewfinderError/Code/malformedData` when the device sends more than `buffer` holds.
    func transfer(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer, zeroPacket: Bool,
        until deadline: ContinuousClock.Instant, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int

    /// Submits a transfer that runs `handler` on a thread of the device's own each time it completes, and submits it
    /// again while `handler` returns `true`; `buffer` must stay valid until then or until the device is closed.
    func repeatTransfer(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer,
        handler: @escaping @Sendable (_ result: Result<Int, ViewfinderError>) -> Bool
    ) throws(ViewfinderError)

    /// Sends a control request and waits for it at most `timeout`.
    ///
    /// - Returns: The bytes of the data stage transferred.
    /// - Throws: `ViewfinderError/Code/notAvailable` when the device stalls the request, which it does for a
    ///   request it does not take.
    func control(
        requestType: UInt8, request: UInt8, value: UInt16, index: UInt16, data: UnsafeMutableRawBufferPointer,
        timeout: Duration, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int

    /// Clears a halted endpoint (CLEAR_FEATURE(ENDPOINT_HALT)), which also resets its data toggle.
    func clearHalt(endpoint: UInt8) throws(ViewfinderError)

    /// Ends every transfer under way with `ViewfinderError/Code/disconnected` and makes later ones fail; safe from
    /// any thread, more than once.
    func shutdown()

    /// Shuts down and releases the device for the next program; no call may follow.
    func close()
}

extension ViewfinderError {
    /// The error for a transfer the device stalled: `ViewfinderError/Code/io` with `EPIPE`, which
    /// ``isStall`` recognizes.
    static func stall(on endpoint: UInt8, path: String, while activity: String) -> ViewfinderError {
        ViewfinderError(
            .io, "the camera on \(path) stalled endpoint \(USBEndpointName(endpoint)) while \(activity)", errno: EPIPE)
    }

    /// Whether the device stalled the transfer: its endpoint is halted until cleared.
    var isStall: Bool { code == .io && errno == EPIPE }
}

/// An endpoint's address as messages write it, such as `0x81`.
struct USBEndpointName: CustomStringConvertible {
    let address: UInt8

    init(_ address: UInt8) {
        self.address = address
    }

    var description: String {
        let digits = String(address, radix: 16)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
