import ViewfinderCore
import ViewfinderSystem

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// A Fujifilm body over WiFi that answers from a table of property descriptions.
///
/// It is enough of a camera to drive the Fuji dialect through its connect steps, settings, shutter and mode switch,
/// and records every request, so that tests can check what the dialect sent and in which order.
final class FujiCameraPeer: @unchecked Sendable {
    /// A request as the camera read it: the operation, its parameters, and its data-out phase.
    struct Request: Equatable, CustomStringConvertible {
        var code: UInt16
        var parameters: [UInt32]
        var data: [UInt8]?

        var description: String {
            "0x\(String(code, radix: 16)) \(parameters.map { String($0, radix: 16) }) \(data.map { "\($0)" } ?? "")"
        }
    }

    /// Every request read so far.
    let requests = Locked<[Request]>([])
    /// The camera's properties; the connection's thread alone touches them.
    private var properties: [UInt16: PTPDevicePropertyDescription]
    private var handles: [UInt32] = [1]
    private let afStatus: UInt16
    /// ClientState values the camera refuses with AccessDenied.
    private let refusedClientStates: Set<UInt16>
    /// The answer to Fuji GetDeviceInfo (0x902B), which the camera lists when there is one.
    private let propertyDescriptions: [UInt8]?

    static let deviceInfo = PTPDeviceInfo(
        vendorExtensionID: 0x0E, vendorExtensionDescription: "fujifilm.co.jp: 1.0; ",
        operationsSupported: [
            .getDeviceInfo, .openSession, .closeSession, .getStorageIDs, .getStorageInfo, .getObjectHandles,
            .getObjectInfo, .getObject, .initiateCapture, .getDevicePropDesc, .getDevicePropValue,
            .setDevicePropValue, .initiateOpenCapture,
        ],
        eventsSupported: [.objectAdded],
        devicePropertiesSupported: [
            .exposureIndex, .fNumber, .exposureTime, .fujiFilmSimulation, .whiteBalance, .fujiBatteryInfo,
        ],
        captureFormats: [], imageFormats: [.exifJPEG], manufacturer: "Fujifilm", model: "X-T4", deviceVersion: "1.0",
        serialNumber: "1")

    init(afStatus: UInt16 = 2, refusedClientStates: Set<UInt16> = [], propertyDescriptions: [UInt8]? = nil) {
        self.afStatus = afStatus
        self.refusedClientStates = refusedClientStates
        self.propertyDescriptions = propertyDescriptions
        func describe(_ code: PTPDevicePropertyCode, _ value: PTPValue, _ values: [PTPValue])
            -> PTPDevicePropertyDescription
        {
            PTPDevicePropertyDescription(
                code: code, dataType: value.dataType, isSettable: true, factoryDefaultValue: value,
                currentValue: value, form: values.isEmpty ? .none : .enumeration(values))
        }
        properties = [
            0x500F: describe(.exposureIndex, .int32(-1), [.int32(-1), .int32(-2), .int32(160), .int32(800)]),
            0x5007: describe(.fNumber, .uint16(560), [.uint16(280), .uint16(560)]),
            0x500D: describe(
                .exposureTime, .uint32(15625), [.uint32(15625), .uint32(64_000_030), .uint32(0xFFFF_FFFF)]),
            0xD001: describe(.fujiFilmSimulation, .uint16(11), [.uint16(1), .uint16(11), .uint16(99)]),
            0x5005: describe(.whiteBalance, .uint16(2), [.uint16(2), .uint16(0x8006), .uint16(0x8020)]),
            0xD36B: describe(.fujiBatteryInfo, .string("80,0,0"), []),
            0xDF24: describe(.fujiRemoteVersion, .uint32(0x2000C), []),
            0xD209: describe(.fujiAFStatus, .uint16(afStatus), []),
            0xD208: describe(.fujiCameraAction, .uint16(0), []),
        ]
    }

