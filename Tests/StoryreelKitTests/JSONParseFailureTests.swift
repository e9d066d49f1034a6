import Foundation
import Testing

@testable import StoryreelKit

/// Text Foundation's parser refuses is described with the line and column of the fault (it gives
/// a byte offset), so a person editing a spec, a `story.json` or a manifest can find it.
@Suite struct JSONParseFailureTests {
    func failure(_ text: String) -> String? { JSONParseFailure(parsing: Data(text.utf8))?.description }

    @Test func theFaultIsPlacedByLineAndColumn() {
        #expect(failure("{\"stories\": [\n {\"items\": [\"1.mp4\"]\n]}\n") == "invalid value at line 3, column 1")
        #expect(failure("{\"a\": 1 2}") == "invalid value at line 1, column 9")
        // Columns count characters, not bytes: "é" is two bytes.
        #expect(failure("{\n\"é\": 1, x}") == "invalid value at line 2, column 9")
        #expect(failure("{\"a\":\n\"\u{1}\"}") == "unescaped control character at line 2, column 2")
        // A re-check: past a UTF-8 byte order mark (the parser skips it), and a bare "at N".
        #expect(failure("\u{FEFF}{\n \"stories\": [\n x\n]}") == "invalid value at line 3, column 2")
        #expect(failure(#"{"a": "\uZZZZ"}"#) == #"invalid hex encoded sequence in "ZZZZ" at line 1, column 10"#)
    }

    /// From a QA pass: the parser names a number too big for a Double but gives no place, so it
    /// was "number 1e999 is out of range" alone. It is found in the text, past strings holding
    /// the same characters and a byte order mark.
    @Test func aNumberTooBigIsPlaced() {
        #expect(failure("{\"a\": 1e400}") == "number 1e400 is out of range at line 1, column 7")
        #expect(
            failure("\u{FEFF}{\"1e999\": \"1e999\",\n \"é\": [1, -1e999]}")
                == "number -1e999 is out of range at line 2, column 11")
        let long = failure("[" + String(repeating: "9", count: 5000) + "]")
        #expect(
            long.map { $0.count < 120 && $0.hasSuffix("9 is out of range at line 1, column 2") } == true,
            "bounded: \(long ?? "")")
    }

    /// From a QA pass: text cut short, the commonest damaged manifest, had no place.
    @Test func textCutShortIsPlacedWhereItEnds() {
        #expect(failure("{\"a\": [1,") == "unexpected end of file during JSON parse at line 1, column 10")
        #expect(
            failure("{\n  \"stories\": [\n    {\"id\": \"an")
                == "unexpected end of file during JSON parse at line 3, column 15")
        #expect(failure("") == "unexpected end of file during JSON parse at line 1, column 1")
        #expect(failure("\u{FEFF}{\n") == "unexpected end of file during JSON parse at line 2, column 1")
    }

    /// From a QA pass: a number so small it reads as 0, which Foundation's decoder refuses and
    /// its parser reads, was "not valid JSON" alone.
    /// From a QA pass: a lone surrogate escape (JavaScript's `JSON.stringify` writes one for a
    /// string cut in the middle of an emoji) was said to be the text ending early, placed at the
    /// end of the file; a lone low one was given no place at all.
    @Test func aLoneSurrogateIsNamedAndPlaced() {
        let cut = "{\n  \"name\": \"Ana\\ud83dLima\",\n  \"b\": [1, 2]\n}\n"
        #expect(
            failure(cut)
                == "a lone UTF-16 surrogate \\ud83d (half of a character; a string may not hold one) at line 2, column 15"
        )
        #expect(
            failure("[\"\\\\ud83d \\ud83d\\ude00\", \"\\uDC00\"]")
                == "a lone UTF-16 surrogate \\uDC00 (half of a character; a string may not hold one) at line 1, column 27"
        )
        #expect(failure("[\"\\ud83d\\ude00\"]") == nil, "a pair is one character")
    }

    /// From a QA pass: a `story.json` saved as Latin-1 was "invalid UTF-8 sequence 4 bytes
    /// starting from character 17" (a character count, and four bytes where one was at fault).
    @Test func aByteThatIsNotUTF8IsNamedAndPlaced() {
        let latin1 = Data(#"{"displayName": "caf"#.utf8) + [0xE9] + Data(#""}"#.utf8)
        #expect(
            JSONParseFailure(parsing: latin1)?.description
                == "byte 0xE9, which is not UTF-8 (save the file as UTF-8), at line 1, column 21")
        let later = Data("{\n \"é\": \"x".utf8) + [0xFF, 0x41] + Data(#""}"#.utf8)
        #expect(
            JSONParseFailure(parsing: later)?.description
                == "byte 0xFF, which is not UTF-8 (save the file as UTF-8), at line 2, column 9")
    }

    @Test func aNumberThatUnderflowsIsPlaced() throws {
        let text = "{\n  \"a\": \"1e-400\",\n  \"b\": [0, 0.0, -0e5, 1e-400]\n}"
        #expect(
            JSONParseFailure.notValidJSON(Data(text.utf8))
                == "not valid JSON: number 1e-400 is out of range at line 3, column 23")
        #expect(JSONParseFailure.underflow(in: Data("[0, 1.5e-3, 0e-999]".utf8)) == nil)
        let good = String(decoding: try ManifestSamples.manifest(items: [1]).jsonData(), as: UTF8.self)
        // In a number, and where an integer is read, which Foundation's decoder took as 0 (a QA
        // pass: a rotation of 1e-400 passed `validate`).
        for pattern in [#""duration": [0-9.]+"#, #""rotation": 0"#] {
            let value = try #require(good.range(of: pattern, options: .regularExpression))
            let key = good[value].prefix { $0 != ":" }
            let tiny = good.replacingCharacters(in: value, with: "\(key): 1e-400")
            do {
                _ = try Manifest(jsonData: Data(tiny.utf8))
                Issue.record("\(key) 1e-400 was read")
            } catch let error as ManifestError {
                #expect(error.description.hasPrefix("manifest: not valid JSON: number 1e-400 is out of range at line "))
            }
        }
    }

    @Test func textTheParserReadsIsNoFailure() {
        #expect(failure("{\"a\": [1, {\"b\": null}]}") == nil)
        #expect(failure("1") == nil)
    }

    @Test func aManifestThatIsNotJSONSaysWhere() {
        let text = "{\n  \"version\": 1,\n  generator: \"x\"\n}\n"
        #expect(throws: ManifestError(path: "", "not valid JSON: invalid value at line 3, column 3")) {
            try Manifest(jsonData: Data(text.utf8))
        }
    }
}
