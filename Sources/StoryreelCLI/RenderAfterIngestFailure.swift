/// `ingest --render` took clips in, then the render failed (the bundle's lock not free, a full
/// disk): the one error line says what failed and that the clips are in, so a retry is known to
/// be safe (it finds them already ingested) and a script reading only the exit code (the
/// render's) loses nothing. Its exit code is the render's failure's.
struct RenderAfterIngestFailure: Error, CustomStringConvertible {
    /// Why the render failed.
    let underlying: Error
    /// How many clips went in.
    let ingested: Int
    /// The stories folder they went into.
    let stories: String

    var description: String {
        let clips = ingested == 1 ? "1 clip was" : "\(ingested) clips were"
        return "\(underlying) (\(clips) ingested into '\(stories)'; render again to update the bundle)"
    }
}
