import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// The bulk forms of a folder's listing, one request for the whole folder: MTP's ObjectPropList and Canon EOS's
/// GetObjectInfoEx records, as datasets.
@Suite struct BulkListingDatasetTests {
    @Test func anObjectPropListGivesEachObjectsInfoInTheCamerasOrder() throws {
        let list = MTPObjectPropList(elements: [
            .init(handle: 9, property: .storageID, value: .uint32(0x0001_0001)),
            .init(handle: 9, property: .objectFormat, value: .uint16(0x3801)),
            .init(handle: 9, property: .objectFileName, value: .string("DSC_0009.JPG")),
            .init(handle: 9, property: .objectSize, value: .uint64(5 << 30)),
            .init(handle: 9, property: .parentObject, value: .uint32(2)),
            .init(handle: 9, property: .dateModified, value: .string("20240131T154502")),
            .init(handle: 4, property: .objectFormat, value: .uint16(0x3001)),
            .init(handle: 4, property: .storageID, value: .uint32(0x0001_0001)),
            .init(handle: 4, property: .objectFileName, value: .string("100NIKON")),
            .init(handle: 7, property: .storageID, value: .uint32(0x0001_0001)),
        ])
        let decoded = try MTPObjectPropList(decoding: try list.encoded())
        #expect(decoded == list)
        let objects = decoded.objects
        #expect(objects.map(\.handle) == [9, 4, 7])
        let file = try #require(objects[0].info)
        #expect(file.filename == "DSC_0009.JPG" && file.format == .exifJPEG && file.parentObject == 2)
        #expect(file.compressedSize == 0xFFFF_FFFF && objects[0].size == 5 << 30)
        #expect(file.captureDate == "20240131T154502")
        #expect(objects[1].info?.isFolder == true && objects[1].size == nil)
        // Without a format and a name, the list does not describe the object.
        #expect(objects[2].info == nil)
    }

    /// A camera asked for every property includes its 128-bit ones, such as the persistent unique identifier; they
    /// are skipped, and a count beyond what the bytes hold is malformed before anything is allocated.
    @Test func oneHundredTwentyEightBitValuesAreSkippedAndLyingCountsAreMalformed() throws {
        var writer = PTPDataWriter()
        writer.append(UInt32(3))
        writer.append(UInt32(5))
        writer.append(UInt16(0xDC41))
        writer.append(UInt16(0x000A))
        writer.append(bytes: [UInt8](repeating: 0xAB, count: 16))
        writer.append(UInt32(5))
        writer.append(UInt16(0xDC07))
        writer.append(UInt16(0xFFFF))
        try writer.append(string: "A.JPG")
        writer.append(UInt32(5))
        writer.append(UInt16(0xDC42))
        writer.append(UInt16(0x400A))
        writer.append(UInt32(2))
        writer.append(bytes: [UInt8](repeating: 0xCD, count: 32))
        let list = try MTPObjectPropList(decoding: writer.bytes)
        #expect(list.elements == [.init(handle: 5, property: .objectFileName, value: .string("A.JPG"))])

        var lying = PTPDataWriter()
        lying.append(UInt32.max)
        lying.append(UInt32(5))
        let error = #expect(throws: ViewfinderError.self) { try MTPObjectPropList(decoding: lying.bytes) }
        #expect(error?.code == .malformedData)
        let cut = Array(writer.bytes.dropLast(3))
        #expect(throws: ViewfinderError.self) { try MTPObjectPropList(decoding: cut) }
    }

    /// The record libgphoto2's ptp-pack.c shows from a real EOS camera's answer, read where libgphoto2 reads it.
    @Test func aCanonRecordIsReadAsLibgphoto2ReadsIt() throws {
        let record: [UInt8] = [
            0x38, 0x00, 0x00, 0x00, 0x72, 0x0C, 0x74, 0x92, 0x01, 0x00, 0x02, 0x00, 0x01, 0x38, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0x19, 0xD5, 0x21, 0x00, 0x00, 0x00, 0x74, 0x92,
            0x70, 0x0C, 0x74, 0x92, 0x49, 0x4D, 0x47, 0x5F, 0x30, 0x31, 0x39, 0x39, 0x2E, 0x4A, 0x50, 0x47,
            0x00, 0x00, 0x00, 0x00, 0x10, 0x7C, 0x98, 0x4D,
        ]
        let entries = try CanonEOSObjectEntry.list(decoding: [1, 0, 0, 0] + record)
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.handle == 0x9274_0C72 && entry.storageID == 0x0002_0001 && entry.format == .exifJPEG)
        #expect(entry.flags == 0x21 && entry.size == 2_217_241 && entry.filename == "IMG_0199.JPG")
        #expect(entry.time == 0x4D98_7C10)
        let info = entry.objectInfo(parent: 0x9274_0000)
        #expect(info.protectionStatus == 1 && info.parentObject == 0x9274_0000)
        #expect(info.captureDate == PTPDate.string(secondsSince1970: 0x4D98_7C10))
        #expect(try CanonEOSObjectEntry.list(decoding: CanonEOSObjectEntry.encoded([entry], parent: 1)) == [entry])
        // An empty answer is an empty folder.
        #expect(try CanonEOSObjectEntry.list(decoding: []).isEmpty)
    }

    @Test func canonRecordsThatLieAboutTheirLengthAreMalformed() {
        let entry = CanonEOSObjectEntry(
            handle: 1, storageID: 1, format: .exifJPEG, size: 10, filename: "IMG_0001.JPG", time: 0)
        let bytes = CanonEOSObjectEntry.encoded([entry], parent: 0)
        var short = bytes
        short[4] = 20  // a record shorter than its fields
        var long = bytes
        long[4] = 200  // a record running past the end
        var many = bytes
        many[0] = 0xFF  // more records than the bytes hold
        for bad in [short, long, many] {
            let error = #expect(throws: ViewfinderError.self) { try CanonEOSObjectEntry.list(decoding: bad) }
            #expect(error?.code == .malformedData)
        }
    }
}

