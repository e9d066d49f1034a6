import StoryMedia

/// What `storyreel ingest` did with one clip.
public enum IngestOutcome: Sendable {
    /// Copied into the story as this file name. `playsBefore` names the story's existing clips
    /// that still play after it: a sequence-numbered name sorts before every name that does not
    /// start with a digit, such as a camera's `IMG_0001.MOV`. `playbackConcern` says why few
    /// players could play it (``ClipRecord/playbackConcern``), or is nil.
    case ingested(name: String, playsBefore: [String], playbackConcern: String?)
    /// Its content is already in the story, as this file name; nothing was added.
    case alreadyPresent(name: String)
    /// Refused, with the reason; the clip was not added.
    case rejected(reason: String)
    /// Not added because the story folder could not be written (a full disk, a read-only
    /// folder), or the upload could not be read (missing, not a regular file, or its
    /// permissions), or it changed while it was copied (still being written: try again):
    /// no fault of the clip's bytes. The error names the file that could not be written or read.
    case notWritten(MediaError)

    /// True when the clip went into the story (``ingested(name:playsBefore:playbackConcern:)``).
    public var isIngested: Bool {
        if case .ingested = self { true } else { false }
    }
}

extension IngestOutcome {
    /// The `ingest --json` object for `clip` (as given) with this outcome in story `handle`:
    /// `clip`; `outcome`, one of `ingested`, `already-ingested`, `rejected`, `not-ingested`;
    /// `file`, the clip's path in the stories folder (`HANDLE/NAME`), for the first two;
    /// `reason` for the last two; and for an ingested clip, `warnings`: why few players could
    /// play it, as stderr says it (a scripting QA pass: it was on stderr only), then
    /// `storyWarnings`: why the story will not play at all (its `story.json`), which a script
    /// reading only the JSON would otherwise miss; last, `exitCode`, the code this outcome alone
    /// gives (the command's to say).
    package func json(clip: String, handle: String, exitCode: Int, storyWarnings: [String] = []) -> JSONValue {
        var fields: [(String, JSONValue)] = [("clip", .string(clip))]
        switch self {
        case .ingested(let name, _, let concern):
            fields += [
                ("outcome", .string("ingested")), ("file", .string("\(handle)/\(name)")),
                (
                    "warnings",
                    .array(
                        (concern.map { ["\(handle)/\(name): \($0)"] } ?? []).map(JSONValue.string)
                            + storyWarnings.map(JSONValue.string))
                ),
            ]
        case .alreadyPresent(let name):
            fields += [("outcome", .string("already-ingested")), ("file", .string("\(handle)/\(name)"))]
        case .rejected(let reason):
            fields += [("outcome", .string("rejected")), ("reason", .string(reason))]
        case .notWritten(let failure):
            fields += [("outcome", .string("not-ingested")), ("reason", .string(Self.reason(failure, clip: clip)))]
        }
        return .object(fields + [("exitCode", .int(exitCode))])
    }

    /// Why `clip` was not ingested (``notWritten(_:)``): `failure`, naming its path only when
    /// that is not `clip` itself (a copy in STORIES, the lock file), so no line names a clip twice.
    public static func reason(_ failure: MediaError, clip: String) -> String {
        failure.path == clip ? failure.reason : "\(failure)"
    }
}
