import ViewfinderCore
import ViewfinderPTP

/// The packets of Fujifilm's WiFi protocol: the init request and the camera's answer, in PTP/IP's framing, and the
/// USB-style containers every packet after them is.
///
/// The init request is always 82 bytes (a camera closes the connection on any other length): its length, type 1, the
/// word `0x8F53E4F2` where PTP/IP has its version, the client's GUID, and its name in UCS-2, zero-padded to the end.
/// The camera answers with an InitCommandAck (type 2: a connection number, its GUID and its name, NUL-terminated and
/// often zero-padded to 68 bytes in all) or an InitFail (type 5, with a reason).
///
/// After the init, every packet is a container as PTP over USB has them: a 32-bit length of the whole packet, a
/// 16-bit type (1 command, 2 data, 3 response, 4 event), a 16-bit code, a 32-bit transaction ID, then the parameters
/// or the data.
public enum FujiWiFiPacket {
    /// The length of the init request, the only one Fujifilm cameras accept.
    public static let initRequestLength = 82
    /// The word in place of PTP/IP's protocol version in the init request.
    public static let initVersion: UInt32 = 0x8F53_E4F2
    /// The most UTF-16 units of the client's name the init request holds, leaving room for a NUL.
    public static let maximumNameLength = (initRequestLength - 28) / 2 - 1
    /// The length of a container's header.
    public static let headerLength = 12
    /// The longest answer to the init accepted.
    static let maximumInitAnswerLength = 1 << 10

    /// The init request for a client of `guid` named `name`, cut to ``maximumNameLength`` units.
    public static func initRequest(guid: PTPIPGUID, name: String) -> [UInt8] {
        var writer = PTPDataWriter(capacity: initRequestLength)
        writer.append(UInt32(initRequestLength))
        writer.append(PTPIPPacketType.initCommandRequest.rawValue)
        writer.append(initVersion)
        writer.append(bytes: guid.bytes)
        for unit in name.utf16.prefix(maximumNameLength) { writer.append(unit == 0 ? 0x20 : unit) }
        var bytes = writer.bytes
        bytes.append(contentsOf: repeatElement(0, count: initRequestLength - bytes.count))
        return bytes
    }

    /// What a camera that accepted the init said of itself.
    public struct Acceptance: Hashable, Sendable {
        /// The connection number the camera assigned.
        public var connectionNumber: UInt32
        /// The camera's identifier.
        public var guid: PTPIPGUID
        /// The camera's name, such as `X-T4`.
        public var name: String

        /// Creates an acceptance.
        public init(connectionNumber: UInt32, guid: PTPIPGUID, name: String) {
            (self.connectionNumber, self.guid, self.name) = (connectionNumber, guid, name)
        }
    }

    /// What the camera answered to the init request.
    public enum InitAnswer: Hashable, Sendable {
        /// Accepted, with what the camera said of itself.
        case accepted(Acceptance)
        /// Refused, with PTP/IP's reason.
        case refused(PTPIPInitFailReason)
    }

    /// Decodes the camera's answer to the init from its type and the payload after the 8-byte header.
    ///
    /// The name ends at its NUL or at the end of the payload, so a name zero-padded to any length is accepted.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for another type, or a payload too short for its fields.
    public static func decodeInitAnswer(type: UInt32, payload: [UInt8]) throws(ViewfinderError) -> InitAnswer {
        var reader = PTPDataReader(payload, reading: "Fujifilm init answer")
        switch PTPIPPacketType(rawValue: type) {
        case .initCommandAck:
            let number = try reader.read(UInt32.self)
            let guid = try PTPIPGUID(bytes: try reader.readBytes(16))
            var units: [UInt16] = []
            while reader.remainingCount >= 2 {
                let unit = try reader.read(UInt16.self)
                if unit == 0 { break }
                units.append(unit)
            }
            let name = String(decoding: units, as: UTF16.self)
            return .accepted(Acceptance(connectionNumber: number, guid: guid, name: name))
        case .initFail:
            return .refused(PTPIPInitFailReason(rawValue: try reader.read(UInt32.self)))
        case let other:
            throw reader.malformed("the camera answered the init with a \(other) packet")
        }
    }

