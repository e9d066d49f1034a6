import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `Manifest` reads what `render` writes and writes it back byte for byte; it ignores keys it
/// does not know, refuses a newer version, and names the JSON path of a wrong type.
@Suite struct ManifestCodingTests {
    /// The demo manifest's JSON with `edit` applied.
    func editedDemo(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(
            try JSONSerialization.jsonObject(with: RenderedSamples.manifestData(.demo)) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// The error decoding `data` gives, as its one line.
    func decodingError(_ data: Data) -> String? {
        do {
            _ = try Manifest(jsonData: data)
            return nil
        } catch let error as ManifestError {
            return error.description
        } catch {
            return "not a ManifestError: \(error)"
        }
    }

    @Test(arguments: RenderedSamples.Bundle.allCases)
    func reEncodingARenderedManifestGivesItsBytes(_ bundle: RenderedSamples.Bundle) throws {
        let bytes = try RenderedSamples.manifestData(bundle)
        let manifest = try Manifest(jsonData: bytes)
        #expect(try manifest.jsonData() == bytes)
        #expect(manifest.stories.flatMap(\.items).allSatisfy { $0.codecs == "avc1.64001f" })
        #expect(manifest.stories.flatMap(\.items).allSatisfy { $0.firstFrame != nil && $0.lastFrame != nil })
    }

    @Test func unknownKeysAreIgnored() throws {
        let original = try Manifest(jsonData: RenderedSamples.manifestData(.demo))
        let newer = try editedDemo { object in
            object["chapters"] = ["a", "b"]
            var stories = object["stories"] as! [[String: Any]]
            var items = stories[1]["items"] as! [[String: Any]]
            items[0]["loudness"] = -14.5
            stories[1]["items"] = items
            stories[1]["pinned"] = true
            object["stories"] = stories
        }
        #expect(try Manifest(jsonData: newer) == original)
    }

    @Test func aNewerVersionFailsClearly() throws {
        let error = decodingError(try editedDemo { $0["version"] = 2 })
        #expect(error == "version: version 2 is newer than this StoryreelKit reads (1); update StoryreelKit")
        // Inside an app's own type, the path is the version's in the whole JSON (a QA pass: it
        // was `version` alone, while a wrong type there was named by its whole path).
        struct Feed: Decodable { let reels: [Manifest] }
        let demo = try RenderedSamples.manifestData(.demo)
        let newer = try editedDemo { $0["version"] = 2 }
        let feed = Data("{\"reels\": [".utf8) + demo + Data(",".utf8) + newer + Data("]}".utf8)
        do {
            _ = try JSONDecoder().decode(Feed.self, from: feed)
            Issue.record("a newer version decoded")
        } catch let error as ManifestError {
            #expect(
                error.description
                    == "reels[1].version: version 2 is newer than this StoryreelKit reads (1); update StoryreelKit")
            // An app tells it from damage without reading the words (a consumer's review).
            #expect(error.newerVersion == 2)
        }
        do {
            _ = try Manifest(jsonData: try editedDemo { $0["stories"] = 1 })
            Issue.record("a damaged manifest decoded")
        } catch let error as ManifestError {
            #expect(error.newerVersion == nil)
        }
    }

    /// From a QA pass of the library: a version too large for an integer was "out of range for
    /// an integer", with no `newerVersion`, so an app called the bundle damaged. It is said as
    /// `validate` says it (`9.223372036854776e+18`; a re-check: said as an integer, the two
    /// disagreed, and `12345678901234567890` came out as a number the file does not hold).
    @Test(arguments: [(1e30, "1e+30"), (0x1p63, "9.223372036854776e+18")])
    func aVersionTooLargeForAnIntegerIsNewer(version: Double, said: String) throws {
        do {
            _ = try Manifest(jsonData: try editedDemo { $0["version"] = version })
            Issue.record("version \(version) decoded")
        } catch let error as ManifestError {
            #expect(error.newerVersion == Int.max)
            #expect(
                error.description
                    == "version: version \(said) is newer than this StoryreelKit reads (1); update StoryreelKit")
        }
    }

    /// A re-check: the largest integer is read as the integer it is, not as a Double.
    @Test func theLargestIntegerVersionIsSaidExactly() throws {
        do {
            _ = try Manifest(jsonData: try editedDemo { $0["version"] = Int.max })
            Issue.record("version Int.max decoded")
        } catch let error as ManifestError {
            #expect(error.newerVersion == Int.max)
            #expect(error.description.hasPrefix("version: version 9223372036854775807 is newer"), "\(error)")
        }
    }

