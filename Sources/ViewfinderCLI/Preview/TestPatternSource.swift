import Viewfinder
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A preview source that draws colour bars with a moving box, for trying the preview without a camera.
///
/// Frames are NV12 (full range) from a pool of four buffers, made on a thread of their own at the format's rate and
/// pushed into a ``SequenceFrameSource`` whose context hands them to the feed, as an app's own frames would be; when
/// every buffer is still in use, the frame is skipped.
final class TestPatternSource: PreviewSource {
    /// The size and rate of the frames.
    let format: VideoFormat
    private let feed: PreviewFeed
    private let source: SequenceFrameSource
    private let context = DataCaptureContext()
    private let thread = Locked<PlatformThread?>(nil)
    private let stopping = Locked(false)

    /// Creates a source of `dimensions` frames at `frameRate`.
    init(dimensions: Dimensions, frameRate: FrameRate, feed: PreviewFeed) throws {
        format = VideoFormat(dimensions: dimensions, frameRate: frameRate, pixelFormat: .nv12FullRange)
        self.feed = feed
        // One queued frame: the newest waits while the feed takes the one before.
        source = try SequenceFrameSource(queueCapacity: 1)
        context.addProcessor(feed)
    }

    var title: String { "test pattern" }

    func start() async throws -> String {
        let (width, height) = (format.dimensions.width, format.dimensions.height)
        guard width >= 16, height >= 16, width % 2 == 0, height % 2 == 0 else {
            throw CommandFailure(
                "a test pattern needs an even width and height of at least 16, not \(format.dimensions)",
                exitStatus: ExitStatus.badValue)
        }
        let pool = try PixelBufferPool(width: width, height: height, format: .nv12FullRange, capacity: 4)
        let interval = Duration.seconds(Double(format.frameRate.seconds) / Double(format.frameRate.frames))
        await context.setFrameSource(source)
        guard await source.switch(toDesiredState: .on) else {
            throw CommandFailure("the test pattern's frame source did not switch on")
        }
        let started = try PlatformThread(name: "test-pattern") { [self] in run(pool: pool, interval: interval) }
        thread.withLock { $0 = started }
        return FormatSpecifier.describe(format)
    }

    func stop() async {
        stopping.withLock { $0 = true }
        thread.withLock { $0 }?.join()
        await source.switch(toDesiredState: .off)
        await context.setFrameSource(nil)
        feed.releaseFrame()
    }

    private func run(pool: PixelBufferPool, interval: Duration) {
        var next = ContinuousClock.now
        var number: UInt64 = 0
        // Pool buffers keep their pixels between uses: the bars are drawn once per buffer, then only the box's band.
        var drawn = Set<UnsafeMutableRawPointer>()
        while !stopping.withLock({ $0 }) {
            let buffer = pool.makeBuffer { planes in
                let rows = drawn.insert(planes[0].baseAddress).inserted ? 0..<format.dimensions.height : boxRows
                draw(rows: rows, of: planes, box: boxPosition(frame: number))
            }
            if let buffer {
                source.add(Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: number))
            }
            number += 1
            next += interval
            let wait = ContinuousClock.now.duration(to: next)
            if wait > .zero {
                let (seconds, attoseconds) = wait.components
                var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                nanosleep(&time, nil)
            } else {
                next = ContinuousClock.now
            }
        }
    }

    /// Full-range BT.601 YCbCr of white, yellow, cyan, green, magenta, red, blue and black.
    private static let bars: [(luma: UInt8, blue: UInt8, red: UInt8)] = [
        (255, 128, 128), (226, 1, 149), (179, 171, 1), (150, 44, 21), (105, 212, 235), (76, 85, 255),
        (29, 255, 107), (0, 128, 128),
    ]

    /// The side of the black box, even.
    private var boxSize: Int { max(2, (format.dimensions.height / 4) & ~1) }

    /// The rows the box crosses, even-aligned.
    private var boxRows: Range<Int> {
        let top = (format.dimensions.height / 2 - boxSize / 2) & ~1
        return top..<(top + boxSize)
    }

    /// The box's left edge in a frame: it crosses the frame once every two seconds or so.
    private func boxPosition(frame number: UInt64) -> Int {
        let travel = UInt64(max(format.dimensions.width - boxSize, 1))
        let step = UInt64(max(1, Int(Double(travel) / (2 * format.frameRate.framesPerSecond))))
        return Int((number * step) % travel) & ~1
    }

    /// Draws the bars over `rows` (even-aligned), and the box where it crosses them.
    private func draw(rows: Range<Int>, of planes: PixelBuffer.MutablePlanes, box left: Int) {
        let width = format.dimensions.width
        let barWidth = (width / Self.bars.count) & ~1
        let (luma, chroma) = (planes[0], planes[1])
        func bar(_ index: Int) -> Range<Int> {
            index * barWidth..<(index == Self.bars.count - 1 ? width : (index + 1) * barWidth)
        }
        for row in rows {
            let line = luma.baseAddress + row * luma.bytesPerRow
            for index in Self.bars.indices {
                let columns = bar(index)
                (line + columns.lowerBound).initializeMemory(
                    as: UInt8.self, repeating: Self.bars[index].luma, count: columns.count)
            }
            if boxRows.contains(row) {
                (line + left).initializeMemory(as: UInt8.self, repeating: 0, count: boxSize)
            }
        }
        for row in stride(from: rows.lowerBound / 2, to: rows.upperBound / 2, by: 1) {
            let line = chroma.baseAddress + row * chroma.bytesPerRow
            for index in Self.bars.indices {
                let columns = bar(index)
                let pair = UInt16(Self.bars[index].blue) | UInt16(Self.bars[index].red) << 8
                (line + columns.lowerBound).initializeMemory(as: UInt16.self, repeating: pair, count: columns.count / 2)
            }
            if boxRows.contains(row * 2) {
                (line + left).initializeMemory(as: UInt16.self, repeating: 0x8080, count: boxSize / 2)
            }
        }
    }
}
