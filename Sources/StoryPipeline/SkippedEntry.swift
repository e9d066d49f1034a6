import StoryreelKit

/// Something the pipeline left out of the bundle, and why: a clip that cannot be read, a folder
/// whose name is not a valid handle, a story with no playable clip. It is the manifest's own
/// `skipped` entry, so the render summary and the manifest share one type.
public typealias SkippedEntry = Manifest.SkippedEntry

extension SkippedEntry {
    /// The entry as the manifest's `skipped` array holds it, `{"path", "story", "reason"}` (a
    /// missing story `null`): how `render --json`'s `skippedEntries` and `plan --json`'s
    /// `skipped` give it too.
    public var json: JSONValue {
        .object([("path", .string(path)), ("story", .string(story)), ("reason", .string(reason))])
    }
}
