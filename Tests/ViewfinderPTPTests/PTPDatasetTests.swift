import Testing
import ViewfinderCore

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

@Suite struct PTPDatasetTests {
    static let deviceInfo = PTPDeviceInfo(
        vendorExtensionID: 0x0A, vendorExtensionVersion: 100, vendorExtensionDescription: "microsoft.com: 1.0",
        operationsSupported: [.getDeviceInfo, .openSession, .nikonGetLiveViewImage],
        eventsSupported: [.objectAdded, .captureComplete], devicePropertiesSupported: [.exposureIndex, .fNumber],
        captureFormats: [.exifJPEG], imageFormats: [.exifJPEG, .association], manufacturer: "Nikon Corporation",
        model: "D7500", deviceVersion: "V1.00", serialNumber: "0000123456")
    static let deviceInfoWithoutStrings = {
        var info = deviceInfo
        (info.manufacturer, info.model, info.deviceVersion, info.serialNumber) = ("", "", "", "")
        return info
    }()

    @Test func deviceInfoRoundTrips() throws {
        let bytes = try Self.deviceInfo.encoded()
        let decoded = try PTPDeviceInfo(decoding: bytes)
        #expect(decoded == Self.deviceInfo)
        #expect(decoded.supports(.nikonGetLiveViewImage))
        #expect(!decoded.supports(.getThumb))
        #expect(decoded.supports(.fNumber))
    }

    @Test func deviceInfoCutInItsFixedPartIsMalformed() throws {
        let bytes = try Self.deviceInfo.encoded()
        let stringsStart = try Self.deviceInfoWithoutStrings.encoded().count - 4
        expectEveryTruncationIsMalformed(Array(bytes[..<stringsStart])) { try PTPDeviceInfo(decoding: $0) }
    }

