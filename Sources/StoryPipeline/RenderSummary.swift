/// What a render did, counted in work units: printed as one line, or as JSON with `--json`.
public struct RenderSummary: Sendable {
    /// Units rendered in this run.
    public var rendered = 0
    /// Units whose output already existed under its key.
    public var cached = 0
    /// Clips, stories and units left out, with reasons.
    public var skipped: [SkippedEntry] = []
    /// Wall-clock seconds.
    public var seconds = 0.0
    /// The manifest written, relative to the working folder, or nil for a shard and when
    /// nothing plays.
    public var manifestPath: String?
    /// True for a shard's render, which writes no manifest.
    public var isShard = false
    /// Outputs removed by `--prune`.
    public var pruned = 0
    /// Notes for a person, one line each, e.g. why the player page was not written.
    public var notes: [String] = []
    /// How this run's options changed the bundle's saved settings, e.g. `crf 23 → 20`.
    public var settingsChanges: [String] = []
    /// What the input held that was ignored (unknown keys in `story.json` or the spec), one line each.
    public var warnings: [String] = []

    /// The `--json` summary object: the counts, the seconds, and `manifest`, the manifest's
    /// path or null when the run wrote none (a shard, or nothing plays), so a script can tell a
    /// render in which nothing plays from one that skipped some clips without reading stderr.
    public var json: JSONValue {
        .object([
            ("rendered", .int(rendered)), ("cached", .int(cached)), ("skipped", .int(skipped.count)),
            ("seconds", .number((seconds * 1000).rounded() / 1000)),
            ("manifest", manifestPath.map { .string($0) } ?? .null),
        ])
    }
}
