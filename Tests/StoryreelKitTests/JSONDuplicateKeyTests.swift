import Foundation
import Testing

@testable import StoryreelKit

/// A key given twice in one object is found at its JSON path, written plainly or with escapes;
/// the same key in sibling objects, in strings or as a value is no duplicate.
@Suite struct JSONDuplicateKeyTests {
    func first(_ json: String) -> String? { JSONDuplicateKey.first(in: Data(json.utf8))?.path }

    @Test func aRepeatedKeyIsFoundAtItsPath() {
        #expect(first(#"{"a": 1, "a": 2}"#) == "a")
        #expect(first(#"{"s": [{"i": [{"src": "x"}, {"src": "y", "id": 1, "src": "z"}]}]}"#) == "s[0].i[1].src")
        #expect(first(#"{"d": 18.5, "d\u0075": 1, "\u0064": 99}"#) == "d", "an escaped key is the same key")
        #expect(first(#"{"x": {"k": "a \" } ] , \"k\": 1"}, "x": 2}"#) == "x", "quotes and brackets in strings")
    }

    /// From a QA pass: keys were compared as Swift strings, whose equality is canonical
    /// equivalence, so `"café"` (U+00E9) and `"cafe\u0301"`, two keys to `JSON.parse` and Python,
    /// were refused as one key given twice. Keys are the same when their scalars are.
    @Test func keysAreTheSameOnlyWhenTheirScalarsAre() throws {
        let composed = "caf\u{E9}"
        #expect(first("{\"\(composed)\": 1, \"cafe\u{301}\": 2}") == nil)
        #expect(first("{\"\u{212A}\": 1, \"K\": 2}") == nil, "KELVIN SIGN is not K")
        #expect(first("{\"\(composed)\": 1, \"\(composed)\": 2}") == composed)
        #expect(first("{\"caf\\u00e9\": 1, \"\(composed)\": 2}") == composed, "an escape is its scalar")
        let text = String(decoding: try ManifestSamples.manifest(items: [2, 1]).jsonData(), as: UTF8.self)
        let future = text.replacingOccurrences(
            of: "\"generator\":", with: "\"labels\": {\"\(composed)\": 1, \"cafe\u{301}\": 2}, \"generator\":")
        #expect(future != text)
        #expect(try Manifest(jsonData: Data(future.utf8)) == ManifestSamples.manifest(items: [2, 1]))
    }

    /// From a QA pass of the library: a 200,000-character key given twice made a 200 KB error
    /// line, where a wrong direction's value is cut to 80 scalars for an app's alert.
    @Test func aLongKeyGivenTwiceIsCutInThePath() throws {
        let key = String(repeating: "k", count: 200_000)
        #expect(first("{\"a\": {\"\(key)\": 1, \"\(key)\": 2}}") == "a." + String(repeating: "k", count: 80) + "…")
        let text = String(decoding: try ManifestSamples.manifest(items: [1]).jsonData(), as: UTF8.self)
        let doubled = text.replacingOccurrences(
            of: "\"generator\":", with: "\"\(key)\": 1, \"\(key)\": 2, \"generator\":")
        do {
            _ = try Manifest(jsonData: Data(doubled.utf8))
            Issue.record("a key given twice decoded")
        } catch let error as ManifestError {
            #expect(error.description.count < 300, "\(error.description.prefix(200))")
        }
    }

    @Test func keysInSiblingObjectsOrValuesAreNoDuplicates() {
        #expect(first(#"{"a": {"k": 1}, "b": {"k": 1}, "c": [{"k": 1}, {"k": 2}]}"#) == nil)
        #expect(first(#"{"k": "k", "v": ["k", "k"], "w": {"k": "k"}}"#) == nil)
        #expect(first(#"[1, 2, {"a": 1}]"#) == nil)
    }

    @Test func bytesThatAreNotJSONGiveAnAnswerNotAFault() {
        for text in ["}}]]", "{\"a", "\"", "{\"a\": 1, \"a\"", ",,,", "", "[{]}"] {
            _ = first(text)
        }
    }

    @Test func aManifestWithARepeatedKeyIsRefused() throws {
        let good = try ManifestSamples.manifest(items: [2, 1]).jsonData()
        #expect(try Manifest(jsonData: good) == ManifestSamples.manifest(items: [2, 1]))
        let text = String(decoding: good, as: UTF8.self)
        let repeated = text.replacingOccurrences(of: "\"generator\":", with: "\"generator\": \"x\", \"generator\":")
        let twice = ManifestError(
            path: "generator",
            "is given twice in its object (JSON readers disagree on which value counts: Foundation's takes the first, "
                + "a browser the last)")
        #expect(throws: twice) {
            try Manifest(jsonData: Data(repeated.utf8))
        }
    }

    /// From a QA pass: a repeated key whose kept value fails to decode was reported as that
    /// value's fault, with wrong advice for `version` (a browser takes the last, 1).
    @Test func aRepeatedKeyIsTheFaultEvenWhenItsValueFailsToDecode() throws {
        let text = String(decoding: try ManifestSamples.manifest(items: [2, 1]).jsonData(), as: UTF8.self)
        for (key, repeated) in [
            ("version", text.replacingOccurrences(of: "\"version\": 1", with: "\"version\": 2, \"version\": 1")),
            ("generator", text.replacingOccurrences(of: "\"generator\":", with: "\"generator\": 5, \"generator\":")),
        ] {
            #expect(repeated != text)
            let twice = ManifestError(
                path: key,
                "is given twice in its object (JSON readers disagree on which value counts: Foundation's takes the first, "
                    + "a browser the last)")
            #expect(throws: twice) { try Manifest(jsonData: Data(repeated.utf8)) }
        }
    }

    /// From a QA pass: each key of an object copied the set of the keys before it, so an
    /// unknown object of 80,000 keys (which a manifest may carry: unknown keys are ignored) took
    /// 20 s to decode, and one of 3 million hours. Counted, not timed: the scan must find a
    /// repeat at the end of 200,000 keys, which it does in one pass.
    @Test func anObjectOfManyKeysIsScannedInOnePass() throws {
        let keys = (0..<200_000).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        let text = "{\"x\": {\(keys), \"k0\": 2}}"
        let clock = ContinuousClock()
        var path: String?
        let elapsed = clock.measure { path = JSONDuplicateKey.first(in: Data(text.utf8))?.path }
        #expect(path == "x.k0")
        // A hang guard, not a speed figure: the quadratic scan needed minutes here.
        #expect(elapsed < .seconds(30), "\(elapsed)")
    }
}
