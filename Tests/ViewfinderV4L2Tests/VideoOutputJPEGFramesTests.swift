import Testing
import ViewfinderCore
import ViewfinderImaging

@testable import ViewfinderV4L2

/// How a video output shows JPEG images: timed both ways on the first images of a size, then the cheaper way.
@Suite struct VideoOutputJPEGFramesTests {
    typealias Way = VideoOutputJPEGFrames.Way

    /// A red JPEG image.
    static func jpeg(width: Int, height: Int) throws -> [UInt8] {
        try JPEGEncoder().encode(
            try VideoOutputFramesTests.picture(width: width, height: height, blue: 0, green: 0, red: 255))
    }

    @Test func aYUYVOutputTimesBothWaysThenKeepsTheCheaper() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: .yuyv)
        let jpegFrames = VideoOutputJPEGFrames(frames: frames)
        // 200x100 into 320x180: 300x150 at the largest JPEG scale that fits (12/8), 320x160 scaled to fit.
        let transformed = Dimensions(width: 300, height: 150)
        let fitted = Dimensions(width: 320, height: 160)
        let image = try Self.jpeg(width: 200, height: 100)
        var shown: [Dimensions] = []
        let measured = 2 * (1 + VideoOutputJPEGFrames.samplesPerWay)
        for _ in 0..<measured {
            #expect(jpegFrames.chosenWay == nil)
            try jpegFrames.show(image)
            shown.append(try #require(frames.newest.frame).size)
        }
        // Each way in turn while measuring, shown as that way shows it.
        #expect(shown == Array(repeating: [transformed, fitted], count: measured / 2).flatMap { $0 })
        let chosen = try #require(jpegFrames.chosenWay)
        try jpegFrames.show(image)
        let frame = try #require(frames.newest.frame)
        #expect(frame.size == (chosen == .whilePacking ? fitted : transformed))
        #expect(frame.picture.format == .i420FullRange)
        // Red, packed into video range, whichever way.
        let row = 320 * 2
        let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: row * 180, alignment: 16)
        defer { driver.deallocate() }
        frames.copy(frame, to: driver.baseAddress!, bytesPerRow: row, length: driver.count)
        let (luma, cb, cr) = VideoOutputFramesTests.sample(
            UnsafeRawBufferPointer(driver), bytesPerRow: row, x: 160, y: 90)
        #expect(abs(luma - 81) <= 4 && abs(cb - 90) <= 4 && abs(cr - 240) <= 4)
        #expect(frames.counts == (measured + 1, 0))
        // Images of another size are measured again.
        try jpegFrames.show(try Self.jpeg(width: 120, height: 80))
        #expect(jpegFrames.chosenWay == nil)
        #expect(try #require(frames.newest.frame).size == Dimensions(width: 240, height: 160))
    }

    @Test func theLowerMedianWinsLeavingOutEachWaysFirstImage() {
        func costs(_ transform: [Int], _ packing: [Int]) -> [Way: [Duration]] {
            [.inTheTransform: transform.map { .milliseconds($0) }, .whilePacking: packing.map { .milliseconds($0) }]
        }
        // Medians 6 and 8; the first images (50 and 1, pools warming up) do not count.
        #expect(VideoOutputJPEGFrames.choice(costs([50, 5, 6, 7], [1, 8, 9, 2])) == .inTheTransform)
        #expect(VideoOutputJPEGFrames.choice(costs([50, 5, 6, 7], [60, 3, 2, 40])) == .whilePacking)
        // One slow image does not decide.
        #expect(VideoOutputJPEGFrames.choice(costs([9, 4, 100, 4], [9, 5, 5, 5])) == .inTheTransform)
        // Not yet measured enough either way.
        #expect(VideoOutputJPEGFrames.choice(costs([1, 1, 1], [1, 1, 1, 1])) == nil)
        #expect(VideoOutputJPEGFrames.choice(costs([1, 1, 1, 1], [1, 1, 1])) == nil)
        // A single way is kept once it has its images.
        #expect(VideoOutputJPEGFrames.choice([.inTheTransform: [.zero, .zero, .zero, .zero]]) == .inTheTransform)
    }

    @Test func aPinnedWayIsKeptWithoutMeasuring() throws {
        for (format, asked, kept, size) in [
            (PixelFormat.yuyv, Way.whilePacking, Way.whilePacking, Dimensions(width: 320, height: 160)),
            (.yuyv, .inTheTransform, .inTheTransform, Dimensions(width: 300, height: 150)),
            // Scaling while packing needs a YUYV output.
            (.nv12VideoRange, .whilePacking, .inTheTransform, Dimensions(width: 300, height: 150)),
        ] {
            let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: format)
            let jpegFrames = VideoOutputJPEGFrames(frames: frames, way: asked)
            try jpegFrames.show(try Self.jpeg(width: 200, height: 100))
            #expect(jpegFrames.chosenWay == kept, "\(format), \(asked)")
            #expect(try #require(frames.newest.frame).size == size, "\(format), \(asked)")
        }
    }

    @Test func planarOutputsDecodeInTheTransformWithoutMeasuring() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: .i420)
        let jpegFrames = VideoOutputJPEGFrames(frames: frames)
        try jpegFrames.show(try Self.jpeg(width: 200, height: 100))
        #expect(jpegFrames.chosenWay == .inTheTransform)
        let frame = try #require(frames.newest.frame)
        #expect(frame.size == Dimensions(width: 300, height: 150) && frame.picture.format == .i420)
    }

    @Test func dataThatIsNotAJPEGImageIsAClearError() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: .yuyv)
        let jpegFrames = VideoOutputJPEGFrames(frames: frames)
        for bad in [[UInt8](), [0xFF, 0xD8, 0xFF], Array("not a picture".utf8)] {
            #expect(throws: ViewfinderError.self) { try jpegFrames.show(bad) }
        }
        // A header claiming 60000x40000 pixels, which even at 1/8 is far larger than the output, is refused before
        // anything is allocated for it.
        var huge = try Self.jpeg(width: 200, height: 100)
        let frame = try #require(huge.indices.first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge.replaceSubrange((frame + 5)..<(frame + 9), with: [0x9C, 0x40, 0xEA, 0x60])
        #expect(try JPEGDecoder().header(of: huge).dimensions == Dimensions(width: 60000, height: 40000))
        do {
            try jpegFrames.show(huge)
            Issue.record("a 60000x40000 image was taken")
        } catch let error as ViewfinderError {
            #expect(error.code == .invalidArgument && error.message.contains("60000x40000"), "\(error)")
        }
        #expect(frames.newest.frame == nil)
        // A good image after them is shown.
        try jpegFrames.show(try Self.jpeg(width: 200, height: 100))
        #expect(frames.newest.frame != nil)
    }
}
