import Dispatch
import Viewfinder
import ViewfinderSystem

/// A camera's live view as the remote's pages ask for it: a frame is fetched from the camera only while a page
/// waits for one, so the camera sends frames no faster than the pages draw them.
///
/// A page starts live view (``start()``, for a `POST`: a `GET` never turns the camera's live view on), then asks for
/// the frame after the one it shows (``frame(after:until:)``), each request letting the camera fetch the next frame;
/// live view is let go once no page has asked for ``idleTimeout``.
final class RemoteLiveView: Sendable {
    /// A live view frame as the pages get it.
    struct Frame: Sendable {
        /// Counts the frames since the remote started.
        var number: Int
        /// The JPEG image.
        var jpeg: [UInt8]
        /// The size of the coordinate space the frame's geometry is given in, which touch AF takes points in.
        var aspect: Dimensions
    }

    private struct State {
        var latest: Frame?
        /// Lets the camera fetch its next frame; held while no page waits.
        var ready: Subscribers.ReadyHandler?
        var subscription: AnyCancellable?
        var waiters: [Int: DispatchSemaphore] = [:]
        var nextWaiter = 0
        var lastRequest = ContinuousClock.now
        /// Why live view ended, until a page asks again.
        var ended: String?
    }

    /// How long live view stays on with no page asking for frames.
    static let idleTimeout = Duration.seconds(5)
    private let camera: any Camera
    private let state = Locked(State())

    /// Live view of `camera`, off until a page asks.
    init(camera: any Camera) {
        self.camera = camera
    }

    /// The size of the coordinate space of the latest frame's geometry; `nil` before the first frame.
    var latestAspect: Dimensions? { state.withLock { $0.latest?.aspect } }

    /// Why a page cannot have a frame: live view is off, as no page started it or none asked for a while.
    struct Off: Error {}

    /// Starts live view unless it is on; it stays on while pages ask for frames.
    func start() {
        let subscribes = state.withLock { state in
            state.lastRequest = .now
            state.ended = nil
            return state.subscription == nil
        }
        if subscribes { subscribe() }
    }

    /// The first frame numbered after `number`, once the camera has sent it, or `nil` at `deadline`.
    ///
    /// Blocks the calling thread. A number past the newest frame's (a page left open while the remote restarted)
    /// gets the next frame.
    ///
    /// - Throws: ``Off`` when live view is off; ``CommandFailure`` when it ended, with the reason.
    func frame(after number: Int, until deadline: ContinuousClock.Instant) throws -> Frame? {
        let semaphore = DispatchSemaphore(value: 0)
        let waiting = state.withLock { state -> (id: Int, ready: Subscribers.ReadyHandler?, after: Int)? in
            guard state.subscription != nil else { return nil }
            defer { state.nextWaiter += 1 }
            state.waiters[state.nextWaiter] = semaphore
            state.lastRequest = .now
            // A page that counts past the newest frame saw another run of the remote: it gets the next one.
            let after = min(number, state.latest?.number ?? 0)
            // Ask for the next frame only when the page has the newest one.
            let ready = (state.latest?.number ?? 0) <= after ? state.ready : nil
            if ready != nil { state.ready = nil }
            return (state.nextWaiter, ready, after)
        }
        guard let (id, ready, after) = waiting else {
            if let ended = state.withLock({ $0.ended }) { throw CommandFailure(ended) }
            throw Off()
        }
        defer { state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
        ready?()
        while true {
            let (latest, ended) = state.withLock { ($0.latest, $0.ended) }
            if let latest, latest.number > after { return latest }
            if let ended { throw CommandFailure(ended) }
            guard ContinuousClock.now < deadline else { return nil }
            _ = semaphore.wait(timeout: DispatchTime(deadline))
        }
    }

    /// Lets live view go when no page has asked for a while; the remote calls it now and then.
    func releaseIfIdle() {
        let subscription = state.withLock { state -> AnyCancellable? in
            guard state.subscription != nil, state.waiters.isEmpty,
                state.lastRequest.duration(to: .now) > Self.idleTimeout
            else { return nil }
            defer {
                state.subscription = nil
                state.ready = nil
            }
            return state.subscription
        }
        subscription?.cancel()
    }

    /// Ends live view.
    func stop() {
        let subscription = state.withLock { state in
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }

    private func subscribe() {
        let subscription = camera.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { [weak self] completion in
                self?.end(completion)
            } receiveValue: { [weak self] frame, ready in
                self?.receive(frame, ready: ready)
            }
        let surplus = state.withLock { state -> AnyCancellable? in
            guard state.subscription == nil else { return subscription }
            state.subscription = subscription
            return nil
        }
        surplus?.cancel()
    }

    private func receive(_ frame: LiveViewFrame, ready: @escaping Subscribers.ReadyHandler) {
        // The pages that wait take the new frame, and ask for the next one once they have drawn it.
        let waiters = state.withLock { state in
            let number = (state.latest?.number ?? 0) + 1
            state.latest = Frame(number: number, jpeg: frame.jpegData, aspect: frame.geometry.aspect)
            state.ready = ready
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.signal() }
    }

    private func end(_ completion: Subscribers.Completion<LiveViewTerminationReason>) {
        let waiters = state.withLock { state in
            state.subscription = nil
            state.ready = nil
            switch completion {
            case .finished:
                state.ended = "live view ended"
            case .failure(let reason):
                state.ended = "live view ended: \(reason)"
            }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.signal() }
    }
}
