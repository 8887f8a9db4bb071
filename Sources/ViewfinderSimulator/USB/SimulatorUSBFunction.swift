import Dispatch
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The simulated camera as a USB device: a FunctionFS function that answers PTP's containers on its bulk pipes,
/// sends events on its interrupt pipe and answers the still-image class's requests on the control pipe.
///
/// One thread reads `ep0` (the gadget being enabled, disabled or unplugged, and class requests); one serves the bulk
/// pipes while the host has the function enabled; the event pump writes events to the interrupt pipe. A host that
/// goes away (the gadget disabled or unbound) ends the camera's session, as unplugging a camera does.
final class SimulatorUSBFunction: Sendable {
    private let camera: any SimulatorResponder
    private let gadget: USBGadget
    private let control: FileDescriptor
    private let bulkIn: FileDescriptor
    private let bulkOut: FileDescriptor
    private let interrupt: FileDescriptor
    private let wakeup: FileDescriptor.Pipe
    private let pump: SimulatorEventPump
    private let state = Locked(State())
    private let enabled = DispatchSemaphore(value: 0)
    private let threads = DispatchGroup()
    private let log: @Sendable (String) -> Void

    private struct State {
        var isEnabled = false
        var isStopping = false
        /// The transaction whose data phase is being sent, which makes the camera busy.
        var sending: UInt32?
        /// Whether the host cancelled that phase (the class's Cancel or Device Reset request).
        var isCancelled = false
    }

    /// The largest data-out phase the simulator accepts, as over PTP/IP.
    private static let maximumDataOut = 1 << 20
    /// Operations whose request a data-out phase follows, on the simulated camera.
    static let dataOutOperations: Set<UInt16> = [
        PTPOperationCode.setDevicePropValue.rawValue, 0x100C, 0x100D, 0x9110,
    ]
    /// The bytes of one write to the bulk-in pipe: whole high-speed packets.
    private static let writeSize = 1 << 20

    /// Writes the function's descriptors and opens its endpoints; ``start(controller:)`` plugs it in.
    ///
    /// - Throws: `ViewfinderError` when FunctionFS refuses the descriptors or an endpoint cannot be opened.
    init(camera: any SimulatorResponder, gadget: USBGadget, log: @escaping @Sendable (String) -> Void) throws {
        self.camera = camera
        self.gadget = gadget
        self.log = log
        // The data endpoints are non-blocking: a transfer while the host has the function disabled (unplugged)
        // fails at once rather than waiting to go out, stale, to the next host. A transfer under way still waits
        // for the host.
        func open(_ name: String) throws(ViewfinderError) -> FileDescriptor {
            do {
                return try FileDescriptor.open(
                    "\(gadget.endpoints)/\(name)", name == "ep0" ? O_RDWR : O_RDWR | O_NONBLOCK)
            } catch {
                throw ViewfinderError(error, while: "opening \(gadget.endpoints)/\(name)")
            }
        }
        let control = try open("ep0")
        for blob in [FunctionFSDescriptors.descriptors, FunctionFSDescriptors.strings] {
            let written = blob.withUnsafeBytes { try? control.write($0) }
            guard written == blob.count else {
                throw ViewfinderError(.io, "FunctionFS at \(gadget.endpoints) refused the function's descriptors")
            }
        }
        self.control = control
        bulkIn = try open("ep1")
        bulkOut = try open("ep2")
        interrupt = try open("ep3")
        do {
            wakeup = try FileDescriptor.pipe(nonBlocking: true)
        } catch {
            throw ViewfinderError(error, while: "making a pipe")
        }
        pump = try SimulatorEventPump(
            name: "sim-usb-events", sockets: SimulatorSockets(), group: threads, silence: Locked(false), log: log)
        pump.deliver(to: { [weak self] events in self?.send(events) })
    }

