import Dispatch

/// Something that produces frames for a ``DataCaptureContext``: a capture device, a network camera's live view,
/// frames the app pushes, or a single image.
///
/// A frame source is off until it is switched on, and delivers frames only while it is on and set as a context's
/// frame source. Switching is asynchronous; a request made while another is being carried out waits, and only the
/// latest waiting request is carried out:
///
/// ```swift
/// let source = SequenceFrameSource()
/// let context = DataCaptureContext()
/// await context.setFrameSource(source)
/// if await source.switch(toDesiredState: .on) {
///     print("on")
/// }
/// ```
///
/// Conforming types own a ``FrameSourceEngine``; every other requirement has a default implementation that forwards
/// to it. See ``FrameSourceEngine`` for writing a source of your own.
public protocol FrameSource: AnyObject, Sendable {
    /// The engine that runs this source's state machine, listeners and frame queue.
    var frameSourceEngine: FrameSourceEngine { get }

    /// The state most recently asked for with ``switch(toDesiredState:completionHandler:)``.
    var desiredState: FrameSourceState { get }

    /// The state the source is in, transitional states such as ``FrameSourceState/starting`` included.
    var currentState: FrameSourceState { get }

    /// Asks the source to switch to `state`: ``FrameSourceState/on``, ``FrameSourceState/off`` or
    /// ``FrameSourceState/standby``.
    ///
    /// - Parameters:
    ///   - state: The state to switch to.
    ///   - completionHandler: Called once with `true` when the source reached `state`, or `false` when a later
    ///     request superseded this one, the transition failed, or `state` is transitional. It runs on the thread
    ///     that finished the request; no run loop is needed.
    func `switch`(toDesiredState state: FrameSourceState, completionHandler: (@Sendable (Bool) -> Void)?)

    /// Asks the source to switch to `state` and returns whether it got there.
    ///
    /// Returns `false` when a later request superseded this one, the transition failed, or `state` is transitional.
    @discardableResult
    func `switch`(toDesiredState state: FrameSourceState) async -> Bool

    /// Calls `listener` with every change of ``currentState`` until the returned token is released.
    func addStateListener(_ listener: @escaping @Sendable (FrameSourceStateChange) -> Void) -> ObservationToken

    /// Calls `listener` with every frame the source hands to its context, until the returned token is released.
    func addFrameListener(_ listener: @escaping @Sendable (Frame) -> Void) -> ObservationToken
}

extension FrameSource {
    /// The state most recently asked for, from the engine.
    public var desiredState: FrameSourceState { frameSourceEngine.desiredState }

    /// The state the source is in, from the engine.
    public var currentState: FrameSourceState { frameSourceEngine.currentState }

    /// Asks the engine for `state` and reports whether the source got there.
    public func `switch`(toDesiredState state: FrameSourceState, completionHandler: (@Sendable (Bool) -> Void)?) {
        guard let completionHandler else {
            frameSourceEngine.requestState(state, completion: nil)
            return
        }
        frameSourceEngine.requestState(state) { completionHandler($0.succeeded) }
    }

    /// Asks the engine for `state` and returns whether the source got there.
    @discardableResult
    public func `switch`(toDesiredState state: FrameSourceState) async -> Bool {
        await frameSourceEngine.requestState(state).succeeded
    }

    /// Asks the source to switch to `state`, without waiting for it; the same as passing no completion handler.
    public func `switch`(toDesiredState state: FrameSourceState) {
        self.switch(toDesiredState: state, completionHandler: nil)
    }

    /// Asks the source to switch to `state`, calling `completionHandler` on `completionQueue`, or on the thread that
    /// finished the request when `completionQueue` is `nil`.
    public func `switch`(
        toDesiredState state: FrameSourceState, completionQueue: DispatchQueue?,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        self.switch(toDesiredState: state) { succeeded in
            run(on: completionQueue) { completionHandler(succeeded) }
        }
    }

    /// Adds a state listener to the engine.
    public func addStateListener(
        _ listener: @escaping @Sendable (FrameSourceStateChange) -> Void
    ) -> ObservationToken {
        frameSourceEngine.addStateListener(listener)
    }

    /// Adds a frame listener to the engine.
    public func addFrameListener(_ listener: @escaping @Sendable (Frame) -> Void) -> ObservationToken {
        frameSourceEngine.addFrameListener(listener)
    }
}

/// Runs `body` on `queue`, or right here when `queue` is `nil`.
func run(on queue: DispatchQueue?, _ body: @escaping @Sendable () -> Void) {
    guard let queue else { return body() }
    queue.async(execute: body)
}
