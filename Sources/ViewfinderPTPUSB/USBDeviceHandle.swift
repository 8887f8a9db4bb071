import CViewfinderUSB
import Dispatch
import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// An open USB device (a usbdevfs file, `/dev/bus/usb/BBB/DDD`) with one claimed interface, whose transfers run as
/// asynchronous URBs that a thread of the handle's own reaps.
///
/// Every transfer has a deadline: a transfer still running at its deadline is discarded, and the caller gets
/// `ViewfinderError/Code/timeout`. An unplug completes every transfer at once with
/// `ViewfinderError/Code/disconnected`; ``shutdown()`` does the same from any thread. The reaping thread also runs
/// the handlers of repeating transfers (an interrupt pipe's events), outside the handle's lock.
final class USBDeviceHandle: USBDeviceIO {
    /// The device file's path, for messages.
    let path: String
    /// The device file, open until ``close()``; closing it releases the interface.
    private let file: Locked<FileDescriptor?>
    /// The device file's number, for the calls made while it is open.
    private let number: CInt
    private let state = Locked(State())
    /// The reaping thread; its wake-up ends the reaping.
    private let reaper: Locked<WakeableThread?> = Locked(nil)

    /// How a transfer ended, as the reaping thread saw it.
    private enum Outcome: Sendable {
        case completed(status: Int32, length: Int)
        case failed(ViewfinderError)
    }

    /// What the reaping thread does with a completed URB.
    private enum Completion: Sendable {
        /// A caller waits: the outcome goes into its slot, and its semaphore is signalled.
        case waiter(Locked<Outcome?>, DispatchSemaphore)
        /// A repeating transfer: the handler runs with the outcome and says whether to submit it again.
        case repeating(@Sendable (Outcome) -> Bool)
    }

    private struct State {
        /// Transfers submitted and not reaped, by their URB's address.
        var pending: [UInt: (urb: URB, completion: Completion)] = [:]
        /// Why the handle no longer transfers: unplugged or shut down.
        var ended: ViewfinderError?
    }

