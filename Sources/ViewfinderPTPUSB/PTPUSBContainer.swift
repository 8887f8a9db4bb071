import ViewfinderCore
import ViewfinderPTP

/// The header every PTP-over-USB container starts with: its length, its type, a code and a transaction ID.
///
/// Requests, data phases and responses travel on the bulk pipes, events on the interrupt pipe; all are little-endian
/// (PIMA 15740 annex D, the USB Still Image Capture Device class).
struct PTPUSBContainer: Hashable, Sendable {
    /// What a container carries.
    enum Kind: UInt16, Sendable {
        case command = 1
        case data = 2
        case response = 3
        case event = 4
    }

    /// The bytes of the header.
    static let headerLength = 12
    /// The length a data container gives when its phase is longer than 32 bits can say.
    static let unknownLength: UInt32 = 0xFFFF_FFFF

    /// The container's whole length in bytes, header included.
    var length: UInt32
    /// What it carries.
    var kind: Kind
    /// The operation, response or event code.
    var code: UInt16
    /// The transaction it belongs to.
    var transactionID: UInt32

    /// Creates a header.
    init(length: UInt32, kind: Kind, code: UInt16, transactionID: UInt32) {
        self.length = length
        self.kind = kind
        self.code = code
        self.transactionID = transactionID
    }

    /// The header's bytes.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerLength)
        Self.append(length, to: &bytes)
        Self.append(UInt32(kind.rawValue) | UInt32(code) << 16, to: &bytes)
        Self.append(transactionID, to: &bytes)
        return bytes
    }

    /// A command or response container, header and parameters.
    static func encode(_ kind: Kind, code: UInt16, transactionID: UInt32, parameters: [UInt32]) -> [UInt8] {
        let length = UInt32(headerLength + 4 * parameters.count)
        var bytes = PTPUSBContainer(length: length, kind: kind, code: code, transactionID: transactionID).bytes
        for parameter in parameters { append(parameter, to: &bytes) }
        return bytes
    }

    /// Reads a header from the start of `bytes`.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when there are fewer than 12 bytes, the type is unknown, or
    ///   the length is shorter than the header.
    init(decoding bytes: UnsafeRawBufferPointer) throws(ViewfinderError) {
        guard bytes.count >= Self.headerLength else {
            throw ViewfinderError(
                .malformedData, "the camera sent a USB transfer of \(bytes.count) bytes, shorter than a PTP header")
        }
        length = bytes.loadUnaligned(as: UInt32.self).littleEndian
        let type = bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian
        code = bytes.loadUnaligned(fromByteOffset: 6, as: UInt16.self).littleEndian
        transactionID = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard let kind = Kind(rawValue: type) else {
            throw ViewfinderError(.malformedData, "the camera sent a PTP container of unknown type \(type)")
        }
        self.kind = kind
        guard length >= UInt32(Self.headerLength) else {
            throw ViewfinderError(
                .malformedData, "the camera sent a PTP container whose length, \(length), is shorter than its header")
        }
    }

    /// The up to five parameters after a command, response or event header in `bytes`, as many as `length` holds.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the container says it holds more than five, or more than
    ///   `bytes` has.
    func parameters(in bytes: UnsafeRawBufferPointer) throws(ViewfinderError) -> [UInt32] {
        let count = (Int(length) - Self.headerLength) / 4
        guard count <= PTPRequest.maximumParameterCount, Self.headerLength + 4 * count <= bytes.count else {
            throw ViewfinderError(
                .malformedData,
                "the camera sent a \(kind) container of \(length) bytes in a transfer of \(bytes.count) bytes")
        }
        return (0..<count).map {
            bytes.loadUnaligned(fromByteOffset: Self.headerLength + 4 * $0, as: UInt32.self).littleEndian
        }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
