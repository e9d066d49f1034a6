/// How `storyreel render` builds a bundle.
public struct RenderOptions: Sendable {
    /// How clips get into the bundle.
    public enum ClipMode: String, Sendable {
        /// Content-addressed copies in `clips/` (the default).
        case copy
        /// Hard links in `clips/`, falling back to copies across file systems.
        case link
        /// No files: the manifest points at the originals by relative path.
        case reference
    }

    /// One part of the work, for rendering over several machines.
    public struct Shard: Sendable, Equatable {
        /// Which part, from 1 to `count`.
        public var index: Int
        /// How many parts.
        public var count: Int
        /// `shard-K-of-N`, as its files in the bundle's private folder are named (its ledger,
        /// its lock).
        public var name: String { "shard-\(index)-of-\(count)" }
        /// Makes a shard; `index` runs from 1 to `count`.
        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    /// The bundle settings given for this run (canvas, transition timing and encoding); the
    /// rest come from the bundle's saved settings, else the defaults.
    public var settings = BundleSettings.Overrides()
    /// How clips get into the bundle.
    public var clipMode = ClipMode.copy
    /// Remove outputs nothing references.
    public var prune = false
    /// Work units run at once.
    public var jobs = Parallel.coreCount
    /// Render only this part of the work, and write no manifest.
    public var shard: Shard?
    /// The deadline of each step of a clip, in seconds: reading and hashing it, making its images,
    /// each transition into or out of it.
    public var timeout = 30.0
    /// How long to wait for another render's lock.
    public var lockTimeout = 60.0

    /// Render even where OUT holds files that are not storyreel's (which stay untouched).
    public var force = false
    /// Whether the command takes `--force`, so that a refusal of OUT suggests it: `ingest
    /// --render` does not, and its refusal suggests `storyreel render --force` instead (a QA
    /// pass: it said "pass --force", which ingest refuses with 64).
    public var takesForce = true

    /// The defaults: the bundle's saved settings, copies, all cores.
    public init() {}

    /// Poster and thumbnail sizes: thumbnails are this wide, for the story row.
    public static let thumbnailWidth = 180
    /// Avatars are this square.
    public static let avatarSize = 180
    /// The JPEG quality of posters, thumbnails, avatars and stills (1...100).
    public static let stillQuality = 85
}
