/// A frame the smart poster pick looked at: its statistics, when it is shown, and the decoded
/// frame itself while the pick's memory allows keeping it (``ClipFrameSource/posterRetentionBytes``).
/// A candidate whose frame was let go is decoded again, at its time, if it wins.
struct PosterCandidate {
    /// What the pick compares.
    let statistics: FrameStatistics
    /// The frame's best-effort presentation timestamp, in stream ticks; nil when unknown.
    let shownAt: Int64?
    /// The decoded frame, or nil when it was let go.
    let frame: Frame?
}
