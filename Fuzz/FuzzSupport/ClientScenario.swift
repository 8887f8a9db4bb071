import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

/// The transactions a client runs in the recorded sessions that seed the fuzz corpora, and that the client fuzzer
/// replays against fuzzed answers: every standard dataset, object transfers collected and streamed, property reads
/// and writes (one refused), Nikon live view, a capture and a deletion.
///
/// The object handles are those of a simulated Nikon camera started with no sample images and one added file: the
/// `DCIM` folder is 1, its camera folder 2 and the file 3.
public enum ClientScenario {
    /// What to do with a transaction's data-in phase.
    public enum Decoding: Sendable {
        /// Nothing, or no data expected.
        case none
        /// A DeviceInfo dataset.
        case deviceInfo
        /// An array of 32-bit integers, such as storage IDs or object handles.
        case handles
        /// A StorageInfo dataset.
        case storageInfo
        /// An ObjectInfo dataset.
        case objectInfo
        /// A DevicePropDesc dataset.
        case propertyDescription
        /// One value of a property of this type.
        case value(PTPDataType)
        /// A Nikon live view frame.
        case liveViewFrame
    }

    /// One transaction.
    public struct Step: Sendable {
        /// The operation.
        public var operation: PTPOperationCode
        /// Its parameters.
        public var parameters: [UInt32]
        /// The data-out phase, if any.
        public var dataOut: [UInt8]?
        /// How to read the data-in phase.
        public var decoding: Decoding
        /// Whether the data-in phase is handed to a consumer slice by slice instead of collected.
        public var streams: Bool

        /// Creates a step.
        public init(
            _ operation: PTPOperationCode, _ parameters: [UInt32] = [], sending dataOut: [UInt8]? = nil,
            _ decoding: Decoding = .none, streams: Bool = false
        ) {
            self.operation = operation
            self.parameters = parameters
            self.dataOut = dataOut
            self.decoding = decoding
            self.streams = streams
        }
    }

    /// The storage of the simulated camera.
    static let storage: UInt32 = 0x0001_0001

    /// The transactions after OpenSession and GetDeviceInfo, in order.
    public static let steps: [Step] = [
        Step(.getStorageIDs, [], .handles),
        Step(.getStorageInfo, [storage], .storageInfo),
        Step(.getNumObjects, [0xFFFF_FFFF, 0, 0]),
        Step(.getObjectHandles, [0xFFFF_FFFF, 0, 0], .handles),
        Step(.getObjectInfo, [1], .objectInfo),
        Step(.getObjectInfo, [3], .objectInfo),
        Step(.getObject, [3]),
        Step(.getObject, [3], streams: true),
        Step(.getPartialObject, [3, 100, 500]),
        Step(.getThumb, [3]),
        Step(.getObjectInfo, [0xDEAD], .objectInfo),
        Step(.getDevicePropDesc, [0x5001], .propertyDescription),
        Step(.getDevicePropDesc, [0x5003], .propertyDescription),
        Step(.getDevicePropDesc, [0x500D], .propertyDescription),
        Step(.getDevicePropDesc, [0x500F], .propertyDescription),
        Step(.getDevicePropDesc, [0x5010], .propertyDescription),
        Step(.getDevicePropDesc, [0x5011], .propertyDescription),
        Step(.getDevicePropDesc, [0xD1A2], .propertyDescription),
        Step(.getDevicePropValue, [0x500F], .value(.uint16)),
        Step(.getDevicePropValue, [0x5011], .value(.string)),
        Step(.getDevicePropValue, [0x5010], .value(.int16)),
        Step(.setDevicePropValue, [0x500F], sending: [0x20, 0x03]),
        Step(.setDevicePropValue, [0x500F], sending: [123, 0]),
        Step(.setDevicePropValue, [0x5011], sending: encoded(.string("20240102T030405"))),
        Step(.getDevicePropValue, [0x500F], .value(.uint16)),
        Step(.nikonStartLiveView),
        Step(.nikonDeviceReady),
        Step(.nikonGetLiveViewImage, [], .liveViewFrame),
        Step(.nikonGetLiveViewImage, [], .liveViewFrame, streams: true),
        Step(.nikonEndLiveView),
        Step(.nikonGetLiveViewImage, [], .liveViewFrame),
        Step(.initiateCapture, [0, 0]),
        Step(.deleteObject, [3, 0]),
        Step(.getObjectHandles, [0xFFFF_FFFF, 0, 0], .handles),
        Step(.closeSession),
    ]

    private static func encoded(_ value: PTPValue) -> [UInt8] {
        var writer = PTPDataWriter()
        try? writer.append(value: value)
        return writer.bytes
    }

    /// Decodes `data` as `decoding` says, so fuzzed answers reach every dataset decoder.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the data is not what the step expects.
    public static func decode(_ data: [UInt8], as decoding: Decoding) throws(ViewfinderError) {
        switch decoding {
        case .none:
            break
        case .deviceInfo:
            _ = try PTPDeviceInfo(decoding: data)
        case .handles:
            var reader = PTPDataReader(data, reading: "handles")
            _ = try reader.readArray(of: UInt32.self)
            try reader.expectEnd()
        case .storageInfo:
            _ = try PTPStorageInfo(decoding: data)
        case .objectInfo:
            _ = try PTPObjectInfo(decoding: data)
        case .propertyDescription:
            _ = try PTPDevicePropertyDescription(decoding: data)
        case .value(let type):
            var reader = PTPDataReader(data, reading: "a value")
            _ = try reader.readValue(of: type)
            try reader.expectEnd()
        case .liveViewFrame:
            _ = try PTPNikonLiveViewFrame(data: data)
        }
    }
}
