import CFFmpeg

/// FFmpeg's own console logging, which goes to stderr at FFmpeg's default level (info) until a
/// caller sets it. storyreel reports errors itself, one line per file, so the CLI silences it.
public enum FFmpegLog {
    /// Silences FFmpeg's log output (the default for the CLI).
    public static func silence() { av_log_set_level(AV_LOG_QUIET) }
    /// Lets FFmpeg log warnings and errors to stderr (for debugging).
    public static func showWarnings() { av_log_set_level(AV_LOG_WARNING) }
}
