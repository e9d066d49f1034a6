/// A mistake in how storyreel was called: an unknown flag, a missing or malformed value.
/// It exits with 64 (EX_USAGE).
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was wrong, for a person.
    public let message: String
    /// False for a conflict only the files on disk show (an output that is an input, a name too
    /// long for its file system): the line then goes alone, without the command's synopsis.
    public var showsUsage = true
    /// Makes a usage error with `message`.
    public init(_ message: String) { self.message = message }
    /// Makes a usage error with `message` that names a conflict found on disk, said alone.
    public static func onDisk(_ message: String) -> UsageError {
        var error = UsageError(message)
        error.showsUsage = false
        return error
    }
    public var description: String { message }
}
