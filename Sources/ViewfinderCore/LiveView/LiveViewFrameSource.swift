import ViewfinderReactive
import ViewfinderSystem

/// A frame source that feeds a camera's live view into a ``DataCaptureContext`` like any other source.
///
/// ```swift
/// let source = LiveViewFrameSource(camera: camera)
/// let context = DataCaptureContext()
/// context.addProcessor { frame in analyse(frame.pixelBuffer) }
/// await context.setFrameSource(source)
/// if await source.switch(toDesiredState: .on) {
///     print("live view frames flow to the context")
/// }
/// ```
///
/// Switching on subscribes to the camera's ``Camera/liveViewPublisher`` and returns once the first frame has
/// arrived, or fails when live view cannot start. The source asks for the next frame only when the context has
/// taken the previous one, so the camera is asked for frames at the context's pace, one frame in flight. Switching
/// off or to standby cancels the subscription; live view then ends after the publisher's grace period unless
/// others subscribe. When live view fails, the source goes off and its state listeners see the error.
///
/// Frames carry the decoded image; when the camera's publisher skips decoding
/// (``LiveViewOption/skipImageDecoding``, which another subscriber may have set), they carry the JPEG data as a
/// ``PixelFormat/jpeg`` buffer instead.
public final class LiveViewFrameSource: FrameSource {
    /// The engine that runs the source's states and queue.
    public let frameSourceEngine: FrameSourceEngine
    /// The camera whose live view the source delivers.
    public let camera: any Camera

    /// Creates a source for `camera`'s live view; nothing happens until it is switched on.
    public init(camera: any Camera) {
        self.camera = camera
        let backend = LiveViewFrameSourceBackend(publisher: camera.liveViewPublisher)
        frameSourceEngine = FrameSourceEngine(queueCapacity: 1, backend: backend)
        backend.requestNextFrameWhenDelivered(by: frameSourceEngine)
    }
}

/// Subscribes to live view while the source is on, and submits each frame to the engine.
private final class LiveViewFrameSourceBackend: FrameSourceBackend {
    private struct State {
        var subscriber: LiveViewFrameSubscriber?
        var deliveryToken: ObservationToken?
    }

    private let publisher: LiveViewPublisher
    private let state = Locked(State())

    init(publisher: LiveViewPublisher) {
        self.publisher = publisher
    }

    /// Asks for the next frame each time the context takes one.
    func requestNextFrameWhenDelivered(by engine: FrameSourceEngine) {
        let token = engine.addFrameListener { [weak self] _ in
            self?.state.withLock { $0.subscriber }?.requestNext()
        }
        state.withLock { $0.deliveryToken = token }
    }

    func perform(_ transition: FrameSourceTransition, for engine: FrameSourceEngine) async throws {
        switch transition {
        case .start, .wakeUp:
            let subscriber = LiveViewFrameSubscriber(engine: engine)
            state.withLock { $0.subscriber = subscriber }
            publisher.subscribe(subscriber)
            do {
                try await subscriber.firstFrame()
            } catch {
                subscriber.cancel()
                state.withLock { $0.subscriber = nil }
                throw error
            }
        case .stop, .goToSleep:
            state.withLock { state in
                defer { state.subscriber = nil }
                return state.subscriber
            }?.cancel()
            // A frame of this subscription left in the queue would be stale by the time the source is on again.
            engine.discardQueuedFrames()
        case .bootUp, .shutDown:
            break
        }
    }
}

/// A subscriber that asks for one frame at a time and submits frames to a frame source's engine.
private final class LiveViewFrameSubscriber: Subscriber, Sendable {
    typealias Input = LiveViewFrame
    typealias Failure = LiveViewTerminationReason

    /// `@unchecked Sendable`: the subscription need not be `Sendable`, but it is safe from any thread by the
    /// publisher contract, and lives only behind the lock.
    private struct State: @unchecked Sendable {
        var subscription: (any Subscription)?
        var isCancelled = false
        var first: CheckedContinuation<Void, any Error>?
        var firstOutcome: Result<Void, ViewfinderError>?
    }

    private let engine: FrameSourceEngine
    private let state = Locked(State())

    init(engine: FrameSourceEngine) {
        self.engine = engine
    }

    func receive(subscription: any Subscription) {
        let cancelled = state.withLock { state in
            state.subscription = subscription
            return state.isCancelled
        }
        if cancelled {
            subscription.cancel()
        } else {
            subscription.request(.max(1))
        }
    }

    func receive(_ input: LiveViewFrame) -> Subscribers.Demand {
        if let frame = try? Self.frame(of: input) {
            engine.submit(frame)
        }
        settleFirst(.success(()))
        return .none
    }

    func receive(completion: Subscribers.Completion<LiveViewTerminationReason>) {
        let error: ViewfinderError
        switch completion {
        case .finished:
            error = ViewfinderError(.disconnected, "live view ended: the camera was disconnected")
        case .failure(.endedNormally):
            error = ViewfinderError(.disconnected, "live view ended")
        case .failure(.failed(let failure)):
            error = failure
        }
        if !settleFirst(.failure(error)) {
            engine.reportFailure(error)
        }
    }

    /// Waits until the first frame arrives, or throws why live view ended before it.
    func firstFrame() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, ViewfinderError>? in
                guard let outcome = state.firstOutcome else {
                    state.first = continuation
                    return nil
                }
                return outcome
            }
            if let outcome {
                continuation.resume(with: outcome)
            }
        }
    }

    /// Records the outcome of the wait for the first frame; `false` when it was recorded already.
    @discardableResult
    private func settleFirst(_ outcome: Result<Void, ViewfinderError>) -> Bool {
        let (settled, continuation) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
            guard state.firstOutcome == nil else { return (false, nil) }
            state.firstOutcome = outcome
            defer { state.first = nil }
            return (true, state.first)
        }
        continuation?.resume(with: outcome)
        return settled
    }

    /// Asks for one more frame.
    func requestNext() {
        state.withLock { $0.subscription }?.request(.max(1))
    }

    func cancel() {
        let subscription = state.withLock { state in
            state.isCancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
        settleFirst(
            .failure(ViewfinderError(.cancelled, "the live view source was switched off before its first frame")))
    }

    /// The frame a live view frame makes: its decoded image, or its JPEG data when it was not decoded.
    private static func frame(of frame: LiveViewFrame) throws -> Frame {
        let buffer =
            try frame.pixelBuffer
            ?? PixelBuffer(
                compressed: frame.jpegData, width: frame.pixelSize.width, height: frame.pixelSize.height, format: .jpeg)
        return Frame(pixelBuffer: buffer, timestamp: frame.timestamp, sequenceNumber: frame.sequenceNumber)
    }
}
