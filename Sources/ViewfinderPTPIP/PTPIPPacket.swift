import ViewfinderCore
import ViewfinderPTP

/// The type of a PTP/IP packet, the second 32-bit word of every packet.
public struct PTPIPPacketType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The type as it travels on the wire.
    public var rawValue: UInt32

    /// Creates a type from its wire value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// InitCommandRequest, initiator to responder on the command connection.
    public static let initCommandRequest = PTPIPPacketType(rawValue: 1)
    /// InitCommandAck, the responder's answer to ``initCommandRequest``.
    public static let initCommandAck = PTPIPPacketType(rawValue: 2)
    /// InitEventRequest, initiator to responder on the event connection.
    public static let initEventRequest = PTPIPPacketType(rawValue: 3)
    /// InitEventAck, the responder's answer to ``initEventRequest``.
    public static let initEventAck = PTPIPPacketType(rawValue: 4)
    /// InitFail: the responder refuses the connection.
    public static let initFail = PTPIPPacketType(rawValue: 5)
    /// OperationRequest.
    public static let operationRequest = PTPIPPacketType(rawValue: 6)
    /// OperationResponse.
    public static let operationResponse = PTPIPPacketType(rawValue: 7)
    /// Event.
    public static let event = PTPIPPacketType(rawValue: 8)
    /// StartData: opens a data phase and gives its total length.
    public static let startData = PTPIPPacketType(rawValue: 9)
    /// Data: a piece of a data phase.
    public static let data = PTPIPPacketType(rawValue: 10)
    /// Cancel a transaction.
    public static let cancel = PTPIPPacketType(rawValue: 11)
    /// EndData: the last piece of a data phase.
    public static let endData = PTPIPPacketType(rawValue: 12)
    /// ProbeRequest: asks whether the peer is still there.
    public static let probeRequest = PTPIPPacketType(rawValue: 13)
    /// ProbeResponse: the answer to ``probeRequest``.
    public static let probeResponse = PTPIPPacketType(rawValue: 14)

    /// The type's name.
    public var description: String {
        let names = [
            "", "InitCommandRequest", "InitCommandAck", "InitEventRequest", "InitEventAck", "InitFail",
            "OperationRequest", "OperationResponse", "Event", "StartData", "Data", "Cancel", "EndData",
            "ProbeRequest", "ProbeResponse",
        ]
        return rawValue > 0 && rawValue < UInt32(names.count) ? names[Int(rawValue)] : "type \(rawValue)"
    }
}

/// The 16-byte identifier of a PTP/IP initiator or responder.
public struct PTPIPGUID: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes.
    public let bytes: [UInt8]

    /// Creates a GUID from 16 bytes.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when `bytes` is not 16 bytes long.
    public init(bytes: [UInt8]) throws(ViewfinderError) {
        guard bytes.count == 16 else {
            throw ViewfinderError(.invalidArgument, "a PTP/IP GUID has 16 bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Creates a GUID from two 64-bit halves, the first one's bytes first, each in big-endian order.
    public init(high: UInt64, low: UInt64) {
        bytes = withUnsafeBytes(of: high.bigEndian, Array.init) + withUnsafeBytes(of: low.bigEndian, Array.init)
    }

    /// The GUID of sixteen zero bytes.
    public static let zero = PTPIPGUID(high: 0, low: 0)

    /// A random GUID.
    public static func random() -> PTPIPGUID {
        var generator = SystemRandomNumberGenerator()
        return PTPIPGUID(high: generator.next(), low: generator.next())
    }

    /// The bytes in hexadecimal, separated by colons.
    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: ":")
    }
}

/// Why a responder refused a connection with an InitFail packet.
public struct PTPIPInitFailReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason as it travels on the wire.
    public var rawValue: UInt32

    /// Creates a reason from its wire value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The responder does not accept this initiator.
    public static let rejectedInitiator = PTPIPInitFailReason(rawValue: 1)
    /// The responder is busy, for example with another initiator's session.
    public static let busy = PTPIPInitFailReason(rawValue: 2)
    /// The responder does not say why.
    public static let unspecified = PTPIPInitFailReason(rawValue: 3)

    /// The reason in words.
    public var description: String {
        switch rawValue {
        case 1: "the camera rejects this client"
        case 2: "the camera is busy with another client"
        case 3: "the camera gives no reason"
        default: "reason \(rawValue)"
        }
    }
}

