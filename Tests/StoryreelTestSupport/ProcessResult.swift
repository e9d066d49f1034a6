/// What a finished child process left: its exit status and everything it printed.
public struct ProcessResult: Sendable {
    /// The exit status.
    public let status: Int32
    /// Everything written to stdout.
    public let stdout: String
    /// Everything written to stderr.
    public let stderr: String
}
