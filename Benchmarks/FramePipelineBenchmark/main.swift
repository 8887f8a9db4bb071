import Dispatch
import Synchronization
import ViewfinderCore

// Measures the frame pipeline (SequenceFrameSource → DataCaptureContext) against its peers in one run.
// Build in release and run with `make bench-core`; `--quick` runs shorter for a smoke test.

let quick = CommandLine.arguments.contains("--quick")
let flatOutCount = quick ? 200_000 : 2_000_000
let latencySamples = quick ? 300 : 3000
let memoryDuration = quick ? 600_000 : 2_000_000
let sizes = [
    (width: 64, height: 64, periodMicroseconds: 100),
    (width: 1920, height: 1080, periodMicroseconds: 2000),
]

print("Frame pipeline benchmark: SequenceFrameSource → DataCaptureContext, one frame in flight, release build")
print(
    "Flat-out runs of \(flatOutCount) frames, three per size; \(latencySamples) idle-latency samples per path, interleaved; "
        + "memory runs of \(memoryDuration / 1000) ms")
print("")

// MARK: Measurements

let runStart = CPUTimes.now()

let conditionRate = Peers.conditionOneInFlight(count: quick ? 20_000 : 100_000)
let dispatchRun = Peers.dispatchThroughput(count: quick ? 100_000 : 500_000)
let streamRun = Peers.asyncStreamThroughput(count: flatOutCount)

let flatOutStart = CPUTimes.now()
// Three runs per size; the run with the median delivered rate stands for the size, and all three are printed.
let flatOutRuns = sizes.map { size in
    (0..<3).map { _ in PipelineBenchmark.flatOut(width: size.width, height: size.height, count: flatOutCount) }
        .sorted { $0.deliveredPerSecond < $1.deliveredPerSecond }
}
let flatOut = flatOutRuns.map { $0[1] }
let flatOutOthers = CPUTimes.now().othersShare(since: flatOutStart)

// Idle latency, each path in turn within every round, so that all share the machine's conditions.
let condition = ConditionHandOff()
condition.start()
let dispatchQueue = DispatchQueue(label: "benchmark.idle")
let dispatchStamp = Stamp()
let streamStamp = Stamp()
let stream = Peers.stampingStream(stamp: streamStamp)
let latencyProcessors = sizes.map { _ in StampingProcessor() }
let latencyPipelines = latencyProcessors.map { Pipeline(processor: $0) }
let latencyFrames = sizes.map { makeFrame(width: $0.width, height: $0.height) }
var floorSamples: [UInt64] = []
var dispatchSamples: [UInt64] = []
var streamSamples: [UInt64] = []
var pipelineSamples: [[UInt64]] = sizes.map { _ in [] }
for _ in 0..<latencySamples {
    sleep(microseconds: 200)
    floorSamples.append(Peers.conditionWakeUp(condition))
    for index in sizes.indices {
        sleep(microseconds: 200)
        pipelineSamples[index].append(
            PipelineBenchmark.idleLatency(
                latencyPipelines[index], processor: latencyProcessors[index], frame: latencyFrames[index]))
    }
    sleep(microseconds: 200)
    dispatchSamples.append(Peers.dispatchWakeUp(dispatchQueue, stamp: dispatchStamp))
    sleep(microseconds: 200)
    streamSamples.append(Peers.asyncStreamWakeUp(stream, stamp: streamStamp))
}
condition.stop()
stream.finish()
for pipeline in latencyPipelines { pipeline.tearDown() }

// The DispatchQueue peer runs last: its backlog grows the heap, which would hide the pipeline's own footprint.
let memory = sizes.map {
    MemoryBenchmark.pipeline(
        width: $0.width, height: $0.height, periodMicroseconds: $0.periodMicroseconds,
        durationMicroseconds: memoryDuration)
}
let slowAdds = sizes.map {
    PipelineBenchmark.addUnderSlowProcessor(
        width: $0.width, height: $0.height, periodMicroseconds: $0.periodMicroseconds,
        durationMicroseconds: memoryDuration / 2)
}
let dispatchMemory = MemoryBenchmark.dispatch(
    width: sizes[0].width, height: sizes[0].height, periodMicroseconds: sizes[0].periodMicroseconds,
    durationMicroseconds: memoryDuration)

// MARK: Report

let floor = Percentiles(floorSamples)
let dispatchIdle = Percentiles(dispatchSamples)
let streamIdle = Percentiles(streamSamples)
let pipelineIdle = pipelineSamples.map { Percentiles($0) }

print("Peers, measured in this run")
report("Mutex+condition wake-up of an idle thread", floor.summary)
report("Mutex+condition, one hand-off in flight", "\(formatDuration(1e9 / conditionRate)) each")
report("DispatchQueue.async to an idle queue", dispatchIdle.summary)
report(
    "DispatchQueue.async flat out (unbounded)",
    "\(formatDuration(dispatchRun.callNanoseconds)) per call, \(formatRate(dispatchRun.perSecond)) run")
