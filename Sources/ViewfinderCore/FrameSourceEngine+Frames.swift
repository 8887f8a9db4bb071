import Synchronization

/// What happened to a frame handed to a frame source.
public enum FrameSubmissionResult: Sendable, Equatable, CustomStringConvertible {
    /// The frame is queued; the context takes it once the source is on, attached, and done with earlier frames.
    case accepted
    /// The frame is queued, and the oldest queued frame was dropped to make room for it.
    case acceptedDroppingOldest
    /// The frame was refused, for example for its pixel format; the error says why and what to do.
    case rejected(ViewfinderError)

    /// Whether the frame was queued.
    public var isAccepted: Bool {
        if case .rejected = self { return false }
        return true
    }

    /// `accepted`, `accepted, dropped the oldest`, or `rejected:` with the reason.
    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .acceptedDroppingOldest: "accepted, dropped the oldest"
        case .rejected(let error): "rejected: \(error)"
        }
    }
}

/// Counts of what a frame source did with the frames handed to it.
///
/// Every accepted frame is delivered, dropped, or still queued: `received == delivered + dropped + queued` once no
/// frame is in motion, as after the source stopped. While frames flow, the counts are read one after another, so a
/// frame being queued or taken may already show in one count and not yet in another.
public struct FrameSourceStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Frames accepted into the queue.
    public var received = 0
    /// Frames handed to the context.
    public var delivered = 0
    /// Frames dropped from a full queue to make room for newer ones.
    public var dropped = 0
    /// Frames refused, for example for their pixel format.
    public var rejected = 0
    /// Frames waiting in the queue now.
    public var queued = 0

    /// Creates statistics with every count zero.
    public init() {}

    /// The counts, for people.
    public var description: String {
        "received \(received), delivered \(delivered), dropped \(dropped), rejected \(rejected), queued \(queued)"
    }
}

