import Foundation
import StoryMedia

/// Walks a parsed manifest in document order and collects one problem line per fault, each
/// starting with its JSON path (`stories[2].items[0].duration: expected a number, got '2'`).
///
/// It checks every rule of `schema/manifest.schema.json` (required keys, no other keys, types,
/// integer versus number, ranges, patterns, enums, the version) and what a schema cannot say:
/// story ids and item ids are unique, an item id is its clip's SHA-256 prefix, transitions join
/// adjacent stories that exist, every referenced file is a regular file inside the bundle, and
/// each clip still has its recorded SHA-256. Files are found by ``BundleFileResolver`` and only
/// clips are read, through ``RegularFile`` with a deadline.
struct ManifestChecker {
    /// The problems found so far, in document order.
    private(set) var problems: [String] = []
    private let resolver: BundleFileResolver
    private let timeout: Double?
    /// Story ids and where they first appear, for uniqueness and transitions.
    private var storyIndex: [String: Int] = [:]
    /// Item ids and where they first appear.
    private var itemPaths: [String: String] = [:]
    /// SHA-256 of the clips already hashed, by identity: a clip that plays twice is read once.
    private var hashes: [FileIdentity: Result<String, MediaError>] = [:]

    static let manifestKeys = ["version", "generator", "canvas", "duration", "stories", "transitions", "skipped"]
    static let storyKeys = ["id", "user", "isRead", "duration", "items"]
    static let userKeys = ["handle", "displayName", "avatar"]
    static let itemKeys = itemRequiredKeys + ["firstFrame", "lastFrame"]
    static let itemRequiredKeys = [
        "id", "src", "sha256", "duration", "width", "height", "rotation", "frameRate", "codec", "hdr", "hasAudio",
        "poster", "thumbnail",
    ]
    static let transitionKeys = ["from", "to", "direction", "src", "frames", "fps", "duration", "width", "height"]
    static let skippedKeys = ["path", "story", "reason"]
    static let handleRule = "a handle (1 to 64 of A-Z a-z 0-9 . _ -, not starting with .)"

    /// A checker resolving files with `resolver` and giving each clip `timeout` seconds to hash.
    init(resolver: BundleFileResolver, timeout: Double?) {
        self.resolver = resolver
        self.timeout = timeout
    }

    /// Adds a problem at a JSON path (empty: the manifest itself).
    mutating func report(_ path: String, _ message: String) {
        problems.append("\(path.isEmpty ? "manifest" : path): \(message)")
    }

    /// Checks a whole manifest.
    mutating func check(manifest value: Any) {
        guard let manifest = object(value, at: "", keys: Self.manifestKeys) else { return }
        if let version = manifest["version"], Self.number(version) != 1 {
            report("version", "expected 1, got \(Self.describe(version))")
        }
        _ = string(manifest["generator"], at: "generator", "'storyreel ' then a version") { $0.hasPrefix("storyreel ") }
        if let canvas = object(manifest["canvas"], at: "canvas", keys: ["width", "height"]) {
            for key in ["width", "height"] {
                number(canvas[key], at: "canvas.\(key)", integer: true, minimum: 2, maximum: 8192)
            }
        }
        number(manifest["duration"], at: "duration", minimum: 0)
        for (index, story) in (array(manifest["stories"], at: "stories") ?? []).enumerated() {
            check(story: story, index: index)
        }
        for (index, transition) in (array(manifest["transitions"], at: "transitions") ?? []).enumerated() {
            check(transition: transition, at: "transitions[\(index)]")
        }
        for (index, skipped) in (array(manifest["skipped"], at: "skipped") ?? []).enumerated() {
            let path = "skipped[\(index)]"
            guard let entry = object(skipped, at: path, keys: Self.skippedKeys) else { continue }
            _ = string(entry["path"], at: "\(path).path")
            _ = string(entry["reason"], at: "\(path).reason")
            if let story = entry["story"], !(story is NSNull) { _ = string(story, at: "\(path).story") }
        }
    }

    private mutating func check(story value: Any, index: Int) {
        let path = "stories[\(index)]"
        guard let story = object(value, at: path, keys: Self.storyKeys) else { return }
        if let id = string(story["id"], at: "\(path).id", Self.handleRule, Self.isHandle) {
            if let first = storyIndex[id] {
                report("\(path).id", "'\(id)' is also the id of stories[\(first)]")
            } else {
                storyIndex[id] = index
            }
        }
        if let user = object(story["user"], at: "\(path).user", keys: Self.userKeys) {
            _ = string(user["handle"], at: "\(path).user.handle", Self.handleRule, Self.isHandle)
            _ = string(user["displayName"], at: "\(path).user.displayName")
            if let avatar = user["avatar"], !(avatar is NSNull) {
                if let relative = relativePath(avatar, at: "\(path).user.avatar") {
                    _ = checkFile(relative, at: "\(path).user.avatar")
                }
            }
        }
        boolean(story["isRead"], at: "\(path).isRead")
        number(story["duration"], at: "\(path).duration", minimum: 0)
        for (itemIndex, item) in (array(story["items"], at: "\(path).items", minimumCount: 1) ?? []).enumerated() {
            check(item: item, at: "\(path).items[\(itemIndex)]")
        }
    }