    /// A URB and its memory; the memory stays put while the kernel holds the URB.
    private struct URB: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<usbdevfs_urb>
        var address: UInt { UInt(bitPattern: pointer) }
    }

    /// Opens the device file and claims `interface`.
    ///
    /// - Throws: `ViewfinderError/Code/permissionDenied` naming the udev rule to add, `ViewfinderError/Code/notFound`
    ///   when the device is gone, `ViewfinderError/Code/deviceBusy` when another program holds the interface.
    init(path: String, interface: Int, udevHint: String) throws(ViewfinderError) {
        self.path = path
        do {
            let opened = try FileDescriptor.open(path, O_RDWR)
            number = opened.rawValue
            file = Locked(opened)
        } catch {
            switch error {
            case .permissionDenied:
                throw ViewfinderError(
                    .permissionDenied, "cannot open \(path): \(error); \(udevHint)", errno: error.rawValue)
            case .noSuchFile, .noDevice:
                throw ViewfinderError(
                    .notFound, "\(path) is gone: the camera was unplugged or turned off", errno: error.rawValue)
            default:
                throw ViewfinderError(error, while: "opening \(path)")
            }
        }
        var claimed = UInt32(interface)
        if ioctl(number, cusb_USBDEVFS_CLAIMINTERFACE, &claimed) != 0 {
            let error = Errno.current
            throw error == .busy
                ? ViewfinderError(
                    .deviceBusy,
                    "another program holds the camera's interface on \(path) (gphoto2, a file manager's MTP or "
                        + "PTP mount such as gvfs): close it and try again", errno: error.rawValue)
                : ViewfinderError(error, while: "claiming interface \(interface) of \(path)")
        }
        let thread: WakeableThread
        do {
            thread = try WakeableThread(name: "usb-reap") { [self] stop in reap(until: stop) }
        } catch {
            throw ViewfinderError(.notAvailable, "cannot start a thread for \(path): \(error)")
        }
        reaper.withLock { $0 = thread }
    }

    /// Runs one bulk or interrupt transfer on `endpoint` (bit 7 set for IN) and waits for it until `deadline`.
    ///
    /// - Parameters:
    ///   - zeroPacket: For OUT transfers, whether to end with a zero-length packet when the length is a whole number
    ///     of packets.
    /// - Returns: The bytes transferred.
    /// - Throws: `ViewfinderError/Code/timeout`, `ViewfinderError/Code/disconnected`, a stall
    ///   (``ViewfinderError/isStall``), and `ViewfinderError/Code/malformedData` when the device sends more than
    ///   `buffer` holds.
    func transfer(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer, zeroPacket: Bool = false,
        until deadline: ContinuousClock.Instant, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int {
        let slot = Locked<Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let flags = UInt32(zeroPacket ? USBDEVFS_URB_ZERO_PACKET : 0)
        let urb = try submit(
            type, endpoint: endpoint, buffer, flags: flags, completion: .waiter(slot, done), while: activity())
        if done.wait(timeout: DispatchTime(deadline)) == .timedOut {
            // Discarded, the URB still completes (status -ENOENT) and is reaped; wait for that so its memory is free.
            _ = ioctl(number, cusb_USBDEVFS_DISCARDURB, urb.pointer)
            done.wait()
            if case .completed(0, let length)? = slot.withLock({ $0 }), length == buffer.count {
                return length
            }
            throw ViewfinderError(
                .timeout, "the camera on \(path) made no progress within the timeout while \(activity())")
        }
        switch slot.withLock({ $0 })! {
        case .failed(let error):
            throw error
        case .completed(let status, let length):
            try check(status, endpoint: endpoint, while: activity())
            return length
        }
    }

    /// Submits a transfer that runs `handler` on the reaping thread each time it completes, and again while
    /// `handler` returns `true` (after a stall too, once `handler` has cleared it); `buffer` must stay valid until
    /// then or until the handle ends.
    func repeatTransfer(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer,
        handler: @escaping @Sendable (_ result: Result<Int, ViewfinderError>) -> Bool
    ) throws(ViewfinderError) {
        _ = try submit(
            type, endpoint: endpoint, buffer, flags: 0,
            completion: .repeating { [unowned self] outcome in
                switch outcome {
                case .failed(let error): return handler(.failure(error))
                case .completed(let status, let length):
                    do throws(ViewfinderError) {
                        try check(status, endpoint: endpoint, while: "reading the camera's events")
                        return handler(.success(length))
                    } catch {
                        return handler(.failure(error))
                    }
                }
            }, while: "starting the event pipe")
    }

    /// Sends a control request and waits for it.
    ///
    /// - Returns: The bytes of the data stage transferred.
    /// - Throws: `ViewfinderError/Code/notAvailable` when the device stalls the request, which it does for a
    ///   request it does not take.
    func control(
        requestType: UInt8, request: UInt8, value: UInt16, index: UInt16, data: UnsafeMutableRawBufferPointer,
        timeout: Duration, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> Int {
        var transfer = usbdevfs_ctrltransfer(
            bRequestType: requestType, bRequest: request, wValue: value, wIndex: index, wLength: UInt16(data.count),
            timeout: UInt32(max(1, timeout.inSeconds * 1000)), data: data.baseAddress)
        let count = ioctl(number, cusb_USBDEVFS_CONTROL, &transfer)
        guard count >= 0 else {
            let error = Errno.current
            // A stalled control request is one the device does not take, not a broken pipe.
            guard error.rawValue != EPIPE else {
                throw ViewfinderError(
                    .notAvailable, "the camera on \(path) refused the request while \(activity())", errno: EPIPE)
            }
            throw systemError(error, while: activity())
        }
        return Int(count)
    }

    /// Clears a stalled endpoint.
    func clearHalt(endpoint: UInt8) throws(ViewfinderError) {
        var address = UInt32(endpoint)
        guard ioctl(number, cusb_USBDEVFS_CLEAR_HALT, &address) == 0 else {
            throw systemError(Errno.current, while: "clearing the halt of endpoint \(USBEndpointName(endpoint))")
        }
    }

    /// Ends every transfer with `disconnected` and stops the reaping thread; safe from any thread, more than once.
    func shutdown() {
        end(with: ViewfinderError(.disconnected, "the connection to the camera on \(path) was closed"))
        reaper.withLock { $0 }?.wake()
    }

    /// Shuts down, waits for the reaping thread, and closes the device file, which releases the interface for the
    /// next program; no call may follow.
    func close() {
        shutdown()
        // Joined outside the lock: the thread is taken out first.
        let thread = reaper.withLock { thread in
            defer { thread = nil }
            return thread
        }
        thread?.stop()
        file.withLock { $0 = nil }
    }

    // MARK: Submitting and reaping

    private func submit(
        _ type: UInt8, endpoint: UInt8, _ buffer: UnsafeMutableRawBufferPointer, flags: UInt32,
        completion: Completion, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> URB {
        let urb = URB(pointer: .allocate(capacity: 1))
        cusb_prepare_urb(urb.pointer, type, endpoint, buffer.baseAddress, Int32(buffer.count), flags)
        // Registered before submitting, as the reaping thread may see it complete before ioctl returns.
        let ended = state.withLock { state -> ViewfinderError? in
            if let ended = state.ended { return ended }
            state.pending[urb.address] = (urb, completion)
            return nil
        }
        if let ended {
            urb.pointer.deallocate()
            throw ended
        }
        if ioctl(number, cusb_USBDEVFS_SUBMITURB, urb.pointer) != 0 {
            let error = Errno.current
            state.withLock { _ = $0.pending.removeValue(forKey: urb.address) }
            urb.pointer.deallocate()
            throw systemError(error, while: activity())
        }
        return urb
    }

    /// Reaps completed URBs until the handle ends, or until `stop` is signalled: the body of the reaping thread.
    private func reap(until stop: Wakeup) {
        while true {
            let events: [Int16]
            do {
                events = try Poll.wait(
                    [.init(number, for: Poll.writable), .init(stop.descriptor, for: Poll.readable)],
                    until: nil)
            } catch {
                return end(with: ViewfinderError(error, while: "waiting for transfers on \(path)"))
            }
            reapCompleted()
            if events[1] != 0 { return abandonPending() }
            if events[0] & Poll.failed != 0 {
                end(with: ViewfinderError(.disconnected, "the camera on \(path) was unplugged"))
                reapCompleted()
                return abandonPending()
            }
        }
    }

    /// Reaps every URB the kernel has completed and runs its completion.
    private func reapCompleted() {
        while true {
            var reaped: UnsafeMutableRawPointer?
            guard ioctl(number, cusb_USBDEVFS_REAPURBNDELAY, &reaped) == 0, let reaped else { return }
            let address = UInt(bitPattern: reaped)
            guard let (urb, completion) = state.withLock({ $0.pending.removeValue(forKey: address) }) else { continue }
            let outcome = Outcome.completed(
                status: urb.pointer.pointee.status, length: Int(urb.pointer.pointee.actual_length))
            finish(urb, completion, outcome)
        }
    }

    private func finish(_ urb: URB, _ completion: Completion, _ outcome: Outcome) {
        switch completion {
        case .waiter(let slot, let done):
            urb.pointer.deallocate()
            slot.withLock { $0 = outcome }
            done.signal()
        case .repeating(let handler):
            let again = handler(outcome)
            guard again, case .completed = outcome else {
                urb.pointer.deallocate()
                return
            }
            let resubmitted = state.withLock { state -> Bool in
                guard state.ended == nil else { return false }
                state.pending[urb.address] = (urb, completion)
                return true
            }
            guard resubmitted else {
                urb.pointer.deallocate()
                return
            }
            if ioctl(number, cusb_USBDEVFS_SUBMITURB, urb.pointer) != 0 {
                let error = systemError(Errno.current, while: "resubmitting a transfer")
                state.withLock { _ = $0.pending.removeValue(forKey: urb.address) }
                urb.pointer.deallocate()
                _ = handler(.failed(error))
            }
        }
    }

    /// Marks the handle ended, once: later submissions fail with `error`.
    private func end(with error: ViewfinderError) {
        state.withLock { state in
            if state.ended == nil { state.ended = error }
        }
    }

    /// Discards what is still pending, reaps it, and fails every waiter with the reason the handle ended.
    private func abandonPending() {
        let pending = state.withLock { $0.pending }
        for (_, entry) in pending { _ = ioctl(number, cusb_USBDEVFS_DISCARDURB, entry.urb.pointer) }
        // Discarded URBs complete promptly; the reaping is bounded so that a device that never gives them back
        // cannot hold the close.
        let deadline = ContinuousClock.now + .seconds(1)
        while !state.withLock({ $0.pending.isEmpty }), ContinuousClock.now < deadline {
            _ = try? Poll.wait(number, for: Poll.writable, until: deadline)
            reapCompleted()
        }
        let reason = state.withLock { $0.ended } ?? ViewfinderError(.disconnected, "\(path) was closed")
        let left = state.withLock { state in
            defer { state.pending = [:] }
            return state.pending
        }
        for (_, entry) in left {
            // The kernel kept these: their memory is leaked rather than freed under it.
            if case .waiter(let slot, let done) = entry.completion {
                slot.withLock { $0 = .failed(reason) }
                done.signal()
            }
        }
    }

    /// The error for a URB's status.
    private func check(_ status: Int32, endpoint: UInt8, while activity: @autoclosure () -> String)
        throws(ViewfinderError)
    {
        switch -status {
        case 0: return
        case EPIPE:
            throw ViewfinderError.stall(on: endpoint, path: path, while: activity())
        case EOVERFLOW:
            throw ViewfinderError(.malformedData, "the camera on \(path) sent more than asked for while \(activity())")
        case ENODEV, ESHUTDOWN, EPROTO, EILSEQ, ETIME:
            throw ViewfinderError(.disconnected, "the camera on \(path) went away while \(activity())")
        case ENOENT, ECONNRESET:
            throw state.withLock { $0.ended }
                ?? ViewfinderError(.disconnected, "the transfer was cancelled while \(activity())")
        default:
            throw ViewfinderError(Errno(rawValue: -status), while: "\(activity()) on \(path)")
        }
    }

    /// The error for a failed ioctl: a device that went away is `disconnected`.
    private func systemError(_ error: Errno, while activity: String) -> ViewfinderError {
        if error == .noDevice || error.rawValue == ESHUTDOWN {
            return ViewfinderError(.disconnected, "the camera on \(path) went away while \(activity)")
        }
        if error.rawValue == ETIMEDOUT {
            return ViewfinderError(.timeout, "the camera on \(path) did not answer in time while \(activity)")
        }
        return state.withLock { $0.ended } ?? ViewfinderError(error, while: "\(activity) on \(path)")
    }
}
