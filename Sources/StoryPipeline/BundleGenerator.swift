import Foundation
import StoryMedia
import StoryreelKit

/// Which storyreel wrote a bundle, as its manifest says: the `generator` names the tool's version
/// and the renderer's (`storyreel 0.3.0 (renderer 11)`), beside the format's `version`.
///
/// Both binaries of a version called themselves `storyreel 0.3.0` while rendering differently,
/// and nothing refused state from a newer storyreel: an older binary remade a newer bundle's
/// pictures with its older renderer, rewrote its manifest as its own and, with `--prune`, removed
/// the newer outputs (an upgrade QA pass). A render now refuses a bundle whose manifest a newer
/// storyreel wrote, as git refuses a repository of a newer format, and says when it makes the
/// pictures of an older renderer again.
public enum BundleGenerator {
    /// The renderer's number in ``BundlePlan/rendererVersion`` (`storyreel-render-11`: 11).
    static let rendererNumber: Int = number(in: BundlePlan.rendererVersion, after: "storyreel-render-") ?? 0

    /// What this storyreel writes as a manifest's `generator`.
    static let current = "storyreel \(BundlePlan.toolVersion) (renderer \(rendererNumber))"

    /// What `storyreel --version` prints: the tool's version, the renderer's and the probe's
    /// (`storyreel 0.3.0 (renderer 11, probe 8)`), so two builds that make different pictures
    /// or read clips differently are told apart.
    public static let versionLine =
        "storyreel \(BundlePlan.toolVersion) (renderer \(rendererNumber), probe "
        + "\(number(in: StatCache.probeVersion, after: "storyreel-probe-") ?? 0))"

    /// The renderer's number a `generator` names (`(renderer 11)`), or nil for one written before
    /// it was named, or by something else.
    static func renderer(inGenerator generator: String) -> Int? {
        guard generator.hasPrefix("storyreel "), generator.hasSuffix(")"),
            let open = generator.range(of: " (renderer ", options: .backwards)
        else { return nil }
        return number(in: String(generator[open.upperBound...].dropLast()), after: "")
    }

    /// The decimal number after `prefix` in `text`, when `text` is exactly that (no sign), held
    /// at `Int.max` when it is larger (a file's number never traps; a QA pass: a renderer of
    /// 1000000000, ten digits, read as none, and the newer bundle was written over).
    private static func number(in text: String, after prefix: String) -> Int? {
        guard text.hasPrefix(prefix) else { return nil }
        let digits = text.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(digits) ?? Int.max
    }

    /// What the manifest at `path` says of its writer: its `generator` (nil when it has none)
    /// and format `version` (nil when it has none), read as plain JSON, so that a manifest of a
    /// newer format, which ``Manifest`` does not decode, is still told apart. Nil when the file
    /// is not a JSON object.
    static func writer(ofManifestAt path: String) -> (generator: String?, version: Double?)? {
        guard let data = try? RegularFile.contents(of: path, maxSize: 256 << 20),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        // A number of any size (a QA pass: a version of 1e23, which no Int holds, read as none).
        let version = (object["version"] as? NSNumber).map(\.doubleValue)
        return (object["generator"] as? String, version)
    }

    /// Why the manifest at `path` is a newer storyreel's (`storyreel 0.4.0 (renderer 11),
    /// manifest version 2`), or nil when this storyreel may write over it.
    /// Only a manifest whose generator is storyreel's counts: someone's `manifest.json` with a
    /// `version` of 2 (a web app's) is not a newer storyreel's (a review), and stays "a file
    /// storyreel did not write".
    static func newerWriter(ofManifestAt path: String) -> String? {
        guard let (generator, version) = writer(ofManifestAt: path), let generator,
            generator.hasPrefix("storyreel ")
        else { return nil }
        let newerFormat = version.map { $0 > Double(Manifest.knownVersion) } ?? false
        let newerRenderer = renderer(inGenerator: generator).map { $0 > rendererNumber } ?? false
        guard newerFormat || newerRenderer else { return nil }
        return generator + (newerFormat ? ", manifest version \(ManifestSchemaChecker.format(version ?? 0))" : "")
    }

    /// Refuses (73, a ``BundleRefusal``) to render into `bundle` when its manifest is a newer
    /// storyreel's; `plan --bundle` refuses it as `render` does.
    public static func refuseNewer(_ bundle: String) throws {
        let manifest = BundlePaths.join(bundle, BundlePaths.manifest)
        guard FileStamp(path: manifest, followingLinks: false)?.isRegularFile == true,
            let newer = newerWriter(ofManifestAt: manifest)
        else { return }
        throw BundleRefusal(
            .notABundle, path: bundle,
            "rendered by a newer storyreel (\(newer)); this is \(current): upgrade storyreel, "
                + "or render into another folder (to go back to this version, remove its manifest.json first)")
    }

    /// A note, for a run that made outputs, when the bundle's manifest names an older renderer
    /// than this one: its pictures and transitions are made again (a QA pass: the upgrade's run
    /// said only "rendered 43"). Nil otherwise, and for a manifest written before the renderer
    /// was named.
    static func olderRendererNote(_ bundle: String, prune: Bool) -> String? {
        guard let generator = writer(ofManifestAt: BundlePaths.join(bundle, BundlePaths.manifest))?.generator,
            let previous = renderer(inGenerator: generator), previous < rendererNumber
        else { return nil }
        return "the bundle was rendered by renderer \(previous) (\(generator)): its pictures and transitions are "
            + "made again by renderer \(rendererNumber)"
            + (prune ? "" : "; --prune removes the old ones")
    }
}