    /// The DeviceInfo that stands in for the empty one a real X-T4 sends over WiFi, as libgphoto2 makes one up:
    /// Fujifilm's extension (0x0E), the camera's name from its answer to the init (or "Fujifilm camera" when it gave
    /// none), the operations libgphoto2 assumes such a body has (Fuji GetDeviceInfo 0x902B among them, which
    /// describes the properties), and the properties the Fuji dialect reads.
    public static func standInDeviceInfo(model: String) -> PTPDeviceInfo {
        let operations: [UInt16] =
            Array(0x1001...0x100B) + [0x100E, 0x100F] + Array(0x1014...0x1018) + [0x101B, 0x101C]
            + [0x900C, 0x900D, 0x901D, 0x9801, 0x9802, 0x9803, 0x9805, 0x9022, 0x9026, 0x9027]
            + Array(0x902B...0x902E)
        return PTPDeviceInfo(
            vendorExtensionID: 0x0E, vendorExtensionVersion: 100, vendorExtensionDescription: "fujifilm.co.jp: 1.0; ",
            operationsSupported: operations.map(PTPOperationCode.init(rawValue:)),
            eventsSupported: [0x4002, 0x4003, 0x4004, 0x4005, 0x400D, 0xC006].map(PTPEventCode.init(rawValue:)),
            // The exposure settings, white balance, focus, film simulation and drive mode; CurrentState, the list of
            // changed properties; BatteryInfo2.
            devicePropertiesSupported: [
                0x5005, 0x5007, 0x500A, 0x500D, 0x500E, 0x500F, 0x5010, 0xD001, 0xD201, 0xD212, 0xD36B,
            ].map(PTPDevicePropertyCode.init(rawValue:)),
            captureFormats: [.exifJPEG], imageFormats: [.exifJPEG], manufacturer: "FUJIFILM",
            model: model.isEmpty ? "Fujifilm camera" : model, deviceVersion: "", serialNumber: "")
    }

    /// What a container carries.
    public enum Kind: UInt16, Hashable, Sendable {
        /// An operation request.
        case command = 1
        /// A data phase, whole.
        case data = 2
        /// An operation response.
        case response = 3
        /// An event.
        case event = 4
    }

    /// The header of a container.
    public struct Header: Hashable, Sendable {
        /// The whole container's length, header included.
        public var length: Int
        /// What the container carries.
        public var kind: Kind
        /// The operation, response or event code.
        public var code: UInt16
        /// The transaction the container belongs to.
        public var transactionID: UInt32

        /// The length of what follows the header.
        public var payloadLength: Int { length - headerLength }

        /// Creates a header.
        public init(length: Int, kind: Kind, code: UInt16, transactionID: UInt32) {
            (self.length, self.kind, self.code, self.transactionID) = (length, kind, code, transactionID)
        }

        /// Reads a header from 12 bytes.
        ///
        /// - Throws: `ViewfinderError/Code/malformedData` for an unknown type or a length shorter than the header.
        public init(decoding bytes: [UInt8]) throws(ViewfinderError) {
            var reader = PTPDataReader(bytes, reading: "Fujifilm container header")
            let length = Int(try reader.read(UInt32.self))
            let type = try reader.read(UInt16.self)
            code = try reader.read(UInt16.self)
            transactionID = try reader.read(UInt32.self)
            guard let kind = Kind(rawValue: type) else {
                throw reader.malformed("container type \(type) is not a command, data, response or event")
            }
            guard length >= headerLength else {
                throw reader.malformed("the container claims \(length) bytes, less than its header")
            }
            self.length = length
            self.kind = kind
        }

        /// The header's 12 bytes.
        public var bytes: [UInt8] {
            var writer = PTPDataWriter(capacity: headerLength)
            writer.append(UInt32(truncatingIfNeeded: length))
            writer.append(kind.rawValue)
            writer.append(code)
            writer.append(transactionID)
            return writer.bytes
        }
    }

    /// A command, response or event container: header and parameters.
    public static func container(_ kind: Kind, code: UInt16, transactionID: UInt32, parameters: [UInt32]) -> [UInt8] {
        var writer = PTPDataWriter(capacity: headerLength + 4 * parameters.count)
        writer.append(
            bytes: Header(
                length: headerLength + 4 * parameters.count, kind: kind, code: code, transactionID: transactionID
            ).bytes)
        for parameter in parameters { writer.append(parameter) }
        return writer.bytes
    }

    /// The up to five parameters in the payload of a command, response or event container.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the payload is not a whole number of 32-bit words or holds
    ///   more than `limit`.
    public static func parameters(in payload: [UInt8], limit: Int = PTPRequest.maximumParameterCount)
        throws(ViewfinderError) -> [UInt32]
    {
        var reader = PTPDataReader(payload, reading: "Fujifilm container parameters")
        guard payload.count % 4 == 0, payload.count / 4 <= limit else {
            throw reader.malformed("\(payload.count) bytes are not 0 to \(limit) 32-bit parameters")
        }
        var parameters: [UInt32] = []
        while reader.remainingCount > 0 { parameters.append(try reader.read(UInt32.self)) }
        return parameters
    }
}