    /// Cameras leave DeviceInfo's last strings out or cut them short, and libgphoto2 reads it without them: each
    /// string before the cut is kept, the one cut and the rest are empty.
    @Test func deviceInfoWithoutItsTrailingStringsDecodes() throws {
        let bytes = try Self.deviceInfo.encoded()
        let stringsStart = try Self.deviceInfoWithoutStrings.encoded().count - 4
        let strings = { (info: PTPDeviceInfo) in [info.manufacturer, info.model, info.deviceVersion, info.serialNumber]
        }
        let whole = strings(Self.deviceInfo)
        var ends: [Int] = []
        var end = stringsStart
        for text in whole {
            end += 1 + (text.isEmpty ? 0 : 2 * (text.utf16.count + 1))
            ends.append(end)
        }
        for cut in stringsStart..<bytes.count {
            let decoded = try PTPDeviceInfo(decoding: Array(bytes[..<cut]))
            #expect(decoded.operationsSupported == Self.deviceInfo.operationsSupported, "cut at \(cut)")
            let kept = ends.filter { $0 <= cut }.count
            #expect(
                strings(decoded) == Array(whole.prefix(kept)) + Array(repeating: "", count: 4 - kept), "cut at \(cut)")
        }
    }

    @Test func stringsRoundTripIncludingEmptyAndNonASCII() throws {
        for text in ["", "a", "Grüße", "ISO 📷", String(repeating: "x", count: 254)] {
            var writer = PTPDataWriter()
            try writer.append(string: text)
            var reader = PTPDataReader(writer.bytes, reading: "string")
            #expect(try reader.readString() == text)
            #expect(reader.isAtEnd)
        }
        var empty = PTPDataWriter()
        try empty.append(string: "")
        #expect(empty.bytes == [0])
        var long = PTPDataWriter()
        #expect(throws: ViewfinderError.self) { try long.append(string: String(repeating: "x", count: 255)) }
    }

    @Test func stringWithoutNulIsMalformed() {
        var reader = PTPDataReader([2, 0x41, 0, 0x42, 0], reading: "string")
        #expect(malformed { try reader.readString() })
    }

    @Test func hugeArrayCountIsRejectedBeforeAllocating() {
        var reader = PTPDataReader([0xFF, 0xFF, 0xFF, 0xFF, 1, 0], reading: "array")
        #expect(malformed { try reader.readArray(of: UInt16.self) })
        var values = PTPDataReader([0xFF, 0xFF, 0xFF, 0x7F], reading: "array")
        #expect(malformed { try values.readValue(of: .array(of: .uint64)) })
    }

    static let integerDescriptions: [PTPDevicePropertyDescription] = [
        .init(
            code: .batteryLevel, dataType: .uint8, isSettable: false, factoryDefaultValue: .uint8(100),
            currentValue: .uint8(87), form: .range(minimum: .uint8(0), maximum: .uint8(100), step: .uint8(1))),
        .init(
            code: .exposureIndex, dataType: .uint16, isSettable: true, factoryDefaultValue: .uint16(100),
            currentValue: .uint16(800), form: .enumeration([.uint16(100), .uint16(800), .uint16(0xFFFF)])),
        .init(
            code: .exposureBiasCompensation, dataType: .int16, isSettable: true, factoryDefaultValue: .int16(0),
            currentValue: .int16(-333), form: .enumeration([.int16(-5000), .int16(-333), .int16(0), .int16(5000)])),
        .init(
            code: .exposureTime, dataType: .uint32, isSettable: false, factoryDefaultValue: .uint32(80),
            currentValue: .uint32(300_000), form: .enumeration([.uint32(1), .uint32(80), .uint32(300_000)])),
        .init(
            code: PTPDevicePropertyCode(0xD001), dataType: .int8, isSettable: true, factoryDefaultValue: .int8(-1),
            currentValue: .int8(3), form: .range(minimum: .int8(-3), maximum: .int8(3), step: .int8(1))),
        .init(
            code: PTPDevicePropertyCode(0xD002), dataType: .int32, isSettable: true, factoryDefaultValue: .int32(0),
            currentValue: .int32(-70000), form: .none),
        .init(
            code: PTPDevicePropertyCode(0xD003), dataType: .int64, isSettable: true, factoryDefaultValue: .int64(0),
            currentValue: .int64(.min), form: .range(minimum: .int64(.min), maximum: .int64(0), step: .int64(2))),
        .init(
            code: PTPDevicePropertyCode(0xD004), dataType: .uint64, isSettable: false,
            factoryDefaultValue: .uint64(.max), currentValue: .uint64(5), form: .none),
        .init(
            code: .dateTime, dataType: .string, isSettable: true, factoryDefaultValue: .string("20240101T000000"),
            currentValue: .string("20250607T080910"), form: .none),
        .init(
            code: .imageSize, dataType: .string, isSettable: true, factoryDefaultValue: .string("6000x4000"),
            currentValue: .string("3008x2000"), form: .enumeration([.string("6000x4000"), .string("3008x2000")])),
        .init(
            code: PTPDevicePropertyCode(0xD005), dataType: .array(of: .uint16), isSettable: false,
            factoryDefaultValue: .array(.uint16, []), currentValue: .array(.uint16, [.uint16(1), .uint16(65535)]),
            form: .none),
    ]

    @Test(arguments: integerDescriptions)
    func devicePropertyDescriptionRoundTrips(_ description: PTPDevicePropertyDescription) throws {
        let bytes = try description.encoded()
        #expect(try PTPDevicePropertyDescription(decoding: bytes) == description)
        expectEveryTruncationIsMalformed(bytes) { try PTPDevicePropertyDescription(decoding: $0) }
    }

    @Test func formsAllowOnlyTheirValues() {
        let range = PTPDevicePropertyDescription.Form.range(minimum: .int16(-6), maximum: .int16(6), step: .int16(3))
        #expect(range.allows(.int16(-3)))
        #expect(!range.allows(.int16(-2)))
        #expect(!range.allows(.int16(9)))
        let enumeration = PTPDevicePropertyDescription.Form.enumeration([.uint16(100), .uint16(200)])
        #expect(enumeration.allows(.uint16(200)))
        #expect(!enumeration.allows(.uint16(123)))
        #expect(!enumeration.allows(.uint32(200)))
    }

    @Test func descriptionWithMismatchedValueTypeIsNotEncoded() {
        let wrong = PTPDevicePropertyDescription(
            code: .exposureIndex, dataType: .uint16, isSettable: true, factoryDefaultValue: .uint16(100),
            currentValue: .uint32(100), form: .none)
        #expect(throws: ViewfinderError.self) { try wrong.encoded() }
    }

    @Test func unknownFormFlagAndGetSetAreMalformed() throws {
        var bytes = try Self.integerDescriptions[1].encoded()
        let formOffset = 2 + 2 + 1 + 2 + 2
        bytes[formOffset] = 7
        #expect(malformed { try PTPDevicePropertyDescription(decoding: bytes) })
        var getSet = try Self.integerDescriptions[1].encoded()
        getSet[4] = 2
        #expect(malformed { try PTPDevicePropertyDescription(decoding: getSet) })
        var unknownType = try Self.integerDescriptions[1].encoded()
        unknownType[2] = 0x09
        #expect(malformed { try PTPDevicePropertyDescription(decoding: unknownType) })
    }

    @Test func enumerationCountIsCheckedBeforeAllocating() throws {
        var writer = PTPDataWriter()
        writer.append(UInt16(0x500F))
        writer.append(UInt16(0x0004))
        writer.append(UInt8(1))
        writer.append(UInt16(100))
        writer.append(UInt16(100))
        writer.append(UInt8(2))
        writer.append(UInt16(0xFFFF))
        #expect(malformed { try PTPDevicePropertyDescription(decoding: writer.bytes) })
    }

    @Test func storageInfoRoundTrips() throws {
        let info = PTPStorageInfo(
            storageType: 4, filesystemType: 3, accessCapability: 0, maximumCapacity: 64_000_000_000,
            freeSpaceInBytes: 12_345_678_901, freeSpaceInImages: 1234, storageDescription: "SD card",
            volumeLabel: "NIKON D7500")
        let bytes = try info.encoded()
        #expect(try PTPStorageInfo(decoding: bytes) == info)
        expectEveryTruncationIsMalformed(bytes) { try PTPStorageInfo(decoding: $0) }
    }

    @Test func objectInfoRoundTrips() throws {
        let info = PTPObjectInfo(
            storageID: 0x0001_0001, format: .exifJPEG, compressedSize: 2_345_678, thumbFormat: .jfif,
            thumbCompressedSize: 4567, thumbPixelWidth: 160, thumbPixelHeight: 120, imagePixelWidth: 6000,
            imagePixelHeight: 4000, imageBitDepth: 24, parentObject: 0x9000_0002, sequenceNumber: 3,
            filename: "DSC_0001.JPG", captureDate: "20250101T120000", modificationDate: "20250101T120001",
            keywords: "")
        let bytes = try info.encoded()
        let decoded = try PTPObjectInfo(decoding: bytes)
        #expect(decoded == info)
        #expect(!decoded.isFolder)
        let fixedLength = 52
        expectEveryTruncationIsMalformed(Array(bytes[..<fixedLength])) { try PTPObjectInfo(decoding: $0) }
        // The strings may be left out, as some cameras do: the fields before them still decode.
        let withoutStrings = try PTPObjectInfo(decoding: Array(bytes[..<fixedLength]))
        #expect(withoutStrings.compressedSize == info.compressedSize && withoutStrings.filename.isEmpty)
        let withName = try PTPObjectInfo(decoding: Array(bytes[..<(fixedLength + 1 + 2 * 13)]))
        #expect(withName.filename == "DSC_0001.JPG" && withName.captureDate.isEmpty)
    }

    @Test func codesDescribeThemselves() {
        #expect(PTPOperationCode.getObject.description == "GetObject (0x1009)")
        #expect(PTPResponseCode(0x2019).description == "DeviceBusy (0x2019)")
        #expect(PTPResponseCode(0xBEEF).description == "0xBEEF")
        #expect(PTPEventCode.objectAdded.description == "ObjectAdded (0x4002)")
        #expect(PTPDevicePropertyCode.exposureIndex.description == "ExposureIndex (0x500F)")
        #expect(PTPDataType.array(of: .uint16).description == "AUINT16")
        #expect(PTPDataType.array(of: .uint16).elementType == .uint16)
    }

    @Test func integerValuesConvertOnlyWhenTheyFit() {
        #expect(PTPValue(integer: 200, as: .uint8) == .uint8(200))
        #expect(PTPValue(integer: 300, as: .uint8) == nil)
        #expect(PTPValue(integer: -1, as: .uint16) == nil)
        #expect(PTPValue(integer: -1, as: .int16) == .int16(-1))
        #expect(PTPValue(integer: 1, as: .string) == nil)
        #expect(PTPValue.uint64(.max).integerValue == nil)
    }

    private func expectEveryTruncationIsMalformed(
        _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation, _ decode: ([UInt8]) throws -> Any
    ) {
        for cut in 0..<bytes.count {
            #expect(malformed { try decode(Array(bytes[..<cut])) }, "cut at \(cut)", sourceLocation: sourceLocation)
        }
    }
}
