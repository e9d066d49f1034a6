/// Something the pipeline left out of the bundle, and why: a clip that cannot be read, a folder
/// whose name is not a valid handle, a story with no playable clip. It is the manifest's own
/// `skipped` entry, so the render summary and the manifest share one type.
public typealias SkippedEntry = Manifest.SkippedEntry