    /// A version below 1 is no manifest's; the old Kit refused only newer versions and took
    /// `-7` as readable.
    @Test(arguments: [0, -7])
    func aVersionBelowOneFailsClearly(version: Int) throws {
        let error = decodingError(try editedDemo { $0["version"] = version })
        #expect(error == "version: version \(version) is not a manifest version (they start at 1)")
    }

    /// From a QA pass: an app shows `error.localizedDescription`, which was Foundation's generic
    /// "The operation could not be completed. (StoryreelKit.ManifestError error 1.)".
    /// Text nested too deep is refused before Foundation's parser reads it: 513 `[` and nothing
    /// after stopped an app's process inside that parser (SIGILL), where the library promises a
    /// ``ManifestError`` for any fault (a QA pass of the library). `validate` says the same.
    @Test func textNestedTooDeepIsAManifestErrorNotACrash() throws {
        for text in [String(repeating: "[", count: 513), #"{"version": 1, "x": "# + String(repeating: "[", count: 512)]
        {
            #expect {
                try Manifest(jsonData: Data(text.utf8))
            } throws: {
                ($0 as? ManifestError)?.description
                    == "manifest: nests more than 32 levels deep (a manifest nests 5); not read"
            }
        }
    }

    /// A QA pass of the library: 300 MB of spaces after a manifest decoded, in 312 MB of memory,
    /// where `validate` refuses a manifest over 256 MB. The library now refuses it too, before
    /// reading a byte of it (the zeros below are never touched).
    @Test func aManifestOverTheByteLimitIsRefusedUnread() throws {
        let data = Data(count: Manifest.maximumByteCount + 1)
        #expect {
            try Manifest(jsonData: data)
        } throws: {
            ($0 as? ManifestError)?.description
                == "manifest: 256000001 bytes, over the 256000000 a manifest is read with; not read"
        }
    }

    /// A value or key holding a newline or a terminal escape does not break the one line (a QA
    /// pass of the library: `"direction": "for\nward"` gave two lines).
    @Test func theOneLineStaysOneLine() throws {
        let manifest = try #require(
            String(data: try ManifestSamples.manifest(items: [1, 1]).jsonData(), encoding: .utf8))
        #expect(manifest.contains(#""direction": "forward""#))
        let edited = manifest.replacingOccurrences(of: #""direction": "forward""#, with: #""direction": "for\nward""#)
        #expect {
            try Manifest(jsonData: Data(edited.utf8))
        } throws: { error in
            let line = (error as? ManifestError)?.localizedDescription ?? ""
            return !line.contains("\n") && line.contains(#"for\nward"#)
        }
        let error = ManifestError(path: "x", "got '\u{1B}[31m'")
        #expect(error.description == #"x: got '\u{1B}[31m'"#)
    }

    @Test func theLocalizedDescriptionIsTheOneLine() throws {
        do {
            _ = try Manifest(jsonData: try editedDemo { $0["version"] = 2 })
            Issue.record("a newer version decoded")
        } catch {
            #expect(
                error.localizedDescription
                    == "version: version 2 is newer than this StoryreelKit reads (1); update StoryreelKit")
        }
        let error = ManifestError(path: "stories[0].id", "expected a string")
        #expect((error as Error).localizedDescription == error.description)
    }

    /// From a QA pass: a `null` integer was "expected a number, got null", where `"1"` is
    /// "expected an integer".
    @Test func aNullIntegerIsReportedAsTheIntegerItShouldBe() throws {
        #expect(decodingError(try editedDemo { $0["version"] = NSNull() }) == "version: expected an integer, got null")
        #expect(
            decodingError(try editedDemo { $0["canvas"] = ["width": NSNull(), "height": 640] })
                == "canvas.width: expected an integer, got null")
        let nullFrames = try editedDemo { object in
            var transitions = object["transitions"] as! [[String: Any]]
            transitions[0]["frames"] = NSNull()
            object["transitions"] = transitions
        }
        #expect(decodingError(nullFrames) == "transitions[0].frames: expected an integer, got null")
        // A null boolean said only "expected a boolean" (a Kit consumer review), where
        // `storyreel validate` says "got null" of the same file.
        let nullRead = try editedDemo { object in
            var stories = object["stories"] as! [[String: Any]]
            stories[0]["isRead"] = NSNull()
            object["stories"] = stories
        }
        #expect(decodingError(nullRead) == "stories[0].isRead: expected a boolean, got null")
    }

    /// Integers are read exactly: the old Kit read them through `Double`, so `Int.max` was
    /// refused as "expected an integer" and 2^53 + 1 came back as 2^53.
    @Test func integersBeyondDoublePrecisionKeepTheirValue() throws {
        for width in [Int.max, 9_007_199_254_740_993] {
            let text = String(decoding: try editedDemo { $0["canvas"] = ["width": 7, "height": 640] }, as: UTF8.self)
            let edited = text.replacingOccurrences(of: "\"width\":7", with: "\"width\":\(width)")
            #expect(edited != text)
            #expect(try Manifest(jsonData: Data(edited.utf8)).canvas.width == width)
        }
    }

    @Test func aWrongTypeNamesItsJSONPath() throws {
        func set(_ value: Any, story: Int, item: Int, key: String) throws -> String? {
            decodingError(
                try editedDemo { object in
                    var stories = object["stories"] as! [[String: Any]]
                    var items = stories[story]["items"] as! [[String: Any]]
                    items[item][key] = value
                    stories[story]["items"] = items
                    object["stories"] = stories
                })
        }
        #expect(
            try set("2", story: 2, item: 0, key: "duration")
                == "stories[2].items[0].duration: expected a number, got a string")
        #expect(try set(5, story: 0, item: 1, key: "src") == "stories[0].items[1].src: expected a string, got a number")
        #expect(
            try set(1, story: 1, item: 2, key: "hasAudio")
                == "stories[1].items[2].hasAudio: expected a boolean, got a number")
        #expect(
            try set(NSNull(), story: 3, item: 0, key: "codec")
                == "stories[3].items[0].codec: expected a string, got null")
        #expect(
            decodingError(try editedDemo { $0["generator"] = nil }) == "generator: missing")
        #expect(
            decodingError(try editedDemo { $0["transitions"] = ["sideways"] })
                == "transitions[0]: expected an object, got a string")
        #expect(
            decodingError(Data("{\"version\": 1,".utf8))
                == "manifest: not valid JSON: unexpected end of file during JSON parse at line 1, column 15")
        // From a QA pass: not a number at all is "expected an integer" too, not "a number".
        #expect(
            decodingError(try editedDemo { $0["canvas"] = ["width": "540", "height": 640] })?.hasPrefix(
                "canvas.width: expected an integer, got a string") == true)
        // A later QA pass: the kind found was said by validate only (`got an array`).
        #expect(
            decodingError(try editedDemo { $0["canvas"] = [540, 960] }) == "canvas: expected an object, got an array")
        #expect(decodingError(try editedDemo { $0["stories"] = [:] }) == "stories: expected an array, got an object")
        #expect(decodingError(try editedDemo { $0["version"] = true }) == "version: expected an integer, got a boolean")
        let fraction = decodingError(try editedDemo { $0["canvas"] = ["width": 360.5, "height": 640] })
        #expect(fraction == "canvas.width: expected an integer, got 360.5", "\(fraction ?? "no error")")
        #expect(decodingError(try editedDemo { $0["version"] = 1.5 }) == "version: expected an integer, got 1.5")
        let sideways = try editedDemo { object in
            var transitions = object["transitions"] as! [[String: Any]]
            transitions[2]["direction"] = "sideways"
            object["transitions"] = transitions
        }
        #expect(
            decodingError(sideways) == "transitions[2].direction: expected one of forward, backward, got 'sideways'")
        // A long value is cut (a QA pass of the library: 200 KB made a 200 KB alert).
        let long = try editedDemo { object in
            var transitions = object["transitions"] as! [[String: Any]]
            transitions[0]["direction"] = String(repeating: "x", count: 200_000)
            object["transitions"] = transitions
        }
        #expect(
            decodingError(long)
                == "transitions[0].direction: expected one of forward, backward, got '\(String(repeating: "x", count: 80))…'"
        )
    }

    /// Foundation's parser reads a comma before a closing bracket, and UTF-16 or UTF-32 text;
    /// a browser's `JSON.parse` and Python's `json` refuse both, so the page fell back to its
    /// embedded manifest while the Kit and `validate` accepted the file.
    @Test func jsonThatBrowsersRefuseIsRefused() throws {
        let text = try #require(String(data: try RenderedSamples.manifestData(.demo), encoding: .utf8))
        #expect(decodingError(Data(text.utf8)) == nil)
        let skipped = try #require(text.range(of: "\"skipped\": []"))
        // Where the closing bracket is, as a person's editor counts it (a re-check: no place).
        func place(_ index: String.Index, in text: String) -> String {
            let lines = text[..<index].split(separator: "\n", omittingEmptySubsequences: false)
            return "line \(lines.count), column \(lines.last!.count + 1)"
        }
        let objectComma = text.replacingCharacters(in: skipped, with: "\"skipped\": [],")
        let closingBrace = try #require(objectComma.lastIndex(of: "}"))
        #expect(
            decodingError(Data(objectComma.utf8))
                == "manifest: not valid JSON: a comma before its closing '}' at \(place(closingBrace, in: objectComma)), "
                + "which browsers refuse")
        let arrayComma = text.replacingOccurrences(
            of: "}\n  ],\n  \"transitions\"", with: "},\n  ],\n  \"transitions\"")
        let closingBracket = try #require(arrayComma.range(of: "},\n  ],")).upperBound
        #expect(
            decodingError(Data(arrayComma.utf8))
                == "stories: not valid JSON: a comma before its closing ']' at "
                + "\(place(arrayComma.index(closingBracket, offsetBy: -2), in: arrayComma)), which browsers refuse")
        for encoding: String.Encoding in [.utf16, .utf16LittleEndian] {
            let data = try #require(text.data(using: encoding))
            #expect(
                decodingError(data) == "manifest: not valid JSON: the text is not UTF-8 (browsers read JSON as UTF-8)")
        }
        // A UTF-8 byte order mark is read by every reader.
        #expect(decodingError(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)) == nil)
        // Text Foundation cannot read at all was only 'not valid JSON'; an encoding fault says so.
        let generator = try #require(text.range(of: "\"generator\": \"storyreel"))
        var latin1 = Data(text[..<generator.upperBound].utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Data(text[generator.upperBound...].utf8))
        // It names the byte and where it is, as a spec's reason does (a QA pass: it did not).
        let place = text[..<generator.upperBound].split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            decodingError(latin1)
                == "manifest: not valid JSON: byte 0xE9, which is not UTF-8 (save the file as UTF-8), at line \(place.count), column \(place.last!.count + 1)"
        )
        #expect(decodingError(Data(text.utf8) + Data([0])) == "manifest: not valid JSON: it holds a NUL byte")
        // Text that breaks before its trailing comma is placed where it breaks, not blamed on
        // the comma (a QA pass: `hello, }`, and a player page given as the manifest).
        #expect(decodingError(Data("hello, }".utf8)) == "manifest: not valid JSON: invalid value at line 1, column 1")
        // And a comma before the place where the text breaks is named (a re-check: the break
        // after it, the end of the file, was).
        #expect(
            decodingError(Data(#"{"version":1,"stories":[1,], "x": tru}"#.utf8))
                == "stories: not valid JSON: a comma before its closing ']' at line 1, column 27, which browsers refuse"
        )
    }

    /// `-9223372036854775809` is no `Int`; read through a `Double` it became `Int.min`, which
    /// traps an app's arithmetic (and trapped `validate`'s).
    /// From a QA pass: a NaN or infinite number was written as `null`, a manifest its own
    /// reader refuses; writing it now throws, as Foundation's `JSONEncoder` does.
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNumberJSONCannotHoldIsNotWritten(value: Double) throws {
        var manifest = try Manifest(jsonData: RenderedSamples.manifestData(.demo))
        manifest.duration = value
        // A ManifestError, whose line names the value and its path (a QA pass: an EncodingError's
        // localizedDescription said only "The data isn't in the correct format").
        do {
            _ = try manifest.jsonData()
            Issue.record("\(value) was written")
        } catch {
            #expect(
                error.localizedDescription
                    == "duration: \(value) is not a JSON number (JSON has none for NaN or an infinity)")
        }
        // Inside an array, the element's index is in the path.
        manifest.duration = 1
        manifest.stories[1].items[0].duration = value
        #expect(
            throws: ManifestError(
                path: "stories[1].items[0].duration",
                "\(value) is not a JSON number (JSON has none for NaN or an infinity)")
        ) { try manifest.jsonData() }
    }

    @Test func anIntegerOutOfRangeIsRefusedNotRounded() throws {
        let text = try #require(String(data: try RenderedSamples.manifestData(.demo), encoding: .utf8))
        for written in ["-9223372036854775809", "9223372036854775808", "1e300"] {
            let edited = text.replacingOccurrences(of: "\"width\": 540", with: "\"width\": \(written)")
            let message = decodingError(Data(edited.utf8))
            #expect(
                message?.hasPrefix("canvas.width: ") == true
                    && message?.hasSuffix("is out of range for an integer") == true, "\(message ?? "accepted")")
        }
    }

    @Test func optionalValuesRoundTripAndNullsAreWritten() throws {
        var manifest = ManifestSamples.manifest(items: [1, 2])
        manifest.stories[0].user.avatar = "avatars/a.jpg"
        manifest.stories[1].items[0].codecs = nil
        manifest.stories[1].items[0].firstFrame = nil
        manifest.stories[1].items[0].lastFrame = nil
        manifest.skipped = [
            Manifest.SkippedEntry(path: "x/broken.mov", story: "x", reason: "moov atom not found"),
            Manifest.SkippedEntry(path: "loose.mov", story: nil, reason: "not in a story folder"),
        ]
        let data = try manifest.jsonData()
        #expect(try Manifest(jsonData: data) == manifest)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"avatar\": null"))
        #expect(text.contains("\"story\": null"))
        #expect(text.hasSuffix("}\n"))
        let items = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["stories"]
        let second = try #require((items as? [[String: Any]])?[1]["items"] as? [[String: Any]])
        #expect(second[0]["codecs"] == nil && second[0]["firstFrame"] == nil, "an absent optional is left out")
        #expect(second[1]["codecs"] as? String == "avc1.64001f")
    }

    /// An optional value is left out, never null; a nullable one is always there, null when
    /// there is none: the schema's rules, which `validate` kept while the Kit read an absent key
    /// and a null alike (an app accepted `"codecs": null` and a user without `avatar`).
    @Test func optionalKeysAreNotNullAndNullableKeysAreNotLeftOut() throws {
        func editItem(_ key: String, _ value: Any?) throws -> String? {
            decodingError(
                try editedDemo { object in
                    var stories = object["stories"] as! [[String: Any]]
                    var items = stories[0]["items"] as! [[String: Any]]
                    items[0][key] = value
                    stories[0]["items"] = items
                    object["stories"] = stories
                })
        }
        for key in ["codecs", "firstFrame", "lastFrame"] {
            #expect(try editItem(key, NSNull()) == "stories[0].items[0].\(key): expected a string, got null")
            #expect(try editItem(key, nil) == nil, "\(key) may be left out")
        }
        let nullCodecs = try editedDemo { object in
            var transitions = object["transitions"] as! [[String: Any]]
            transitions[1]["codecs"] = NSNull()
            object["transitions"] = transitions
        }
        #expect(decodingError(nullCodecs) == "transitions[1].codecs: expected a string, got null")
        let noAvatar = try editedDemo { object in
            var stories = object["stories"] as! [[String: Any]]
            var user = stories[1]["user"] as! [String: Any]
            user["avatar"] = nil
            stories[1]["user"] = user
            object["stories"] = stories
        }
        #expect(decodingError(noAvatar) == "stories[1].user.avatar: missing")
        let noStory = try editedDemo { $0["skipped"] = [["path": "x/broken.mov", "reason": "moov atom not found"]] }
        #expect(decodingError(noStory) == "skipped[0].story: missing")
        let nulls = try editedDemo { object in
            var stories = object["stories"] as! [[String: Any]]
            var user = stories[1]["user"] as! [String: Any]
            user["avatar"] = NSNull()
            stories[1]["user"] = user
            object["stories"] = stories
            object["skipped"] = [["path": "loose.mov", "story": NSNull(), "reason": "not in a story folder"]]
        }
        let manifest = try Manifest(jsonData: nulls)
        #expect(manifest.stories[1].user.avatar == nil && manifest.skipped[0].story == nil)
    }

    @Test func seenStateEncodesSortedAndRoundTrips() throws {
        let state = SeenState(itemIDs: ["b", "c", "a"])
        let data = try JSONEncoder().encode(state)
        #expect(String(decoding: data, as: UTF8.self) == "{\"itemIDs\":[\"a\",\"b\",\"c\"]}")
        #expect(try JSONDecoder().decode(SeenState.self, from: data) == state)
    }
}
