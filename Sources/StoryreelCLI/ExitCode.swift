import StoryMedia
import StoryPipeline

/// The process exit codes storyreel uses, from sysexits.h, mapped from errors in one place.
public struct ExitCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Everything asked for was done.
    public static let success = ExitCode(rawValue: 0)
    /// EX_USAGE: a bad flag, a missing argument, a bad value.
    public static let usage = ExitCode(rawValue: 64)
    /// EX_DATAERR: invalid media (empty, garbage, truncated, no video, timed out).
    public static let dataError = ExitCode(rawValue: 65)
    /// EX_NOINPUT: a missing or unreadable input path, or an INPUT that holds no stories
    /// (``MediaError/Kind/noStories``).
    public static let noInput = ExitCode(rawValue: 66)
    /// EX_SOFTWARE: an internal error.
    public static let software = ExitCode(rawValue: 70)
    /// EX_OSERR: the operating system did not give what storyreel needs, e.g. the command line,
    /// which the Swift runtime reads from `/proc` on Linux, or more open files (`ulimit -n`).
    public static let osError = ExitCode(rawValue: 71)
    /// EX_CANTCREAT: an output could not be created.
    public static let cannotCreate = ExitCode(rawValue: 73)
    /// EX_IOERR: reading or writing failed part-way.
    public static let ioError = ExitCode(rawValue: 74)
    /// EX_TEMPFAIL: try again later (e.g. the bundle is locked by another render).
    public static let temporaryFailure = ExitCode(rawValue: 75)

    /// What each code means for every command, in a line each, for `storyreel --help` (the
    /// README's table, and docs/inspect.md's, have the details).
    static let meanings: [(ExitCode, String)] = [
        (.success, "done: everything asked for"),
        (.usage, "bad usage: an unknown option, a missing or bad value (nothing was read or written)"),
        (
            .dataError,
            "bad data: a clip that cannot be used (inspect, thumbnail, cube), a manifest that is not valid "
                + "(validate); render, plan: clips skipped, the rest rendered or planned; ingest: an upload rejected, "
                + "the others ingested"
        ),
        (
            .noInput,
            "a missing or unreadable input; render, plan: no stories in INPUT, or nothing plays; ingest: --into not a "
                + "stories folder (with --render, nothing plays)"
        ),
        (.software, "a storyreel bug"),
        (.osError, "the system's limits: open files, threads, memory, FFmpeg's libraries not loadable"),
        (.cannotCreate, "an output cannot be created, or its place holds what storyreel did not write"),
        (.ioError, "reading or writing failed part-way (a full disk, standard output closed)"),
        (.temporaryFailure, "try again: a lock held past its timeout, or a clip still being written"),
    ]

    /// The exit code for an error: the one place errors become exit codes.
    public init(for error: Error) {
        switch error {
        case is UsageError:
            self = .usage
        case let failure as RenderAfterIngestFailure:
            self = ExitCode(for: failure.underlying)
        case is BundleLock.Timeout:
            self = .temporaryFailure
        case is BundleLock.Unavailable:
            self = .cannotCreate
        case let refusal as BundleRefusal:
            self = refusal.reason == .outputInsideInput ? .usage : .cannotCreate
        case let error as MediaError:
            switch error.kind {
            case .missingInput, .unreadableInput, .noStories: self = .noInput
            case .invalidMedia, .noVideoStream, .timedOut, .unsupported: self = .dataError
            case .cannotCreateOutput: self = .cannotCreate
            case .systemLimit: self = .osError
            case .changedWhileRead: self = .temporaryFailure
            default: self = .ioError
            }
        default:
            self = .software
        }
    }
}
