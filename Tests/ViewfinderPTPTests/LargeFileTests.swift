import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Checks downloaded pieces of a generated object against the pattern the simulator documents: each 4096-byte page
/// starts with its number as a little-endian 64-bit integer, and its other bytes are the number's low byte.
final class GeneratedContentChecker: Sendable {
    private struct State {
        var offset: UInt64 = 0
        var mismatch: String?
    }

    private let state = Locked(State())

    /// Checks the next piece: every page start in it, and one filler byte of every page.
    func check(_ chunk: [UInt8]) {
        state.withLock { state in
            guard state.mismatch == nil else { return }
            let start = state.offset
            chunk.withUnsafeBytes { bytes in
                let end = start + UInt64(bytes.count)
                var page = (start + 4095) / 4096
                while page * 4096 < end {
                    let at = Int(page * 4096 - start)
                    if at + 8 <= bytes.count {
                        let number = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                        if number != page {
                            state.mismatch = "page \(page) at offset \(page * 4096) starts with \(number)"
                            return
                        }
                    }
                    if at + 100 < bytes.count, bytes[at + 100] != UInt8(truncatingIfNeeded: page) {
                        state.mismatch = "byte \(page * 4096 + 100) is \(bytes[at + 100]), not \(page & 0xFF)"
                        return
                    }
                    page += 1
                }
            }
            state.offset += UInt64(chunk.count)
        }
    }

    var offset: UInt64 { state.withLock { $0.offset } }
    var mismatch: String? { state.withLock { $0.mismatch } }
}

extension SimulatedCameraTests {
    /// Files of 4 GiB and more, whose size ObjectInfo cannot hold, downloaded in pieces. (The memory a download holds
    /// meanwhile is checked out of the unit tests: by `make test-download` through the remote, and by ptp-benchmark.)
    @Suite(.timeLimit(.minutes(5))) struct LargeFileTests {
        static let fiveGiB: UInt64 = 5 << 30

        /// A simulator that says it speaks MTP, as cameras that know ObjectSize do.
        static func mtpConfiguration() -> CameraSimulator.Configuration {
            var configuration = CameraSimulator.Configuration(sampleImageCount: 0)
            configuration.deviceInfoChanges = { info in
                info.vendorExtensionDescription = "microsoft.com: 1.0"
                info.operationsSupported.append(.getObjectPropValue)
            }
            return configuration
        }

        @Test func aFiveGiBVideoListsItsSizeAndDownloadsInPieces() async throws {
            try await CameraHarness.run(Self.mtpConfiguration()) { harness in
                let handle = try harness.simulator.addGeneratedObject(
                    named: "MOVIE_0001.MOV", format: .quickTime, byteCount: Self.fiveGiB)
                let (_, files) = try await PTPIPCameraFileTests.cameraFolder(of: harness.camera)
                let item = try #require(files.first { $0.id == handle })
                #expect(item.byteCount == Self.fiveGiB)
                #expect(item.kind == .video)

                let checker = GeneratedContentChecker()
                let last = Locked<CameraTransferProgress?>(nil)
                try await harness.camera.download(item) { chunk, progress in
                    checker.check(chunk)
                    last.withLock { $0 = progress }
                }
                #expect(checker.mismatch == nil, "\(checker.mismatch ?? "")")
                #expect(checker.offset == Self.fiveGiB)
                #expect(
                    last.withLock { $0 }
                        == CameraTransferProgress(completedByteCount: Self.fiveGiB, totalByteCount: Self.fiveGiB))
            }
        }

        /// Without MTP the size is known only from GetObject's data phase, which PTP/IP announces in 64 bits.
        @Test func withoutObjectSizeTheDataPhaseGivesTheSize() async throws {
            try await CameraHarness.run(CameraSimulator.Configuration(sampleImageCount: 0)) { harness in
                let size: UInt64 = (4 << 30) + 12345
                let handle = try harness.simulator.addGeneratedObject(named: "MOVIE_0002.MOV", byteCount: size)
                let (_, files) = try await PTPIPCameraFileTests.cameraFolder(of: harness.camera)
                let item = try #require(files.first { $0.id == handle })
                #expect(item.byteCount == 0xFFFF_FFFF)
                let checker = GeneratedContentChecker()
                let totals = Locked<Set<UInt64>>([])
                try await harness.camera.download(item) { chunk, progress in
                    checker.check(chunk)
                    totals.withLock { _ = $0.insert(progress.totalByteCount) }
                }
                #expect(checker.mismatch == nil, "\(checker.mismatch ?? "")")
                #expect(checker.offset == size)
                #expect(totals.withLock { $0 } == [size])
            }
        }

