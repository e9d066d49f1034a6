import CFFmpeg

/// FFmpeg's own console logging. storyreel reports errors itself, one line per file, so the
/// library's chatter is silenced unless a caller asks for it.
public enum FFmpegLog {
    /// Silences FFmpeg's log output (the default for the CLI).
    public static func silence() { av_log_set_level(AV_LOG_QUIET) }
    /// Lets FFmpeg log warnings and errors to stderr (for debugging).
    public static func showWarnings() { av_log_set_level(AV_LOG_WARNING) }
}