    /// Serves the client until it closes: the init, the session, and every request after.
    func serve(_ peer: FujiScriptedPeer.Peer) throws {
        var deviceInfo = Self.deviceInfo
        if propertyDescriptions != nil { deviceInfo.operationsSupported.append(.fujiGetDeviceInfo) }
        try peer.accept(deviceInfo: deviceInfo)
        while let (header, payload) = try? peer.expect(.command) {
            let parameters = try FujiWiFiPacket.parameters(in: payload)
            var data: [UInt8]?
            if header.code == PTPOperationCode.setDevicePropValue.rawValue {
                data = try peer.expect(.data).payload
            }
            requests.withLock { $0.append(Request(code: header.code, parameters: parameters, data: data)) }
            try answer(PTPOperationCode(rawValue: header.code), parameters, data, header.transactionID, peer)
        }
    }

    private func answer(
        _ code: PTPOperationCode, _ parameters: [UInt32], _ data: [UInt8]?, _ id: UInt32, _ peer: FujiScriptedPeer.Peer
    ) throws {
        let property = parameters.first.flatMap { UInt16(exactly: $0) }
        switch code {
        case .getDevicePropDesc:
            guard let property, let description = properties[property] else {
                return try peer.respond(.devicePropNotSupported, id)
            }
            try peer.sendData(try description.encoded(), code, id)
        case .getDevicePropValue:
            guard let property, let description = properties[property] else {
                return try peer.respond(.devicePropNotSupported, id)
            }
            var writer = PTPDataWriter()
            try writer.append(value: description.currentValue)
            try peer.sendData(writer.bytes, code, id)
        case .setDevicePropValue:
            guard let property, let data else { return try peer.respond(.parameterNotSupported, id) }
            if property == PTPDevicePropertyCode.fujiClientState.rawValue, data.count == 2,
                refusedClientStates.contains(UInt16(data[0]) | UInt16(data[1]) << 8)
            {
                return try peer.respond(.accessDenied, id)
            }
            if let description = properties[property] {
                var reader = PTPDataReader(data, reading: "test")
                properties[property]?.currentValue = try reader.readValue(of: description.dataType)
            }
            try peer.respond(.ok, id)
        case .fujiGetDeviceInfo:
            guard let propertyDescriptions else { return try peer.respond(.operationNotSupported, id) }
            try peer.sendData(propertyDescriptions, code, id)
        case .initiateOpenCapture:
            // The event port opens before the answer goes out, as the client connects as soon as it has it.
            try peer.acceptEvents { try peer.respond(.ok, id) }
        case .initiateCapture:
            try peer.respond(.ok, id)
            let shot = properties[PTPDevicePropertyCode.fujiCameraAction.rawValue]?.currentValue == .uint16(0x0304)
            if shot {
                handles.append((handles.max() ?? 0) + 1)
                try peer.sendEvent(.objectAdded, parameters: [handles.last!])
            }
        case .getStorageIDs:
            var writer = PTPDataWriter()
            writer.append(UInt32(1))
            writer.append(UInt32(0x1_0001))
            try peer.sendData(writer.bytes, code, id)
        case .getObjectHandles:
            var writer = PTPDataWriter()
            writer.append(UInt32(handles.count))
            for handle in handles { writer.append(handle) }
            try peer.sendData(writer.bytes, code, id)
        case .getObjectInfo:
            let info = PTPObjectInfo(
                storageID: 0x1_0001, format: .exifJPEG, compressedSize: 4, parentObject: 0,
                filename: "DSCF000\(parameters.first ?? 0).JPG")
            try peer.sendData(try info.encoded(), code, id)
        case .getStorageInfo:
            let info = PTPStorageInfo(
                storageType: 4, filesystemType: 2, accessCapability: 0, maximumCapacity: 1 << 30,
                freeSpaceInBytes: 1 << 29, freeSpaceInImages: 500, storageDescription: "SD1", volumeLabel: "")
            try peer.sendData(try info.encoded(), code, id)
        default:
            try peer.respond(.ok, id)
        }
    }
}
