/// Which frame a poster shows.
public enum PosterChoice: Sendable, Equatable {
    /// The smart pick (``StoryMedia/ClipFrameSource/posterFrame(size:)``).
    case smart
    /// The frame at this many seconds from the start.
    case seconds(Double)
    /// The frame at this share (0...100) of the duration.
    case percent(Double)
}
