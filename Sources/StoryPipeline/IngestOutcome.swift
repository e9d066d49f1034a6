/// What `storyreel ingest` did with one clip.
public enum IngestOutcome: Sendable, Equatable {
    /// Copied into the story as this file name. `playsBefore` names the story's existing clips
    /// that still play after it: a sequence-numbered name sorts before every name that does not
    /// start with a digit, such as a camera's `IMG_0001.MOV`.
    case ingested(name: String, playsBefore: [String])
    /// Its content is already in the story, as this file name; nothing was added.
    case alreadyPresent(name: String)
    /// Refused, with the reason; the clip was not added.
    case rejected(reason: String)
}
