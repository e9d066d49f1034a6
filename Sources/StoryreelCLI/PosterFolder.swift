import Foundation
import StoryMedia
import StoryPipeline

/// `thumbnail --out-dir DIR`'s folder: which posters in it storyreel wrote. Each run adds the
/// names of the posters it wrote to `DIR/.storyreel-posters` (a JSON array); a later run replaces those, and
/// refuses (73) to write over a file of that name that no run recorded, since it is someone
/// else's. Two runs into one folder take turns (`flock` on the folder itself, so no lock file is
/// left there), so neither loses the other's record.
struct PosterFolder {
    /// The folder.
    let path: String
    /// The poster names earlier runs recorded.
    private let recorded: Set<String>
    /// Held for the whole run.
    private let lock: BundleLock

    /// The record's name inside the folder.
    static let recordName = ".storyreel-posters"

    /// Takes `path`'s lock, waiting up to `timeout` seconds (`--timeout`) for another run, and
    /// reads its record.
    init(path: String, timeout: Double) throws {
        self.path = path
        lock = try BundleLock(folderItself: path, timeout: timeout, option: "--timeout")
        // A JSON array of names, so a name with a newline in it is one name.
        recorded = Set(
            (try? RegularFile.contents(of: Self.recordPath(in: path), maxSize: 16 << 20))
                .flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? [])
    }

    /// The error (`.cannotCreateOutput`) when `poster` (a path in the folder) names a file that
    /// no run recorded writing, else nil.
    func refusal(toReplace poster: String) -> MediaError? {
        let name = (poster as NSString).lastPathComponent
        guard FileStamp(path: poster, followingLinks: false) != nil, !recorded.contains(name) else { return nil }
        return MediaError(
            .cannotCreateOutput, path: poster,
            "exists and storyreel did not write it; move it away or give another --out-dir")
    }

    /// Adds `posters` (paths in the folder, just written) to the record.
    func record(_ posters: [String]) throws {
        let names = recorded.union(posters.map { ($0 as NSString).lastPathComponent }).sorted()
        try AtomicFile.write(try JSONEncoder().encode(names), to: Self.recordPath(in: path))
    }

    private static func recordPath(in folder: String) -> String {
        (folder as NSString).appendingPathComponent(recordName)
    }
}
