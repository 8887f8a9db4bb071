import Synchronization
import Testing

@testable import ViewfinderCore

@Suite struct PixelFormatTests {
    @Test func fourCharacterCodesPackFirstCharacterLowest() {
        let code: FourCharacterCode = "NV12"
        #expect(code.rawValue == 0x3231_564E)
        #expect(code.description == "NV12")
        #expect(FourCharacterCode(rawValue: 0x0000_0001).description == "....")
    }

    @Test func stringsThatAreNotFourASCIICharactersAreRefused() {
        // Strings from a caller, not literals, which `FourCharacterCode("...")` would be.
        let strings = ["MJPG", "Y8", "NV12X", "Ä"]
        #expect(strings.map { FourCharacterCode($0)?.description } == ["MJPG", "Y8  ", nil, nil])
    }

    @Test func planeGeometryFollowsSubsampling() {
        #expect(PixelFormat.nv12FullRange.planes.count == 2)
        #expect(PixelFormat.nv12FullRange.bytesPerRow(ofPlane: 0, width: 641) == 641)
        #expect(PixelFormat.nv12FullRange.bytesPerRow(ofPlane: 1, width: 641) == 642)
        #expect(PixelFormat.nv12FullRange.planes[1].rows(height: 481) == 241)
        #expect(PixelFormat.i420.planes.count == 3)
        #expect(PixelFormat.i420.bytesPerRow(ofPlane: 2, width: 7) == 4)
        #expect(PixelFormat.yuyv.bytesPerRow(ofPlane: 0, width: 5) == 12)
        #expect(PixelFormat.rgb24.bytesPerRow(ofPlane: 0, width: 5) == 15)
        #expect(PixelFormat.bgra.bytesPerRow(ofPlane: 0, width: 5) == 20)
        #expect(PixelFormat.jpeg.isCompressed)
        #expect(!PixelFormat.gray8.isCompressed)
    }

    @Test func rangeDistinguishesFormatsWithOneCode() {
        #expect(PixelFormat.nv12FullRange != PixelFormat.nv12VideoRange)
        #expect(PixelFormat.nv12FullRange.fourCC == PixelFormat.nv12VideoRange.fourCC)
        #expect(Set(PixelFormat.allNamed).count == PixelFormat.allNamed.count)
    }
}

