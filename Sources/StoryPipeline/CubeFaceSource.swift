import StoryMedia

/// Where a cube face comes from: a clip (its first or last displayed frame) or a still picture.
public enum CubeFaceSource: Sendable, Equatable {
    /// A QuickTime/MP4 clip (`.mov`, `.mp4`, `.m4v`).
    case clip(String)
    /// A PNG or JPEG still.
    case still(String)

    /// A still for a `.png`, `.jpg` or `.jpeg` path (any case), a clip for anything else.
    public init(path: String) {
        self = StillImage.isStillPath(path) ? .still(path) : .clip(path)
    }

    /// The path as given.
    public var path: String {
        switch self {
        case .clip(let path), .still(let path): return path
        }
    }
}
