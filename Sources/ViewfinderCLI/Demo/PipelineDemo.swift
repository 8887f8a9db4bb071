import Foundation
import Viewfinder

/// The frame pipeline demo: a generated camera pushing NV12 frames through a `SequenceFrameSource` into a
/// `DataCaptureContext`, in stages that each show one rule of the pipeline.
struct PipelineDemo {
    let framesPerStage: Int
    let framesPerSecond: Int
    let width: Int
    let height: Int

    func run() async throws {
        let camera = try GeneratedCamera(width: width, height: height)
        let source = SequenceFrameSource()
        let context = DataCaptureContext()
        let analyzer = FrameAnalyzer()
        context.addProcessor(analyzer)
        var tokens: [ObservationToken] = []
        source.addStateListener { Console.print("    source state: \($0)") }.store(in: &tokens)
        context.addFrameListener { event in
            if case .processorFailed(let failure) = event { Console.printToError("    processor failed: \(failure)") }
        }.store(in: &tokens)

        Console.print("Viewfinder frame pipeline: SequenceFrameSource → DataCaptureContext, one frame in flight")
        Console.print(
            "Camera: generated \(width)x\(height) NV12 (full range) frames from a pool of \(camera.poolCapacity) "
                + "buffers; the source queues up to \(SequenceFrameSource.defaultQueueCapacity) frames.")

        Console.print("\n1. Five frames added before the source is on and set on the context")
        for _ in 0..<5 { if let frame = camera.nextFrame() { source.add(frame) } }
        Console.print("    \(source.statistics) (the oldest frames make room for the newest)")
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)
        try await waitForPipeline(source, context)
        Console.print(
            "    processed frames \(analyzer.takeSequenceNumbers()) as soon as the source was on and attached")
        analyzer.reset()

        let interval = Duration.seconds(1) / framesPerSecond
        try await stage(
            "2. \(framesPerStage) frames at \(framesPerSecond) fps, processor faster than the camera",
            camera: camera, source: source, context: context, analyzer: analyzer, interval: interval, work: .zero)
        try await stage(
            "3. \(framesPerStage) frames at \(framesPerSecond) fps, processor three frame intervals slow: "
                + "the source drops, at most \(SequenceFrameSource.defaultQueueCapacity) frames wait",
            camera: camera, source: source, context: context, analyzer: analyzer, interval: interval,
            work: interval * 3)

        analyzer.reset()
        Console.print("\n4. A frame in another pixel format")
        let i420 = try PixelBuffer(width: width, height: height, format: .i420) { planes in
            for index in 0..<planes.count { planes[index].bytes.initializeMemory(as: UInt8.self, repeating: 128) }
        }
        let result = source.add(Frame(pixelBuffer: i420, timestamp: .now(), sequenceNumber: 0))
        Console.print("    add(_:) → \(result)")

        Console.print("\n5. Frames added while the source is off wait for it")
        await source.switch(toDesiredState: .off)
        for _ in 0..<2 { if let frame = camera.nextFrame() { source.add(frame) } }
        Console.print("    while off: \(source.statistics)")
        await source.switch(toDesiredState: .on)
        try await waitForPipeline(source, context)
        Console.print("    after switching on again, processed frames \(analyzer.takeSequenceNumbers())")
        await source.switch(toDesiredState: .off)