/// What an OperationRequest says about the data phase that follows it.
public struct PTPIPDataPhase: RawRepresentable, Hashable, Sendable {
    /// The value as it travels on the wire.
    public var rawValue: UInt32

    /// Creates a data phase from its wire value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The initiator does not say.
    public static let unknown = PTPIPDataPhase(rawValue: 0)
    /// No data phase, or data from the responder to the initiator.
    public static let noDataOrDataIn = PTPIPDataPhase(rawValue: 1)
    /// Data from the initiator to the responder.
    public static let dataOut = PTPIPDataPhase(rawValue: 2)
}

/// A PTP/IP packet: the unit both TCP connections carry.
///
/// Every packet starts with a little-endian 32-bit length (the whole packet, this header included) and a 32-bit
/// ``PTPIPPacketType``. ``encoded()`` gives the wire form; ``decode(_:)`` and ``decode(type:payload:)`` parse it and
/// throw `ViewfinderError/Code/malformedData` on anything that is not a well-formed packet.
///
/// ```swift
/// let request = PTPIPPacket.operationRequest(
///     dataPhase: .noDataOrDataIn, code: .getObject, transactionID: 7, parameters: [0x0001_0001])
/// let bytes = try request.encoded()
/// #expect(try PTPIPPacket.decode(bytes) == request)
/// ```
public enum PTPIPPacket: Hashable, Sendable {
    /// Opens the command connection: the initiator's GUID, friendly name and protocol version.
    case initCommandRequest(guid: PTPIPGUID, name: String, version: UInt32)
    /// Accepts the command connection: the connection number the event connection must quote.
    case initCommandAck(connectionNumber: UInt32, guid: PTPIPGUID, name: String, version: UInt32)
    /// Opens the event connection for the command connection with `connectionNumber`.
    case initEventRequest(connectionNumber: UInt32)
    /// Accepts the event connection.
    case initEventAck
    /// Refuses a connection, with a reason code.
    case initFail(reason: UInt32)
    /// Asks for an operation.
    case operationRequest(
        dataPhase: PTPIPDataPhase, code: PTPOperationCode, transactionID: UInt32, parameters: [UInt32])
    /// Answers an operation.
    case operationResponse(code: PTPResponseCode, transactionID: UInt32, parameters: [UInt32])
    /// Reports an event.
    case event(code: PTPEventCode, transactionID: UInt32, parameters: [UInt32])
    /// Opens a data phase of `totalLength` bytes (`UInt64.max` when unknown).
    case startData(transactionID: UInt32, totalLength: UInt64)
    /// Carries a piece of a data phase.
    case data(transactionID: UInt32, payload: [UInt8])
    /// Cancels a transaction.
    case cancel(transactionID: UInt32)
    /// Carries the last piece of a data phase, possibly empty.
    case endData(transactionID: UInt32, payload: [UInt8])
    /// Asks whether the peer is still there.
    case probeRequest
    /// Answers a probe.
    case probeResponse

    /// The length of the header every packet starts with.
    public static let headerLength = 8

    /// The number of parameters an operation request or response can carry.
    public static let maximumParameterCount = 5

    /// The number of parameters an event can carry.
    public static let maximumEventParameterCount = 3

    /// The longest friendly name, in UTF-16 units, that a handshake packet may carry.
    public static let maximumNameLength = 1024

    /// The version this implementation speaks: 1.0, with the major version in the high 16 bits.
    public static let protocolVersion: UInt32 = 0x0001_0000

    /// The packet's type.
    public var type: PTPIPPacketType {
        switch self {
        case .initCommandRequest: .initCommandRequest
        case .initCommandAck: .initCommandAck
        case .initEventRequest: .initEventRequest
        case .initEventAck: .initEventAck
        case .initFail: .initFail
        case .operationRequest: .operationRequest
        case .operationResponse: .operationResponse
        case .event: .event
        case .startData: .startData
        case .data: .data
        case .cancel: .cancel
        case .endData: .endData
        case .probeRequest: .probeRequest
        case .probeResponse: .probeResponse
        }
    }

