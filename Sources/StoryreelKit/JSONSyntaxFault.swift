import Foundation

/// Where JSON text that Foundation's parser reads breaks RFC 8259, so that a browser's
/// `JSON.parse` (and `response.json()`) and Python's `json` refuse it: a comma before a closing
/// `}` or `]`, or text in UTF-16 or UTF-32 rather than UTF-8. The player page fetches
/// `manifest.json` and falls back to its embedded copy when the fetch's JSON fails, so such a
/// manifest would play stale; ``Manifest/init(jsonData:)`` and `validate` refuse it.
package struct JSONSyntaxFault: Sendable, Equatable {
    /// The JSON path of the object or array at fault (`stories[0].items`), empty for the whole text.
    package var path: String
    /// What is wrong there.
    package var message: String

    /// The first such fault in `data`, or nil when there is none. `data` should be JSON that
    /// Foundation reads (checked before); other bytes give nil or a fault, never a trap.
    package static func first(in data: Data) -> JSONSyntaxFault? {
        first(in: data, scan: nil)
    }

    /// ``first(in:)``, from `scan` when `data` was scanned already.
    static func first(in data: Data, scan: JSONStructureScan?) -> JSONSyntaxFault? {
        if let fault = encodingFault(in: data) { return fault }
        guard let comma = (scan ?? JSONStructureScan(data)).trailingComma else { return nil }
        return JSONSyntaxFault(
            path: comma.path, message: "not valid JSON: " + placed(comma, in: data, refusedBy: "browsers"))
    }

    /// "a comma before its closing ']' at line 1, column 37, which `readers` refuse".
    private static func placed(
        _ comma: (path: String, closing: Character, offset: Int), in data: Data, refusedBy readers: String
    ) -> String {
        let place = JSONParseFailure.place(ofByte: comma.offset, in: data)
        return "a comma before its closing '\(comma.closing)' at line \(place.line), column \(place.column), "
            + "which \(readers) refuse"
    }

    /// The comma before a closing bracket that `scan` found in `data` (JSON Foundation reads),
    /// placed for a person: "a comma before its closing ']' at line 1, column 37, which JSON
    /// parsers refuse"; nil when there is none. For the files a person or a script writes (a
    /// stories spec, `story.json`), which other tools then refuse (a QA pass: `render` read a spec
    /// `jq` and Python refuse). The same scan gives the key given twice, if any.
    package static func trailingCommaPlaced(in data: Data, scan: JSONStructureScan) -> String? {
        scan.trailingComma.map { placed($0, in: data, refusedBy: "JSON parsers") }
    }

    /// The fault in how `data` is encoded (UTF-16 or UTF-32, bytes that are not UTF-8, a NUL
    /// byte), or nil. Text no JSON parser reads is placed by this, not by a trailing comma: a
    /// comma found in text that breaks elsewhere first was blamed, with no line (a QA pass:
    /// `hello, }` and a player page given as the manifest).
    package static func encodingFault(in data: Data) -> JSONSyntaxFault? {
        // JSON text begins with an ASCII character, so UTF-16 and UTF-32 put a zero byte in
        // its first four; a zero byte is nowhere in UTF-8 JSON (not even in a string).
        if data.prefix(4).contains(0) || !isUTF8(data) {
            // Latin-1 text names its first foreign byte and where it is, as a spec's and a
            // `story.json`'s reason does (a QA pass: the manifest's said only "not UTF-8").
            let place = data.prefix(4).contains(0) ? nil : JSONParseFailure.notUTF8(in: data)
            return JSONSyntaxFault(
                path: "",
                message: "not valid JSON: "
                    + (place?.description ?? "the text is not UTF-8 (browsers read JSON as UTF-8)"))
        }
        if data.contains(0) {
            return JSONSyntaxFault(path: "", message: "not valid JSON: it holds a NUL byte")
        }
        return nil
    }

    /// True when `data` is well-formed UTF-8.
    private static func isUTF8(_ data: Data) -> Bool {
        !transcode(data.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
    }
}