extension FrameSourceEngine {
    /// Queues `frame` for the context; never blocks and never waits for processing.
    ///
    /// When the queue is full the oldest queued frame is dropped, so a producer faster than the context loses frames
    /// instead of building up latency or memory. A frame in a format other than ``acceptedPixelFormat`` is rejected.
    /// Any thread may submit, and several may at once.
    ///
    /// A frame dropped to make room is released on the calling thread, so its memory goes back at once; keep that
    /// release cheap, as returning a buffer to a ``PixelBufferPool`` or to a driver is.
    @discardableResult
    public func submit(_ frame: consuming Frame) -> FrameSubmissionResult {
        if let acceptedPixelFormat, !frame.pixelBuffer.hasFormat(acceptedPixelFormat) {
            rejected.add(1, ordering: .relaxed)
            let buffer = frame.pixelBuffer
            return .rejected(
                ViewfinderError(
                    .unsupportedPixelFormat,
                    "this frame source accepts only \(acceptedPixelFormat) frames, not a \(buffer.width)x"
                        + "\(buffer.height) \(buffer.format) frame; convert the frame to \(acceptedPixelFormat) first"))
        }
        // Dropped frames are released inside `append`, on this thread; no lock is held there.
        let droppedCount = ring.append(frame)
        if droppedCount > 0 { dropped.add(droppedCount, ordering: .relaxed) }
        // Pairs with the fence in `takeFrameOrWait`: either the context sees this frame, or this sees it waiting.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        if isOn.load(ordering: .relaxed), consumerIsWaiting.load(ordering: .relaxed) {
            wakeConsumer()
        }
        return droppedCount == 0 ? .accepted : .acceptedDroppingOldest
    }

    /// Drops every frame waiting for the context, releasing each on the calling thread; returns how many.
    ///
    /// A backend calls this once its producer has stopped, so that frames of a finished stream are not delivered
    /// when the source is switched on again, and the memory they hold, such as a driver's buffers, goes back at once.
    /// The frame the context is processing is not affected. Discarded frames count as dropped in ``statistics``.
    @discardableResult
    public func discardQueuedFrames() -> Int {
        let discarded = ring.removeAll()
        if discarded > 0 { dropped.add(discarded, ordering: .relaxed) }
        return discarded
    }

    /// Wakes the attached context if it is still marked waiting.
    private func wakeConsumer() {
        guard consumerIsWaiting.exchange(false, ordering: .acquiringAndReleasing) else { return }
        state.withLock { $0.consumer }?.wake()
    }

    /// Attaches the source to `consumer`, returning the context it was attached to before, if another.
    func attach(_ consumer: CaptureWorker) -> CaptureWorker? {
        state.withLock { state in
            let previous = state.consumer
            state.consumer = consumer
            consumerID.store(Self.identity(of: consumer), ordering: .releasing)
            consumerIsWaiting.store(false, ordering: .relaxed)
            return previous === consumer ? nil : previous
        }
    }

    /// Detaches the source from `consumer`, if it is still attached to it.
    func detach(_ consumer: CaptureWorker) {
        state.withLock { state in
            guard state.consumer === consumer else { return }
            state.consumer = nil
            consumerID.store(0, ordering: .releasing)
            consumerIsWaiting.store(false, ordering: .relaxed)
        }
    }

    /// Whether the source is attached to a context.
    var isAttached: Bool { consumerID.load(ordering: .acquiring) != 0 }

    /// Takes the oldest queued frame for `consumer`, with the frame listeners to tell, if the source is on and
    /// attached to it.
    func takeFrame(for consumer: CaptureWorker) -> (frame: Frame, listeners: [FrameListener])? {
        guard isAttached(to: consumer), let frame = takeFrame() else { return nil }
        return deliver(frame)
    }

    /// Like ``takeFrame(for:)``, but when there is no frame, marks `consumer` waiting, so that the next deliverable
    /// frame or the source switching on wakes it.
    func takeFrameOrWait(for consumer: CaptureWorker) -> (frame: Frame, listeners: [FrameListener])? {
        guard isAttached(to: consumer) else { return nil }
        if let frame = takeFrame() { return deliver(frame) }
        consumerIsWaiting.store(true, ordering: .relaxed)
        // Pairs with the fences in `submit` and `apply`: a frame or an on state that arrived meanwhile is seen.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard let frame = takeFrame() else { return nil }
        consumerIsWaiting.store(false, ordering: .relaxed)
        return deliver(frame)
    }

    /// Whether a frame can be taken now; a hint, read without ordering.
    var hasDeliverableFrame: Bool {
        isOn.load(ordering: .relaxed) && ring.count > 0
    }

    private func isAttached(to consumer: CaptureWorker) -> Bool {
        consumerID.load(ordering: .acquiring) == Self.identity(of: consumer)
    }

    private func takeFrame() -> Frame? {
        isOn.load(ordering: .acquiring) ? ring.takeFirst() : nil
    }

    private func deliver(_ frame: Frame) -> (frame: Frame, listeners: [FrameListener]) {
        delivered.add(1, ordering: .relaxed)
        // Woken for another reason than a frame, the context may still be marked waiting; spare producers the wake.
        if consumerIsWaiting.load(ordering: .relaxed) { consumerIsWaiting.store(false, ordering: .relaxed) }
        return (frame, state.withLock { $0.frameListeners.listeners })
    }

    /// The attached context, if it waits and a frame can be delivered to it now.
    ///
    /// The context is then no longer marked waiting. Called under the lock after the state changed.
    func consumerToWake(_ state: State) -> CaptureWorker? {
        guard isOn.load(ordering: .relaxed), ring.count > 0,
            consumerIsWaiting.exchange(false, ordering: .acquiringAndReleasing)
        else { return nil }
        return state.consumer
    }

    private static func identity(of consumer: CaptureWorker) -> UInt {
        UInt(bitPattern: ObjectIdentifier(consumer))
    }
}

extension PixelBuffer {
    /// Whether the buffer's pixels are in `format`, compared without copying the format's plane table.
    func hasFormat(_ format: PixelFormat) -> Bool {
        storage.format.fourCC == format.fourCC && storage.format.colorRange == format.colorRange
    }
}
