import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

extension SimulatedCameraTests {
    /// The simulated camera's card: storages, folders, chunked downloads, thumbnails and deletion.
    @Suite(.timeLimit(.minutes(3))) struct PTPIPCameraFileTests {
        /// The camera folder of the card and the files in it.
        static func cameraFolder(of camera: PTPCamera) async throws -> (CameraStorage, [CameraFileItem]) {
            let storage = try #require(try await camera.storages().first)
            let top = try await camera.contents(of: nil, in: storage)
            let dcim = try #require(top.first { $0.name == "DCIM" })
            let folder = try #require(try await camera.contents(of: dcim, in: storage).first)
            return (storage, try await camera.contents(of: folder, in: storage))
        }

        @Test func theCardListsItsStoragesFoldersAndFiles() async throws {
            try await CameraHarness.run { harness in
                let storages = try await harness.camera.storages()
                #expect(storages.count == 1)
                let storage = try #require(storages.first)
                #expect(storage.storageDescription == "SD card")
                #expect(storage.volumeLabel == "VIEWFINDER")
                #expect(storage.isWritable)
                #expect(storage.capacityByteCount == 32_000_000_000)

                let top = try await harness.camera.contents(of: nil, in: storage)
                #expect(top.map(\.name) == ["DCIM"])
                #expect(top.first?.isFolder == true)
                #expect(top.first?.parentID == nil)
                let (_, files) = try await Self.cameraFolder(of: harness.camera)
                #expect(files.map(\.name) == ["DSC_0001.JPG", "DSC_0002.JPG"])
                #expect(files.allSatisfy { $0.kind == .jpegImage && ($0.byteCount ?? 0) > 0 && $0.captureDate != nil })
            }
        }

        @Test func downloadsComeInChunksWithProgress() async throws {
            let configuration = PTPCamera.Configuration(downloadChunkSize: 16 << 10)
            try await CameraHarness.run(camera: configuration) { harness in
                let (_, files) = try await Self.cameraFolder(of: harness.camera)
                let item = try #require(files.first)
                let chunks = Observed<(count: Int, progress: CameraTransferProgress)>()
                let collected = Locked<[UInt8]>([])
                try await harness.camera.download(item) { chunk, progress in
                    collected.withLock { $0 += chunk }
                    chunks.append((chunk.count, progress))
                }
                #expect(collected.withLock { $0 } == harness.simulator.objectData(item.id))
                let counts = chunks.all.map(\.count)
                #expect(counts.count > 2)
                #expect(counts.dropLast().allSatisfy { $0 == 16 << 10 })
                #expect(chunks.all.last?.progress.fractionCompleted == 1)
                #expect(
                    chunks.all.map(\.progress.completedByteCount)
                        == counts.indices.map {
                            UInt64(counts[...$0].reduce(0, +))
                        })

                // A handler that throws stops the download.
                let seen = Observed<Int>()
                await #expect(throws: CancellationError.self) {
                    try await harness.camera.download(item) { chunk, _ in
                        seen.append(chunk.count)
                        throw CancellationError()
                    }
                }
                #expect(seen.all.count == 1)
                // Whole files are refused above the limit given.
                let tooLarge = await #expect(throws: ViewfinderError.self) {
                    _ = try await harness.camera.downloadData(of: item, maximumByteCount: 1000)
                }
                #expect(tooLarge?.code == .invalidArgument)
            }
        }

        @Test func aDownloadToAFileAppearsUnderItsNameOnlyWhenComplete() async throws {
            let directory = "/tmp/viewfinder-tests-\(getpid())-download"
            try makeDirectory(directory)
            defer { removeDirectory(directory) }
            let configuration = PTPCamera.Configuration(downloadChunkSize: 16 << 10)
            try await CameraHarness.run(camera: configuration) { harness in
                let (_, files) = try await Self.cameraFolder(of: harness.camera)
                let item = try #require(files.first)
                let path = "\(directory)/\(item.name)"
                let sawPartial = Observed<Bool>()
                try await harness.camera.download(item, toFile: path) { _ in
                    sawPartial.append(access(path, F_OK) != 0 && access(path + ".partial", F_OK) == 0)
                }
                #expect(sawPartial.all.count > 2 && sawPartial.all.allSatisfy { $0 })
                #expect(try readFile(path) == harness.simulator.objectData(item.id))
                #expect(access(path + ".partial", F_OK) != 0)

                // A handler that fails leaves neither the file nor the partial file, and keeps an older file.
                let older: [UInt8] = [1, 2, 3]
                let replaced = "\(directory)/older.jpg"
                try writeFile(replaced, older)
                await #expect(throws: CancellationError.self) {
                    try await harness.camera.download(item, toFile: replaced) { _ in throw CancellationError() }
                }
                #expect(try readFile(replaced) == older)
                #expect(access(replaced + ".partial", F_OK) != 0)
                let missing = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.download(item, toFile: "\(directory)/no-such-folder/\(item.name)")
                }
                #expect(missing?.code == .notFound)
            }
        }

        @Test func thumbnailsAreSmallJPEGs() async throws {
            try await CameraHarness.run { harness in
                let (_, files) = try await Self.cameraFolder(of: harness.camera)
                let item = try #require(files.first)
                let thumbnail = try await harness.camera.thumbnail(of: item)
                #expect(thumbnail.prefix(2) == [0xFF, 0xD8])
                #expect(thumbnail.count < Int(item.byteCount ?? 0))
                let measured = try #require(JPEGProbe.measure(thumbnail[...]))
                #expect(measured.width == 160)
            }
        }

        @Test func deletingRemovesTheFileAndFoldersAreProtected() async throws {
            try await CameraHarness.run { harness in
                let camera = harness.camera
                let (storage, files) = try await Self.cameraFolder(of: camera)
                let item = try #require(files.first)
                try await camera.delete(item)
                #expect(harness.simulator.objectData(item.id) == nil)
                let (_, remaining) = try await Self.cameraFolder(of: camera)
                #expect(remaining.map(\.name) == ["DSC_0002.JPG"])

                let gone = await #expect(throws: ViewfinderError.self) { _ = try await camera.downloadData(of: item) }
                #expect(gone?.code == .notFound)
                let dcim = try #require(try await camera.contents(of: nil, in: storage).first)
                let protected = await #expect(throws: ViewfinderError.self) { try await camera.delete(dcim) }
                #expect(protected?.code == .permissionDenied)
                let folder = await #expect(throws: ViewfinderError.self) { _ = try await camera.downloadData(of: dcim) }
                #expect(folder?.code == .invalidArgument)
            }
        }

        @Test func filesNeedAConnection() async throws {
            let camera = PTPCamera(host: "127.0.0.1")
            let error = await #expect(throws: ViewfinderError.self) { _ = try await camera.storages() }
            #expect(error?.code == .notConnected)
        }
    }
}
