import Synchronization
import ViewfinderCore

/// A processor that stamps the time it saw each frame and counts frames: the least work a processor can do.
final class StampingProcessor: FrameProcessor {
    let stamp = Stamp()
    let count = Atomic<Int>(0)

    func process(_ frame: Frame) throws {
        stamp.stampNow()
        count.add(1, ordering: .relaxed)
    }
}

/// A processor that takes `nanoseconds` per frame, sleeping so that it leaves the CPU to the producer.
final class SlowProcessor: FrameProcessor {
    let microseconds: Int
    let count = Atomic<Int>(0)

    init(microseconds: Int) {
        self.microseconds = microseconds
    }

    func process(_ frame: Frame) throws {
        sleep(microseconds: microseconds)
        count.add(1, ordering: .relaxed)
    }
}

/// A sequence frame source, switched on and attached to a context with one processor.
struct Pipeline {
    let source = SequenceFrameSource()
    let context = DataCaptureContext()

    init(processor: any FrameProcessor) {
        context.addProcessor(processor)
        let ready = Atomic<Int>(0)
        context.setFrameSource(source) { ready.add(1, ordering: .releasing) }
        source.switch(toDesiredState: .on) { _ in ready.add(1, ordering: .releasing) }
        while ready.load(ordering: .acquiring) < 2 {}
    }

    /// Detaches the source and waits until no frame is in flight.
    func tearDown() {
        let done = Atomic<Bool>(false)
        context.setFrameSource(nil) { done.store(true, ordering: .releasing) }
        while !done.load(ordering: .acquiring) {}
    }
}

/// An NV12 full-range frame of the given size, filled with mid grey.
func makeFrame(width: Int, height: Int, sequenceNumber: UInt64 = 0) -> Frame {
    let buffer = try! PixelBuffer(width: width, height: height, format: .nv12FullRange) { planes in
        planes[0].bytes.initializeMemory(as: UInt8.self, repeating: 128)
        planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 128)
    }
    return Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: sequenceNumber)
}

/// The pipeline's figures for one frame size.
struct PipelineFigures {
    var addNanoseconds = 0.0
    var addTimed = Percentiles([0])
    var deliveredPerSecond = 0.0
    var droppedPerSecond = 0.0
    var maxInFlight = 0
}

enum PipelineBenchmark {
    /// The producer adds `count` frames as fast as it can into a trivial processor.
    static func flatOut(width: Int, height: Int, count: Int) -> PipelineFigures {
        let processor = StampingProcessor()
        let pipeline = Pipeline(processor: processor)
        // Distinct buffers, as a camera delivers them, used round robin.
        let frames = (0..<16).map { makeFrame(width: width, height: height, sequenceNumber: UInt64($0)) }
        var figures = PipelineFigures()

        let before = pipeline.source.statistics
        let start = nanosecondsNow()
        for index in 0..<count {
            pipeline.source.add(frames[index & 15])
        }
        let elapsed = Double(nanosecondsNow() - start)
        let after = pipeline.source.statistics
        figures.addNanoseconds = elapsed / Double(count)
        figures.deliveredPerSecond = Double(after.delivered - before.delivered) / elapsed * 1e9
        figures.droppedPerSecond = Double(after.dropped - before.dropped) / elapsed * 1e9

        // Each add timed on its own, clock reads included, for the distribution and the worst case.
        var samples = [UInt64](repeating: 0, count: min(count, 200_000))
        for index in samples.indices {
            let frame = frames[index & 15]
            let begin = nanosecondsNow()
            pipeline.source.add(frame)
            samples[index] = nanosecondsNow() - begin
        }
        figures.addTimed = Percentiles(samples)
        pipeline.tearDown()
        return figures
    }

    /// How long each `add(_:)` takes while the processor is ten times slower than the producer, with frames whose
    /// release is cheap (as frames from a pool or a driver are), so that only the pipeline's own cost is measured.
    static func addUnderSlowProcessor(
        width: Int, height: Int, periodMicroseconds: Int, durationMicroseconds: Int
    ) -> Percentiles {
        let pipeline = Pipeline(processor: SlowProcessor(microseconds: periodMicroseconds * 10))
        let frames = (0..<16).map { makeFrame(width: width, height: height, sequenceNumber: UInt64($0)) }
        var durations: [UInt64] = []
        let end = nanosecondsNow() + UInt64(durationMicroseconds) * 1000
        var index = 0
        while nanosecondsNow() < end {
            let start = nanosecondsNow()
            pipeline.source.add(frames[index & 15])
            durations.append(nanosecondsNow() - start)
            index += 1
            sleep(microseconds: periodMicroseconds)
        }
        pipeline.tearDown()
        return Percentiles(durations)
    }

    /// One sample of the time from `add(_:)` to the processor, with the pipeline idle beforehand.
    static func idleLatency(_ pipeline: Pipeline, processor: StampingProcessor, frame: Frame) -> UInt64 {
        let previous = processor.stamp.load()
        let start = nanosecondsNow()
        pipeline.source.add(frame)
        return processor.stamp.spin(changingFrom: previous) - start
    }
}