    /// The packet's wire form, header included.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for too many parameters, a name too long for
    ///   PTP/IP, or a packet longer than 4 GiB.
    public func encoded() throws(ViewfinderError) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 64)
        writer.append(UInt32(0))
        writer.append(type.rawValue)
        switch self {
        case .initCommandRequest(let guid, let name, let version):
            writer.append(bytes: guid.bytes)
            try Self.appendName(name, to: &writer)
            writer.append(version)
        case .initCommandAck(let connectionNumber, let guid, let name, let version):
            writer.append(connectionNumber)
            writer.append(bytes: guid.bytes)
            try Self.appendName(name, to: &writer)
            writer.append(version)
        case .initEventRequest(let connectionNumber):
            writer.append(connectionNumber)
        case .initEventAck, .probeRequest, .probeResponse:
            break
        case .initFail(let reason):
            writer.append(reason)
        case .operationRequest(let dataPhase, let code, let transactionID, let parameters):
            try Self.check(parameters, limit: Self.maximumParameterCount, in: "an operation request")
            writer.append(dataPhase.rawValue)
            writer.append(code.rawValue)
            writer.append(transactionID)
            for parameter in parameters { writer.append(parameter) }
        case .operationResponse(let code, let transactionID, let parameters):
            try Self.check(parameters, limit: Self.maximumParameterCount, in: "an operation response")
            writer.append(code.rawValue)
            writer.append(transactionID)
            for parameter in parameters { writer.append(parameter) }
        case .event(let code, let transactionID, let parameters):
            try Self.check(parameters, limit: Self.maximumEventParameterCount, in: "an event")
            writer.append(code.rawValue)
            writer.append(transactionID)
            for parameter in parameters { writer.append(parameter) }
        case .startData(let transactionID, let totalLength):
            writer.append(transactionID)
            writer.append(totalLength)
        case .data(let transactionID, let payload), .endData(let transactionID, let payload):
            writer.append(transactionID)
            writer.append(bytes: payload)
        case .cancel(let transactionID):
            writer.append(transactionID)
        }
        var bytes = writer.bytes
        guard let length = UInt32(exactly: bytes.count) else {
            throw ViewfinderError(.invalidArgument, "a PTP/IP packet cannot be longer than 4 GiB")
        }
        withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
        return bytes
    }

    /// Decodes one whole packet, header included.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the length word does not match the bytes
    ///   or the payload is not a well-formed packet of its type.
    public static func decode(_ bytes: [UInt8]) throws(ViewfinderError) -> PTPIPPacket {
        var reader = PTPDataReader(bytes, reading: "PTP/IP packet")
        let length = try reader.read(UInt32.self)
        let type = PTPIPPacketType(rawValue: try reader.read(UInt32.self))
        guard length == bytes.count else {
            throw reader.malformed("the length word says \(length) bytes, but the packet has \(bytes.count)")
        }
        return try decode(type: type, payload: reader.readRemainingBytes())
    }

    /// Decodes a packet from its type and the payload that follows the header.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for an unknown type or a malformed payload.
    public static func decode(type: PTPIPPacketType, payload: [UInt8]) throws(ViewfinderError) -> PTPIPPacket {
        var reader = PTPDataReader(payload, reading: "PTP/IP \(type) packet")
        let packet: PTPIPPacket
        switch type {
        case .initCommandRequest:
            let guid = try PTPIPGUID(bytes: try reader.readBytes(16))
            let name = try readName(&reader)
            packet = .initCommandRequest(guid: guid, name: name, version: try reader.read(UInt32.self))
        case .initCommandAck:
            let connectionNumber = try reader.read(UInt32.self)
            let guid = try PTPIPGUID(bytes: try reader.readBytes(16))
            let name = try readName(&reader)
            packet = .initCommandAck(
                connectionNumber: connectionNumber, guid: guid, name: name, version: try reader.read(UInt32.self))
        case .initEventRequest:
            packet = .initEventRequest(connectionNumber: try reader.read(UInt32.self))
        case .initEventAck:
            packet = .initEventAck
        case .initFail:
            packet = .initFail(reason: try reader.read(UInt32.self))
        case .operationRequest:
            let dataPhase = PTPIPDataPhase(rawValue: try reader.read(UInt32.self))
            let code = PTPOperationCode(rawValue: try reader.read(UInt16.self))
            let transactionID = try reader.read(UInt32.self)
            let parameters = try readParameters(&reader, limit: maximumParameterCount)
            packet = .operationRequest(
                dataPhase: dataPhase, code: code, transactionID: transactionID, parameters: parameters)
        case .operationResponse:
            let code = PTPResponseCode(rawValue: try reader.read(UInt16.self))
            let transactionID = try reader.read(UInt32.self)
            let parameters = try readParameters(&reader, limit: maximumParameterCount)
            packet = .operationResponse(code: code, transactionID: transactionID, parameters: parameters)
        case .event:
            let code = PTPEventCode(rawValue: try reader.read(UInt16.self))
            let transactionID = try reader.read(UInt32.self)
            let parameters = try readParameters(&reader, limit: maximumEventParameterCount)
            packet = .event(code: code, transactionID: transactionID, parameters: parameters)
        case .startData:
            let transactionID = try reader.read(UInt32.self)
            packet = .startData(transactionID: transactionID, totalLength: try reader.read(UInt64.self))
        case .data:
            packet = .data(transactionID: try reader.read(UInt32.self), payload: reader.readRemainingBytes())
        case .cancel:
            packet = .cancel(transactionID: try reader.read(UInt32.self))
        case .endData:
            packet = .endData(transactionID: try reader.read(UInt32.self), payload: reader.readRemainingBytes())
        case .probeRequest:
            packet = .probeRequest
        case .probeResponse:
            packet = .probeResponse
        default:
            throw reader.malformed("packet type \(type.rawValue) is not one PTP/IP defines")
        }
        try reader.expectEnd()
        return packet
    }

    /// Reads a NUL-terminated UCS-2 name that fills the payload up to a final 32-bit field.
    private static func readName(_ reader: inout PTPDataReader) throws(ViewfinderError) -> String {
        var units: [UInt16] = []
        while true {
            guard reader.remainingCount >= 2 + 4 else {
                throw reader.malformed("the friendly name has no terminating NUL before the version")
            }
            let unit = try reader.read(UInt16.self)
            if unit == 0 { break }
            guard units.count < maximumNameLength else {
                throw reader.malformed("the friendly name is longer than \(maximumNameLength) UTF-16 units")
            }
            units.append(unit)
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Writes a NUL-terminated UCS-2 name.
    private static func appendName(_ name: String, to writer: inout PTPDataWriter) throws(ViewfinderError) {
        let units = Array(name.utf16)
        guard units.count <= maximumNameLength, !units.contains(0) else {
            throw ViewfinderError(
                .invalidArgument, "a PTP/IP friendly name has at most \(maximumNameLength) units and no NUL")
        }
        for unit in units { writer.append(unit) }
        writer.append(UInt16(0))
    }

    /// Reads the 32-bit parameters that fill the rest of a payload.
    private static func readParameters(
        _ reader: inout PTPDataReader, limit: Int
    ) throws(ViewfinderError) -> [UInt32] {
        let remaining = reader.remainingCount
        guard remaining % 4 == 0, remaining / 4 <= limit else {
            throw reader.malformed("\(remaining) bytes are not 0 to \(limit) 32-bit parameters")
        }
        var parameters: [UInt32] = []
        for _ in 0..<remaining / 4 {
            parameters.append(try reader.read(UInt32.self))
        }
        return parameters
    }

    /// Checks a parameter count before encoding.
    private static func check(_ parameters: [UInt32], limit: Int, in what: String) throws(ViewfinderError) {
        guard parameters.count <= limit else {
            throw ViewfinderError(
                .invalidArgument, "\(what) carries at most \(limit) parameters, not \(parameters.count)")
        }
    }
}