extension SimulatedCameraTests {
    /// Folders listed with one request where the camera offers a bulk form, against the simulated camera: the same
    /// items as one GetObjectInfo per object, in fewer requests, and object by object where the camera refuses it.
    @Suite(.timeLimit(.minutes(3))) struct BulkListingTests {
        /// The camera folder's items and the requests the camera answered meanwhile.
        static func listing(
            _ configuration: CameraSimulator.Configuration
        ) async throws -> (items: [CameraFileItem], answered: [PTPOperationCode: Int]) {
            try await CameraHarness.run(configuration) { harness in
                for index in 0..<20 {
                    _ = try harness.simulator.addObject(named: "EXTRA\(index).JPG", format: .exifJPEG, data: [1, 2])
                }
                let codes: [PTPOperationCode] = [
                    .getObjectHandles, .getObjectInfo, .getObjectPropList, .canonEOSGetObjectInfoEx,
                ]
                let before = codes.map { harness.simulator.requestsAnswered($0) }
                let (_, items) = try await PTPIPCameraFileTests.cameraFolder(of: harness.camera)
                var answered: [PTPOperationCode: Int] = [:]
                for (code, count) in zip(codes, before) {
                    answered[code] = harness.simulator.requestsAnswered(code) - count
                }
                return (items, answered)
            }
        }

        /// What a listing says of an item but its pixel size, which the bulk forms do not carry, and its date, which
        /// is when each simulator made its card; the date must be one, though.
        static func described(_ items: [CameraFileItem]) -> [CameraFileItem] {
            items.map { item in
                var item = item
                #expect(item.captureDate.flatMap(PTPDate.secondsSince1970) != nil, "\(item)")
                item.pixelSize = nil
                item.captureDate = nil
                return item
            }
        }

        @Test func aCameraThatSpeaksMTPListsAFolderWithOneGetObjectPropList() async throws {
            var configuration = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 2)
            let (objectByObject, _) = try await Self.listing(configuration)
            configuration.speaksMTP = true
            let (bulk, answered) = try await Self.listing(configuration)
            #expect(bulk.count == 22)
            #expect(Self.described(bulk) == Self.described(objectByObject))
            // DCIM, the camera folder and its files: a request each, none per object.
            #expect(answered[.getObjectPropList] == 3)
            #expect(answered[.getObjectInfo] == 0 && answered[.getObjectHandles] == 0)
        }

        @Test func aCanonListsAFolderWithOneGetObjectInfoEx() async throws {
            var configuration = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 2)
            let (bulk, answered) = try await Self.listing(configuration)
            configuration.deviceInfoChanges = { $0.operationsSupported.removeAll { $0 == .canonEOSGetObjectInfoEx } }
            let (objectByObject, _) = try await Self.listing(configuration)
            #expect(bulk.count == 22)
            #expect(bulk.map(\.name).prefix(2) == ["IMG_0001.JPG", "IMG_0002.JPG"])
            #expect(Self.described(bulk) == Self.described(objectByObject))
            #expect(answered[.canonEOSGetObjectInfoEx] == 3)
            #expect(answered[.getObjectInfo] == 0 && answered[.getObjectHandles] == 0)
        }

        /// A camera that lists the bulk form in its DeviceInfo but refuses it is listed object by object.
        @Test(arguments: [PTPOperationCode.getObjectPropList, .canonEOSGetObjectInfoEx])
        func aRefusedBulkFormFallsBackToOneRequestPerObject(_ refused: PTPOperationCode) async throws {
            var configuration = CameraSimulator.Configuration(
                identity: refused == .getObjectPropList ? .nikon : .canon, sampleImageCount: 2)
            configuration.speaksMTP = refused == .getObjectPropList
            configuration.refusedOperations = [refused]
            let (items, answered) = try await Self.listing(configuration)
            #expect(items.count == 22)
            #expect(items.allSatisfy { $0.kind == .jpegImage && ($0.byteCount ?? 0) > 0 })
            #expect(answered[refused] == 3)
            #expect(answered[.getObjectHandles] == 3 && answered[.getObjectInfo] == 24)
        }
    }
}
