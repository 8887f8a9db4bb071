import Viewfinder
import ViewfinderConcurrency

#if canImport(Glibc)
import Glibc
#endif

/// A preview source that draws colour bars with a moving box, for trying the preview without a camera.
///
/// Frames are NV12 (full range) from a pool of four buffers, made on a thread of their own at the format's rate; when
/// every buffer is still in use, the frame is skipped.
final class TestPatternSource: PreviewSource {
    /// The size and rate of the frames.
    let format: VideoFormat
    private let feed: PreviewFeed
    private let thread = Locked<PlatformThread?>(nil)
    private let stopping = Locked(false)

    /// Creates a source of `dimensions` frames at `frameRate`.
    init(dimensions: Dimensions, frameRate: FrameRate, feed: PreviewFeed) {
        format = VideoFormat(dimensions: dimensions, frameRate: frameRate, pixelFormat: .nv12FullRange)
        self.feed = feed
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
        let started = try PlatformThread(name: "test-pattern") { [self] in run(pool: pool, interval: interval) }
        thread.withLock { $0 = started }
        return FormatSpecifier.describe(format)
    }

    func stop() async {
        stopping.withLock { $0 = true }
        thread.withLock { $0 }?.join()
        feed.releaseFrame()
    }

    private func run(pool: PixelBufferPool, interval: Duration) {
        var next = ContinuousClock.now
        var number: UInt64 = 0
        while !stopping.withLock({ $0 }) {
            if let buffer = pool.makeBuffer(initializingWith: { draw(into: $0, frame: number) }) {
                feed.publish(Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: number))
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

    /// Draws the bars and a black box that crosses the frame once every two seconds or so.
    private func draw(into planes: PixelBuffer.MutablePlanes, frame number: UInt64) {
        let (width, height) = (format.dimensions.width, format.dimensions.height)
        let barWidth = (width / Self.bars.count) & ~1
        let box = max(2, (height / 4) & ~1)
        let travel = UInt64(max(width - box, 1))
        let step = max(1, Int(Double(travel) / (2 * format.frameRate.framesPerSecond)))
        let position = Int((number * UInt64(step)) % travel) & ~1
        let top = (height / 2 - box / 2) & ~1
        let luma = planes[0]
        let chroma = planes[1]
        for row in 0..<height {
            let line = luma.baseAddress + row * luma.bytesPerRow
            for (index, bar) in Self.bars.enumerated() {
                let start = index * barWidth
                let end = index == Self.bars.count - 1 ? width : start + barWidth
                (line + start).initializeMemory(as: UInt8.self, repeating: bar.luma, count: end - start)
            }
            if (top..<(top + box)).contains(row) {
                (line + position).initializeMemory(as: UInt8.self, repeating: 0, count: box)
            }
        }
        for row in 0..<(height / 2) {
            let line = chroma.baseAddress + row * chroma.bytesPerRow
            for (index, bar) in Self.bars.enumerated() {
                let start = index * barWidth
                let end = index == Self.bars.count - 1 ? width : start + barWidth
                let pair = UInt16(bar.blue) | UInt16(bar.red) << 8
                (line + start).initializeMemory(as: UInt16.self, repeating: pair, count: (end - start) / 2)
            }
            if ((top / 2)..<((top + box) / 2)).contains(row) {
                (line + position).initializeMemory(as: UInt16.self, repeating: 0x8080, count: box / 2)
            }
        }
    }
}
