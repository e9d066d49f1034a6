/// What a render did, counted in work units: printed as one line, or as JSON with `--json`.
public struct RenderSummary: Sendable {
    /// Units rendered in this run.
    public var rendered = 0
    /// Units whose output already existed under its key.
    public var cached = 0
    /// Clips, stories and units left out, with reasons, as stderr gives them.
    public var skipped: [SkippedEntry] = []
    /// The bundle's path as given (OUT), taken off the bundle files the JSON's skipped entries
    /// name, as the manifest names them.
    public var bundle = ""
    /// Wall-clock seconds.
    public var seconds = 0.0
    /// The manifest written, relative to the working folder, or nil for a shard and when
    /// nothing plays.
    public var manifestPath: String?
    /// True for a shard's render, which writes no manifest.
    public var isShard = false
    /// True when every story was skipped (every clip unreadable, the clips' mount missing): the
    /// run left the bundle's manifest and settings as they were. Unlike some clips skipped (65),
    /// which a batch takes as done, this exits 66, as an INPUT with no stories does.
    public var nothingPlays = false
    /// Why the run made no bundle, when nothing plays (``BundlePlan/nothingPlaysReason(skippedAny:)``
    /// and what was left as it was): printed as an error, as its exit code (66) is one; among
    /// the warnings in the JSON.
    public var nothingPlaysLine: String?
    /// Outputs removed by `--prune`.
    public var pruned = 0
    /// Notes for a person, one line each, e.g. why the player page was not written.
    public var notes: [String] = []
    /// How this run's options changed the bundle's saved settings, e.g. `crf 23 → 20`.
    public var settingsChanges: [String] = []
    /// What the input held that was ignored (unknown keys in `story.json` or the spec), one line each.
    public var warnings: [String] = []
    /// True once the run wrote the manifest or the page, removed the page, or set a changed
    /// output aside: with ``rendered`` and ``pruned``, whether the bundle changed.
    public var wroteBundleFiles = false

    /// True when something was skipped only because it changed while this run read it (a clip
    /// still being copied in): the next run reads it afresh, so the run exits 75, to be run
    /// again, rather than 65, which a batch takes as done (a QA pass: a CI step accepting 65
    /// published a bundle without the clips an upload was still writing). Read from the reason,
    /// where a unit's causes are joined (`poster: …; first-frame: it changed while …`).
    public var mustRunAgain: Bool { skipped.contains { $0.reason.contains(BundlePlan.runAgain) } }

    /// The notes a person reads, one line each: how the settings changed, if they did, then
    /// ``notes``.
    public var allNotes: [String] {
        let settings =
            settingsChanges.isEmpty
            ? [] : ["settings changed: \(settingsChanges.joined(separator: ", ")) (kept for later runs)"]
        return settings + notes
    }

    /// True when the run changed the bundle: it made or removed an output, or wrote the manifest
    /// or the page (a script decides from it whether to upload the bundle again).
    public var changed: Bool { rendered > 0 || pruned > 0 || wroteBundleFiles }

    /// The `--json` summary object: the counts, the seconds, and `manifest`, the manifest's
    /// path or null when the run wrote none (a shard, or nothing plays), so a script can tell a
    /// render in which nothing plays from one that skipped some clips without reading stderr;
    /// then what a script otherwise scraped from stderr (a scripting QA pass): `pruned`,
    /// `changed` (whether to upload the bundle again), each skipped entry as the manifest gives
    /// it (also for a shard, and when nothing plays), and the warnings and notes, one line each.
    package var json: JSONValue {
        .object([
            ("rendered", .int(rendered)), ("cached", .int(cached)), ("skipped", .int(skipped.count)),
            ("seconds", .number((seconds * 1000).rounded() / 1000)),
            ("manifest", manifestPath.map { .string($0) } ?? .null),
            ("pruned", .int(pruned)), ("changed", .bool(changed)),
            ("skippedEntries", .array(skipped.map { $0.insideBundle(bundle).json })),
            ("warnings", .array((warnings + (nothingPlaysLine.map { [$0] } ?? [])).map { .string($0) })),
            ("notes", .array(allNotes.map { .string($0) })),
        ])
    }
}