    /// Starts serving and binds the gadget to `controller` (or the first there is), which plugs it in.
    func start(controller: String?) throws {
        threads.enter()
        try IOThread.detach(name: "sim-usb-ctrl") { [self] in
            serveControl()
            threads.leave()
        }
        threads.enter()
        try IOThread.detach(name: "sim-usb-bulk") { [self] in
            serveBulk()
            threads.leave()
        }
        try gadget.bind(controller: controller)
    }

    /// Unplugs the gadget, stops the threads and removes the gadget.
    func stop() {
        state.withLock { $0.isStopping = true }
        gadget.unbind()
        enabled.signal()
        _ = withUnsafeBytes(of: UInt8(1)) { try? wakeup.write.write($0) }
        pump.stop()
        _ = threads.wait(timeout: .now() + 5)
        gadget.remove()
    }

    /// Writes events to the interrupt pipe; an event the host does not take is dropped.
    private func send(_ events: [PTPEvent]) {
        for event in events {
            let container = Self.container(
                4, code: event.code.rawValue, transactionID: event.transactionID, parameters: event.parameters)
            _ = container.withUnsafeBytes { try? interrupt.write($0) }
        }
    }

    // MARK: The control pipe

    /// Reads FunctionFS's events from `ep0` until stopped.
    private func serveControl() {
        var buffer = [UInt8](repeating: 0, count: 12 * 4)
        while !state.withLock({ $0.isStopping }) {
            guard
                let ready = try? Poll.wait(
                    [.init(control.rawValue, for: Poll.readable), .init(wakeup.read.rawValue, for: Poll.readable)],
                    until: nil), ready[1] == 0
            else { return }
            let count = buffer.withUnsafeMutableBytes { (try? control.read(into: $0)) ?? 0 }
            for offset in stride(from: 0, to: count - 11, by: 12) {
                let event = Array(buffer[offset..<offset + 12])
                handleControlEvent(type: event[8], setup: Array(event[0..<8]))
            }
        }
    }

    private func handleControlEvent(type: UInt8, setup: [UInt8]) {
        switch type {
        case 2:  // FUNCTIONFS_ENABLE: the host configured the device.
            state.withLock { $0.isEnabled = true }
            log("usb: the host enabled the camera")
            enabled.signal()
        case 1, 3:  // FUNCTIONFS_UNBIND, FUNCTIONFS_DISABLE: unplugged, or the host let go.
            let was = state.withLock { state in
                defer { state.isEnabled = false }
                return state.isEnabled
            }
            if was {
                camera.endSession()
                log("usb: the host went away")
            }
        case 4:  // FUNCTIONFS_SETUP: a class request.
            answerClassRequest(setup)
        default:
            break
        }
    }

