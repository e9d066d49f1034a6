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

    @Test func faultsWithoutAnOffsetAreNamedPlainly() {
        #expect(failure("{\"a\": 1e400}") == "number 1e400 is out of range")
        let long = failure("[" + String(repeating: "9", count: 5000) + "]")
        #expect(long.map { $0.count < 100 && $0.hasSuffix("9 is out of range") } == true, "bounded: \(long ?? "")")
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
