import CFFmpeg
import CFFmpegOnDemand

/// FFmpeg's own console logging, which goes to stderr at FFmpeg's default level (info) until a
/// caller sets it. storyreel reports errors itself, one line per file, so the CLI silences it.
///
/// Either setting routes the log through a watcher that notes the messages storyreel reports
/// itself: the demuxer's "wrong sample count" and "Sample size … is too large", each a sample
/// index that ends early (``InputFile/warnings``). Until one of them is called, those faults go
/// unnoticed.
public enum FFmpegLog {
    /// Silences FFmpeg's log output (the default for the CLI).
    public static func silence() { cff_watch_log(AV_LOG_QUIET) }
    /// Lets FFmpeg log warnings and errors to stderr (for debugging).
    public static func showWarnings() { cff_watch_log(AV_LOG_WARNING) }
}
