import Foundation
import StoryMedia

/// `storyreel validate`: checks a manifest against every rule of `schema/manifest.schema.json`
/// and what a schema cannot say (unique ids, transitions between adjacent stories, files that
/// are regular files inside the bundle, clips that still have their recorded SHA-256).
///
/// It never reads outside the bundle: referenced paths are resolved without following `..` or
/// symlinks out of it, and only regular files are opened (a FIFO or a device is reported, not
/// read). See ``ManifestChecker`` for the rules.
public enum ManifestValidator {
    /// The largest manifest read: far above what a million items need.
    public static let maximumManifestSize: UInt64 = 256_000_000

    /// The problems found in the manifest at `path`, one line each, starting with a JSON path;
    /// empty when it is valid.
    ///
    /// - Parameters:
    ///   - root: a folder referenced files may be anywhere inside (a `--reference` bundle's
    ///     clips live beside it); default, and never less than, the manifest's folder.
    ///   - timeout: seconds each clip may take to hash, and the manifest to read; nil: no limit.
    /// - Throws: `MediaError` when the manifest (or `root`) is missing or not a readable regular file.
    public static func problems(inManifestAt path: String, root: String? = nil, timeout: Double? = 30) throws
        -> [String]
    {
        let data = try RegularFile.contents(of: path, maxSize: maximumManifestSize, timeout: timeout)
        let folder = (path as NSString).deletingLastPathComponent
        let resolver = try BundleFileResolver(folder: folder.isEmpty ? "." : folder, root: root)
        let manifest: Any
        do {
            manifest = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return ["manifest: not valid JSON"]
        }
        var checker = ManifestChecker(resolver: resolver, timeout: timeout)
        checker.check(manifest: manifest)
        return checker.problems
    }
}
