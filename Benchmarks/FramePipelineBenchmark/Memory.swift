import BenchmarkSupport
import Dispatch
import Synchronization
import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// Resident memory while a producer allocates a fresh frame every `period` and the consumer takes ten periods each.
struct MemoryFigures {
    var frameBytes = 0
    var producedFrames = 0
    var processedFrames = 0
    var baseline = 0
    var peak = 0
    var firstHalfMaximum = 0
    var secondHalfMaximum = 0
    /// How long each `add` took, without making the frame.
    var addTimes = Percentiles([0])
    /// The most frames alive at once: made and not yet released by the pipeline.
    var mostFramesAlive = 0

    /// The growth of the peak over the baseline.
    var peakGrowth: Int { peak - baseline }
    /// How much more resident memory the second half of the run reached than the first.
    var drift: Int { secondHalfMaximum - firstHalfMaximum }

    /// Frames produced, processed and alive at most, and the longest `add`.
    var frameSummary: String {
        "\(producedFrames) produced, \(processedFrames) processed, at most \(mostFramesAlive) alive at once; "
            + "add(_:) \(addTimes.summary)"
    }

    /// Baseline, peak and the halves' highest resident memory.
    var memorySummary: String {
        "baseline \(formatMegabytes(baseline)), peak \(formatMegabytes(peak)) (+\(formatMegabytes(peakGrowth))); "
            + "highest \(formatMegabytes(firstHalfMaximum)) in the first half, "
            + "\(formatMegabytes(secondHalfMaximum)) in the second (drift \(formatMegabytes(drift)))"
    }
}

enum MemoryBenchmark {
    /// Runs the producer for `duration` microseconds, adding each fresh frame with `add`; samples resident memory.
    static func run(
        width: Int, height: Int, periodMicroseconds: Int, durationMicroseconds: Int, processed: () -> Int,
        add: (Frame) -> Void
    ) -> MemoryFigures {
        var figures = MemoryFigures()
        figures.frameBytes = width * height * 3 / 2
        resetPeakResidentBytes()
        figures.baseline = residentBytes()
        var samples: [(time: UInt64, bytes: Int)] = []
        samples.reserveCapacity(durationMicroseconds / 10_000 + 16)
        let start = nanosecondsNow()
        let end = start + UInt64(durationMicroseconds) * 1000
        var nextSample = start
        var sequenceNumber: UInt64 = 0
        var addDurations: [UInt64] = []
        let counter = FrameCounter()
        while true {
            let begin = nanosecondsNow()
            if begin >= end { break }
            let frame = counter.makeFrame(width: width, height: height, sequenceNumber: sequenceNumber)
            let addStart = nanosecondsNow()
            add(frame)
            addDurations.append(nanosecondsNow() - addStart)
            sequenceNumber += 1
            if begin >= nextSample {
                samples.append((begin - start, residentBytes()))
                nextSample = begin + 10_000_000
            }
            let spent = Int(nanosecondsNow() - begin) / 1000
            if spent < periodMicroseconds { sleep(microseconds: periodMicroseconds - spent) }
        }
        figures.producedFrames = Int(sequenceNumber)
        figures.mostFramesAlive = counter.mostAlive
        figures.addTimes = Percentiles(addDurations)
        figures.processedFrames = processed()
        figures.peak = peakResidentBytes()
        let half = UInt64(durationMicroseconds) * 500
        figures.firstHalfMaximum = samples.filter { $0.time < half }.map(\.bytes).max() ?? 0
        figures.secondHalfMaximum = samples.filter { $0.time >= half }.map(\.bytes).max() ?? 0
        return figures
    }

    /// The pipeline with a processor ten times slower than the producer.
    static func pipeline(width: Int, height: Int, periodMicroseconds: Int, durationMicroseconds: Int) -> MemoryFigures {
        let processor = SlowProcessor(microseconds: periodMicroseconds * 10)
        let pipeline = Pipeline(processor: processor)
        let figures = run(
            width: width, height: height, periodMicroseconds: periodMicroseconds,
            durationMicroseconds: durationMicroseconds, processed: { processor.count.load(ordering: .relaxed) },
            add: { pipeline.source.add($0) })
        pipeline.tearDown()
        return figures
    }

    /// The same producer handing every frame to a serial DispatchQueue whose blocks are ten times slower.
    static func dispatch(width: Int, height: Int, periodMicroseconds: Int, durationMicroseconds: Int) -> MemoryFigures {
        let queue = DispatchQueue(label: "benchmark.memory")
        let processed = Atomic<Int>(0)
        let cancelled = Atomic<Bool>(false)
        let figures = run(
            width: width, height: height, periodMicroseconds: periodMicroseconds,
            durationMicroseconds: durationMicroseconds, processed: { processed.load(ordering: .relaxed) },
            add: { frame in
                queue.async {
                    guard !cancelled.load(ordering: .relaxed) else { return }
                    sleep(microseconds: periodMicroseconds * 10)
                    _ = withExtendedLifetime(frame) { processed.add(1, ordering: .relaxed) }
                }
            })
        // Drain the backlog without the delay, so the frames are freed before the next measurement.
        cancelled.store(true, ordering: .relaxed)
        queue.sync {}
        return figures
    }
}

/// Makes frames in memory of their own and counts how many are alive, up to the most at once.
///
/// Each frame's pixels are an anonymous memory mapping, unmapped when the frame's last copy goes (as a driver's
/// buffer would be handed back), so resident memory follows the frames alive and not the allocator's caching.
final class FrameCounter: Sendable {
    private let alive = Atomic<Int>(0)
    private let most = Atomic<Int>(0)

    /// The most frames that were alive at once.
    var mostAlive: Int { most.load(ordering: .relaxed) }

    /// A fresh mid-grey NV12 full-range frame, counted until its pixel buffer is released.
    func makeFrame(width: Int, height: Int, sequenceNumber: UInt64) -> Frame {
        let lumaBytes = width * height
        let byteCount = lumaBytes * 3 / 2
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED
        else { fatalError("mmap of \(byteCount) bytes failed: errno \(errno)") }
        memory.initializeMemory(as: UInt8.self, repeating: 128, count: byteCount)
        let base = UnsafeRawPointer(memory)
        let planes = [
            PixelBuffer.Plane(
                baseAddress: base, bytesPerRow: width, width: width, height: height, byteCount: lumaBytes),
            PixelBuffer.Plane(
                baseAddress: base + lumaBytes, bytesPerRow: width, width: width / 2, height: height / 2,
                byteCount: lumaBytes / 2),
        ]
        let count = alive.wrappingAdd(1, ordering: .relaxed).newValue
        var highest = most.load(ordering: .relaxed)
        while count > highest {
            let (exchanged, current) = most.compareExchange(expected: highest, desired: count, ordering: .relaxed)
            if exchanged { break }
            highest = current
        }
        // The release callback is Sendable, so it gets the memory's address rather than the pointer.
        let address = UInt(bitPattern: memory)
        let buffer = try! PixelBuffer(width: width, height: height, format: .nv12FullRange, borrowing: planes) {
            [self] in
            munmap(UnsafeMutableRawPointer(bitPattern: address), byteCount)
            alive.wrappingSubtract(1, ordering: .relaxed)
        }
        return Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: sequenceNumber)
    }
}
