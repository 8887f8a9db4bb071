import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// The client against the simulator over loopback TCP: storages, objects and captures.
@Suite struct SimulatorStorageTests {
    @Test func deviceInfoDescribesTheIdentity() async throws {
        try await SimulatorHarness.run(.init(identity: .nikon, model: "Test Body", sampleImageCount: 0)) { harness in
            let info = harness.session.deviceInfo
            #expect(info.vendorExtensionID == 0x0A)
            #expect(info.manufacturer == "Nikon Corporation")
            #expect(info.model == "Test Body")
            #expect(info.supports(.nikonGetLiveViewImage))
            #expect(info.supports(.nikonLiveViewStatus))
            #expect(info.supports(.exposureIndex))
            #expect((harness.session.transport as? PTPIPTransport)?.responderName == "Test Body")
        }
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            #expect(harness.session.deviceInfo.vendorExtensionID == 0)
            #expect(!harness.session.deviceInfo.supports(.nikonStartLiveView))
            let code = await responseCode { _ = try await harness.session.transaction(.nikonStartLiveView) }
            #expect(code == .operationNotSupported)
        }
    }

    @Test func storageHasADCIMTree() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 2)) { harness in
            let session = harness.session
            let storages = try await session.storageIDs()
            #expect(storages == [0x0001_0001])
            let info = try await session.storageInfo(storages[0])
            #expect(info.filesystemType == 3)
            #expect(info.freeSpaceInBytes < info.maximumCapacity)
            #expect(await responseCode { _ = try await session.storageInfo(7) } == .invalidStorageID)

            let root = try await session.objectHandles(parent: 0xFFFF_FFFF)
            #expect(root.count == 1)
            let dcim = try await session.objectInfo(root[0])
            #expect(dcim.filename == "DCIM")
            #expect(dcim.isFolder)
            let folders = try await session.objectHandles(parent: root[0])
            let folder = try await session.objectInfo(folders[0])
            #expect(folder.filename == "100VFNDR")
            #expect(folder.parentObject == root[0])
            let files = try await session.objectHandles(parent: folders[0])
            #expect(files.count == 2)
            #expect(try await session.objectHandles().count == 4)
            #expect(try await session.objectHandles(format: .exifJPEG) == files)
            #expect(try await session.numberOfObjects(parent: folders[0]) == 2)
            #expect(await responseCode { _ = try await session.objectHandles(storageID: 9) } == .invalidStorageID)
            #expect(
                await responseCode { _ = try await session.objectHandles(parent: files[0]) } == .invalidParentObject)

            let file = try await session.objectInfo(files[0])
            #expect(file.filename == "DSC_0001.JPG")
            #expect(file.format == .exifJPEG)
            #expect(file.imagePixelWidth == 3008)
            #expect(file.thumbFormat == .jfif)
        }
    }

    @Test func objectsDownloadWholeAndInPieces() async throws {
        try await SimulatorHarness.run { harness in
            let session = harness.session
            let handle = try await session.objectHandles(format: .exifJPEG)[0]
            let stored = try #require(harness.simulator.objectData(handle))
            let info = try await session.objectInfo(handle)
            #expect(Int(info.compressedSize) == stored.count)

            let whole = try await session.object(handle)
            #expect(whole == stored)
            let measured = try #require(JPEGProbe.measure(whole))
            #expect(measured.width == 3008)
            #expect(measured.height == 2000)

            var pieces: [UInt8] = []
            while pieces.count < stored.count {
                let piece = try await session.partialObject(handle, offset: UInt32(pieces.count), maximumLength: 40_000)
                #expect(!piece.isEmpty)
                pieces += piece
            }
            #expect(pieces == stored)
            let result = try await session.transaction(
                .getPartialObject, parameters: [handle, UInt32(stored.count - 10), 1000])
            #expect(result.data == Array(stored.suffix(10)))
            #expect(result.response.parameters == [10])
            let beyond = await responseCode {
                _ = try await session.partialObject(handle, offset: UInt32(stored.count + 1), maximumLength: 1)
            }
            #expect(beyond == .invalidParameter)

            let streamed = Locked<[UInt8]>([])
            _ = try await session.transaction(.getObject, parameters: [handle]) { chunk in
                streamed.withLock { $0.append(contentsOf: chunk) }
            }
            #expect(streamed.withLock { $0 } == stored)

            let thumbnail = try await session.thumbnail(handle)
            let thumb = try #require(JPEGProbe.measure(thumbnail))
            #expect(thumb.width == Int(info.thumbPixelWidth))
            #expect(thumb.height == Int(info.thumbPixelHeight))
        }
    }

    @Test func unknownHandlesAreRefused() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            #expect(await responseCode { _ = try await session.objectInfo(0xDEAD) } == .invalidObjectHandle)
            #expect(await responseCode { _ = try await session.object(0xDEAD) } == .invalidObjectHandle)
            #expect(await responseCode { _ = try await session.thumbnail(0xDEAD) } == .invalidObjectHandle)
            #expect(await responseCode { try await session.deleteObject(0xDEAD) } == .invalidObjectHandle)
            let folder = try await session.objectHandles(parent: 0xFFFF_FFFF)[0]
            #expect(await responseCode { try await session.deleteObject(folder) } == .accessDenied)
            #expect(session.state == .open)
        }
    }

    @Test func deleteRemovesTheObjectAndSaysSo() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 2)) { harness in
            let session = harness.session
            let files = try await session.objectHandles(format: .exifJPEG)
            try await session.deleteObject(files[0])
            _ = try await harness.events.next(.objectRemoved, parameter: files[0])
            #expect(try await session.objectHandles(format: .exifJPEG) == [files[1]])
            #expect(await responseCode { _ = try await session.objectInfo(files[0]) } == .invalidObjectHandle)
            #expect(harness.simulator.objectData(files[0]) == nil)
        }
    }

    @Test func captureAddsARealJPEGAndReportsIt() async throws {
        let archive = "/tmp/viewfinder-capture-test-\(UInt32.random(in: 0...UInt32.max))"
        try makeDirectory(archive)
        defer { removeDirectory(archive) }
        try await SimulatorHarness.run(.init(sampleImageCount: 0, captureArchiveDirectory: archive)) { harness in
            let session = harness.session
            let transaction = try await session.initiateCapture()
            let added = try await harness.events.next(.objectAdded)
            let complete = try await harness.events.next(.captureComplete)
            #expect(complete.transactionID == transaction)
            let handle = try #require(added.parameters.first)
            let info = try await session.objectInfo(handle)
            #expect(info.filename == "DSC_0001.JPG")
            let downloaded = try await session.object(handle)
            #expect(downloaded == harness.simulator.objectData(handle))
            #expect(try readFile("\(archive)/DSC_0001.JPG") == downloaded)
            #expect(JPEGProbe.measure(downloaded)?.width == 3008)
            #expect(try await session.objectHandles(format: .exifJPEG) == [handle])
        }
    }

    @Test func captureOptionsAreValidated() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            let wrongStorage = await responseCode { _ = try await session.initiateCapture(storageID: 5) }
            #expect(wrongStorage == .invalidStorageID)
            let wrongFormat = await responseCode { _ = try await session.initiateCapture(format: .quickTime) }
            #expect(wrongFormat == .invalidObjectFormatCode)
        }
    }

    @Test func aSecondClientIsRefusedWhileTheFirstIsConnected() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let configuration = SimulatorHarness.clientConfiguration(harness.simulator)
            let error = await #expect(throws: ViewfinderError.self) {
                try await PTPSession.connect(to: "127.0.0.1", configuration: configuration)
            }
            #expect(error?.code == .deviceBusy)
            await harness.session.close()
            let second = try await PTPSession.connect(to: "127.0.0.1", configuration: configuration)
            #expect(try await second.storageIDs() == [0x0001_0001])
            await second.close()
        }
    }

    @Test func operationsNeedAnOpenSession() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            let session = harness.session
            _ = try await session.transaction(.closeSession)
            #expect(await responseCode { _ = try await session.storageIDs() } == .sessionNotOpen)
            _ = try await session.transaction(.getDeviceInfo)
            _ = try await session.transaction(.openSession, parameters: [9])
            #expect(
                await responseCode { _ = try await session.transaction(.openSession, parameters: [9]) }
                    == .sessionAlreadyOpen)
            #expect(try await session.storageIDs() == [0x0001_0001])
        }
    }

    @Test func largeObjectsAddedByTheHostDownloadIntact() async throws {
        try await SimulatorHarness.run(.init(sampleImageCount: 0)) { harness in
            // Made in a plain loop: a closure per byte took seconds of a cooperative thread under the thread sanitizer.
            let bytes = [UInt8](unsafeUninitializedCapacity: 9_000_000) { buffer, count in
                for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
                count = buffer.count
            }
            let handle = try harness.simulator.addObject(named: "DSC_9000.NEF", data: bytes)
            _ = try await harness.events.next(.objectAdded, parameter: handle)
            let progress = Locked<[PTPTransferProgress]>([])
            let downloaded = try await harness.session.object(handle) { report in
                progress.withLock { $0.append(report) }
            }
            #expect(downloaded == bytes)
            #expect(progress.withLock { $0.last?.completedBytes } == bytes.count)
            #expect(progress.withLock { $0.count } > 1)
        }
    }
}
