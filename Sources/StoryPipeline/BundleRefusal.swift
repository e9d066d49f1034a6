/// Why `render` will not write into the folder it was given, decided before anything is
/// written: the CLI maps ``Reason/outputInsideInput`` to 64 (bad usage) and
/// ``Reason/notABundle`` to 73 (cannot create).
public struct BundleRefusal: Error, CustomStringConvertible, Sendable {
    /// What is wrong with the output folder.
    public enum Reason: Sendable {
        /// OUT is INPUT or inside it: the bundle would be read back as stories.
        case outputInsideInput
        /// OUT holds files that are not storyreel's and `--force` was not given, or a file
        /// storyreel would have to replace is not its own.
        case notABundle
    }

    /// What is wrong.
    public let reason: Reason
    /// The output folder.
    public let path: String
    /// One line for a person, naming what to do.
    public let message: String

    /// A refusal of `path` for `reason`.
    public init(_ reason: Reason, path: String, _ message: String) {
        self.reason = reason
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
