import Foundation

/// Where storyreel writes: data to stdout, diagnostics to stderr as one line each.
public struct Console: Sendable {
    /// True when stderr is a terminal (and TERM is not `dumb`): progress bars may be drawn.
    public let stderrIsInteractive: Bool
    /// True under `--quiet`: only errors are written to stderr.
    public var quiet = false

    /// A console for this process.
    public init() {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        stderrIsInteractive = isatty(STDERR_FILENO) != 0 && term != "dumb" && !term.isEmpty
    }

    /// Writes `text` and a newline to stdout.
    public func output(_ text: String) { write(text + "\n", to: FileHandle.standardOutput) }

    /// `storyreel: error: PATH: reason` (or without the path) on stderr.
    public func error(_ message: String) { write("storyreel: error: \(message)\n", to: FileHandle.standardError) }

    /// `storyreel: warning: …` on stderr, unless quiet.
    public func warning(_ message: String) {
        if !quiet { write("storyreel: warning: \(message)\n", to: FileHandle.standardError) }
    }

    /// `storyreel: note: …` on stderr, unless quiet.
    public func note(_ message: String) {
        if !quiet { write("storyreel: note: \(message)\n", to: FileHandle.standardError) }
    }

    /// Usage help after a usage error: on stderr (stdout stays empty), even when quiet.
    public func usage(_ text: String) { write(text + "\n", to: FileHandle.standardError) }

    /// Raw text on stderr (progress bars), unless quiet.
    public func status(_ text: String) {
        if !quiet { write(text, to: FileHandle.standardError) }
    }

    private func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