        Console.print("\nTotals")
        Console.print("    frame source: \(source.statistics)")
        Console.print("    context: \(context.statistics)")
        Console.print("    camera buffers still in use: \(camera.buffersInUse) of \(camera.poolCapacity)")
        withExtendedLifetime(tokens) {}
    }

    /// Streams `framesPerStage` frames at the camera's pace into a processor that takes `work` per frame.
    private func stage(
        _ title: String, camera: GeneratedCamera, source: SequenceFrameSource, context: DataCaptureContext,
        analyzer: FrameAnalyzer, interval: Duration, work: Duration
    ) async throws {
        Console.print("\n\(title)")
        analyzer.reset(work: work)
        let before = source.statistics
        let clock = ContinuousClock()
        let start = clock.now
        var skipped = 0
        for index in 0..<framesPerStage {
            if let frame = camera.nextFrame() { source.add(frame) } else { skipped += 1 }
            try await Task.sleep(until: start + interval * (index + 1), clock: clock)
        }
        try await waitForPipeline(source, context)
        let elapsed = start.duration(to: clock.now)
        let after = source.statistics
        let delivered = after.delivered - before.delivered
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        Console.print(
            "    added \(after.received - before.received), delivered \(delivered), dropped "
                + "\(after.dropped - before.dropped); processed \(String(format: "%.1f", Double(delivered) / seconds)) "
                + "frames/s")
        Console.print("    latency from add(_:) to the processor: \(analyzer.latencySummary)")
        Console.print("    mean brightness the processor measured: \(analyzer.brightnessRange)")
        if skipped > 0 { Console.print("    the camera skipped \(skipped) frames for want of a free buffer") }
    }

    /// Waits until the source's queue is empty and the context has finished every frame it took.
    private func waitForPipeline(_ source: SequenceFrameSource, _ context: DataCaptureContext) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while source.statistics.queued > 0 || context.statistics.framesProcessed < source.statistics.delivered {
            guard ContinuousClock.now < deadline else {
                throw CommandFailure("the pipeline did not finish its frames within 10 s: \(source.statistics)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// A camera that draws moving diagonal stripes, brightening from frame to frame, into NV12 buffers from a pool.
private final class GeneratedCamera {
    private let pool: PixelBufferPool
    private var sequenceNumber: UInt64 = 0

    init(width: Int, height: Int) throws {
        pool = try PixelBufferPool(width: width, height: height, format: .nv12FullRange, capacity: 8)
    }

    var poolCapacity: Int { pool.capacity }
    var buffersInUse: Int { pool.buffersInUse }

    /// The next frame, or `nil` when every buffer of the pool is still in use.
    func nextFrame() -> Frame? {
        let offset = Int(sequenceNumber % 64) * 4
        let base = Int(sequenceNumber % 192)
        let buffer = pool.makeBuffer { planes in
            let luma = planes[0]
            for row in 0..<luma.height {
                let line = luma.baseAddress + row * luma.bytesPerRow
                for column in 0..<luma.width {
                    let value = UInt8(base + (column + row + offset) & 63)
                    line.storeBytes(of: value, toByteOffset: column, as: UInt8.self)
                }
            }
            planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 128)
        }
        guard let buffer else { return nil }
        defer { sequenceNumber += 1 }
        return Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: sequenceNumber)
    }
}

/// A processor that measures each frame's mean brightness and latency, taking a set time per frame.
private final class FrameAnalyzer: FrameProcessor, @unchecked Sendable {
    // Unchecked: `values` is read and written only inside `withLock`.
    private struct State {
        var work = Duration.zero
        var latencies: [Duration] = []
        var sequenceNumbers: [UInt64] = []
        var brightness: [Int] = []
    }

    private let lock = NSLock()
    private var values = State()

    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&values)
    }

    func process(_ frame: Frame) throws {
        let latency = MonotonicTimestamp.now().duration(since: frame.timestamp)
        // The mean of every 64th luma byte: enough to follow the stripes moving.
        let brightness = frame.pixelBuffer.withUnsafeBytes(ofPlane: 0) { bytes in
            let samples = stride(from: 0, to: bytes.count, by: 64)
            return samples.reduce(0) { $0 + Int(bytes[$1]) } / max(1, samples.underestimatedCount)
        }
        let work = withLock { state in
            state.latencies.append(latency)
            state.sequenceNumbers.append(frame.sequenceNumber)
            state.brightness.append(brightness)
            return state.work
        }
        if work > .zero { work.sleepThread() }
    }

    func reset(work: Duration = .zero) {
        withLock { $0 = State(work: work) }
    }

    func takeSequenceNumbers() -> [UInt64] {
        withLock { state in
            defer { state.sequenceNumbers = [] }
            return state.sequenceNumbers
        }
    }

    /// The lowest and highest mean brightness seen since the last reset.
    var brightnessRange: String {
        let brightness = withLock { $0.brightness }
        guard let lowest = brightness.min(), let highest = brightness.max() else { return "no frames" }
        return "\(lowest)…\(highest) of 255"
    }

    var latencySummary: String {
        let sorted = withLock { $0.latencies }.sorted()
        guard !sorted.isEmpty else { return "no frames" }
        func at(_ fraction: Double) -> String {
            describe(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
        }
        return "median \(at(0.5)), p99 \(at(0.99)), max \(describe(sorted[sorted.count - 1]))"
    }

    private func describe(_ duration: Duration) -> String {
        let microseconds = Double(duration.components.attoseconds) / 1e12 + Double(duration.components.seconds) * 1e6
        return microseconds < 1000
            ? String(format: "%.0f µs", microseconds) : String(format: "%.2f ms", microseconds / 1000)
    }
}

extension Duration {
    /// Blocks the calling thread for this long, as a processor doing real work would.
    fileprivate func sleepThread() {
        let microseconds = components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
        usleep(UInt32(clamping: microseconds))
    }
}
