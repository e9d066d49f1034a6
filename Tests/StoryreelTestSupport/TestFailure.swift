/// An error a test helper throws when a precondition of the test (a peer tool, a fixture) fails.
public struct TestFailure: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    /// Makes a failure with `description`.
    public init(_ description: String) { self.description = description }
}
