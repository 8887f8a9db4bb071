/// A type whose work can be cancelled.
public protocol Cancellable {
    /// Cancels the work. Calling it again has no effect.
    func cancel()
}
