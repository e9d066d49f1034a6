import Foundation

/// The keys a `story.json`, or a story entry of a JSON spec, may hold, with their JSON types. A
/// value of the wrong type leaves the story out (skipped, with the reason); `null` for a key that
/// may be left out means it is left out (the manifest itself writes `"avatar": null`); an unknown
/// key is a warning that names the closest known key, and is ignored.
struct StoryFields {
    /// A key's JSON type.
    enum Kind {
        case string, bool, number, stringArray

        /// "a string", "true or false" … for a reason line.
        var expected: String {
            switch self {
            case .string: return "a string"
            case .bool: return "true or false"
            case .number: return "a number"
            case .stringArray: return "an array of strings"
            }
        }
    }

    /// The keys, in the order the reasons name them.
    let keys: [(name: String, kind: Kind)]
    /// The keys a story must give (a spec's `handle` and `items`): `null` there is a wrong type.
    var required: Set<String> = []

    /// `story.json`: `{"displayName": "Ana Lima", "isRead": false, "order": 1}`.
    static let storyJSON = StoryFields(keys: [("displayName", .string), ("isRead", .bool), ("order", .number)])
    /// A spec's story: `{"handle", "displayName", "avatar", "isRead", "items"}`.
    static let specStory = StoryFields(
        keys: [
            ("handle", .string), ("displayName", .string), ("avatar", .string), ("isRead", .bool),
            ("items", .stringArray),
        ], required: ["handle", "items"])

    /// The first key of `object` whose value has the wrong type, as a reason:
    /// `"isRead" must be true or false, got "yes"`; nil when every known key is well typed or,
    /// unless ``required``, `null`.
    func typeProblem(in object: [String: Any]) -> String? {
        for (name, kind) in keys {
            guard let value = object[name], !Self.matches(value, kind),
                !(value is NSNull && !required.contains(name))
            else { continue }
            // An array with a wrong element names it: `"items[1]" must be a string, got null`.
            if kind == .stringArray, let array = value as? [Any],
                let index = array.firstIndex(where: { !($0 is String) })
            {
                return "\"\(name)[\(index)]\" must be a string, got \(Self.describe(array[index]))"
            }
            return "\"\(name)\" must be \(kind.expected), got \(Self.describe(value))"
        }
        return nil
    }

    /// One warning per key of `object` that is not known, naming the closest known key:
    /// `unknown key "is_read" (did you mean "isRead"?); ignored`.
    func unknownKeyWarnings(in object: [String: Any]) -> [String] {
        let names = keys.map(\.name)
        // In order; past ten, those with a likely meaning first, so that a slip is named among
        // many unknown keys (a review).
        let hints = object.keys.filter { !names.contains($0) }.sorted().map { key in
            (key: key, closest: NameSuggestion.closest(to: key, among: names))
        }
        let unknown =
            hints.count <= Self.unknownKeysShown
            ? hints : hints.filter { $0.closest != nil } + hints.filter { $0.closest == nil }
        return Self.unknownKeyLines(unknown)
    }

    /// One line per unknown key, in the order given, each with its likely meaning if any, for
    /// the first ``unknownKeysShown``; then how many more: `unknown key "is_read" (did you mean
    /// "isRead"?); ignored`. A key is cut at 80 characters.
    static func unknownKeyLines(_ unknown: [(key: String, closest: String?)]) -> [String] {
        let lines = unknown.prefix(unknownKeysShown).map { key, closest in
            let hint = closest.map { " (did you mean \"\($0)\"?)" } ?? ""
            return "unknown key \"\(key.shortened())\"\(hint); ignored"
        }
        return lines + moreUnknownKeys(unknown.count)
    }

    /// How many unknown keys of one object are named, one line each (a QA pass: a `story.json` of
    /// a hundred thousand keys would print as many lines).
    static let unknownKeysShown = 10

    /// The line that counts the unknown keys past ``unknownKeysShown``, if any.
    private static func moreUnknownKeys(_ count: Int) -> [String] {
        let more = count - unknownKeysShown
        return more > 0 ? ["\(more) more unknown \(more == 1 ? "key" : "keys"); ignored"] : []
    }

    private static func matches(_ value: Any, _ kind: Kind) -> Bool {
        switch kind {
        case .string: return value is String
        case .bool: return isBoolean(value)
        case .number: return !isBoolean(value) && value is NSNumber
        case .stringArray: return (value as? [Any])?.allSatisfy { $0 is String } ?? false
        }
    }

    /// True for JSON's `true` and `false` (Foundation hands them out as NSNumbers too).
    private static func isBoolean(_ value: Any) -> Bool {
        type(of: value) == type(of: NSNumber(value: true) as Any)
    }

    /// `"yes"`, `1`, `true`, `null`, `an array`, `an object`.
    static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBoolean(value) { return (value as? Bool) == true ? "true" : "false" }
        if let number = value as? NSNumber { return number.stringValue }
        if let text = value as? String { return "\"\(text.shortened())\"" }
        if value is [Any] { return "an array" }
        return "an object"
    }
}