report("AsyncStream yield to an idle task", streamIdle.summary)
report(
    "AsyncStream newest(3) flat out",
    "\(formatDuration(streamRun.yieldNanoseconds)) per yield, \(formatRate(streamRun.deliveredPerSecond)) "
        + "delivered, \(formatRate(streamRun.droppedPerSecond)) dropped")
print("")

for (index, size) in sizes.enumerated() {
    let figures = flatOut[index]
    let latency = pipelineIdle[index]
    let slow = memory[index]
    print("Pipeline, \(size.width)x\(size.height) NV12 (\(formatBytes(slow.frameBytes)) per frame)")
    report(
        "add(_:) flat out, on the producer's thread",
        "\(formatDuration(figures.addNanoseconds)) mean; "
            + "\(ratio(figures.addNanoseconds, dispatchRun.callNanoseconds)) DispatchQueue.async, "
            + "\(ratio(figures.addNanoseconds, streamRun.yieldNanoseconds)) AsyncStream yield")
    report("  each add timed alone, clock reads included", figures.addTimed.summary)
    report(
        "flat out into a trivial processor",
        "\(formatRate(figures.deliveredPerSecond)) delivered, \(formatRate(figures.droppedPerSecond)) dropped "
            + "(median of 3 runs: \(flatOutRuns[index].map { formatRate($0.deliveredPerSecond) }.joined(separator: ", ")))"
    )
    report(
        "idle add(_:) → processor",
        "\(latency.summary); \(ratio(latency.median, floor.median)) the wake-up floor, "
            + "\(ratio(latency.median, dispatchIdle.median)) DispatchQueue, "
            + "\(ratio(latency.median, streamIdle.median)) AsyncStream")
    report(
        "processor 10× slower than the producer",
        "\(formatDuration(Double(size.periodMicroseconds) * 10_000)) per frame, a fresh frame every "
            + "\(formatDuration(Double(size.periodMicroseconds) * 1000))")
    report("  add(_:), frames from a pool", slowAdds[index].summary)
    report("  fresh frames (add includes unmapping the dropped one)", slow.frameSummary)
    report("  resident memory", slow.memorySummary)
    print("")
}
print("DispatchQueue.async peer, same producer and slow consumer, \(sizes[0].width)x\(sizes[0].height)")
report("  frames", dispatchMemory.frameSummary)
report("  resident memory", dispatchMemory.memorySummary)
print("")

// MARK: Targets

let worstAdd = flatOut.map(\.addNanoseconds).max() ?? 0
// Waiting for the slow processor would make most adds last about one processing; the producer is ten times
// faster, so nine adds in ten would wait. The 99th percentile must stay below the producer's own period.
let addTails = slowAdds.map { formatDuration($0.p99) }.joined(separator: " / ")
let neverBlocks = zip(slowAdds, sizes).allSatisfy { $0.p99 < Double($1.periodMicroseconds) * 1000 }
let leastDelivered = flatOut.map(\.deliveredPerSecond).min() ?? 0
let worstLatencyRatio = pipelineIdle.map { $0.median / floor.median }.max() ?? 0
// Flat: no more frames alive than the queue, the frame in flight, one being added and one being dropped; and the
// second half of the run reaches no more resident memory than the first, within one frame or 1 MiB.
let frameBound = SequenceFrameSource.defaultQueueCapacity + 3
let memoryFlat = memory.allSatisfy { $0.mostFramesAlive <= frameBound && $0.drift <= max($0.frameBytes, 1 << 20) }
print(
    "Targets (other processes used \(CPUTimes.now().othersShare(since: runStart)) of the machine's CPU time during the "
        + "run, \(flatOutOthers) during the flat-out runs)")
report("add(_:) ≤ 200 ns", "worst mean \(formatDuration(worstAdd)): \(verdict(worstAdd <= 200))")
report(
    "add(_:) never blocks",
    "p99 of add under the slow processor \(addTails), below the producer's period "
        + "(\(sizes.map { formatDuration(Double($0.periodMicroseconds) * 1000) }.joined(separator: " / "))): "
        + verdict(neverBlocks))
report("≥ 500k delivered frames/s", "least \(formatRate(leastDelivered)): \(verdict(leastDelivered >= 500_000))")
report(
    "idle latency ≤ 1.2× the wake-up floor",
    "worst \(format(worstLatencyRatio, digits: 2))×: \(verdict(worstLatencyRatio <= 1.2))")
report(
    "memory flat under the slow processor",
    "at most \(memory.map { String($0.mostFramesAlive) }.joined(separator: " / ")) frames alive (bound "
        + "\(frameBound)), resident drift \(memory.map { formatMegabytes($0.drift) }.joined(separator: " / ")): "
        + verdict(memoryFlat))
