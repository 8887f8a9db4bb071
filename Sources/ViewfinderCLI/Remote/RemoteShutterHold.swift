import Viewfinder
import ViewfinderSystem

/// The shutter a page holds open for a bulb exposure: held while the page keeps saying so, let go when the page lets
/// go, and let go by the server when the page falls silent.
///
/// A page that is closed, loses its network or freezes cannot be trusted to send its release, and a shutter left
/// open would run the camera's battery down and ruin the picture. So a hold is a lease: the page renews it
/// (``keep()``) every half second while its button is down, and a hold not renewed for ``lease`` is let go, which
/// ends the exposure.
final class RemoteShutterHold: Sendable {
    /// How long a hold lasts without the page renewing it.
    let lease: Duration
    private let camera: any Camera
    private let state = Locked(State())

    private struct State {
        var held = false
        var deadline = ContinuousClock.now
        /// Rises with every hold, so the watch of an earlier hold ends.
        var generation = 0
        var watch: Task<Void, Never>?
    }

    /// A hold on `camera`'s shutter that lasts `lease` without renewal.
    init(camera: any Camera, lease: Duration) {
        self.camera = camera
        self.lease = lease
    }

    /// Whether a page holds the shutter now.
    var isHeld: Bool { state.withLock { $0.held } }

    /// Records that the camera holds its shutter for a page, and starts the lease.
    func held() {
        let generation = state.withLock { state in
            state.held = true
            state.deadline = .now + lease
            state.generation += 1
            state.watch?.cancel()
            return state.generation
        }
        let watch = Task { [weak self] in
            guard let self else { return }
            await self.watch(generation)
        }
        state.withLock { state in
            if state.generation == generation { state.watch = watch } else { watch.cancel() }
        }
    }

    /// Renews the lease of the held shutter.
    ///
    /// - Returns: Whether the shutter was held; a hold the server let go of is not held again.
    func keep() -> Bool {
        state.withLock { state in
            guard state.held else { return false }
            state.deadline = .now + lease
            return true
        }
    }

    /// Records that the page let go; returns whether a hold was on.
    @discardableResult
    func released() -> Bool {
        state.withLock { state in
            defer {
                state.held = false
                state.watch?.cancel()
                state.watch = nil
            }
            return state.held
        }
    }

    /// Lets go of the shutter once the lease of hold `generation` runs out without renewal.
    private func watch(_ generation: Int) async {
        while !Task.isCancelled {
            let deadline = state.withLock { $0.generation == generation && $0.held ? $0.deadline : nil }
            guard let deadline else { return }
            if ContinuousClock.now >= deadline {
                let expired = state.withLock { state in
                    guard state.generation == generation, state.held, ContinuousClock.now >= state.deadline else {
                        return false
                    }
                    state.held = false
                    state.watch = nil
                    return true
                }
                guard expired else { continue }
                Console.printToError("remote: the page stopped holding the shutter for \(lease); letting it go")
                do {
                    try await camera.disengageShutter()
                } catch {
                    Console.printToError("remote: letting go of the shutter failed: \(error)")
                }
                return
            }
            try? await Task.sleep(until: deadline)
        }
    }
}
