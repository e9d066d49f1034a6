import Foundation
import StoryMedia

/// The layout of a bundle folder, and the names storyreel gives the files in it.
public enum BundlePaths {
    /// The subfolders that hold outputs.
    public static let outputFolders = ["clips", "posters", "thumbs", "stills", "avatars", "transitions"]
    /// The manifest's name.
    public static let manifest = "manifest.json"
    /// The lock file's name, at the top of the bundle.
    public static let lockFile = ".lock"
    /// storyreel's private folder inside a bundle (the stat cache, the ledger, staged writes).
    public static let privateFolder = ".storyreel"
    /// Where outputs changed since storyreel wrote them are kept when it makes them again.
    public static let replacedFolder = privateFolder + "/replaced"

    /// The lock file a shard holds besides the bundle's shared `.lock`, in the private folder:
    /// `.storyreel/shard-K-of-N.lock`.
    static func shardLockFile(_ shard: RenderOptions.Shard) -> String {
        join(privateFolder, "\(shard.name).lock")
    }

    /// True when `relative` is a path a ledger may hold: the manifest, the player page, or an
    /// output's name in its output folder (``isOutputName(_:in:)``). A ledger is a file in the
    /// bundle that anyone who can write there can edit: an entry such as
    /// `../stories/chloe/night.mp4` or `posters/../../x` made `--prune` remove that file outside
    /// the bundle (a QA pass), and one naming a user's `clips/holiday.mp4` with its hash made it
    /// remove that one (a later QA pass), so entries of any other shape are dropped as the
    /// ledger is read.
    public static func isLedgerPath(_ relative: String) -> Bool {
        if relative == manifest || relative == PlayerPage.fileName { return true }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && outputFolders.contains(String(parts[0]))
            && isOutputName(String(parts[1]), in: String(parts[0]))
    }

    /// `bundle/relative`.
    public static func join(_ bundle: String, _ relative: String) -> String {
        (bundle as NSString).appendingPathComponent(relative)
    }

    /// Removes the temporary files a killed render left in storyreel's own folders (the output
    /// folders and `.storyreel/`): only regular files named by ``TemporaryFile``'s scheme. The
    /// top of the bundle and every folder are left alone. A shard, which shares the bundle with
    /// other shards at work, gives `untouchedFor` (``TemporaryFile/staleAfter``): their finished
    /// files wait for their names unlocked, so only one untouched that long is a killed run's
    /// (a QA pass: a SIGKILLed shard's files stayed through every later run of its shards), and
    /// a hard-linked clip, whose time is its source's, is left to a whole render.
    public static func removeStaleTemporaries(in bundle: String, untouchedFor age: Double = 0) {
        for folder in outputFolders + [privateFolder] {
            // `render --link` stages a clip as a hard link to its source, which cannot be marked.
            TemporaryFile.removeStale(
                in: join(bundle, folder),
                hardLinkedFor: { age == 0 && folder == "clips" && isOutputName($0, in: folder) }, untouchedFor: age)
        }
    }

    /// True when `name` is a name storyreel gives an output in `folder`: a clip's 16-hex id with
    /// a clip extension in `clips/`, a 20-hex key with `.jpg` (images; `-first.jpg`/`-last.jpg`
    /// for stills) or `.mp4` (transitions).
    public static func isOutputName(_ name: String, in folder: String) -> Bool {
        var stem = (name as NSString).deletingPathExtension
        if folder == "stills" {
            guard let suffix = ["-first", "-last"].first(where: stem.hasSuffix) else { return false }
            stem = String(stem.dropLast(suffix.count))
        }
        let fileExtension = (name as NSString).pathExtension
        let isHex = stem.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
        guard isHex else { return false }
        switch folder {
        case "clips": return stem.count == 16 && StoryInput.clipExtensions.contains(fileExtension)
        case "posters", "thumbs", "stills", "avatars": return stem.count == 20 && fileExtension == "jpg"
        case "transitions": return stem.count == 20 && fileExtension == "mp4"
        default: return false
        }
    }

    /// `target` relative to folder `base` (both absolute, standardized), e.g. `../stories/a.mov`.
    public static func relative(_ target: String, from base: String) -> String {
        let targetParts = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let baseParts = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var common = 0
        while common < min(targetParts.count, baseParts.count), targetParts[common] == baseParts[common] {
            common += 1
        }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        return (ups + targetParts[common...]).joined(separator: "/")
    }

    /// The path with every symlink and `..` resolved, or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = Foundation.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// True when `path` is `folder` or inside it (both already resolved).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        // Byte by byte: Swift's `==` and `hasPrefix` take NFC and NFD spellings of a name for
        // one, which the file system does not.
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.utf8.elementsEqual(folder.utf8) || path.utf8.starts(with: prefix.utf8)
    }

    /// Where `path` would resolve once it exists: the real path of its nearest existing ancestor
    /// with the rest of the path appended (`..` in the rest resolved by spelling).
    public static func prospectiveRealPath(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var rest: [String] = []
        while realPath(existing.path) == nil, existing.pathComponents.count > 1 {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = URL(fileURLWithPath: realPath(existing.path) ?? existing.path)
        for component in rest { resolved.appendPathComponent(component) }
        return resolved.standardizedFileURL.path
    }
}
