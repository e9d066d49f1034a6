import CFFmpeg
import Foundation
import Synchronization

/// An error from the media layer, written for a person: it names the file and the reason.
///
/// `kind` says what went wrong in a way a caller can branch on (the CLI maps it to a sysexits
/// code); `ffmpegCode` keeps the underlying FFmpeg return code when there is one.
public struct MediaError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a small extensible set of cases.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case missingInput, unreadableInput, invalidMedia, noVideoStream, timedOut, cannotCreateOutput, ioFailure,
                unsupported, systemLimit, noStories, changedWhileRead
        }
        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// The path does not exist.
        public static let missingInput = Kind(.missingInput)
        /// The path exists but cannot be read as a file (a folder, a device, no permission).
        public static let unreadableInput = Kind(.unreadableInput)
        /// The file is not valid media of the accepted kinds (empty, garbage, truncated, disguised).
        public static let invalidMedia = Kind(.invalidMedia)
        /// The clip has no video stream.
        public static let noVideoStream = Kind(.noVideoStream)
        /// The per-file deadline passed.
        public static let timedOut = Kind(.timedOut)
        /// An output file or folder could not be created.
        public static let cannotCreateOutput = Kind(.cannotCreateOutput)
        /// Reading or writing failed part-way.
        public static let ioFailure = Kind(.ioFailure)
        /// A codec or feature this build of FFmpeg lacks.
        public static let unsupported = Kind(.unsupported)
        /// A command's INPUT holds no stories at all: it is no stories folder or spec (an empty
        /// folder, a bundle, a clip, a spec that cannot be read); a render in which nothing plays
        /// exits as this does (`RenderSummary.nothingPlays`). Not a
        /// skipped clip: a batch that skips some clips still did its work, and a script takes
        /// that (65) as done, never this.
        public static let noStories = Kind(.noStories)
        /// The system ran out of something no input or output is to blame for: open files
        /// (EMFILE, the process's `ulimit -n`; ENFILE, the whole system's), threads or memory
        /// (``ThreadCapacity``). A batch stops on it rather than blame the clip it was reading.
        public static let systemLimit = Kind(.systemLimit)
        /// The input changed while it was being read (an upload still being written, or
        /// rewritten in place): nothing is known of its bytes yet, so it is no bad input, and a
        /// run once it is complete may succeed (`ingest` exits 75, EX_TEMPFAIL, for it).
        public static let changedWhileRead = Kind(.changedWhileRead)

        public var description: String { "\(code)" }
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned, when there is one.
    public let path: String?
    /// The reason, for a person.
    public let reason: String
    /// The FFmpeg return code behind the error, when there is one.
    public let ffmpegCode: Int32?

    /// Makes an error of `kind` about `path`.
    public init(_ kind: Kind, path: String? = nil, _ reason: String, ffmpegCode: Int32? = nil) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.ffmpegCode = ffmpegCode
        if kind == .systemLimit { Self.systemLimits.withLock { $0 = ($0.count + 1, self) } }
    }

    /// How many ``Kind/systemLimit`` errors the process has made, and the latest. A check that
    /// turns the errors it meets into lines about its input (`validate`'s rules: "cannot be
    /// read as a clip: too many open files") compares the count before and after, and fails with
    /// the latest instead (71): what it found is the system's limit, not the input's fault (a
    /// QA pass).
    public static var systemLimitsMet: (count: Int, latest: MediaError?) { systemLimits.withLock { $0 } }
    private static let systemLimits = Mutex<(count: Int, latest: MediaError?)>((0, nil))

    /// The same error, about `path`.
    public func about(_ path: String) -> MediaError {
        MediaError(kind, path: path, reason, ffmpegCode: ffmpegCode)
    }

    /// The same error, about `path` when it names no file yet (it came from a part of the media
    /// layer that cannot know the path, such as an encoder or a scaler); one naming a file is
    /// kept as it is.
    public func naming(_ path: String) -> MediaError { self.path == nil ? about(path) : self }

    /// `.timedOut` about `path`, whose deadline of `seconds` (`--timeout`; nil: not known)
    /// passed while it was read or decoded: `timed out after 30 s while reading and decoding it;
    /// raise --timeout …` (a QA pass: "while reading it … for very large files" of a 9.7 MB clip
    /// whose one group of pictures was being decoded). It says nothing of the file, which may be
    /// perfectly good.
    static func deadlinePassed(path: String, seconds: Double?) -> MediaError {
        let limit = seconds.map { " after \($0.secondsText) s" } ?? ""
        return MediaError(
            .timedOut, path: path,
            "timed out\(limit) while reading and decoding it; raise --timeout for very large or long clips")
    }

    /// Runs `body` and returns its result; a ``MediaError`` it throws without a path is rethrown
    /// about `path`, so every error line names a file. Other errors pass through.
    public static func naming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MediaError {
            throw error.naming(path)
        }
    }

    /// An error of `kind` about `path`, for the system error `code` (an `errno` value): "`what`:
    /// the system's words". Running out of open files is ``Kind/systemLimit`` whatever `kind`
    /// says, with the limit and how to raise it; a full disk (`ENOSPC`, `EDQUOT`) where an output
    /// was to be created is ``Kind/ioFailure`` (74), as one met while writing is.
    public static func system(_ kind: Kind, path: String?, _ what: String, code: Int32) -> MediaError {
        if let limit = systemLimitReason(code) { return MediaError(.systemLimit, path: path, "\(what): \(limit)") }
        // A full disk is an I/O failure (74) whatever ran out, blocks, inodes or a quota: a file
        // that could not be created for want of inodes said 73, which a script takes for a
        // setting to fix rather than a disk to wait out (an ingest QA pass).
        let kind = kind == .cannotCreateOutput && [ENOSPC, EDQUOT].contains(code) ? .ioFailure : kind
        return MediaError(kind, path: path, "\(what): \(SystemErrorText.describe(code))")
    }

    /// The reason for `code` when it says the system is out of open files, or nil.
    static func systemLimitReason(_ code: Int32) -> String? {
        switch code {
        case EMFILE:
            let limit = DescriptorLimit.current.map { " (\($0), `ulimit -n`)" } ?? ""
            return "too many open files: storyreel needs more than the limit\(limit) allows; raise it"
        case ENFILE:
            return "the system's table of open files is full; try again when other programs have closed theirs"
        default:
            return nil
        }
    }

    /// True for FFmpeg's "Invalid data found when processing input" (`AVERROR_INVALIDDATA`), and
    /// for "Generic error in an external library" (`AVERROR_EXTERNAL`), which the PNG decoder
    /// gives when zlib cannot inflate a picture: from a decoder, a damaged packet, which decoding
    /// skips as the ffmpeg CLI does (a fuzzing pass: one flipped bit in a PNG-in-MOV clip's
    /// third frame failed its poster and stills, so `render` skipped a clip `ingest` had taken).
    public var isDamagedData: Bool { ffmpegCode == cff_error_invalid_data() || ffmpegCode == cff_error_external() }

    /// The reason of any error, for a person and without the path: a ``MediaError``'s reason,
    /// or the error's own description.
    public static func reason(of error: Error) -> String {
        (error as? MediaError)?.reason ?? "\(error)"
    }

    /// `PATH: reason`, or just the reason when no path is known.
    public var description: String { path.map { "\($0): \(reason)" } ?? reason }

    /// FFmpeg's own text for an error code, from `av_strerror` into a buffer we own; for a code
    /// FFmpeg has no text for (a decoder's own, as the AAC decoder gives for damaged frames),
    /// that, rather than its "Error number -50531338 occurred" (a QA pass).
    public static func ffmpegMessage(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { storage in
            av_strerror(code, storage.baseAddress!, storage.count) < 0
                ? "error \(code), which FFmpeg has no text for"
                : String(cString: storage.baseAddress!)
        }
    }
}