    private mutating func check(item value: Any, at path: String) {
        guard let item = object(value, at: path, keys: Self.itemKeys, required: Self.itemRequiredKeys) else { return }
        let id = string(
            item["id"], at: "\(path).id", "16 lowercase hex digits, then -2, -3 … or nothing", Self.isItemID)
        let sha = string(item["sha256"], at: "\(path).sha256", "64 lowercase hex digits") {
            $0.utf8.count == 64 && $0.utf8.allSatisfy(Self.isLowercaseHex)
        }
        if let id {
            if let first = itemPaths[id] {
                report("\(path).id", "'\(id)' is also the id of \(first)")
            } else {
                itemPaths[id] = path
            }
            if let sha, !sha.hasPrefix(String(id.prefix(16))) {
                report("\(path).id", "does not start with the first 16 hex digits of its sha256")
            }
        }
        number(item["duration"], at: "\(path).duration", exclusiveMinimum: 0)
        number(item["width"], at: "\(path).width", integer: true, minimum: 1)
        number(item["height"], at: "\(path).height", integer: true, minimum: 1)
        choice(item["rotation"], at: "\(path).rotation", [0, 90, 180, 270])
        number(item["frameRate"], at: "\(path).frameRate", minimum: 0)
        _ = string(item["codec"], at: "\(path).codec")
        choice(item["hdr"], at: "\(path).hdr", ["none", "hlg", "pq", "dolbyVision"])
        boolean(item["hasAudio"], at: "\(path).hasAudio")
        for key in ["poster", "thumbnail", "firstFrame", "lastFrame"] {
            if let relative = relativePath(item[key], at: "\(path).\(key)") {
                _ = checkFile(relative, at: "\(path).\(key)")
            }
        }
        guard let src = relativePath(item["src"], at: "\(path).src"), let clip = checkFile(src, at: "\(path).src")
        else { return }
        let hashed = hashes[clip.identity] ?? hash(clip)
        hashes[clip.identity] = hashed
        switch hashed {
        case .success(let actual):
            if let sha, actual != sha {
                report("\(path).src", "\(src) does not match its sha256 (it hashes to \(actual))")
            }
        case .failure(let error):
            report("\(path).src", "\(src): \(error.reason)")
        }
    }

    private mutating func check(transition value: Any, at path: String) {
        guard let transition = object(value, at: path, keys: Self.transitionKeys) else { return }
        let from = string(transition["from"], at: "\(path).from", Self.handleRule, Self.isHandle)
        let to = string(transition["to"], at: "\(path).to", Self.handleRule, Self.isHandle)
        let direction = transition["direction"] as? String
        choice(transition["direction"], at: "\(path).direction", ["forward", "backward"])
        if let src = relativePath(transition["src"], at: "\(path).src") { _ = checkFile(src, at: "\(path).src") }
        number(transition["frames"], at: "\(path).frames", integer: true, minimum: 1)
        number(transition["fps"], at: "\(path).fps", exclusiveMinimum: 0)
        number(transition["duration"], at: "\(path).duration", exclusiveMinimum: 0)
        number(transition["width"], at: "\(path).width", integer: true, minimum: 2)
        number(transition["height"], at: "\(path).height", integer: true, minimum: 2)

        // Stories are all known by now: a transition joins story i and i+1, in its direction.
        var indices: [Int] = []
        for (key, id) in [("from", from), ("to", to)] {
            guard let id else { continue }
            if let index = storyIndex[id] {
                indices.append(index)
            } else {
                report("\(path).\(key)", "no story '\(id)'")
            }
        }
        guard indices.count == 2, let step = ["forward": 1, "backward": -1][direction ?? ""] else { return }
        if indices[1] != indices[0] + step {
            let expected = direction == "forward" ? "stories[i] to stories[i+1]" : "stories[i+1] to stories[i]"
            report(
                path,
                "a \(direction!) transition joins \(expected), not stories[\(indices[0])] '\(from!)' to "
                    + "stories[\(indices[1])] '\(to!)'")
        }
    }

    /// The file `relative` names when it is a regular file inside the bundle; reports why not.
    private mutating func checkFile(_ relative: String, at path: String) -> (path: String, identity: FileIdentity)? {
        switch resolver.resolve(relative) {
        case .file(let file, let identity): return (file, identity)
        case .problem(let reason):
            report(path, "\(relative) \(reason)")
            return nil
        }
    }

    /// SHA-256 of a clip, read as a regular file (never a FIFO or a device) within the deadline.
    private func hash(_ clip: (path: String, identity: FileIdentity)) -> Result<String, MediaError> {
        Result {
            let file = try RegularFile(path: clip.path, timeout: timeout)
            guard file.stamp.identity == clip.identity else {
                throw MediaError(.unreadableInput, path: clip.path, "changed while it was being checked")
            }
            return try ContentHasher.sha256(of: file)
        }.mapError { ($0 as? MediaError) ?? MediaError(.ioFailure, path: clip.path, "\($0)") }
    }

    /// The schema's handle: `^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$`.
    static func isHandle(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func allowed(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        return (1...64).contains(bytes.count) && bytes[0] != UInt8(ascii: ".") && bytes.allSatisfy(allowed)
    }

    /// The schema's item id: `^[0-9a-f]{16}(-[1-9][0-9]*)?$`.
    static func isItemID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[0..<16].allSatisfy(isLowercaseHex) else { return false }
        let suffix = bytes[16...]
        guard let dash = suffix.first else { return true }
        let digits = suffix.dropFirst()
        return dash == UInt8(ascii: "-") && (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(digits.first ?? 0)
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// 0-9 or a-f.
    static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
