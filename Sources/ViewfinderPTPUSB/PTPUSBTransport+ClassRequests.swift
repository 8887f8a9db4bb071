import ViewfinderCore
import ViewfinderPTP

extension PTPUSBTransport {
    /// What the camera answers the class's Get Device Status request with.
    public struct DeviceStatus: Hashable, Sendable {
        /// The camera's state as a response code: `ok` when it is ready, `deviceBusy` while it works on a
        /// transaction or cancels one, `transactionCancelled` after it cancelled one.
        public var code: PTPResponseCode
        /// The endpoints the camera halted (stalled) and the host should clear, as the camera names them.
        public var haltedEndpoints: [UInt8]

        /// Creates a status.
        public init(code: PTPResponseCode, haltedEndpoints: [UInt8] = []) {
            self.code = code
            self.haltedEndpoints = haltedEndpoints
        }

        /// Reads the data of a Get Device Status request: its length, its code, then the halted endpoints, which
        /// cameras write in 32 bits each and Android's and TinyUSB's MTP in 16 (zeros are read as padding).
        ///
        /// - Throws: `ViewfinderError/Code/malformedData` when it is shorter than the length and code.
        init(decoding bytes: UnsafeRawBufferPointer) throws(ViewfinderError) {
            guard bytes.count >= 4 else {
                throw ViewfinderError(.malformedData, "the camera's status has \(bytes.count) bytes, fewer than 4")
            }
            let length = min(Int(bytes.loadUnaligned(as: UInt16.self).littleEndian), bytes.count)
            code = PTPResponseCode(bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self).littleEndian)
            haltedEndpoints = stride(from: 4, to: length - 1, by: 2).map { bytes[$0] }.filter { $0 != 0 }
        }

        /// Whether the camera is still busy with a transaction, or with cancelling one.
        var isBusy: Bool { code == .deviceBusy }
    }

    /// The camera's status (the class's Get Device Status request), waiting at most `timeout` for it (the
    /// transport's timeout by default).
    public func deviceStatus(timeout: Duration? = nil) throws(ViewfinderError) -> DeviceStatus {
        var bytes = [UInt8](repeating: 0, count: 32)
        let wait = timeout ?? self.timeout.withLock { $0 }
        let count = try typedThrows {
            try bytes.withUnsafeMutableBytes { raw in
                try io.control(
                    requestType: 0xA1, request: 0x67, value: 0, index: UInt16(pipes.interface), data: raw,
                    timeout: wait, while: "asking the camera's status")
            }
        }
        return try typedThrows {
            try bytes.withUnsafeBytes { try DeviceStatus(decoding: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Asks the camera to cancel transaction `transactionID` (the class's Cancel request); it stops the
    /// transaction's data phase and does not send its response.
    public func cancel(transactionID: UInt32) throws(ViewfinderError) {
        var bytes: [UInt8] = [0x01, 0x40]
        withUnsafeBytes(of: transactionID.littleEndian) { bytes.append(contentsOf: $0) }
        _ = try typedThrows {
            try bytes.withUnsafeMutableBytes { raw in
                try io.control(
                    requestType: 0x21, request: 0x64, value: 0, index: UInt16(pipes.interface), data: raw,
                    timeout: timeout.withLock { $0 }, while: "cancelling transaction \(transactionID)")
            }
        }
    }

    /// Resets the camera's PTP function (the class's Device Reset request): it ends the session and clears its
    /// pipes.
    public func reset() throws(ViewfinderError) {
        _ = try io.control(
            requestType: 0x21, request: 0x66, value: 0, index: UInt16(pipes.interface),
            data: UnsafeMutableRawBufferPointer(start: nil, count: 0), timeout: timeout.withLock { $0 },
            while: "resetting the camera")
    }
}
