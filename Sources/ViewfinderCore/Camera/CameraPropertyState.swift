/// The state of one ``TypedCameraProperty``: its values and the set requests under way.
///
/// Every transition returns the ``Actions`` it calls for — observers to notify, waiting callers to resume, timers
/// to cancel — which the property carries out after releasing its lock.
struct CameraPropertyState<Value: CameraPropertyValue> {
    typealias Element = TypedCameraPropertyValue<Value>
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// What ends a request well: the camera showing a value, or, after a step, showing any other value than before.
    enum Goal: Equatable {
        case value(Element)
        case step(up: Bool, from: Element?)

        /// Whether the camera showing `current` reaches the goal.
        func isReached(by current: Element?) -> Bool {
            switch self {
            case .value(let target): target == current
            case .step(_, let from): current != nil && current != from
            }
        }

        /// The request for messages, such as `setting ISO to ISO 800` or `stepping ISO up`.
        func describe(_ displayName: String) -> String {
            switch self {
            case .value(let target): "setting \(displayName) to \(target.localizedDisplayValue)"
            case .step(let up, _): "stepping \(displayName) \(up ? "up" : "down")"
            }
        }
    }

    /// One call of `setValue`, `increment` or `decrement`, from sending to its end.
    private enum Request {
        /// The backend is sending the request.
        case sending(Goal)
        /// The request is sent; a caller waits for the camera to reach the goal, until the timer fires.
        case waiting(Goal, Continuation, timer: Task<Void, Never>)
        /// The outcome came before the caller began to wait; it is handed over when it does.
        case finished(Result<Void, ViewfinderError>)

        var goal: Goal? {
            switch self {
            case .sending(let goal), .waiting(let goal, _, _): return goal
            case .finished: return nil
            }
        }
    }

    /// Why a request ends before the camera reports its value.
    enum Failure {
        case timedOut(after: Duration)
        case cancelled
    }

    /// Work for after the lock is released.
    struct Actions {
        var changes: CameraPropertyChangeType = []
        var resumptions: [(Continuation, Result<Void, ViewfinderError>)] = []
        var timersToCancel: [Task<Void, Never>] = []
    }

    let displayName: String
    private(set) var currentValue: Element?
    private(set) var validSettableValues: CameraPropertySettableValues<Value> = []
    private var pending: (id: UInt64, value: Element)?
    private var requests: [UInt64: Request] = [:]
    private var nextRequestID: UInt64 = 0
    /// Why the values were forgotten, until the camera reports the property again: the error its going away ended
    /// requests with.
    private var lossReason: ViewfinderError?

    init(displayName: String) {
        self.displayName = displayName
    }

    var pendingValue: Element? { pending?.value }

    /// Takes what the camera reports, and ends the requests whose value it now shows.
    mutating func update(
        currentValue newValue: Element??, validSettableValues newValues: CameraPropertySettableValues<Value>?
    )
        -> Actions
    {
        var actions = Actions()
        if newValue != nil || newValues != nil {
            lossReason = nil
        }
        if let newValue, newValue != currentValue {
            currentValue = newValue
            actions.changes.insert(.value)
        }
        if let newValues, newValues != validSettableValues {
            validSettableValues = newValues
            actions.changes.insert(.validSettableValues)
        }
        if actions.changes.contains(.value) {
            for (id, request) in requests where request.goal?.isReached(by: currentValue) == true {
                finish(id, with: .success(()), actions: &actions)
            }
        }
        return actions
    }

    /// Throws the error that made the property forget its values, while the camera that went away has not reported
    /// it again.
    func requireCamera() throws(ViewfinderError) {
        guard let lossReason else { return }
        throw ViewfinderError(
            lossReason.code, "\(displayName) cannot be set: \(lossReason.message)", errno: lossReason.errno)
    }

    /// Checks that the property has values to set, with a message that says why not.
    private func requireSettableValues() throws {
        guard validSettableValues.valueSetType == .none else { return }
        try requireCamera()
        throw ViewfinderError(
            .notAvailable,
            "\(displayName) cannot be set now: the camera reports no values to choose from (it is read-only, "
                + "not reported yet, or locked by the camera's mode)")
    }

