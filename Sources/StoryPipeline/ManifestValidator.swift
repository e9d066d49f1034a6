import Foundation
import StoryMedia

/// `storyreel validate`: checks a manifest's structure, that every file it references exists,
/// and that the clips it names still have their recorded SHA-256.
public enum ManifestValidator {
    /// The problems found in the manifest at `path`, one line each; empty when it is valid.
    public static func problems(inManifestAt path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            _ = try InputFile.checkRegularFile(path)
            throw MediaError(.unreadableInput, path: path, "cannot read the manifest")
        }
        guard let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return ["not a JSON object"]
        }
        let folder = (path as NSString).deletingLastPathComponent
        var problems: [String] = []
        func require<T>(_ object: [String: Any], _ key: String, _ type: T.Type, at place: String) -> T? {
            guard let value = object[key] as? T else {
                problems.append("\(place): missing or mistyped '\(key)'")
                return nil
            }
            return value
        }
        func checkFile(_ relative: String?, at place: String) {
            guard let relative else { return }
            if relative.hasPrefix("/") { problems.append("\(place): absolute path \(relative)") }
            if !FileManager.default.fileExists(atPath: BundlePaths.join(folder, relative)) {
                problems.append("\(place): missing file \(relative)")
            }
        }
        if require(manifest, "version", Int.self, at: "manifest") != 1 { problems.append("manifest: version is not 1") }
        _ = require(manifest, "generator", String.self, at: "manifest")
        if let canvas = require(manifest, "canvas", [String: Any].self, at: "manifest") {
            _ = require(canvas, "width", Int.self, at: "canvas")
            _ = require(canvas, "height", Int.self, at: "canvas")
        }
        _ = require(manifest, "duration", NSNumber.self, at: "manifest")
        for (s, story) in (require(manifest, "stories", [[String: Any]].self, at: "manifest") ?? []).enumerated() {
            let place = "stories[\(s)]"
            _ = require(story, "id", String.self, at: place)
            if let user = require(story, "user", [String: Any].self, at: place) {
                _ = require(user, "handle", String.self, at: "\(place).user")
                checkFile(user["avatar"] as? String, at: "\(place).user.avatar")
            }
            for (i, item) in (require(story, "items", [[String: Any]].self, at: place) ?? []).enumerated() {
                let itemPlace = "\(place).items[\(i)]"
                for key in ["poster", "thumbnail"] {
                    checkFile(require(item, key, String.self, at: itemPlace), at: "\(itemPlace).\(key)")
                }
                guard let src = require(item, "src", String.self, at: itemPlace),
                    let sha = require(item, "sha256", String.self, at: itemPlace)
                else { continue }
                let clip = BundlePaths.join(folder, src)
                guard FileManager.default.fileExists(atPath: clip) else {
                    problems.append("\(itemPlace).src: missing file \(src)")
                    continue
                }
                if (try? ContentHasher.sha256(ofFileAt: clip)) != sha {
                    problems.append("\(itemPlace).src: \(src) does not match its sha256")
                }
            }
        }
        for (t, transition) in (require(manifest, "transitions", [[String: Any]].self, at: "manifest") ?? [])
            .enumerated()
        {
            checkFile(require(transition, "src", String.self, at: "transitions[\(t)]"), at: "transitions[\(t)].src")
        }
        _ = require(manifest, "skipped", [Any].self, at: "manifest")
        return problems
    }
}