@Suite struct PixelBufferTests {
    @Test func ownedBufferIsSizedAndAlignedPerPlane() throws {
        let buffer = try PixelBuffer(width: 33, height: 17, format: .nv12FullRange, rowAlignment: 16) { planes in
            #expect(planes.count == 2)
            planes[0].bytes.initializeMemory(as: UInt8.self, repeating: 1)
            planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 2)
        }
        buffer.withUnsafePlanes { planes in
            #expect(planes[0].bytesPerRow == 48)
            #expect(planes[0].height == 17)
            #expect(planes[1].bytesPerRow == 48)
            #expect(planes[1].width == 17)
            #expect(planes[1].height == 9)
            #expect(planes[0].bytes.allSatisfy { $0 == 1 })
            #expect(planes[1].bytes.allSatisfy { $0 == 2 })
        }
    }

    @Test func rejectsSizesAndFormatsItCannotHold() {
        #expect(throws: ViewfinderError.self) { try PixelBuffer(width: 0, height: 4, format: .gray8) { _ in } }
        #expect(throws: ViewfinderError.self) { try PixelBuffer(width: 4, height: 4, format: .jpeg) { _ in } }
        #expect(throws: ViewfinderError.self) {
            try PixelBuffer(width: 4, height: 4, format: .gray8, rowAlignment: 3) { _ in }
        }
        #expect(throws: ViewfinderError.self) { try PixelBuffer(compressed: [UInt8](), width: 4, height: 4) }
    }

    @Test func compressedDataIsCopied() throws {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let buffer = try PixelBuffer(compressed: bytes, width: 8, height: 8)
        bytes[0] = 0
        #expect(buffer.withUnsafeBytes(ofPlane: 0) { Array($0) } == [0xFF, 0xD8, 0xFF, 0xD9])
        #expect(buffer.planeCount == 1)
    }

    @Test func borrowedMemoryIsReleasedOnceWhenTheLastCopyGoes() throws {
        let released = Atomic<Int>(0)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        let plane = PixelBuffer.Plane(
            baseAddress: UnsafeRawPointer(memory.baseAddress!), bytesPerRow: 8, width: 8, height: 8, byteCount: 64)
        var copy: PixelBuffer?
        do {
            let buffer = try PixelBuffer(width: 8, height: 8, format: .gray8, borrowing: [plane]) {
                released.add(1, ordering: .relaxed)
            }
            copy = buffer
        }
        #expect(released.load(ordering: .relaxed) == 0)
        #expect(copy?.width == 8)
        copy = nil
        #expect(released.load(ordering: .relaxed) == 1)
    }

    @Test func borrowedPlanesMustFitTheFormat() {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        let short = PixelBuffer.Plane(
            baseAddress: UnsafeRawPointer(memory.baseAddress!), bytesPerRow: 4, width: 4, height: 8, byteCount: 32)
        #expect(throws: ViewfinderError.self) {
            try PixelBuffer(width: 8, height: 8, format: .gray8, borrowing: [short]) {}
        }
        #expect(throws: ViewfinderError.self) {
            try PixelBuffer(width: 8, height: 8, format: .nv12FullRange, borrowing: [short]) {}
        }
    }

    /// Sizes and row lengths that would overflow the arithmetic that checks them are refused, not trapped on.
    @Test func absurdBorrowedGeometryIsRefused() {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        let base = UnsafeRawPointer(memory.baseAddress!)
        let huge = PixelBuffer.Plane(baseAddress: base, bytesPerRow: Int.max / 2, width: 8, height: 8, byteCount: 64)
        #expect(throws: ViewfinderError.self) {
            try PixelBuffer(width: 8, height: 8, format: .gray8, borrowing: [huge]) {}
        }
        let fits = PixelBuffer.Plane(baseAddress: base, bytesPerRow: 8, width: 8, height: 8, byteCount: 64)
        for (width, height) in [(Int.max, 8), (8, Int.max), (-1, 8), (1 << 20, 1)] {
            #expect(throws: ViewfinderError.self, "\(width)x\(height)") {
                try PixelBuffer(width: width, height: height, format: .gray8, borrowing: [fits]) {}
            }
        }
    }
}

@Suite struct PixelBufferPoolTests {
    @Test func handsOutAtMostCapacityAndReusesReleasedBuffers() throws {
        let pool = try PixelBufferPool(width: 16, height: 16, format: .nv12FullRange, capacity: 2)
        let first = try #require(pool.makeBuffer { _ in })
        var second = pool.makeBuffer { _ in }
        #expect(second != nil)
        #expect(pool.makeBuffer { _ in } == nil)
        #expect(pool.buffersInUse == 2)
        second = nil
        let third = try #require(pool.makeBuffer { $0[0].bytes.initializeMemory(as: UInt8.self, repeating: 9) })
        #expect(!third.isSameBuffer(as: first))
        #expect(third.withUnsafeBytes(ofPlane: 0) { $0[0] } == 9)
        #expect(pool.buffersInUse == 2)
    }

    @Test func aFailedFillLeavesTheBufferInThePool() throws {
        struct Refused: Error {}
        let pool = try PixelBufferPool(width: 4, height: 4, format: .gray8, capacity: 1)
        #expect(throws: Refused.self) { try pool.makeBuffer { _ in throw Refused() } }
        #expect(pool.buffersInUse == 0)
        #expect(pool.makeBuffer { _ in } != nil)
    }

    @Test func rejectsBadConfiguration() {
        #expect(throws: ViewfinderError.self) { try PixelBufferPool(width: 4, height: 4, format: .gray8, capacity: 0) }
        #expect(throws: ViewfinderError.self) { try PixelBufferPool(width: 4, height: 4, format: .jpeg, capacity: 1) }
        #expect(throws: ViewfinderError.self) { try PixelBufferPool(width: 0, height: 4, format: .gray8, capacity: 1) }
    }

