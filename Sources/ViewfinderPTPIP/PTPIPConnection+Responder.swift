import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

extension PTPIPConnection {
    /// Sends a data phase from the responder's side: StartData, Data packets of at most `chunkSize` bytes, and the
    /// last piece in EndData, each sent straight from `bytes` without copying.
    ///
    /// The packets are sent as a burst that the OperationResponse ends, so the caller must send the response next.
    package func sendDataPhase(
        transactionID: UInt32, _ bytes: UnsafeRawBufferPointer, chunkSize: Int,
        while activity: @autoclosure () -> String
    ) throws(ViewfinderError) {
        try send(
            .startData(transactionID: transactionID, totalLength: UInt64(bytes.count)), more: true, while: activity())
        var offset = 0
        repeat {
            let count = min(max(chunkSize, 1), bytes.count - offset)
            let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
            offset += count
            try sendData(
                transactionID: transactionID, piece, isLast: offset == bytes.count, more: true, while: activity())
        } while offset < bytes.count
    }

    /// Receives a data-out phase on the responder's side: StartData, then Data and EndData packets until the
    /// announced length has arrived.
    ///
    /// A zero-length phase may end right after StartData, as some initiators send no EndData for it.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the phase is longer than `maximumLength`, belongs to
    ///   another transaction, or is not a well-formed data phase.
    package func receiveDataPhase(
        transactionID: UInt32, maximumLength: Int, while activity: @autoclosure () -> String
    ) throws(ViewfinderError) -> [UInt8] {
        guard case .startData(let id, let announced) = try readPacket(while: activity()), id == transactionID else {
            throw ViewfinderError(
                .malformedData, "expected StartData for transaction \(transactionID) while \(activity())")
        }
        guard let total = Int(exactly: announced), total <= maximumLength else {
            throw ViewfinderError(
                .malformedData, "a data phase of \(announced) bytes is longer than the \(maximumLength) accepted")
        }
        var bytes = [UInt8](repeating: 0, count: total)
        var received = 0
        while received < total {
            guard case .data(_, let id, let count) = try readNext(while: activity()), id == transactionID,
                count <= total - received
            else {
                throw ViewfinderError(
                    .malformedData, "the data phase of transaction \(transactionID) is not well formed (\(activity()))")
            }
            try typedThrows {
                try bytes.withUnsafeMutableBytes { raw in
                    try readPayload(
                        into: UnsafeMutableRawBufferPointer(rebasing: raw[received..<received + count]),
                        while: activity())
                }
            }
            received += count
        }
        return bytes
    }
}
