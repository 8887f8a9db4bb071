/// The rules for switching a frame source between states, with no locks, threads or callbacks of its own.
///
/// A ``FrameSourceEngine`` keeps one machine behind its lock. Every operation updates the machine and returns
/// ``Effects``: the completions to call, the state changes to announce and the transition to start, which the engine
/// carries out after releasing the lock.
///
/// The rules: a request made while a transition runs waits; a newer request replaces the waiting one, which completes
/// as superseded; the running transition always finishes (a backend cannot be interrupted halfway), then the waiting
/// request, if any, is carried out. A failed transition falls back to the state it started from.
struct FrameSourceStateMachine: Sendable {
    /// Receives the outcome of one request.
    typealias Completion = @Sendable (FrameSourceSwitchResult) -> Void

    /// What the engine has to do once it has released its lock.
    struct Effects {
        /// Requests that have ended, with how.
        var completions: [(Completion, FrameSourceSwitchResult)] = []
        /// Changes of the current state, in order.
        var changes: [FrameSourceStateChange] = []
        /// A transition the backend has to carry out now; the engine reports its end with ``finish(_:error:)``.
        var transition: FrameSourceTransition?

        fileprivate mutating func complete(_ completion: Completion?, with result: FrameSourceSwitchResult) {
            if let completion { completions.append((completion, result)) }
        }
    }

    /// The state the source is in, transitional states included.
    private(set) var currentState: FrameSourceState = .off
    /// The state most recently asked for.
    private(set) var desiredState: FrameSourceState = .off
    /// The transition the backend is carrying out.
    private var running: FrameSourceTransition?
    /// The requests that end when the running transition does.
    private var runningCompletions: [Completion] = []
    /// The latest request made while a transition ran; carried out when it ends.
    private var waiting: (state: FrameSourceState, completion: Completion?)?
    /// A failure the backend reported while a transition ran; applied when it ends.
    private var failureDuringTransition: (any Error)?

    /// Asks for `state`; `completion` is told how the request ended.
    mutating func request(_ state: FrameSourceState, completion: Completion?) -> Effects {
        var effects = Effects()
        guard !state.isTransitional else {
            let error = ViewfinderError(
                .invalidArgument, "a frame source can be switched to on, off or standby, not to \(state)")
            effects.complete(completion, with: .failed(error))
            return effects
        }
        desiredState = state
        if running == nil {
            begin(state, completion: completion, effects: &effects)
        } else {
            if let superseded = waiting {
                effects.complete(superseded.completion, with: .superseded)
            }
            waiting = (state, completion)
        }
        return effects
    }

    /// Records the end of the running `transition`: a success when `error` is `nil`, else a fall back.
    mutating func finish(_ transition: FrameSourceTransition, error: (any Error)?) -> Effects {
        precondition(running == transition, "finished \(transition), but \(String(describing: running)) was running")
        var effects = Effects()
        running = nil
        let completions = runningCompletions
        runningCompletions = []
        if let error {
            move(to: transition.source, error: error, effects: &effects)
            if waiting == nil { desiredState = currentState }
            for completion in completions { effects.complete(completion, with: .failed(error)) }
        } else {
            move(to: transition.target, error: nil, effects: &effects)
            for completion in completions { effects.complete(completion, with: .reached) }
        }
        if let failure = failureDuringTransition {
            failureDuringTransition = nil
            fail(failure, effects: &effects)
        }
        if let next = waiting {
            waiting = nil
            begin(next.state, completion: next.completion, effects: &effects)
        }
        return effects
    }

    /// Records that the backend stopped by itself, for example because its device went away: the source goes off.
    ///
    /// While a transition runs, the failure waits until the transition ends.
    mutating func reportFailure(_ error: any Error) -> Effects {
        var effects = Effects()
        if running == nil {
            fail(error, effects: &effects)
        } else {
            failureDuringTransition = error
        }
        return effects
    }

    private mutating func begin(_ state: FrameSourceState, completion: Completion?, effects: inout Effects) {
        guard let transition = FrameSourceTransition(from: currentState, to: state) else {
            effects.complete(completion, with: .reached)
            return
        }
        running = transition
        if let completion { runningCompletions.append(completion) }
        move(to: transition.transitionalState, error: nil, effects: &effects)
        effects.transition = transition
    }

    private mutating func fail(_ error: any Error, effects: inout Effects) {
        guard currentState != .off else { return }
        move(to: .off, error: error, effects: &effects)
        if waiting == nil { desiredState = .off }
    }

    private mutating func move(to state: FrameSourceState, error: (any Error)?, effects: inout Effects) {
        effects.changes.append(FrameSourceStateChange(from: currentState, to: state, error: error))
        currentState = state
    }
}
