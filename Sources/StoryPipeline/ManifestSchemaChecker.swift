import Foundation
import StoryreelKit

/// Checks a manifest's JSON against every rule of `schema/manifest.schema.json`, as
/// python3-jsonschema would: required keys, no other keys, types, integer versus number, ranges,
/// patterns, enums, the version. It walks the JSON in document order and collects one problem
/// line per fault, each starting with its JSON path
/// (`stories[2].items[0].duration: expected a number, got '2'`).
///
/// It works on the JSON tree (``JSONValue``) because that is what a schema speaks of (a key the model would
/// ignore is still one the schema forbids); what types cannot say (unique ids, adjacent
/// transitions, files and hashes) is ``ManifestRuleChecker``'s, on the decoded ``Manifest``.
struct ManifestSchemaChecker {
    /// The problems found so far, in document order.
    private(set) var problems: [String] = []
    static let manifestKeys = ["version", "generator", "canvas", "duration", "stories", "transitions", "skipped"]
    static let storyKeys = ["id", "user", "isRead", "duration", "items"]
    static let userKeys = ["handle", "displayName", "avatar"]
    static let itemKeys = itemRequiredKeys + ["codecs", "audioCodecs", "firstFrame", "lastFrame"]
    static let itemRequiredKeys = [
        "id", "src", "sha256", "duration", "width", "height", "rotation", "frameRate", "codec", "hdr", "hasAudio",
        "poster", "thumbnail",
    ]
    static let transitionRequiredKeys = [
        "from", "to", "direction", "src", "frames", "fps", "duration", "width", "height",
    ]
    static let transitionKeys = transitionRequiredKeys + ["codecs"]
    static let skippedKeys = ["path", "story", "reason"]
    static let handleRule = "a handle (1 to 64 of A-Z a-z 0-9 . _ -, not starting with .)"

    /// True when problems past ``ManifestValidator/problemLimit`` were found and not kept.
    private(set) var isCut = false

    /// Adds a problem at a JSON path (empty: the manifest itself), unless
    /// ``ManifestValidator/problemLimit`` are kept already.
    mutating func report(_ path: String, _ message: String) {
        guard problems.count < ManifestValidator.problemLimit else {
            isCut = true
            return
        }
        problems.append("\(path.isEmpty ? "manifest" : path): \(message)")
    }

    /// Checks a whole manifest.
    mutating func check(manifest value: JSONValue) {
        guard let manifest = object(value, at: "", keys: Self.manifestKeys) else { return }
        if let version = manifest["version"], Self.number(version) != 1 {
            // A newer one is said as render says it (a QA pass: "expected 1, got 2" alone); a
            // fraction is no version, as the Kit says (a Kit QA pass: `1.5` was "newer", where
            // the Kit gives no `newerVersion`, so an app and validate sent a user two ways).
            if let number = Self.number(version), number > 1, number.rounded(.towardZero) != number {
                report("version", "expected an integer, got \(Self.describe(version))")
            } else if let number = Self.number(version), number > 1 {
                report(
                    "version",
                    "\(Self.describe(version)) is newer than this storyreel reads (1): the bundle is a newer "
                        + "storyreel's; upgrade storyreel")
            } else {
                report("version", "expected 1, got \(Self.describe(version))")
            }
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
            if let story = entry["story"], story != .null { _ = string(story, at: "\(path).story") }
        }
    }

    private mutating func check(story value: JSONValue, index: Int) {
        let path = "stories[\(index)]"
        guard let story = object(value, at: path, keys: Self.storyKeys) else { return }
        _ = string(story["id"], at: "\(path).id", Self.handleRule, Self.isHandle)
        if let user = object(story["user"], at: "\(path).user", keys: Self.userKeys) {
            _ = string(user["handle"], at: "\(path).user.handle", Self.handleRule, Self.isHandle)
            if let name = string(user["displayName"], at: "\(path).user.displayName"),
                case let count = name.unicodeScalars.count, count > Manifest.User.displayNameLimit
            {
                report(
                    "\(path).user.displayName",
                    "expected at most \(Manifest.User.displayNameLimit) characters, got \(count)")
            }
            if let avatar = user["avatar"], avatar != .null { _ = relativePath(avatar, at: "\(path).user.avatar") }
        }
        boolean(story["isRead"], at: "\(path).isRead")
        number(story["duration"], at: "\(path).duration", minimum: 0)
        for (itemIndex, item) in (array(story["items"], at: "\(path).items", minimumCount: 1) ?? []).enumerated() {
            check(item: item, at: "\(path).items[\(itemIndex)]")
        }
    }

    private mutating func check(item value: JSONValue, at path: String) {
        guard let item = object(value, at: path, keys: Self.itemKeys, required: Self.itemRequiredKeys) else { return }
        _ = string(item["id"], at: "\(path).id", "16 lowercase hex digits, then -2, -3 … or nothing", Self.isItemID)
        _ = string(item["sha256"], at: "\(path).sha256", "64 lowercase hex digits", Self.isSHA256)
        number(item["duration"], at: "\(path).duration", exclusiveMinimum: 0)
        number(item["width"], at: "\(path).width", integer: true, minimum: 1, maximum: 8192)
        number(item["height"], at: "\(path).height", integer: true, minimum: 1, maximum: 8192)
        choice(item["rotation"], at: "\(path).rotation", [.int(0), .int(90), .int(180), .int(270)])
        number(item["frameRate"], at: "\(path).frameRate", minimum: 0)
        _ = string(item["codec"], at: "\(path).codec")
        if let codecs = item["codecs"] { _ = string(codecs, at: "\(path).codecs") }
        choice(
            item["hdr"], at: "\(path).hdr", [.string("none"), .string("hlg"), .string("pq"), .string("dolbyVision")])
        boolean(item["hasAudio"], at: "\(path).hasAudio")
        if let codecs = item["audioCodecs"] { _ = string(codecs, at: "\(path).audioCodecs") }
        _ = relativePath(item["src"], at: "\(path).src", parentSteps: true)
        for key in ["poster", "thumbnail", "firstFrame", "lastFrame"] {
            _ = relativePath(item[key], at: "\(path).\(key)")
        }
    }

    private mutating func check(transition value: JSONValue, at path: String) {
        guard let transition = object(value, at: path, keys: Self.transitionKeys, required: Self.transitionRequiredKeys)
        else { return }
        _ = string(transition["from"], at: "\(path).from", Self.handleRule, Self.isHandle)
        _ = string(transition["to"], at: "\(path).to", Self.handleRule, Self.isHandle)
        choice(transition["direction"], at: "\(path).direction", [.string("forward"), .string("backward")])
        _ = relativePath(transition["src"], at: "\(path).src")
        number(transition["frames"], at: "\(path).frames", integer: true, minimum: 1)
        number(transition["fps"], at: "\(path).fps", exclusiveMinimum: 0)
        number(transition["duration"], at: "\(path).duration", exclusiveMinimum: 0)
        number(transition["width"], at: "\(path).width", integer: true, minimum: 2, maximum: 8192)
        number(transition["height"], at: "\(path).height", integer: true, minimum: 2, maximum: 8192)
        if let codecs = transition["codecs"] { _ = string(codecs, at: "\(path).codecs") }
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

    /// True when `text` is a SHA-256 as storyreel writes it: 64 lowercase hex digits.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy(isLowercaseHex)
    }

    /// 0-9 or a-f.
    static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
