import Foundation
import StoryMedia
import StoryreelKit
import Synchronization

/// Where storyreel writes: data to stdout, diagnostics to stderr as one line each.
///
/// A message is one line whatever it quotes: errors, warnings and notes, and the human-readable
/// lines on stdout (``line(_:)``), have their control characters written as escapes
/// (``escaped(_:)``), so a file named `2\nstoryreel: note: all good.mp4` cannot end a line or
/// fake another. Data (``output(_:)``: JSON, which its encoder escapes) is written as it is.
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

    /// Writes `text` and a newline to stdout as it is: data (JSON, help) or text whose quoted
    /// parts are already ``escaped(_:)``.
    public func output(_ text: String) { write(text + "\n", to: FileHandle.standardOutput) }

    /// One human-readable line on stdout (`posters/a.jpg`, `reel/manifest.json: valid`), its
    /// control characters escaped.
    public func line(_ text: String) { output(Self.escaped(text)) }

    /// ``line(_:)``, but only when stdout can take it at once (a pipe with room for a line, a
    /// file, a terminal): for an interrupt's cleanup, which must not wait on a reader.
    public func lineUnlessItWouldWait(_ text: String) {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        let line = Self.escaped(text) + "\n"
        guard line.utf8.count <= Int(PIPE_BUF), poll(&descriptor, 1, 0) == 1,
            descriptor.revents & Int16(POLLOUT) != 0
        else { return }
        write(line, to: FileHandle.standardOutput)
    }

    /// `storyreel: error: PATH: reason` (or without the path) on stderr, as one line.
    public func error(_ message: String) {
        write("storyreel: error: \(Self.escaped(message))\n", to: FileHandle.standardError)
    }

    /// `storyreel: warning: …` on stderr as one line, unless quiet.
    public func warning(_ message: String) {
        if !quiet { write("storyreel: warning: \(Self.escaped(message))\n", to: FileHandle.standardError) }
    }

    /// `storyreel: note: …` on stderr as one line, unless quiet.
    public func note(_ message: String) {
        if !quiet { write("storyreel: note: \(Self.escaped(message))\n", to: FileHandle.standardError) }
    }

    /// Raw text on stderr (progress bars, whose parts from files are ``escaped(_:)``), unless quiet.
    public func status(_ text: String) {
        if !quiet { write(text, to: FileHandle.standardError) }
    }

    /// `text` with every character that could end a line or steer a terminal written as an
    /// escape: `\n`, `\r`, `\t`, `\0`, and `\u{1B}` (hex, Swift's spelling) for the other
    /// control characters (U+0001–U+001F, U+007F–U+009F), the line and paragraph separators
    /// U+2028 and U+2029, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069), which reorder what follows them on the line. Everything else, a backslash
    /// included, is kept byte for byte, so a path without those characters is printed exactly as
    /// it is.
    public static func escaped(_ text: String) -> String { text.escapingLineControls }

    /// The first failure to write to stdout (a full disk behind `>`, a closed descriptor), as
    /// its reason, or nil. ``Storyreel/main(_:)`` then exits 74 saying so.
    public static var outputFailure: String? { failedOutput.withLock { $0 } }
    private static let failedOutput = Mutex<String?>(nil)

    /// Opens `/dev/null` on each of stdin, stdout and stderr that the process was started
    /// without (`2>&-`), before anything else opens a file: the first file opened would take
    /// that number, and diagnostics meant for stderr would go into it (a bundle's `.lock`). A
    /// closed stdout still fails the run, as `Bad file descriptor`: what was printed is lost.
    public static func reserveStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
        where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == STDOUT_FILENO { stdoutWasClosed.withLock { $0 = true } }
        }
    }
    private static let stdoutWasClosed = Mutex(false)

    /// Writes `data` to stdout as it is (an image for `-o -`); throws `.ioFailure` with the
    /// system's reason when it cannot be written whole.
    public func outputData(_ data: Data) throws {
        if let failure = Self.writeStandardOutput(data) {
            // No path: the line reads as every command's (it was `-: cannot write …`, a QA pass).
            throw MediaError(.ioFailure, "cannot write to standard output: \(failure)")
        }
    }

    /// Writes `text`. A failure on stdout is remembered for the exit status; one on stderr has
    /// nowhere to be told and is dropped (FileHandle's `write(_:)` traps on either, killing the
    /// process).
    private func write(_ text: String, to handle: FileHandle) {
        guard handle.fileDescriptor == STDOUT_FILENO else {
            _ = Self.writeAll(Data(text.utf8), to: handle.fileDescriptor)
            return
        }
        if let failure = Self.writeStandardOutput(Data(text.utf8)) { Self.failedOutput.withLock { $0 = $0 ?? failure } }
    }

    /// Writes `data` to stdout; returns why it could not (`Bad file descriptor` when the process
    /// was started without one: ``reserveStandardDescriptors()`` put `/dev/null` there), or nil.
    private static func writeStandardOutput(_ data: Data) -> String? {
        if stdoutWasClosed.withLock({ $0 }) { return String(cString: strerror(EBADF)) }
        return writeAll(data, to: STDOUT_FILENO)
    }

    /// Writes `data` whole to `descriptor` with write(2), retrying short writes and EINTR;
    /// returns why it could not, or nil.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        var rest = data[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? String(cString: strerror(errno)) : "nothing was written" }
            rest = rest.dropFirst(written)
        }
        return nil
    }
}
