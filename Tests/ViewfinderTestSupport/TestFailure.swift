/// A failure of a test helper, saying what was expected and what happened.
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Creates a failure with a message.
    public init(_ description: String) {
        self.description = description
    }
}
