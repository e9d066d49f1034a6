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

    /// For a clip ingested into story `handle`, the warnings stderr gives: why few players could
    /// play it, then one line for each reason clips already there play after it
    /// (``playOrderWarnings(handle:name:playsBefore:)``). Empty otherwise.
    public func warnings(handle: String) -> [String] {
        guard case .ingested(let name, let playsBefore, let concern) = self else { return [] }
        return Self.concernWarning(handle: handle, name: name, concern: concern)
            + Self.playOrderWarnings(handle: handle, name: name, playsBefore: playsBefore)
    }

    /// The line that says why few players could play the clip ingested as `name` into story
    /// `handle` (its `concern`), alone in the array; empty when there is none.
    private static func concernWarning(handle: String, name: String, concern: String?) -> [String] {
        concern.map { ["\(handle)/\(name): \($0)"] } ?? []
    }

    /// Why the clips `playsBefore` of story `handle`, already there, play after the new clip
    /// `name`: their names do not start with a number, start with a date (no sequence number), or
    /// their number is past the 9999 the sequence follows (a QA pass: a date-named clip was said
    /// to be "numbered higher"). One line for each reason that applies, in one pass, naming ten
    /// clips a line (a story of 9000 camera-named clips, `20240601_100000.mp4`, listed them all
    /// for every upload, comparing each with each: a review, 8 s for 20 uploads).
    static func playOrderWarnings(handle: String, name: String, playsBefore: [String]) -> [String] {
        var (unnumbered, dated, numbered): ([String], [String], [String]) = ([], [], [])
        for clip in playsBefore {
            if !ClipIngester.startsWithDigit(clip) {
                unnumbered.append(clip)
            } else if ClipIngester.startsWithDate(clip) {
                dated.append(clip)
            } else {
                numbered.append(clip)
            }
        }
        let reasons = [
            (
                unnumbered,
                "names that do not start with a number sort after numbered ones; number them to set the order"
            ),
            (
                dated,
                "ingest does not take a date a name starts with for a sequence number; number them to set the order"
            ),
            (
                numbered,
                "ingest numbers a clip after the highest number up to 9999, and these are numbered higher; renumber "
                    + "them to set the order"
            ),
        ]
        return reasons.compactMap { clips, reason in
            clips.isEmpty ? nil : "\(handle)/\(name) plays before \(someNames(clips)): \(reason)"
        }
    }

    /// `names` joined with commas, the first ten of them and then how many more.
    private static func someNames(_ names: [String]) -> String {
        let shown = names.prefix(10).joined(separator: ", ")
        return names.count > 10 ? "\(shown) and \(names.count - 10) more" : shown
    }
}

extension IngestOutcome {
    /// The `ingest --json` object for `clip` (as given) with this outcome in story `handle`:
    /// `clip`; `outcome`, one of `ingested`, `already-ingested`, `rejected`, `not-ingested`;
    /// `file`, the clip's path in the stories folder (`HANDLE/NAME`), for the first two;
    /// `reason` for the last two; and for an ingested clip, `playsBefore`: the story's clips
    /// already there that play after it, the names stderr's play-order warnings give (a review:
    /// a script reading only the JSON never learnt that an upload played before older clips), and
    /// `warnings`: why few players could play it, as stderr says it (a scripting QA pass: it was
    /// on stderr only), then `storyWarnings`: why the story will not play at all (its
    /// `story.json`), which a script reading only the JSON would otherwise miss; last, `exitCode`,
    /// the code this outcome alone gives (the command's to say).
    package func json(clip: String, handle: String, exitCode: Int, storyWarnings: [String] = []) -> JSONValue {
        var fields: [(String, JSONValue)] = [("clip", .string(clip))]
        switch self {
        case .ingested(let name, let playsBefore, let concern):
            fields += [
                ("outcome", .string("ingested")), ("file", .string("\(handle)/\(name)")),
                ("playsBefore", .array(playsBefore.map(JSONValue.string))),
                (
                    "warnings",
                    .array(
                        (Self.concernWarning(handle: handle, name: name, concern: concern) + storyWarnings)
                            .map(JSONValue.string))
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