/// ``ffmpegCheck`` for a codec call that starts threads or allocates much (opening a codec,
/// encoding a frame): a failure for want of threads or memory (``ThreadCapacity/codecFailure(_:)``)
/// is the system's limit (``MediaError/Kind/systemLimit``), not the clip's fault (good clips were
/// skipped as "cannot open the h264 decoder: Resource temporarily unavailable", and a render
/// stopped with "cannot encode: Generic error in an external library", a QA pass).
@discardableResult
func ffmpegCheckAgainstLimits(
    _ code: Int32, _ what: @autoclosure () -> String, kind: MediaError.Kind = .invalidMedia, path: String? = nil
) throws -> Int32 {
    if code < 0, code != cff_error_exit(), ThreadCapacity.codecFailure(code) {
        throw MediaError(.systemLimit, path: path, "\(what()): \(ThreadCapacity.limits)", ffmpegCode: code)
    }
    return try ffmpegCheck(code, what(), kind: kind, path: path)
}

/// Turns a negative FFmpeg return code into a thrown ``MediaError``; passes others through.
///
/// Every FFmpeg call whose result can be negative goes through here, so no call site compares
/// against zero by hand.
@discardableResult
func ffmpegCheck(
    _ code: Int32, _ what: @autoclosure () -> String, kind: MediaError.Kind = .invalidMedia, path: String? = nil
) throws -> Int32 {
    guard code < 0 else { return code }
    if code == cff_error_exit() {
        throw MediaError(.timedOut, path: path, "timed out (\(what()))", ffmpegCode: code)
    }
    // AVERROR(e) is -e (wrapping: Int32.min is no errno): a file FFmpeg could not open for want
    // of descriptors is no bad input.
    if let limit = MediaError.systemLimitReason(0 &- code) {
        throw MediaError(.systemLimit, path: path, "cannot open it: \(limit)", ffmpegCode: code)
    }
    throw MediaError(kind, path: path, "\(what()): \(MediaError.ffmpegMessage(code))", ffmpegCode: code)
}
