import ViewfinderCore
import ViewfinderSystem

/// Keeps a Nikon camera's live view on while anything needs it: the live view stream, a video recording, or both.
///
/// Nikon cameras record movies only with live view on. The first user to acquire the lease starts live view and
/// waits until the camera is ready; the last to release it ends live view. Acquiring and releasing run one at a
/// time, in call order, so a release never ends live view under a user that is still starting.
final class NikonLiveViewLease: Sendable {
    /// What needs live view.
    enum User: Hashable, Sendable {
        case liveView
        case recording
    }

    private struct State {
        var users: Set<User> = []
        /// Whether StartLiveView was sent and EndLiveView not yet.
        var isOn = false
    }

    private let state = Locked(State())
    private let operations = SerialTasks()

    /// Starts live view unless it is on, waits until the camera is ready, and records `user`.
    ///
    /// A failed wait leaves live view asked for, so that a retry only waits again; ``release(_:on:)`` ends it.
    func acquire(_ user: User, on session: PTPSession, readyTimeout: Duration) async throws {
        try await operations.run { [state] in
            if !state.withLock({ $0.isOn }) {
                _ = try await session.transaction(.nikonStartLiveView)
                state.withLock { $0.isOn = true }
            }
            try await session.waitUntilNikonReady(timeout: readyTimeout)
            state.withLock { _ = $0.users.insert(user) }
        }
    }

    /// Forgets `user`, and ends live view when no user is left.
    func release(_ user: User, on session: PTPSession) async {
        await operations.run { [state] in
            let ends = state.withLock { state in
                state.users.remove(user)
                defer { if state.users.isEmpty { state.isOn = false } }
                return state.users.isEmpty && state.isOn
            }
            if ends {
                try? await session.endNikonLiveView()
            }
        }
    }

    /// Ends live view for every user, before the session closes.
    func end(on session: PTPSession) async {
        await operations.run { [state] in
            let ends = state.withLock { state in
                defer {
                    state.users = []
                    state.isOn = false
                }
                return state.isOn
            }
            if ends {
                try? await session.endNikonLiveView()
            }
        }
    }

    /// Forgets everything, as when the connection is gone.
    func reset() {
        state.withLock { state in
            state.users = []
            state.isOn = false
        }
    }
}
