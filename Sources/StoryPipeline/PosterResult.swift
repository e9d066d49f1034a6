/// What ``PosterJob`` wrote for one clip.
public struct PosterResult: Sendable {
    /// The poster's path.
    public let output: String
    /// The time asked for with ``PosterChoice/seconds(_:)``, when it was past the last frame
    /// (the last frame was used).
    public let clampedRequest: Double?
    /// When the frame used is shown, in seconds from the clip's start.
    public let frameTime: Double?
    /// What says the clip is cut short (``ClipFrameSource/truncationWarnings``): its last frames
    /// are missing, so "the last frame" and shares of its length are of what is left.
    public let truncationWarnings: [String]
    /// What says the display matrix is no plain turn (``ClipFrameSource/orientationWarnings``):
    /// the poster is turned to the nearest right angle, where players differ.
    public var orientationWarnings: [String] = []
    /// True when the smart pick found only near-black, near-white or flat frames.
    public var foundOnlyBlankFrames = false
    /// How many frames the smart pick had looked at when the clip's deadline (`--timeout`)
    /// stopped it, the poster being the best of them (``ClipFrameSource/settlesAtDeadline``);
    /// nil when it was not stopped.
    public var pickStoppedAfter: Int?
    /// True when a damaged packet was skipped on the way to the frame used
    /// (``ClipFrameSource/lastFrameMayShowDamage``): the poster may show blocks of other frames.
    public var mayShowDamage = false
}
