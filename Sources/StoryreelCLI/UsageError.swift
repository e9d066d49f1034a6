/// A mistake in how storyreel was called: an unknown flag, a missing or malformed value.
/// It exits with 64 (EX_USAGE).
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was wrong, for a person.
    public let message: String
    /// Makes a usage error with `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
