import Foundation

/// Why Foundation's JSON parser refuses some text, and where, for a reason line a person can act
/// on: `invalid value at line 3, column 1` rather than "not valid JSON" alone. The parser gives a
/// byte offset ("around character 50"); this turns it into the line and column an editor shows.
package struct JSONParseFailure: Sendable, Equatable, CustomStringConvertible {
    /// What the parser met, in its own words less the offset and the final full stop
    /// (`invalid value`, `unexpected end of file during JSON parse`).
    package var problem: String
    /// The 1-based line of the fault, when the parser gave its offset.
    package var line: Int?
    /// The 1-based column (in characters) of the fault on its line, when the parser gave its offset.
    package var column: Int?

    init(problem: String) { self.problem = problem }

    /// Where byte `offset` of `body` is, as an editor counts: lines from 1, columns in
    /// characters from 1.
    private static func position(of offset: Int, in body: Data.SubSequence) -> (line: Int, column: Int) {
        let before = body.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        return (line, String(decoding: before[lineStart...], as: UTF8.self).count + 1)
    }

    /// Where byte `offset` of `data` (a UTF-8 byte order mark counted) is, as ``line`` and
    /// ``column`` count.
    static func place(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let mark = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let body = data.dropFirst(mark)
        return position(of: max(0, offset - mark), in: body)
    }

    /// The failure Foundation's parser reports for `data`, or nil when it reads `data` (a single
    /// value that is not an array or an object reads too).
    package init?(parsing data: Data) {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return nil
        } catch {
            self.init(error, in: data)
        }
    }

    /// The failure `error` (thrown by Foundation's parser reading `data`) describes.
    init(_ error: Error, in data: Data) {
        var words = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "unreadable text"
        if words.hasSuffix(".") { words.removeLast() }
        words = words.replacingOccurrences(of: " is not representable in Swift", with: " is out of range")
        // "Invalid value around character 50" (swift-corelibs-foundation's parser: a byte offset,
        // past a UTF-8 byte order mark, which it skips); "… in "ZZZZ" at 9" too.
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        var offset: Int?
        if let range = words.range(of: " around character ") ?? words.range(of: " at ", options: .backwards),
            let given = Int(words[range.upperBound...]), given >= 0, given <= body.count
        {
            offset = given
            words = String(words[..<range.lowerBound])
        } else if words.contains("low-surrogate") || words.contains("(no high character)"),
            let lone = Self.firstLoneSurrogate(in: body)
        {
            // `"Ana\ud83d"`, what JavaScript writes for a string cut in the middle of an emoji:
            // the parser said the text ended early and gave no place, or no place at all (a QA
            // pass: the fault was put at the end of the file, lines after it).
            offset = lone.offset
            words = "a lone UTF-16 surrogate \(lone.escape) (half of a character; a string may not hold one)"
        } else if words.contains("UTF-8"), let bad = Self.firstByteNotUTF8(in: body) {
            // A file saved as Latin-1 (`café` with a 0xE9): the parser counted characters, not
            // bytes, and named a sequence of four bytes where one was at fault (a QA pass).
            offset = bad.offset
            let hex = String(bad.byte, radix: 16, uppercase: true)
            words = "byte 0x\(hex), which is not UTF-8 (save the file as UTF-8),"
        } else if words.hasPrefix("Unexpected end of file") {
            // Text cut short (a manifest half written, a spec saved mid-edit): the fault is
            // where the text ends, which the parser does not say (a QA pass).
            offset = body.count
        }
        if let offset {
            (line, column) = Self.position(of: offset, in: body)
        } else if words.hasPrefix("Number "), words.hasSuffix(" is out of range") {
            // A number too big for a Double (`1e999`): the parser names it but gives no place,
            // so it is found in the text (a QA pass: the schema's reader takes it as infinity).
            let text = words.dropFirst("Number ".count).dropLast(" is out of range".count)
            if let found = Self.firstNumber(in: data, where: { $0 == text }) {
                (line, column) = (found.line, found.column)
            }
        }
        // A long number (5 MB of digits) is cut in its middle, so the line keeps its end.
        if words.count > 100 { words = words.prefix(60) + "…" + words.suffix(30) }
        problem = words.prefix(1).lowercased() + words.dropFirst()
    }

    /// `not valid JSON: invalid value at line 3, column 1` for `data` Foundation's parser refuses
    /// (`not valid JSON` alone when it says nothing more), the reason line every reader of JSON
    /// that people write (a spec, `story.json`, settings, a manifest) gives.
    package static func notValidJSON(_ data: Data) -> String {
        "not valid JSON" + ((JSONParseFailure(parsing: data) ?? underflow(in: data)).map { ": \($0)" } ?? "")
    }

    /// The first number of `data` so small that it reads as 0 (`1e-400`), outside strings:
    /// Foundation's decoder refuses it as not valid JSON, giving no place, while its parser,
    /// which the other failures come from, reads it (a QA pass: the bare "not valid JSON").
    /// Only a number with an exponent can: one of at most 100 characters (``Manifest``'s limit)
    /// without one is 1e-99 or more.
    static func underflow(in data: Data) -> JSONParseFailure? {
        firstNumber(
            in: data, ifItsBytes: { $0.contains(UInt8(ascii: "e")) || $0.contains(UInt8(ascii: "E")) },
            where: { text in
                let mantissa = text.prefix { $0 != "e" && $0 != "E" }
                return Double(text) == 0 && mantissa.contains(where: { ("1"..."9").contains($0) })
            })
    }

    /// "number TEXT is out of range", placed at the first number of `data` (outside strings,
    /// past a byte order mark) whose text `matches`.
    /// `ifItsBytes`: what a number's bytes must hold for its text to be made and matched (the
    /// scan of a large manifest makes no string of most of its numbers).
    private static func firstNumber(
        in data: Data, ifItsBytes worthMatching: (Slice<UnsafeRawBufferPointer>) -> Bool = { _ in true },
        where matches: (String) -> Bool
    ) -> JSONParseFailure? {
        let mark = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Over the raw bytes: indexing `Data` took a 229 MB manifest's scan 3 s (a re-check).
        let found: (text: String, offset: Int)? = data.withUnsafeBytes { bytes in
            var index = mark
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    var end = index
                    while end < bytes.count, "0123456789+-.eE".utf8.contains(bytes[end]) { end += 1 }
                    if worthMatching(bytes[index..<end]),
                        case let text = String(
                            decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self),
                        matches(text)
                    {
                        return (text, index)
                    }
                    index = end
                    continue
                }
                index += 1
            }
            return nil
        }
        guard let found else { return nil }
        var failure = JSONParseFailure(problem: "number \(found.text) is out of range")
        (failure.line, failure.column) = place(ofByte: found.offset, in: data)
        return failure
    }

    /// `byte 0xE9, which is not UTF-8 (save the file as UTF-8), at line 1, column 21`: the first
    /// byte of `data` (past a byte order mark) that is not part of a UTF-8 character and where it
    /// is, or nil when `data` is all UTF-8. Foundation's parser reads some such text (a manifest
    /// saved as Latin-1), which browsers then read otherwise, so it is found here.
    static func notUTF8(in data: Data) -> JSONParseFailure? {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard let bad = firstByteNotUTF8(in: body) else { return nil }
        var failure = JSONParseFailure(
            problem:
                "byte 0x\(String(bad.byte, radix: 16, uppercase: true)), which is not UTF-8 (save the file as UTF-8),")
        (failure.line, failure.column) = position(of: bad.offset, in: body)
        return failure
    }

    /// The byte offset in `body` and the value of its first byte that is not part of a UTF-8
    /// character, or nil when `body` is all UTF-8.
    private static func firstByteNotUTF8(in body: Data.SubSequence) -> (offset: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var input = body.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded): offset += encoded.count
            case .error: return (offset, body[body.startIndex + offset])
            case .emptyInput: return nil
            }
        }
    }

    /// The byte offset in `body` and the text (`\ud83d`) of its first escape, inside a string, of
    /// a UTF-16 surrogate that is not one of a high-low pair.
    private static func firstLoneSurrogate(in body: Data.SubSequence) -> (offset: Int, escape: String)? {
        let bytes = Array(body)
        let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
        /// The code unit of the `\uXXXX` escape at `index`, or nil when none is there.
        func codeUnit(at index: Int) -> UInt16? {
            guard index + 6 <= bytes.count, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                return nil
            }
            return UInt16(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
        }
        var (index, inString) = (0, false)
        while index < bytes.count {
            let byte = bytes[index]
            guard inString else {
                inString = byte == quote
                index += 1
                continue
            }
            if byte == quote { inString = false }
            guard byte == backslash else {
                index += 1
                continue
            }
            guard let unit = codeUnit(at: index) else {
                index += 2
                continue
            }
            switch unit {
            case 0xD800...0xDBFF:
                if let next = codeUnit(at: index + 6), (0xDC00...0xDFFF).contains(next) {
                    index += 12
                    continue
                }
            case 0xDC00...0xDFFF: break
            default:
                index += 6
                continue
            }
            return (index, String(decoding: bytes[index..<(index + 6)], as: UTF8.self))
        }
        return nil
    }

    /// `invalid value at line 3, column 1`, or the problem alone when the parser gave no offset.
    package var description: String {
        guard let line, let column else { return problem }
        return "\(problem) at line \(line), column \(column)"
    }
}
