/// The state of a frame source: the three states it can be asked for, and the transitional states between them.
///
/// Ask a source for ``on``, ``off`` or ``standby`` with ``FrameSource/switch(toDesiredState:completionHandler:)``.
/// While it gets there its ``FrameSource/currentState`` is one of the transitional states, such as ``starting``.
/// Standby keeps a device prepared but not delivering frames, so switching on from standby is quicker than from off.
public enum FrameSourceState: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Not delivering frames, and holding no device.
    case off
    /// Delivering frames.
    case on
    /// Between ``off`` and ``on``.
    case starting
    /// Between ``on`` and ``off``.
    case stopping
    /// Prepared to switch on quickly, not delivering frames.
    case standby
    /// Between ``off`` and ``standby``.
    case bootingUp
    /// Between ``standby`` and ``on``.
    case wakingUp
    /// Between ``on`` and ``standby``.
    case goingToSleep
    /// Between ``standby`` and ``off``.
    case shuttingDown

    /// Whether the state is one a source passes through rather than one it can be asked for.
    public var isTransitional: Bool {
        switch self {
        case .off, .on, .standby: false
        case .starting, .stopping, .bootingUp, .wakingUp, .goingToSleep, .shuttingDown: true
        }
    }

    /// The state's name, as written in Swift.
    public var description: String {
        switch self {
        case .off: "off"
        case .on: "on"
        case .starting: "starting"
        case .stopping: "stopping"
        case .standby: "standby"
        case .bootingUp: "bootingUp"
        case .wakingUp: "wakingUp"
        case .goingToSleep: "goingToSleep"
        case .shuttingDown: "shuttingDown"
        }
    }
}

/// One step between two states a frame source can be asked for; a backend carries each one out.
///
/// Every pair of the states ``FrameSourceState/off``, ``FrameSourceState/on`` and ``FrameSourceState/standby`` is
/// one transition, shown meanwhile by its ``transitionalState``.
public enum FrameSourceTransition: Hashable, Sendable, CaseIterable {
    /// From off to on, through ``FrameSourceState/starting``.
    case start
    /// From on to off, through ``FrameSourceState/stopping``.
    case stop
    /// From off to standby, through ``FrameSourceState/bootingUp``.
    case bootUp
    /// From standby to on, through ``FrameSourceState/wakingUp``.
    case wakeUp
    /// From on to standby, through ``FrameSourceState/goingToSleep``.
    case goToSleep
    /// From standby to off, through ``FrameSourceState/shuttingDown``.
    case shutDown

    /// The transition from `source` to `target`, or `nil` when they are equal or either is transitional.
    public init?(from source: FrameSourceState, to target: FrameSourceState) {
        guard let transition = Self.allCases.first(where: { $0.source == source && $0.target == target }) else {
            return nil
        }
        self = transition
    }

    /// The state the transition leaves, and falls back to when it fails.
    public var source: FrameSourceState {
        switch self {
        case .start, .bootUp: .off
        case .stop, .goToSleep: .on
        case .wakeUp, .shutDown: .standby
        }
    }

    /// The state the transition reaches when it succeeds.
    public var target: FrameSourceState {
        switch self {
        case .stop, .shutDown: .off
        case .start, .wakeUp: .on
        case .bootUp, .goToSleep: .standby
        }
    }

    /// The state shown while the transition runs.
    public var transitionalState: FrameSourceState {
        switch self {
        case .start: .starting
        case .stop: .stopping
        case .bootUp: .bootingUp
        case .wakeUp: .wakingUp
        case .goToSleep: .goingToSleep
        case .shutDown: .shuttingDown
        }
    }
}

/// A change of a frame source's current state, as its state listeners see it.
public struct FrameSourceStateChange: Sendable, CustomStringConvertible {
    /// The state before the change.
    public let previousState: FrameSourceState
    /// The state after the change.
    public let state: FrameSourceState
    /// Why the source fell back, when a transition failed or a running source failed; `nil` otherwise.
    public let error: (any Error)?

    /// Creates a state change.
    public init(from previousState: FrameSourceState, to state: FrameSourceState, error: (any Error)? = nil) {
        self.previousState = previousState
        self.state = state
        self.error = error
    }

    /// `previous → state`, with the error when there is one.
    public var description: String {
        guard let error else { return "\(previousState) → \(state)" }
        return "\(previousState) → \(state) (\(error))"
    }
}

/// How a request to switch a frame source to a state ended.
public enum FrameSourceSwitchResult: Sendable, CustomStringConvertible {
    /// The source reached the requested state.
    case reached
    /// A later request replaced this one before it was carried out.
    case superseded
    /// The transition failed, or the request was not valid; the source is back in the state it started from.
    case failed(any Error)

    /// Whether the source reached the requested state.
    public var succeeded: Bool {
        if case .reached = self { return true }
        return false
    }

    /// `reached`, `superseded`, or `failed:` with the error.
    public var description: String {
        switch self {
        case .reached: "reached"
        case .superseded: "superseded"
        case .failed(let error): "failed: \(error)"
        }
    }
}