        /// A camera without GetPartialObject streams every file; a handler that throws or a cancelled task stops
        /// the download, and the session goes on.
        ///
        /// A download given up sends PTP/IP's Cancel, so the camera stops sending the rest of the file instead of the
        /// client reading and dropping it.
        @Test func streamedDownloadsStopCleanlyAndTheSessionGoesOn() async throws {
            let cancellations = Locked(0)
            var configuration = CameraSimulator.Configuration(sampleImageCount: 1)
            configuration.deviceInfoChanges = { $0.operationsSupported.removeAll { $0 == .getPartialObject } }
            configuration.dataChunkSize = 1 << 20
            configuration.log = { line in
                if line.contains("cancelled by the client") { cancellations.withLock { $0 += 1 } }
            }
            let camera = PTPCamera.Configuration(downloadChunkSize: 64 << 10)
            try await CameraHarness.run(configuration, camera: camera) { harness in
                let big = try harness.simulator.addGeneratedObject(named: "BIG.MOV", byteCount: 256 << 20)
                let (_, files) = try await PTPIPCameraFileTests.cameraFolder(of: harness.camera)
                let photo = try #require(files.first { $0.kind == .jpegImage })
                let movie = try #require(files.first { $0.id == big })

                let collected = Locked<[UInt8]>([])
                let sizes = Locked<[Int]>([])
                try await harness.camera.download(photo) { chunk, _ in
                    collected.withLock { $0 += chunk }
                    sizes.withLock { $0.append(chunk.count) }
                }
                #expect(collected.withLock { $0 } == harness.simulator.objectData(photo.id))
                #expect(sizes.withLock { $0.dropLast().allSatisfy { $0 == 64 << 10 } })

                struct Enough: Error {}
                let handled = Locked(0)
                await #expect(throws: Enough.self) {
                    try await harness.camera.download(movie) { _, _ in
                        let count = handled.withLock { count in
                            count += 1
                            return count
                        }
                        if count == 3 { throw Enough() }
                    }
                }
                #expect(handled.withLock { $0 } == 3)
                try await waitUntil("the camera to stop the phase") { cancellations.withLock { $0 } == 1 }

                // Cancelled once the transfer is under way: its first piece has reached the handler.
                let pieces = Locked(0)
                let download = Task {
                    try await harness.camera.download(movie) { _, _ in
                        pieces.withLock { $0 += 1 }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                try await waitUntil("the first piece of the movie") { pieces.withLock { $0 } > 0 }
                download.cancel()
                let result = await download.result
                #expect(throws: (any Error).self) { try result.get() }

                try await waitUntil("the camera to stop the second phase") { cancellations.withLock { $0 } == 2 }
                // The session stopped both transfers and still works.
                let again = Locked<[UInt8]>([])
                try await harness.camera.download(photo) { chunk, _ in again.withLock { $0 += chunk } }
                #expect(again.withLock { $0 } == harness.simulator.objectData(photo.id))
            }
        }
    }

    /// The handoff between the session's I/O thread and a slow consumer holds a bounded number of chunks.
    @Suite struct ChunkHandoffTests {
        @Test func aSlowConsumerHoldsUpTheProducerInsteadOfGrowingTheQueue() async throws {
            let handoff = PTPChunkHandoff(chunkSize: 1000, capacity: 2)
            let produced = Locked(0)
            let producer = try PlatformThread(name: "producer") {
                let slice = [UInt8](repeating: 7, count: 250)
                for _ in 0..<400 {  // 100 chunks
                    slice.withUnsafeBytes { try? handoff.append($0) }
                    produced.withLock { $0 += 250 }
                }
                handoff.finish()
            }
            var consumed = 0
            var mostAhead = 0
            while let chunk = try await handoff.next() {
                #expect(chunk.count == 1000)
                consumed += chunk.count
                try await Task.sleep(for: .milliseconds(2))
                // The producer can be at most: the chunks waiting, plus the one it gathers.
                mostAhead = max(mostAhead, produced.withLock { $0 } - consumed)
            }
            producer.join()
            #expect(consumed == 100_000)
            #expect(mostAhead <= 1000 * (handoff.capacity + 1))
        }

        @Test func aStoppedConsumerMakesTheProducerThrowAndAFailureReachesTheConsumer() async throws {
            let handoff = PTPChunkHandoff(chunkSize: 10)
            struct Stop: Error {}
            handoff.stop(Stop())
            #expect(throws: Stop.self) {
                try [UInt8](repeating: 0, count: 5).withUnsafeBytes { try handoff.append($0) }
            }

            let failing = PTPChunkHandoff(chunkSize: 10, capacity: 3)
            try [UInt8](repeating: 1, count: 25).withUnsafeBytes { try failing.append($0) }
            failing.finish(throwing: ViewfinderError(.disconnected, "gone"))
            #expect(try await failing.next()?.count == 10)
            #expect(try await failing.next()?.count == 10)
            await #expect(throws: ViewfinderError.self) { _ = try await failing.next() }

            let ending = PTPChunkHandoff(chunkSize: 10)
            try [UInt8](repeating: 1, count: 15).withUnsafeBytes { try ending.append($0) }
            ending.finish()
            #expect(try await ending.next()?.count == 10)
            #expect(try await ending.next()?.count == 5)
            #expect(try await ending.next() == nil)
        }
    }
}
