/// Something the pipeline left out of the bundle, and why: a clip that cannot be read, a folder
/// whose name is not a valid handle, a story with no playable clip.
public struct SkippedEntry: Sendable, Equatable {
    /// The path, relative to the input (the stories folder or the spec's folder).
    public var path: String
    /// The story it belongs to, or nil.
    public var story: String?
    /// Why it was skipped, for a person.
    public var reason: String

    /// Makes an entry.
    public init(path: String, story: String?, reason: String) {
        self.path = path
        self.story = story
        self.reason = reason
    }
}
