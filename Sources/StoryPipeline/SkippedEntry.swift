import StoryreelKit

/// Something the pipeline left out of the bundle, and why: a clip that cannot be read, a folder
/// whose name is not a valid handle, a story with no playable clip. It is the manifest's own
/// `skipped` entry, so the render summary and the manifest share one type.
public typealias SkippedEntry = Manifest.SkippedEntry

extension SkippedEntry {
    /// The entry as the manifest's `skipped` array holds it, `{"path", "story", "reason"}` (a
    /// missing story `null`): how `render --json`'s `skippedEntries` and `plan --json`'s
    /// `skipped` give it too.
    package var json: JSONValue {
        .object([("path", .string(path)), ("story", .string(story)), ("reason", .string(reason))])
    }

    /// The entry with the path of `bundle` taken off the bundle file its reason names
    /// (`reel/posters/….jpg is a file storyreel did not write`, as stderr says it): as the
    /// published manifest and `render --json` give it, the same whatever OUT was called (a QA
    /// pass: the render host's absolute path went out in the manifest).
    func insideBundle(_ bundle: String) -> SkippedEntry {
        let prefix = bundle.hasSuffix("/") ? bundle : bundle + "/"
        guard !bundle.isEmpty, reason.contains(" is a file storyreel did not write"), reason.contains(prefix) else {
            return self
        }
        var inside = self
        inside.reason = reason.replacingOccurrences(of: ": " + prefix, with: ": ")
        if inside.reason.hasPrefix(prefix) { inside.reason.removeFirst(prefix.count) }
        return inside
    }
}
