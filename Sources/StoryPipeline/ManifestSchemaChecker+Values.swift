import Foundation

/// The schema's value rules (types, ranges, patterns, enums) over ``JSONValue``s. Each takes the
/// value at a JSON path, reports what is wrong with it and returns it typed when it is usable,
/// or nil; a nil value (a missing key, already reported) is passed over silently.
extension ManifestSchemaChecker {
    /// An object with exactly the schema's keys: each of `required` present, nothing else.
    mutating func object(_ value: JSONValue?, at path: String, keys: [String], required: [String]? = nil)
        -> [String: JSONValue]?
    {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            report(path, "expected an object, got \(Self.describe(value))")
            return nil
        }
        let object = Dictionary(members, uniquingKeysWith: { _, last in last })
        for key in required ?? keys where object[key] == nil { report(Self.child(path, key), "missing") }
        for key in object.keys.sorted() where !keys.contains(key) {
            report(Self.child(path, key), "unexpected key (the schema allows only \(keys.joined(separator: ", ")))")
        }
        return object
    }

    /// An array with at least `minimumCount` elements.
    mutating func array(_ value: JSONValue?, at path: String, minimumCount: Int = 0) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let array) = value else {
            report(path, "expected an array, got \(Self.describe(value))")
            return nil
        }
        if array.count < minimumCount { report(path, "must have at least \(minimumCount) item(s), got \(array.count)") }
        return array
    }

    /// A string, and when `pattern` is given, one it accepts (`rule` says what it expects).
    mutating func string(
        _ value: JSONValue?, at path: String, _ rule: String? = nil, _ pattern: ((String) -> Bool)? = nil
    ) -> String? {
        guard let value else { return nil }
        guard case .string(let string) = value else {
            report(path, "expected a string, got \(Self.describe(value))")
            return nil
        }
        if let pattern, !pattern(string) {
            report(path, "expected \(rule ?? "another value"), got \(Self.describe(value))")
            return nil
        }
        return string
    }

    /// A plain relative path (``ManifestPath/isPlain(_:)``, the schema's `relativePath`): a file
    /// inside the bundle. With `parentSteps` (the schema's `clipPath`, an item's `src`), leading
    /// `../` steps may come first, for a `--reference` bundle's clips beside it.
    mutating func relativePath(_ value: JSONValue?, at path: String, parentSteps: Bool = false) -> String? {
        let rule =
            "a plain relative path (non-empty components separated by single /, none of them . or .., "
            + "no leading or trailing / or space, no control character, #, ?, % or \\, no : in the first component)"
        if parentSteps {
            return string(value, at: path, rule + ", after any leading ../", ManifestPath.isPlainAfterParentSteps)
        }
        return string(value, at: path, rule, ManifestPath.isPlain)
    }

    /// A boolean.
    mutating func boolean(_ value: JSONValue?, at path: String) {
        guard let value else { return }
        if case .bool = value { return }
        report(path, "expected a boolean, got \(Self.describe(value))")
    }

    /// A number (an integer when `integer`; 2.0 counts, as JSON Schema says) within the bounds.
    mutating func number(
        _ value: JSONValue?, at path: String, integer: Bool = false, minimum: Double? = nil, maximum: Double? = nil,
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
    mutating func choice(_ value: JSONValue?, at path: String, _ choices: [JSONValue]) {
        guard let value else { return }
        let matches = choices.contains { choice in
            if case .string = choice { return value == choice }
            return Self.number(value) != nil && Self.number(value) == Self.number(choice)
        }
        if !matches {
            let listed = choices.map { Self.describe($0) }.joined(separator: ", ")
            report(path, "expected one of \(listed), got \(Self.describe(value))")
        }
    }

    /// The path of `key` inside the object at `path`: `stories[0].id`, or `["odd key"]` quoted.
    static func child(_ path: String, _ key: String) -> String {
        // A long key is quoted, and so cut as values are (a QA pass: a key of 200,000 letters
        // made a line of that length, where StoryreelKit cuts it at 80).
        let plain =
            !key.isEmpty && key.unicodeScalars.count <= 80
            && key.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
        if plain { return path.isEmpty ? key : "\(path).\(key)" }
        return "\(path)[\(describe(.string(key)))]"
    }

    /// A JSON number as a Double; nil for anything else, booleans included.
    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let int): return Double(int)
        case .number(let number): return number
        default: return nil
        }
    }

    /// A value as a problem line shows it: `'text'`, `12`, `true`, `null`, `an array`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .int(let int): return String(int)
        case .number(let number): return format(number)
        case .string(let text):
            let escaped = text.shortened()
                .replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "'", with: "\\'")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "'\(escaped)'"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A number without a needless `.0`.
    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