    /// Buffers are made as they are needed, so a generous capacity costs nothing up front.
    @Test func aHugeCapacityAllocatesNothingUpFront() throws {
        let pool = try PixelBufferPool(width: 4, height: 4, format: .gray8, capacity: .max)
        #expect(pool.buffersInUse == 0)
        #expect(pool.makeBuffer { _ in } != nil)
    }

    @Test func concurrentUseNeverHandsOneBufferToTwoWriters() async throws {
        let pool = try PixelBufferPool(width: 32, height: 32, format: .gray8, capacity: 3)
        let handedOut = await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var count = 0
                    for round in 0..<500 {
                        let value = UInt8(truncatingIfNeeded: task * 64 + round)
                        let buffer = pool.makeBuffer {
                            $0[0].bytes.initializeMemory(as: UInt8.self, repeating: value)
                        }
                        guard let buffer else { continue }
                        count += 1
                        #expect(buffer.withUnsafeBytes(ofPlane: 0) { $0.allSatisfy { $0 == value } })
                    }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(handedOut > 0)
        #expect(pool.buffersInUse == 0)
    }
}

@Suite struct VideoFormatTests {
    @Test func frameRatesCompareAndPrintExactly() throws {
        let ntsc = try #require(FrameRate(frames: 30000, seconds: 1001))
        #expect(ntsc < 30)
        #expect(ntsc.description == "29.97")
        #expect(FrameRate(frames: 15, seconds: 2)?.description == "7.50")
        let format = VideoFormat(
            dimensions: Dimensions(width: 1280, height: 720), frameRate: 30, pixelFormat: .yuyv)
        #expect(format.description == "1280x720@30/YUYV")
        #expect(Dimensions(width: 640, height: 480) < Dimensions(width: 1280, height: 720))
    }

    /// Values a user or a driver can give make no frame rate, and no trap.
    @Test func impossibleFrameRatesAreNil() {
        #expect(FrameRate(frames: 0, seconds: 1) == nil)
        #expect(FrameRate(frames: 30, seconds: 0) == nil)
        for counted in [0, -5, Int(UInt32.max) + 1] {
            #expect(FrameRate(framesPerSecond: counted) == nil, "\(counted)")
        }
        #expect(FrameRate(framesPerSecond: 24 as Int) == 24)
        for typed in [0, -1, 0.0001, .nan, .infinity, 1e12] as [Double] {
            #expect(FrameRate(framesPerSecond: typed) == nil, "\(typed)")
        }
        #expect(FrameRate(framesPerSecond: 25) == 25)
        #expect(FrameRate(framesPerSecond: 29.97)?.description == "29.97")
        #expect(FrameRate(framesPerSecond: 0.001)?.framesPerSecond == 0.001)
    }

    @Test func timestampsMeasureDurations() {
        let early = MonotonicTimestamp(nanoseconds: 1_000)
        let late = MonotonicTimestamp(nanoseconds: 1_500_001_000)
        #expect(late.duration(since: early) == .milliseconds(1500))
        #expect(early.duration(since: late) == .zero)
        #expect(late.description == "1.500001000s")
        #expect(MonotonicTimestamp.now() > early)
    }

    @Test func systemErrorsMapToCodes() {
        #expect(ViewfinderError.system(errno: 16, "open").code == .deviceBusy)
        #expect(ViewfinderError.system(errno: 19, "ioctl").code == .deviceRemoved)
        #expect(ViewfinderError.system(errno: 13, "open").code == .permissionDenied)
        #expect(ViewfinderError.system(errno: 5, "read").code == .io)
        #expect(ViewfinderError.system(errno: 5, "read").errno == 5)
        let failure = ViewfinderError(.protocolFailure, "GetObject refused", responseCode: 0x2009)
        #expect(failure.description == "protocolFailure: GetObject refused [response code 0x2009]")
    }
}
