import Dispatch
import ViewfinderReactive
import ViewfinderSystem

/// Where a live view publisher's pump waits: until woken by a request, a cancellation or new options, or until a
/// deadline.
///
/// A wake that comes while the pump is busy is remembered, so the pump's next wait returns at once and it looks at
/// the state again.
final class LiveViewPump: Sendable {
    private struct State {
        var parked: CheckedContinuation<Void, Never>?
        /// Whether the parked pump waits without a deadline: only a wake moves it.
        var parkedWithoutDeadline = false
        var wakePending = false
        var parkings: UInt64 = 0
    }

    private let state = Locked(State())

    /// Whether the pump is parked until woken, with no deadline to wake it: nothing happens until a subscriber asks
    /// for a frame, leaves, or changes options.
    var isParkedWithoutDeadline: Bool { state.withLock { $0.parked != nil && $0.parkedWithoutDeadline } }

    /// Waits until ``wake()`` is called or `deadline` passes; returns at once if a wake came since the last wait.
    ///
    /// - Parameter thread: The I/O thread the pump runs on, whose timers then mark the deadline.
    func wait(until deadline: ContinuousClock.Instant?, on thread: IOThread? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let parking = state.withLock { state -> UInt64? in
                if state.wakePending {
                    state.wakePending = false
                    return nil
                }
                state.parkings += 1
                state.parked = continuation
                state.parkedWithoutDeadline = deadline == nil
                return state.parkings
            }
            guard let parking else {
                continuation.resume()
                return
            }
            guard let deadline else { return }
            // A timer rather than a sleeping task: no task to start for each wait, so a paced frame takes one hop
            // fewer. On the pump's own I/O thread the timer wakes no other thread. When a wake comes first, the
            // timer finds a later parking (or none) and does nothing.
            let expire: @Sendable () -> Void = { [weak self] in self?.wake(parking: parking) }
            if let thread {
                thread.schedule(at: deadline, expire)
            } else {
                DispatchQueue.global().asyncAfter(deadline: DispatchTime(deadline), execute: expire)
            }
        }
    }

    /// Wakes the waiting pump, or makes its next wait return at once.
    func wake() {
        wake(parking: nil)
    }

    /// Wakes the pump if it still waits in `parking` (any wait when `nil`).
    private func wake(parking: UInt64?) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let parked = state.parked else {
                if parking == nil { state.wakePending = true }
                return nil
            }
            guard parking == nil || parking == state.parkings else { return nil }
            state.parked = nil
            return parked
        }
        continuation?.resume()
    }
}

extension LiveViewPublisher {
    /// Runs the pump until live view is off and nobody wants frames.
    ///
    /// The pump starts live view, fetches and delivers frames while there is demand, ends live view after the grace
    /// period, and tells subscribers when live view ended. One runs at a time, on `executor` when the backend named
    /// one.
    func runPump(on executor: (any TaskExecutor)?) async {
        let thread = executor as? IOThread
        while true {
            let step = state.withLock { $0.nextStep(now: .now, gracePeriod: configuration.gracePeriod) }
            switch step {
            case .complete(let terminations):
                for (reference, reason) in terminations {
                    reference.subscriber.receive(completion: reason.completion)
                }
            case .start(let settings):
                await start(settings)
            case .fetch(let settings):
                await fetch(settings)
            case .wait(let deadline):
                await pump.wait(until: deadline, on: thread)
            case .stop:
                await currentBackend?.endLiveView()
                state.withLock { state in
                    state.isStreaming = false
                    state.emptySince = nil
                    state.statistics.stopCount += 1
                }
            case .exit:
                return
            }
        }
    }

    /// Starts live view, retrying a failed start; when every attempt fails, the subscribers fail with the last error.
    private func start(_ settings: LiveViewSettings) async {
        var attempt = 0
        while true {
            attempt += 1
            let failure: ViewfinderError
            do {
                guard let backend = currentBackend else {
                    throw ViewfinderError(.notConnected, "the camera of this live view publisher is gone")
                }
                try await backend.startLiveView(settings: settings)
                state.withLock { state in
                    state.isStreaming = true
                    state.lastFetch = nil
                    state.statistics.startCount += 1
                }
                return
            } catch {
                failure = Self.viewfinderError(error, "live view did not start")
            }
            state.withLock { $0.statistics.failedStartCount += 1 }
            let retries = ![.notConnected, .notAvailable, .disconnected, .cancelled].contains(failure.code)
            if retries, attempt < configuration.startAttempts, await waitToRetry() {
                continue
            }
            // A start that went part of the way may have left live view on.
            await currentBackend?.endLiveView()
            let message = "\(failure.message) (after \(attempt) attempt\(attempt == 1 ? "" : "s"))"
            let error = ViewfinderError(
                failure.code, message, responseCode: failure.responseCode, errno: failure.errno)
            state.withLock { $0.endAll(.failed(error)) }
            return
        }
    }

    /// Waits before another attempt to start; `false` when nobody wants frames any more.
    private func waitToRetry() async -> Bool {
        let deadline = ContinuousClock.now + configuration.retryDelay
        while ContinuousClock.now < deadline {
            guard state.withLock({ $0.hasDemand && $0.terminations.isEmpty }) else { return false }
            await pump.wait(until: deadline)
        }
        return state.withLock { $0.hasDemand && $0.terminations.isEmpty }
    }

    /// Fetches one frame and hands it to every subscriber with demand; a failure ends live view for them.
    private func fetch(_ settings: LiveViewSettings) async {
        let frame: LiveViewFrame
        do {
            guard let backend = currentBackend else {
                throw ViewfinderError(.notConnected, "the camera of this live view publisher is gone")
            }
            frame = try await backend.liveViewFrame(settings: settings)
        } catch {
            let failure = Self.viewfinderError(error, "live view stopped delivering frames")
            let wasStreaming = state.withLock { $0.isStreaming }
            if wasStreaming {
                await currentBackend?.endLiveView()
            }
            state.withLock { state in
                if state.isStreaming {
                    state.statistics.stopCount += 1
                }
                state.isStreaming = false
                state.endAll(.failed(failure))
            }
            return
        }
        let recipients = state.withLock { $0.takeRecipients() }
        for (id, reference) in recipients {
            let more = reference.subscriber.receive(frame)
            if more > 0 {
                state.withLock { $0.entries[id]?.demand += more }
            }
        }
    }

    private static func viewfinderError(_ error: any Error, _ context: String) -> ViewfinderError {
        if let error = error as? ViewfinderError { return error }
        if error is CancellationError { return ViewfinderError(.cancelled, "\(context): cancelled") }
        return ViewfinderError(.io, "\(context): \(error)")
    }
}
