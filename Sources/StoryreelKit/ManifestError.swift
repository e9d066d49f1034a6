import Foundation

/// Why a manifest could not be read: the JSON path of the fault and what was wrong there,
/// shown as one line (`stories[2].items[0].duration: expected a number`), which is also its
/// `localizedDescription`.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The JSON path of the fault (`stories[2].items[0].duration`); `manifest` for the whole.
    /// It holds the manifest's keys as they are, so a key with a newline or a terminal escape in
    /// it keeps them here: show ``description``, which writes them as escapes on one line.
    public var path: String
    /// What was wrong there.
    public var message: String
    /// The manifest's version when it is newer than this StoryreelKit reads, else nil: an app
    /// can then ask for an update of itself rather than call the bundle damaged, without
    /// matching the message's words. `Int.max` for a version too large for an integer (`1e30`).
    public var newerVersion: Int?

    /// A fault at `path`; `newerVersion` for a manifest of a version this StoryreelKit does not
    /// read yet.
    public init(path: String, _ message: String, newerVersion: Int? = nil) {
        self.path = path.isEmpty ? "manifest" : path
        self.message = message
        self.newerVersion = newerVersion
    }

    /// The fault a decoding error describes, at its coding path.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            // What was there, where StoryreelKit's own checks say it (`got 1.5` of a fraction
            // where an integer goes), as `validate` words it (a consumer's review: it said only
            // "expected an integer").
            // Else the kind of value Foundation found (a later QA pass: `canvas: expected an
            // object`, where validate adds `, got an array`; validate quotes a string, number or
            // boolean itself, which a DecodingError does not hold). Read from Foundation's debug
            // text, which is no API: a wording it does not know adds nothing.
            let found =
                context.debugDescription.hasPrefix("got ")
                ? ", \(context.debugDescription)"
                : Self.foundKind(context.debugDescription).map { ", got \($0)" } ?? ""
            self.init(path: Self.path(context.codingPath), "expected \(Self.describe(type))\(found)")
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), "expected \(Self.describe(type)), got null")
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), "missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                self.init(path: "", "not valid JSON")
            } else {
                self.init(path: Self.path(context.codingPath), context.debugDescription)
            }
        @unknown default:
            self.init(path: "", "\(error)")
        }
    }

    /// A key written twice in one object: readers disagree on its value.
    package init(_ duplicate: JSONDuplicateKey) {
        self.init(
            path: duplicate.path,
            "is given twice in its object (JSON readers disagree on which value counts: Foundation's takes the first, "
                + "a browser the last)")
    }

    /// JSON that Foundation reads but a browser refuses.
    package init(_ fault: JSONSyntaxFault) {
        self.init(path: fault.path, fault.message)
    }

    /// Why a manifest's bytes are no JSON Foundation reads: how they are encoded
    /// (``JSONSyntaxFault/encodingFault(in:)``), else the first of a comma before a closing
    /// bracket and where the parser broke (`manifest: not valid JSON: invalid value at line 3,
    /// column 1`). A comma found after the break is not blamed (a QA pass: `hello, }`), nor one
    /// before it missed (a re-check: `[1,], "x": tru` named the end of the file).
    package static func unreadable(_ data: Data) -> ManifestError {
        if let fault = JSONSyntaxFault.encodingFault(in: data) { return ManifestError(fault) }
        let scan = JSONStructureScan(data)
        if let comma = scan.trailingComma, let failure = JSONParseFailure(parsing: data),
            let line = failure.line, let column = failure.column,
            (line, column) > JSONParseFailure.place(ofByte: comma.offset, in: data),
            let fault = JSONSyntaxFault.first(in: data, scan: scan)
        {
            return ManifestError(fault)
        }
        return ManifestError(path: "", JSONParseFailure.notValidJSON(data))
    }

    /// What a manifest's bytes hold that Foundation's decoder lets through but that other readers
    /// refuse or read otherwise, from one scan: JSON that browsers refuse (``JSONSyntaxFault``),
    /// then a key given twice (``JSONDuplicateKey``). Empty when there is neither.
    package static func structuralFaults(in data: Data) -> [ManifestError] {
        let scan = JSONStructureScan(data)
        let syntax = JSONSyntaxFault.first(in: data, scan: scan).map(ManifestError.init)
        let duplicate = scan.duplicateKeyPath.map { ManifestError(JSONDuplicateKey(path: $0)) }
        return [syntax, duplicate].compactMap { $0 }
    }

    /// `path: message`, on one line: a newline or a terminal escape in a value or key it quotes
    /// is written as an escape (`\n`, `\u{1B}`), as the command line's messages write them (a
    /// QA pass of the library: a value holding a newline broke its line in two).
    public var description: String { "\(path): \(message)".escapingLineControls }

    /// The one line of ``description``. An app shows `error.localizedDescription` (an alert,
    /// SwiftUI's `alert(isPresented:error:)`), which without it was Foundation's generic "The
    /// operation could not be completed. (StoryreelKit.ManifestError error 1.)" (a QA pass).
    public var errorDescription: String? { description }

    /// A coding path as JSON path text: `stories[2].items[0].duration`.
    static func path(_ codingPath: [CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// The kind of JSON value a Foundation type mismatch found, in words (`an array`), from its
    /// debug description (`Expected to decode Int but found a string instead.`, or `found
    /// number`, `found bool`, `found null`); nil for a wording it does not know.
    private static func foundKind(_ debugDescription: String) -> String? {
        guard let start = debugDescription.range(of: " but found "),
            let end = debugDescription.range(of: " instead", range: start.upperBound..<debugDescription.endIndex)
        else { return nil }
        var kind = debugDescription[start.upperBound..<end.lowerBound]
        for article in ["a ", "an "] where kind.hasPrefix(article) { kind = kind.dropFirst(article.count) }
        switch kind {
        case "string": return "a string"
        case "number": return "a number"
        case "bool", "boolean": return "a boolean"
        case "array": return "an array"
        case "dictionary", "object": return "an object"
        // Foundation's own Bool decoding says `null` so (a Kit consumer review: `"isRead": null`
        // was "expected a boolean", where every other type's says "got null").
        case "null": return "null"
        default: return nil
        }
    }

    /// What a decoder expected, in words: `a number`, `a string` …
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type: return "an integer"
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        default:
            return "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
