/// What `storyreel ingest` did with one clip.
public enum IngestOutcome: Sendable, Equatable {
    /// Copied into the story as this file name.
    case ingested(name: String)
    /// Its content is already in the story, as this file name; nothing was added.
    case alreadyPresent(name: String)
    /// Refused, with the reason; the clip was not added.
    case rejected(reason: String)
}
