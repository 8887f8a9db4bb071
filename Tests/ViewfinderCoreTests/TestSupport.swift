import Dispatch
import Synchronization
import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// A small NV12 full-range frame, or one in `format`, numbered `sequenceNumber`.
func makeFrame(_ sequenceNumber: UInt64, format: PixelFormat = .nv12FullRange, isMirrored: Bool = false) -> Frame {
    let buffer = try! PixelBuffer(width: 8, height: 8, format: format) { planes in
        for index in 0..<planes.count {
            planes[index].bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: sequenceNumber))
        }
    }
    return Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: sequenceNumber, isMirrored: isMirrored)
}

/// A context running `processor` on the frames of `source`, which it switches on.
func startPipeline(_ source: some FrameSource, processor: some FrameProcessor) async -> DataCaptureContext {
    let context = DataCaptureContext()
    context.addProcessor(processor)
    await context.setFrameSource(source)
    await source.switch(toDesiredState: .on)
    return context
}

/// A serial queue that can tell whether code runs on it.
struct MarkedQueue {
    let queue = DispatchQueue(label: "marked")
    private let key = DispatchSpecificKey<Bool>()

    init() {
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the caller runs on the queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// Values recorded from any thread, in the order they arrived.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}

/// A gate a processor waits at on the context's thread until the test opens it.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let arrivals = Atomic<Int>(0)

    /// Blocks the caller until ``open()``.
    func wait() {
        arrivals.add(1, ordering: .releasing)
        semaphore.wait()
    }

    /// Lets one waiting caller through.
    func open() {
        semaphore.signal()
    }

    /// How many callers have arrived at the gate.
    var arrived: Int { arrivals.load(ordering: .acquiring) }
}

/// A processor that records the sequence numbers it sees and checks that it never runs twice at once.
final class RecordingProcessor: FrameProcessor {
    let seen = Recorder<UInt64>()
    let mirrored = Recorder<Bool>()
    private let inFlight = Atomic<Int>(0)
    private let mostInFlight = Atomic<Int>(0)
    private let gate: Gate?

    init(gate: Gate? = nil) {
        self.gate = gate
    }

    func process(_ frame: Frame) throws {
        let current = inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        var most = mostInFlight.load(ordering: .relaxed)
        while current > most {
            let (exchanged, actual) = mostInFlight.compareExchange(
                expected: most, desired: current, ordering: .relaxed)
            if exchanged { break }
            most = actual
        }
        gate?.wait()
        // Tests wait for `seen`, then read the rest: it is recorded last.
        mirrored.append(frame.isMirrored)
        seen.append(frame.sequenceNumber)
        inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    /// The most calls that were ever running at once.
    var maximumInFlight: Int { mostInFlight.load(ordering: .relaxed) }
}

/// A backend whose transitions wait until the test finishes them, failing those it is told to fail.
final class GatedBackend: FrameSourceBackend {
    private struct State {
        var performed: [FrameSourceTransition] = []
        var waiting: [CheckedContinuation<Void, any Error>] = []
        var isOpen = false
        var failures: [FrameSourceTransition: any Error] = [:]
    }

    private let state = Locked(State())

    /// The transitions started so far, in order.
    var performed: [FrameSourceTransition] { state.withLock { $0.performed } }

    /// Makes every later `transition` throw `error`.
    func fail(_ transition: FrameSourceTransition, with error: any Error) {
        state.withLock { $0.failures[transition] = error }
    }

    /// Finishes the waiting transitions and lets every later one through at once.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func perform(_ transition: FrameSourceTransition, for engine: FrameSourceEngine) async throws {
        let failure = state.withLock { state in
            state.performed.append(transition)
            return state.failures[transition]
        }
        try await withCheckedThrowingContinuation { continuation in
            let passThrough = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if passThrough { continuation.resume() }
        }
        if let failure { throw failure }
    }
}

/// A frame source over a gated backend, as a device backend would be built.
final class GatedSource: FrameSource {
    let backend = GatedBackend()
    let frameSourceEngine: FrameSourceEngine

    init() {
        frameSourceEngine = FrameSourceEngine(queueCapacity: 2, backend: backend)
    }
}
