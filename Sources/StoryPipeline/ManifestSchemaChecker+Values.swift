import Foundation

/// The schema's value rules (types, ranges, patterns, enums) over `JSONSerialization` values.
/// Each takes the value at a JSON path, reports what is wrong with it and returns it typed when
/// it is usable, or nil; a nil value (a missing key, already reported) is passed over silently.
extension ManifestSchemaChecker {
    /// An object with exactly the schema's keys: each of `required` present, nothing else.
    mutating func object(_ value: Any?, at path: String, keys: [String], required: [String]? = nil)
        -> [String: Any]?
    {
        guard let value else { return nil }
        guard let object = value as? [String: Any] else {
            report(path, "expected an object, got \(Self.describe(value))")
            return nil
        }
        for key in required ?? keys where object[key] == nil { report(Self.child(path, key), "missing") }
        for key in object.keys.sorted() where !keys.contains(key) {
            report(Self.child(path, key), "unexpected key (the schema allows only \(keys.joined(separator: ", ")))")
        }
        return object
    }

    /// An array with at least `minimumCount` elements.
    mutating func array(_ value: Any?, at path: String, minimumCount: Int = 0) -> [Any]? {
        guard let value else { return nil }
        guard let array = value as? [Any] else {
            report(path, "expected an array, got \(Self.describe(value))")
            return nil
        }
        if array.count < minimumCount { report(path, "must have at least \(minimumCount) item(s), got \(array.count)") }
        return array
    }

    /// A string, and when `pattern` is given, one it accepts (`rule` says what it expects).
    mutating func string(_ value: Any?, at path: String, _ rule: String? = nil, _ pattern: ((String) -> Bool)? = nil)
        -> String?
    {
        guard let value else { return nil }
        guard let string = value as? String else {
            report(path, "expected a string, got \(Self.describe(value))")
            return nil
        }
        if let pattern, !pattern(string) {
            report(path, "expected \(rule ?? "another value"), got \(Self.describe(string))")
            return nil
        }
        return string
    }

    /// A relative path: a non-empty string not starting with `/`.
    mutating func relativePath(_ value: Any?, at path: String) -> String? {
        string(value, at: path, "a relative path (not empty, not starting with /)") {
            !$0.isEmpty && !$0.hasPrefix("/")
        }
    }

    /// A boolean.
    mutating func boolean(_ value: Any?, at path: String) {
        guard let value, !Self.isBoolean(value) else { return }
        report(path, "expected a boolean, got \(Self.describe(value))")
    }

    /// A number (an integer when `integer`; 2.0 counts, as JSON Schema says) within the bounds.
    mutating func number(
        _ value: Any?, at path: String, integer: Bool = false, minimum: Double? = nil, maximum: Double? = nil,
        exclusiveMinimum: Double? = nil
    ) {
        guard let value else { return }
        guard let number = Self.number(value), !integer || number == number.rounded() else {
            report(path, "expected \(integer ? "an integer" : "a number"), got \(Self.describe(value))")
            return
        }
        if let minimum, number < minimum {
            report(path, "must be at least \(Self.format(minimum)), got \(Self.describe(value))")
        }
        if let maximum, number > maximum {
            report(path, "must be at most \(Self.format(maximum)), got \(Self.describe(value))")
        }
        if let exclusiveMinimum, number <= exclusiveMinimum {
            report(path, "must be greater than \(Self.format(exclusiveMinimum)), got \(Self.describe(value))")
        }
    }

    /// One of `choices`: numbers compare by value, strings exactly, never a boolean for a number.
    mutating func choice(_ value: Any?, at path: String, _ choices: [Any]) {
        guard let value else { return }
        let matches = choices.contains { choice in
            if let text = choice as? String { return (value as? String) == text }
            return Self.number(value) != nil && Self.number(value) == Self.number(choice)
        }
        if !matches {
            let listed = choices.map { Self.describe($0) }.joined(separator: ", ")
            report(path, "expected one of \(listed), got \(Self.describe(value))")
        }
    }

    /// The path of `key` inside the object at `path`: `stories[0].id`, or `["odd key"]` quoted.
    static func child(_ path: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
        if plain { return path.isEmpty ? key : "\(path).\(key)" }
        return "\(path)[\(describe(key))]"
    }

    /// A JSON number as a Double; nil for anything else, booleans included.
    static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    /// True for JSON's `true` and `false` (Foundation hands them out as NSNumbers too).
    static func isBoolean(_ value: Any) -> Bool {
        type(of: value) == type(of: NSNumber(value: true) as Any)
    }

    /// A value as a problem line shows it: `'text'`, `12`, `true`, `null`, `an array`.
    static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBoolean(value) { return (value as? Bool) == true ? "true" : "false" }
        if let number = number(value) { return format(number) }
        if let text = value as? String {
            let shown = text.count > 80 ? text.prefix(80) + "…" : Substring(text)
            let escaped = shown.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "'\(escaped)'"
        }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "\(value)"
    }

    /// A number without a needless `.0`.
    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
