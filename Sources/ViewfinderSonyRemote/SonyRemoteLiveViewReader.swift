import ViewfinderCore

/// Reads the Camera Remote API's live view stream as its bytes arrive: packets of an 8-byte common header, a
/// 128-byte payload header and the payload, each checked before its payload is read.
///
/// Every number is big-endian. The common header is the start byte 0xFF, the payload type (1 a JPEG, 2 frame
/// information), a 16-bit sequence number and a 32-bit time stamp in milliseconds; the payload header starts with the
/// code 0x24 0x35 0x68 0x79, then the payload's size in three bytes and the padding's size in one. A payload longer
/// than the bound is refused before it is read, so three bytes that say 16 MiB cost nothing.
///
/// ```swift
/// var reader = SonyRemoteLiveViewReader(maximumFrameLength: 4 << 20)
/// if let frame = try reader.take(received) { show(frame.jpeg) }  // the newest frame these bytes completed
/// ```
package struct SonyRemoteLiveViewReader: Sendable {
    /// A JPEG frame of the stream.
    package struct Frame: Sendable, Equatable {
        /// The packet's sequence number.
        package var sequence: UInt16
        /// The packet's time stamp in milliseconds.
        package var milliseconds: UInt32
        /// The JPEG.
        package var jpeg: [UInt8]
    }

    /// The common header's length and the payload header's after it.
    package static let headerLength = 8 + 128
    /// The payload header's start code.
    static let startCode: [UInt8] = [0x24, 0x35, 0x68, 0x79]

    private struct Payload: Sendable {
        var type: UInt8
        var sequence: UInt16
        var milliseconds: UInt32
        var size: Int
        var padding: Int
    }

    /// The longest payload read.
    package let maximumFrameLength: Int
    /// The bytes of the header or payload being read.
    private var pending: [UInt8] = []
    /// The payload being read, once its header is whole.
    private var payload: Payload?

    /// A reader at the start of a stream, refusing payloads over `maximumFrameLength` bytes.
    package init(maximumFrameLength: Int) {
        self.maximumFrameLength = maximumFrameLength
    }

    /// Takes the stream's next bytes; returns the newest JPEG frame they complete, dropping older ones they complete
    /// too.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a start byte that is not 0xFF, a payload header without its
    ///   start code, or a payload longer than ``maximumFrameLength``; the stream cannot be read further.
    package mutating func take(_ bytes: some Collection<UInt8>) throws(ViewfinderError) -> Frame? {
        var newest: Frame?
        var rest = bytes[...]
        while !rest.isEmpty {
            let wanted = payload.map { $0.size + $0.padding } ?? Self.headerLength
            let piece = rest.prefix(wanted - pending.count)
            pending += piece
            rest = rest.dropFirst(piece.count)
            guard pending.count == wanted else { break }
            if let whole = payload {
                if whole.type == 1 {
                    newest = Frame(
                        sequence: whole.sequence, milliseconds: whole.milliseconds,
                        jpeg: Array(pending.prefix(whole.size)))
                }
                payload = nil
            } else {
                payload = try Self.header(pending, maximumFrameLength: maximumFrameLength)
            }
            pending.removeAll(keepingCapacity: true)
        }
        return newest
    }

    /// Forgets the packet being read, for a stream that starts again.
    package mutating func reset() {
        pending = []
        payload = nil
    }

    private static func header(_ bytes: [UInt8], maximumFrameLength: Int) throws(ViewfinderError)
        -> Payload
    {
        guard bytes[0] == 0xFF else {
            throw ViewfinderError(
                .malformedData,
                "a live view packet starts with 0x\(String(bytes[0], radix: 16)), not the start byte 0xFF")
        }
        guard Array(bytes[8..<12]) == startCode else {
            throw ViewfinderError(
                .malformedData, "a live view packet's payload header lacks its start code 0x24356879")
        }
        let size = Int(bytes[12]) << 16 | Int(bytes[13]) << 8 | Int(bytes[14])
        guard size <= maximumFrameLength else {
            throw ViewfinderError(
                .malformedData,
                "a live view packet says its payload holds \(size) bytes, more than the \(maximumFrameLength) read"
            )
        }
        return Payload(
            type: bytes[1], sequence: UInt16(bytes[2]) << 8 | UInt16(bytes[3]),
            milliseconds: UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8
                | UInt32(bytes[7]),
            size: size, padding: Int(bytes[15]))
    }
}