    /// Answers the still-image class's requests: Get Device Status says Device Busy while a data phase is being
    /// sent and OK otherwise; Cancel stops the data phase under way (without its response), and Device Reset does
    /// too and ends the session; anything else stalls.
    private func answerClassRequest(_ setup: [UInt8]) {
        let (requestType, request) = (setup[0], setup[1])
        let length = Int(setup[6]) | Int(setup[7]) << 8
        let toHost = requestType & 0x80 != 0
        switch (request, toHost) {
        case (0x67, true):
            let busy = state.withLock { $0.sending != nil }
            let status: [UInt8] = busy ? [4, 0, 0x19, 0x20] : [4, 0, 0x01, 0x20]
            _ = status.withUnsafeBytes { try? control.write(UnsafeRawBufferPointer(rebasing: $0[0..<min(length, 4)])) }
        case (0x64, false), (0x66, false):
            var data = [UInt8](repeating: 0, count: max(length, 1))
            _ = data.withUnsafeMutableBytes {
                try? control.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<length]))
            }
            let cancelled = state.withLock { state -> UInt32? in
                guard let sending = state.sending else { return nil }
                state.isCancelled = true
                return sending
            }
            if let cancelled {
                let what = request == 0x64 ? "cancelled" : "reset the camera during"
                log("usb: the host \(what) the data phase of transaction \(cancelled)")
            }
            if request == 0x66 { camera.endSession() }
        default:
            // A transfer in the wrong direction stalls the request.
            var none: [UInt8] = [0]
            if toHost {
                _ = none.withUnsafeMutableBytes {
                    try? control.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<0]))
                }
            } else {
                _ = none.withUnsafeBytes { try? control.write(UnsafeRawBufferPointer(rebasing: $0[0..<0])) }
            }
        }
    }

    // MARK: The bulk pipes

    /// Serves requests while the function is enabled, and waits for it to be enabled again after.
    ///
    /// A request that fails (the host went away in the middle, or sent something malformed) is dropped, and the
    /// next one is read.
    private func serveBulk() {
        var buffer = [UInt8](repeating: 0, count: Self.writeSize)
        while !state.withLock({ $0.isStopping }) {
            guard state.withLock({ $0.isEnabled }) else {
                _ = enabled.wait(timeout: .now() + 1)
                continue
            }
            do throws(ViewfinderError) {
                while true { try serveRequest(buffer: &buffer) }
            } catch {
                log("usb: \(error.message)")
                // Until the control thread hears that the host went away, transfers fail at once: not too often.
                usleep(10_000)
            }
        }
    }

    /// Reads one request (and its data-out phase), answers it, and sends its events.
    private func serveRequest(buffer: inout [UInt8]) throws(ViewfinderError) {
        var count = 0
        while count == 0 { count = try read(into: &buffer, range: 0..<buffer.count) }
        guard count >= 12 else { throw ViewfinderError(.malformedData, "a transfer of \(count) bytes") }
        let header = Self.header(buffer)
        guard header.type == 1 else {
            throw ViewfinderError(.malformedData, "a container of type \(header.type) where a request belongs")
        }
        guard header.length >= 12 else {
            throw ViewfinderError(.malformedData, "a request container that says it is \(header.length) bytes long")
        }
        let parameters = (0..<min(5, (min(Int(header.length), count) - 12) / 4)).map { index in
            buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 12 + 4 * index, as: UInt32.self).littleEndian }
        }
        var data: [UInt8]?
        if camera.expectsDataOut(header.code) {
            data = try receiveData(into: &buffer, transactionID: header.transactionID)
        }
        let request = SimulatorRequest(
            code: PTPOperationCode(header.code), transactionID: header.transactionID, parameters: parameters,
            data: data)
        let reply = camera.respond(to: request, in: pump)
        do {
            try send(reply, for: header.code, transactionID: header.transactionID, staging: &buffer)
        } catch  where error.code == .cancelled {
            log("usb: stopped the data phase of transaction \(header.transactionID), without its response")
            return
        }
        pump.emit(reply.events)
    }

    /// Reads a data-out phase whole.
    private func receiveData(into buffer: inout [UInt8], transactionID: UInt32) throws(ViewfinderError) -> [UInt8] {
        var count = 0
        while count == 0 { count = try read(into: &buffer, range: 0..<buffer.count) }
        let header = Self.header(buffer)
        guard count >= 12, header.type == 2, header.transactionID == transactionID else {
            throw ViewfinderError(.malformedData, "expected the data phase of transaction \(transactionID)")
        }
        let total = Int(header.length) - 12
        guard total >= 0, total <= Self.maximumDataOut else {
            throw ViewfinderError(.malformedData, "a data phase of \(header.length) bytes")
        }
        var data = Array(buffer[12..<min(count, 12 + total)])
        while data.count < total {
            let read = try self.read(into: &buffer, range: 0..<buffer.count)
            guard read > 0 else { throw ViewfinderError(.malformedData, "the data phase ended early") }
            data += buffer[0..<min(read, total - data.count)]
        }
        return data
    }

    /// Sends a reply's data phase, if any, in writes of whole packets, then its response.
    ///
    /// - Throws: `ViewfinderError/Code/cancelled` when the host cancels the data phase: the rest of it, and the
    ///   response, are not sent.
    private func send(_ reply: SimulatorReply, for code: UInt16, transactionID: UInt32, staging: inout [UInt8])
        throws(ViewfinderError)
    {
        if let payload = reply.data {
            state.withLock { state in
                state.sending = transactionID
                state.isCancelled = false
            }
            defer { state.withLock { $0.sending = nil } }
            let length: UInt64
            switch payload {
            case .bytes(let bytes): length = UInt64(bytes.count)
            case .object(_, let range): length = range.upperBound - range.lowerBound
            }
            let total = 12 + length
            let header = Self.container(
                2, code: code, transactionID: transactionID, parameters: [],
                length: total > UInt64(UInt32.max) ? UInt32.max : UInt32(total))
            var filled = 0
            func append(_ piece: UnsafeRawBufferPointer) throws(ViewfinderError) {
                var offset = 0
                while offset < piece.count {
                    let count = min(staging.count - filled, piece.count - offset)
                    staging.withUnsafeMutableBytes { raw in
                        (raw.baseAddress! + filled).copyMemory(from: piece.baseAddress! + offset, byteCount: count)
                    }
                    filled += count
                    offset += count
                    if filled == staging.count {
                        try writeUnlessCancelled(staging, count: filled, transactionID: transactionID)
                        filled = 0
                    }
                }
            }
            try typedThrows { try header.withUnsafeBytes { try append($0) } }
            switch payload {
            case .bytes(let bytes):
                try typedThrows { try bytes.withUnsafeBytes { try append($0) } }
            case .object(let object, let range):
                try typedThrows {
                    try object.forEachPiece(of: range, chunkSize: 1 << 20) { piece, _ in try append(piece) }
                }
            }
            if filled > 0 { try writeUnlessCancelled(staging, count: filled, transactionID: transactionID) }
            // A phase that fills its last packet ends with a zero-length packet.
            if total % UInt64(FunctionFSDescriptors.highSpeedBulkPacketSize) == 0 {
                try writeUnlessCancelled(staging, count: 0, transactionID: transactionID)
            }
            // Cancelled during its last write: the response is not sent either.
            try checkNotCancelled(transactionID)
        }
        let response = Self.container(
            3, code: reply.code.rawValue, transactionID: transactionID, parameters: reply.parameters)
        try write(response, count: response.count)
    }

    private func read(into buffer: inout [UInt8], range: Range<Int>) throws(ViewfinderError) -> Int {
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try bulkOut.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[range])) }
        }
        do throws(Errno) {
            return try result.get()
        } catch {
            throw ViewfinderError(error, while: "reading the bulk-out pipe")
        }
    }

    /// Writes a piece of a data phase, unless the host cancelled the phase.
    private func writeUnlessCancelled(_ bytes: [UInt8], count: Int, transactionID: UInt32) throws(ViewfinderError) {
        try checkNotCancelled(transactionID)
        try write(bytes, count: count)
    }

    private func checkNotCancelled(_ transactionID: UInt32) throws(ViewfinderError) {
        guard !state.withLock({ $0.isCancelled }) else {
            throw ViewfinderError(.cancelled, "the host cancelled the data phase of transaction \(transactionID)")
        }
    }

    private func write(_ bytes: [UInt8], count: Int) throws(ViewfinderError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try bulkIn.write(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
        }
        let written: Int
        do throws(Errno) {
            written = try result.get()
        } catch {
            throw ViewfinderError(error, while: "writing the bulk-in pipe")
        }
        guard written == count else {
            throw ViewfinderError(.io, "the bulk-in pipe took \(written) of \(count) bytes")
        }
    }

    // MARK: Containers

    private static func header(_ bytes: [UInt8]) -> (length: UInt32, type: UInt16, code: UInt16, transactionID: UInt32)
    {
        bytes.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(as: UInt32.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 6, as: UInt16.self).littleEndian,
                raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            )
        }
    }

    /// A container's header and parameters; `length` overrides the length field, for a data phase.
    private static func container(
        _ type: UInt16, code: UInt16, transactionID: UInt32, parameters: [UInt32], length: UInt32? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        append(length ?? UInt32(12 + 4 * parameters.count))
        append(type)
        append(code)
        append(transactionID)
        for parameter in parameters { append(parameter) }
        return bytes
    }
}