    /// Checks that `target` can be set now, with a message that says why not.
    func validate(_ target: Element) throws {
        try requireSettableValues()
        guard validSettableValues.valueSetType != .stepping else {
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(displayName) cannot be set to a value: the camera moves it a step at a time without listing its "
                    + "values; use increment() or decrement()")
        }
        guard validSettableValues.position(of: target) != nil else {
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(target.localizedDisplayValue) is not one of the values \(displayName) accepts now: "
                    + validSettableValues.summary)
        }
    }

    /// The valid settable value `offset` steps from the pending or current value.
    func validValue(offsetBy offset: Int) throws -> Element {
        try requireSettableValues()
        guard let base = pending?.value ?? currentValue else {
            throw ViewfinderError(.notAvailable, "\(displayName) has no current value to step from")
        }
        guard let position = validSettableValues.position(of: base) else {
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(displayName) is \(base.localizedDisplayValue), which is not one of the values it accepts now, "
                    + "so it has no next or previous value; set one of: \(validSettableValues.summary)")
        }
        let target = position + offset
        guard validSettableValues.indices.contains(target) else {
            let end = offset > 0 ? "last" : "first"
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(displayName) is already at its \(end) valid value, \(base.localizedDisplayValue)")
        }
        return validSettableValues[target]
    }

    /// Starts a request: `target` becomes the pending value, and earlier requests end as replaced.
    mutating func beginSetting(_ target: Element) -> (id: UInt64, actions: Actions) {
        var (id, actions) = begin(.value(target))
        if pending?.value != target {
            actions.changes.insert(.pendingValue)
        }
        pending = (id, target)
        return (id, actions)
    }

    /// Starts a step of a stepping property, and ends earlier requests as replaced.
    ///
    /// The step ends when the camera shows another value than now. There is no pending value meanwhile, as the next
    /// one is not known.
    mutating func beginStepping(up: Bool) throws -> (id: UInt64, actions: Actions) {
        try requireSettableValues()
        var (id, actions) = begin(.step(up: up, from: currentValue))
        if pending != nil {
            pending = nil
            actions.changes.insert(.pendingValue)
        }
        return (id, actions)
    }

    private mutating func begin(_ goal: Goal) -> (id: UInt64, actions: Actions) {
        var actions = Actions()
        let id = nextRequestID
        nextRequestID += 1
        for (otherID, request) in requests {
            guard let earlier = request.goal else { continue }
            let error = ViewfinderError(
                .cancelled,
                "\(earlier.describe(displayName)) was replaced by a later request, \(goal.describe(displayName))")
            finish(otherID, with: .failure(error), actions: &actions)
        }
        requests[id] = .sending(goal)
        return (id, actions)
    }

    /// Forgets a request whose sending failed.
    mutating func abandon(_ id: UInt64) -> Actions {
        var actions = Actions()
        requests[id] = nil
        clearPending(ifFor: id, actions: &actions)
        return actions
    }

    /// Begins the wait for a sent request, or ends it at once if its outcome is known.
    mutating func wait(for id: UInt64, continuation: Continuation, timer: Task<Void, Never>) -> Actions {
        var actions = Actions()
        if case .sending(let goal) = requests[id], goal.isReached(by: currentValue) {
            requests[id] = .finished(.success(()))
            clearPending(ifFor: id, actions: &actions)
        }
        switch requests[id] {
        case .finished(let result):
            requests[id] = nil
            actions.resumptions.append((continuation, result))
            actions.timersToCancel.append(timer)
        case .sending(let goal):
            requests[id] = .waiting(goal, continuation, timer: timer)
        case .waiting, nil:
            // Each request is waited for once, by the call that began it; this is a defect if it happens.
            let error = ViewfinderError(.cancelled, "setting \(displayName) ended in an unexpected state")
            actions.resumptions.append((continuation, .failure(error)))
            actions.timersToCancel.append(timer)
        }
        return actions
    }

    /// Ends a request that timed out or whose caller was cancelled.
    mutating func fail(_ id: UInt64, because failure: Failure) -> Actions {
        var actions = Actions()
        guard let goal = requests[id]?.goal else { return actions }
        let error: ViewfinderError
        switch failure {
        case .timedOut(let timeout):
            let shown = currentValue?.localizedDisplayValue ?? "no value"
            error = ViewfinderError(
                .timeout,
                "the camera took the request (\(goal.describe(displayName))) but still showed \(shown) after "
                    + "\(timeout); try again, or check that the camera's mode lets \(displayName) change")
        case .cancelled:
            error = ViewfinderError(.cancelled, "\(goal.describe(displayName)) was cancelled")
        }
        finish(id, with: .failure(error), actions: &actions)
        clearPending(ifFor: id, actions: &actions)
        return actions
    }

    /// Forgets every value, as when the camera goes away; requests under way end with `error`.
    mutating func reset(failingRequestsWith error: ViewfinderError) -> Actions {
        var actions = update(currentValue: .some(nil), validSettableValues: [])
        lossReason = error
        for id in requests.keys {
            finish(id, with: .failure(error), actions: &actions)
        }
        if pending != nil {
            pending = nil
            actions.changes.insert(.pendingValue)
        }
        return actions
    }

    private mutating func finish(_ id: UInt64, with result: Result<Void, ViewfinderError>, actions: inout Actions) {
        switch requests[id] {
        case .sending:
            requests[id] = .finished(result)
        case .waiting(_, let continuation, let timer):
            requests[id] = nil
            actions.resumptions.append((continuation, result))
            actions.timersToCancel.append(timer)
        case .finished, nil:
            break
        }
        if case .success = result {
            clearPending(ifFor: id, actions: &actions)
        }
    }

    private mutating func clearPending(ifFor id: UInt64, actions: inout Actions) {
        guard pending?.id == id else { return }
        pending = nil
        actions.changes.insert(.pendingValue)
    }
}

extension CameraPropertySettableValues {
    /// A short account of the values for messages: a few from the start, or a range's ends.
    var summary: String {
        if valueSetType == .numericRange, let first, let last {
            return "\(first.localizedDisplayValue) to \(last.localizedDisplayValue) in \(count) steps"
        }
        if valueSetType == .stepping {
            return "a step up or down at a time"
        }
        let shown = prefix(8).map(\.localizedDisplayValue).joined(separator: ", ")
        return count > 8 ? shown + ", … (\(count) in all)" : shown
    }
}
