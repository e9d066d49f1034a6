import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `story.json` and specs are read strictly: a value of the wrong type leaves that story out,
/// with the reason in the manifest's `skipped`; an unknown key is a warning naming the closest
/// known key.
@Suite struct StrictStoryFilesTests {
    /// Plans `fixture` with `bytes` as chloe's `story.json`, and expects that story skipped for
    /// `reason` (65), the rest planned.
    func expectStoryFileSkipped(
        _ fixture: BundleFixture, _ bytes: Data, because reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try bytes.write(to: URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json"))
        let result = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(result.status == 65, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("chloe/story.json: skipped: \(reason); its settings were ignored"),
            "\(result.stderr)", sourceLocation: sourceLocation)
    }

    /// Plans a spec of `bytes` in `fixture`'s folder, and expects it refused (66) for `reason`.
    func expectSpecRefused(
        _ fixture: BundleFixture, _ bytes: Data, because reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = try fixture.folder.write("spec.json", bytes)
        let result = try TestEnvironment.storyreel(["plan", path])
        #expect(result.status == 66, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr == "storyreel: error: \(path): not a stories spec storyreel reads: \(reason)\n",
            sourceLocation: sourceLocation)
    }

    @Test func aWrongTypeInStoryJSONSkipsThatStoryWithTheReason() throws {
        let fixture = try BundleFixture()
        try Data(#"{"displayName": "Chloe", "isRead": "yes"}"#.utf8).write(
            to: URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json"))
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: error: chloe/story.json: skipped: \"isRead\" must be true or false, got \"yes\"; "
                    + "the story is left out"),
            "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        let ids = manifest.stories.map(\.id)
        #expect(ids == ["ana.lima", "ben_k", "dev-ops"])
        let skipped = manifest.skipped
        #expect(skipped.contains { $0.path == "chloe/story.json" && $0.story == "chloe" })
        #expect(skipped.contains { $0.reason.contains("\"isRead\" must be true or false") })
    }

    /// From the hostile-input QA pass: a key given twice (`"order": 1, "order": "x"`) was read with
    /// the last value winning, unnoticed, where a manifest with one is refused. A story.json with
    /// one skips its story; a spec with one is refused.
    @Test func aKeyGivenTwiceSkipsTheStoryOrRefusesTheSpec() throws {
        let fixture = try BundleFixture()
        try Data(#"{"isRead": true, "isRead": false}"#.utf8).write(
            to: URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json"))
        let plan = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(plan.status == 65, "\(plan.stderr)")
        #expect(
            plan.stderr.contains("storyreel: error: chloe/story.json: skipped: \"isRead\" is given twice"),
            "\(plan.stderr)")
        let spec = try fixture.folder.write(
            "spec.json", Data(#"{"stories": [{"handle": "a", "handle": "b", "items": []}]}"#.utf8))
        let refused = try TestEnvironment.storyreel(["plan", spec])
        #expect(refused.status == 66)
        #expect(
            refused.stderr
                == "storyreel: error: \(spec): \"stories[0].handle\" is given twice, which readers settle differently\n"
        )
    }

    @Test func anUnknownKeyWarnsWithTheClosestKnownKey() throws {
        let fixture = try BundleFixture()
        try Data(#"{"displayname": "Chloe", "is_read": true, "colour": 3}"#.utf8).write(
            to: URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json"))
        let result = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: warning: ") }
        #expect(
            warnings == [
                "storyreel: warning: chloe/story.json: unknown key \"colour\"; ignored",
                "storyreel: warning: chloe/story.json: unknown key \"displayname\" (did you mean \"displayName\"?); ignored",
                "storyreel: warning: chloe/story.json: unknown key \"is_read\" (did you mean \"isRead\"?); ignored",
            ], "\(result.stderr)")
        let (render, _) = try fixture.render(into: "reel", ["--quiet"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.isEmpty, "--quiet silences the warnings: \(render.stderr)")
        // `--json` keeps stdout to the summary and silences the progress, not the warnings (it
        // used to silence them too).
        let (json, _) = try fixture.render(into: "reel-json", ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.hasPrefix("{\"rendered\":") && json.stdout.split(separator: "\n").count == 1)
        let jsonWarnings = json.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: warning: ") }
        #expect(jsonWarnings == warnings, "\(json.stderr)")
        #expect(!json.stderr.contains("rendered "), "no summary line under --json: \(json.stderr)")
    }

    /// A clip filed one level down in a story (`chloe/2024-06-01/night.mp4`) does not play, and
    /// the run says so in a warning, where it used to leave the clip out in silence (a QA pass).
    @Test func aFolderOfClipsInsideAStoryIsNamedInAWarning() throws {
        let fixture = try BundleFixture()
        let dated = "\(fixture.stories)/chloe/2024-06-01"
        try FileManager.default.createDirectory(atPath: dated, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: "\(fixture.stories)/chloe/night.mp4", toPath: "\(dated)/night.mp4")
        let result = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings: [Substring] = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: warning: ") }
        let expected: [Substring] = [
            "storyreel: warning: chloe/2024-06-01: not read: a folder inside a story, holding 1 clip; "
                + "a story's clips go directly in its folder"
        ]
        #expect(warnings == expected, "\(result.stderr)")
        #expect(result.stdout.contains("\tchloe/morning.mp4\n") && !result.stdout.contains("night.mp4"))
    }

    /// Invalid JSON is told apart from JSON that is not an object (both used to be "not a JSON
    /// object", so a 1e400 that the parser refuses read as a wrong shape).
    @Test func invalidJSONAndANonObjectAreToldApart() throws {
        let fixture = try BundleFixture()
        for (text, reason) in [
            (
                #"{"displayName": "Chloe", "order": 1e400}"#,
                "story.json is not valid JSON (number 1e400 is out of range at line 1, column 35)"
            ),
            (
                "{\"displayName\": \"Chloe\",\n  order: 1}",
                "story.json is not valid JSON (invalid value at line 2, column 3)"
            ),
            (#"["Chloe"]"#, "story.json is not a JSON object"),
        ] {
            try expectStoryFileSkipped(fixture, Data(text.utf8), because: reason)
        }
    }

    /// From a QA pass: a comma before a closing bracket, which Foundation's parser reads and
    /// jq, Python and browsers refuse, was taken in a spec (0) and in a `story.json` (its
    /// `displayName` applied), where `validate` refuses it in a manifest.
    @Test func aCommaBeforeAClosingBracketIsNotValidJSON() throws {
        let fixture = try BundleFixture()
        try expectStoryFileSkipped(
            fixture, Data(#"{"displayName": "Trail",}"#.utf8),
            because:
                "story.json is not valid JSON (a comma before its closing '}' at line 1, column 25, which JSON parsers "
                + "refuse)")
        try FileManager.default.removeItem(atPath: "\(fixture.stories)/chloe/story.json")
        let path = try fixture.folder.write(
            "trail.json", Data(#"{"stories": [{"handle": "ana", "items": ["ana.lima/1.mp4",]}]}"#.utf8))
        let result = try TestEnvironment.storyreel(["plan", path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: error: \(path): not valid JSON: a comma before its closing ']' at line 1, column 59, "
                + "which JSON parsers refuse\n")
    }

    /// From a QA pass: one entry of a spec that is not an object (`1`, `null`, `"ana"`, `[]`)
    /// refused the whole spec (66) as no `{"stories": [...]}`, which it is. That entry is left
    /// out with its place and reason (65); the good story plays.
    @Test func aSpecEntryThatIsNoObjectLeavesThatStoryOut() throws {
        let fixture = try BundleFixture()
        let path = try fixture.folder.write(
            "spec.json",
            Data(#"{"stories": [1, null, {"handle": "ben", "items": ["stories/ben_k/1.mp4"]}, "ana", []]}"#.utf8))
        let result = try TestEnvironment.storyreel(["plan", path])
        #expect(result.status == 65, "\(result.stderr)")
        let reason = "not a story: a story is an object ({\"handle\": …, \"items\": […]}), got"
        #expect(
            LimitedRun.errorLines(result.stderr) == [
                "storyreel: error: stories[0]: skipped: \(reason) 1",
                "storyreel: error: stories[1]: skipped: \(reason) null",
                "storyreel: error: stories[3]: skipped: \(reason) \"ana\"",
                "storyreel: error: stories[4]: skipped: \(reason) an array",
            ], "\(result.stderr)")
        #expect(result.stdout.contains("\tstories/ben_k/1.mp4\n"), "\(result.stdout)")
    }

    /// From a QA pass: an empty item path was named as nothing (`: skipped: not a clip`), a spec
    /// over 16 MB was said to be no `{"stories": [...]}`, and an `avatar.gif` got the photo
    /// warning where `Avatar.JPG` gets "not the avatar".
    @Test func emptyPathsOversizedSpecsAndOtherAvatarsAreNamedForWhatTheyAre() throws {
        let fixture = try BundleFixture()
        let spec = try fixture.folder.write(
            "spec.json", Data(#"{"stories": [{"handle": "ben", "items": ["", "stories/ben_k/1.mp4"]}]}"#.utf8))
        let empty = try TestEnvironment.storyreel(["plan", spec])
        #expect(empty.status == 65, "\(empty.stderr)")
        #expect(
            empty.stderr.contains(
                "storyreel: error: stories[0].items[0]: skipped: not a clip: storyreel plays .mov, .mp4 and .m4v files"),
            "\(empty.stderr)")
        let big = try fixture.folder.write("big.json", Data(repeating: 0x20, count: 17_000_000))
        let oversized = try TestEnvironment.storyreel(["plan", big])
        #expect(oversized.status == 66)
        #expect(
            oversized.stderr
                == "storyreel: error: \(big): not a stories spec storyreel reads: 17000000 bytes is over the 16 MB limit\n"
        )
        // A story.json that big: the story plays without its settings, as the line now says (it gave the size alone).
        try expectStoryFileSkipped(
            fixture, Data(repeating: 0x20, count: 17_000_000),
            because: "story.json: 17000000 bytes is over the 16 MB limit")
        try FileManager.default.removeItem(atPath: "\(fixture.stories)/chloe/story.json")
        try FileManager.default.copyItem(
            atPath: "\(fixture.stories)/chloe/avatar.jpg", toPath: "\(fixture.stories)/chloe/avatar.gif")
        let avatar = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(avatar.status == 0, "\(avatar.stderr)")
        #expect(
            avatar.stderr
                == "storyreel: warning: chloe/avatar.gif: not the avatar: a story's avatar is named avatar.jpg or "
                + "avatar.png\n")
    }

    /// From two QA passes: a story folder that is a link to the stories folder itself
    /// (`ln -s . loop`) was skipped, and refused to `ingest`, as leading outside it.
    @Test func aLinkToTheStoriesFolderItselfIsSaidToBeOne() throws {
        let fixture = try BundleFixture()
        try FileManager.default.createSymbolicLink(atPath: "\(fixture.stories)/loop", withDestinationPath: ".")
        let reason = "it leads to the stories input itself (a link or '..'), not to a folder inside it"
        let plan = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(plan.status == 65, "\(plan.stderr)")
        #expect(plan.stderr.contains("storyreel: error: loop: skipped: \(reason)"), "\(plan.stderr)")
        let ingest = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story", "loop", "--into", fixture.stories,
        ])
        #expect(ingest.status == 73, "\(ingest.stderr)")
        #expect(ingest.stderr.contains(reason), "\(ingest.stderr)")
    }

    /// From a QA pass: a key misspelled in each of a spec's 500 stories gave 500 warnings; the
    /// README said ten keys of a file are named. Ten lines, then the stories left are counted.
    @Test func unknownKeysOfASpecAreNamedTenLinesAtMost() throws {
        let fixture = try BundleFixture()
        let entries = (0..<500).map { #"{"handle": "h\#($0)", "is_read": true, "items": ["stories/ben_k/1.mp4"]}"# }
        let path = try fixture.folder.write(
            "spec.json", Data(#"{"stories": [\#(entries.joined(separator: ","))]}"#.utf8))
        let result = try TestEnvironment.storyreel(["plan", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("unknown key") }
        #expect(lines.count == 11, "\(result.stderr)")
        #expect(
            lines.first
                == "storyreel: warning: \(path): stories[0]: unknown key \"is_read\" (did you mean \"isRead\"?); ignored"
        )
        #expect(lines.last == "storyreel: warning: \(path): unknown keys in 490 more stories; ignored")
    }

    /// From a QA pass: an empty `lost+found` (a stories folder at the root of its own volume)
    /// or a Synology `@eaDir` was skipped as "not a story folder", and every render exited 65.
    /// They are passed over, as hidden folders are.
    @Test func systemFoldersBesideTheStoriesArePassedOver() throws {
        let fixture = try BundleFixture()
        for name in ["lost+found", "@eaDir", "#recycle", "$RECYCLE.BIN", "$Recycle.Bin"] {
            try FileManager.default.createDirectory(
                atPath: "\(fixture.stories)/\(name)", withIntermediateDirectories: true)
        }
        // Synology makes @eaDir in every folder it indexes, one folder per file: no warning of
        // a folder inside a story holding a "clip" (a re-check).
        try FileManager.default.createDirectory(
            atPath: "\(fixture.stories)/chloe/@eaDir/morning.mp4", withIntermediateDirectories: true)
        try Data("x".utf8).write(
            to: URL(fileURLWithPath: "\(fixture.stories)/chloe/@eaDir/morning.mp4/SYNOPHOTO_THUMB_M.jpg"))
        let result = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("lost+found") && !result.stderr.contains("@eaDir"), "\(result.stderr)")
    }

    /// A story.json or spec is counted before it is parsed: Foundation's parser takes about
    /// 1.5 KB a value, and an audit's 15 MB story.json of 850,000 small objects took 2.55 GB (a
    /// failed allocation, SIGSEGV, under a memory limit).
    @Test func aStoryFileOrSpecOfTooManyValuesIsNotParsed() throws {
        let fixture = try BundleFixture()
        let zeros = Array(repeating: "0", count: 10_001).joined(separator: ",")
        let nested = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        for (text, reason) in [
            (#"{"displayName": "Chloe", "x": [\#(zeros)]}"#, "story.json holds more than 10000 JSON values"),
            (#"{"displayName": "Chloe", "x": \#(nested)}"#, "story.json nests more than 32 levels deep"),
            // 15 million digits took 9 s to refuse as out of range.
            (
                #"{"displayName": "Chloe", "order": 1\#(String(repeating: "0", count: 100))}"#,
                "story.json holds a number longer than 100 characters"
            ),
        ] {
            try expectStoryFileSkipped(fixture, Data(text.utf8), because: reason)
        }
        let many = Array(repeating: "0", count: 200_001).joined(separator: ",")
        let spec = #"{"stories": [{"handle": "ana", "items": ["stories/ben_k/1.mp4"]}], "x": [\#(many)]}"#
        try expectSpecRefused(fixture, Data(spec.utf8), because: "it holds more than 200000 JSON values")
    }

    /// A story.json or spec in UTF-16 or UTF-32 (which Foundation's parser reads) is counted as
    /// its characters: counted as bytes, the quote byte in U+2200's (`00 22` in UTF-16LE) hid
    /// what followed, and a 15 MB story.json of 2,500,000 values was parsed (488 MB; an audit).
    @Test func aStoryFileOrSpecInUTF16IsCountedAsItsText() throws {
        let fixture = try BundleFixture()
        let storyFile = URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json")
        let zeros = Array(repeating: "0", count: 10_001).joined(separator: ",")
        try expectStoryFileSkipped(
            fixture, try #require(#"{"∀": [\#(zeros)]}"#.data(using: .utf16LittleEndian)),
            because: "story.json holds more than 10000 JSON values")

        // Still read when it is within the limits: with a byte-order mark, in either byte order.
        for encoding: String.Encoding in [.utf16, .utf16BigEndian, .utf32LittleEndian] {
            try #require(#"{"displayName": "Chloé", "∀": 1}"#.data(using: encoding)).write(to: storyFile)
            let read = try TestEnvironment.storyreel(["plan", fixture.stories])
            #expect(read.status == 0, "\(encoding): \(read.stderr)")
            #expect(
                read.stderr == "storyreel: warning: chloe/story.json: unknown key \"∀\"; ignored\n",
                "\(encoding): \(read.stderr)")
        }
        // Bytes the encoding their first ones announce cannot read: a lone UTF-16 surrogate.
        try expectStoryFileSkipped(
            fixture, Data([0x7B, 0x00, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x3A, 0x00, 0x31, 0x00, 0x7D, 0x00]),
            because: "story.json is not valid UTF-8, UTF-16 or UTF-32 text")

        let many = Array(repeating: "0", count: 200_001).joined(separator: ",")
        let spec = #"{"∀": [\#(many)], "stories": [{"handle": "ana", "items": ["stories/ben_k/1.mp4"]}]}"#
        try expectSpecRefused(
            fixture, try #require(spec.data(using: .utf16LittleEndian)),
            because: "it holds more than 200000 JSON values")
    }

    @Test func aSpecEntryOfTheWrongTypeIsSkippedAndAnUnknownKeyWarns() throws {
        let fixture = try BundleFixture()
        let spec = #"""
            {"stories": [
              {"handle": "ana.lima", "items": ["stories/ana.lima/IMG_0001.MOV"], "isRead": 1},
              {"handle": "ben_k", "items": ["stories/ben_k/1.mp4"], "displayNmae": "Ben"},
              {"handle": "chloe", "items": ["stories/chloe/morning.mp4", ["stories/chloe/night.mp4"]]}
            ]}
            """#
        let path = try fixture.folder.write("spec.json", Data(spec.utf8))
        let result = try TestEnvironment.storyreel(["plan", path, "--json"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains("stories[0]: skipped: \"isRead\" must be true or false, got 1"), "\(result.stderr)")
        // A wrong element is named: it was `"items" must be an array of strings, got an array`.
        #expect(
            result.stderr.contains("stories[2]: skipped: \"items[1]\" must be a string, got an array"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("stories[1]: unknown key \"displayNmae\" (did you mean \"displayName\"?); ignored"),
            "\(result.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let stories = Set((plan?["units"] as? [[String: Any]] ?? []).compactMap { $0["story"] as? String })
        #expect(stories == ["ben_k"])
    }

    /// `null` for a key a story may leave out means it is left out, as the manifest itself
    /// writes `"avatar": null`: such a story was skipped for "must be a string, got null". A
    /// story's `handle` and `items` cannot be null.
    @Test func nullForAKeyAStoryMayLeaveOutLeavesItOut() throws {
        let fixture = try BundleFixture()
        try Data(#"{"displayName": null, "isRead": null, "order": null}"#.utf8).write(
            to: URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json"))
        let folder = try TestEnvironment.storyreel(["plan", fixture.stories])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(folder.stderr.isEmpty, "\(folder.stderr)")
        let spec = #"""
            {"stories": [
              {"handle": "ana.lima", "items": ["stories/ana.lima/IMG_0001.MOV"], "avatar": null,
               "displayName": null, "isRead": null},
              {"handle": null, "items": ["stories/ben_k/1.mp4"]},
              {"handle": "chloe", "items": null}
            ]}
            """#
        let path = try fixture.folder.write("spec.json", Data(spec.utf8))
        let result = try TestEnvironment.storyreel(["plan", path, "--json"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            LimitedRun.errorLines(result.stderr) == [
                "storyreel: error: stories[1]: skipped: \"handle\" must be a string, got null",
                "storyreel: error: stories[2]: skipped: \"items\" must be an array of strings, got null",
            ], "\(result.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let stories = Set((plan?["units"] as? [[String: Any]] ?? []).compactMap { $0["story"] as? String })
        #expect(stories == ["ana.lima"])
        // Rendered, the story plays under its handle, with no avatar, unread.
        let (rendered, _) = try fixture.render(into: "reel")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let chloe = try fixture.manifest("reel").stories.first { $0.id == "chloe" }
        #expect(chloe?.user.displayName == "chloe")
        #expect(chloe?.isRead == false)
    }

    /// A clip given as INPUT is neither a stories folder nor a spec, and says so (an error
    /// audit: it was "not valid JSON: cannot convert input string to valid utf8 input").
    /// black-intro.mp4 too, whose bytes nest brackets more than 32 deep: a review found it
    /// called a spec that "nests more than 32 levels deep".
    @Test(arguments: ["portrait-h264.mp4", "black-intro.mp4"])
    func aClipGivenAsTheInputIsNotAStoriesFolderOrASpec(name: String) throws {
        let clip = TestEnvironment.sample(name)
        for command in ["plan", "render"] {
            let result = try TestEnvironment.storyreel(
                [command, clip] + (command == "render" ? ["-o", "/nonexistent/x"] : []))
            #expect(result.status == 66, "\(result.stderr)")
            #expect(
                result.stderr == "storyreel: error: \(clip): not a stories folder or a JSON spec: give a folder of "
                    + "story folders, or a .json spec\n", "\(result.stderr)")
        }
    }

    /// A spec that is not JSON says where it breaks; it was "not a stories spec: expected
    /// {"stories": [...]}", as if the file were some other JSON.
    @Test func aSpecThatIsNotJSONSaysWhereItBreaks() throws {
        let fixture = try BundleFixture()
        let spec = "{\"stories\": [\n  {\"handle\": \"ben_k\", \"items\": [\"stories/ben_k/1.mp4\"]\n]}\n"
        let path = try fixture.folder.write("spec.json", Data(spec.utf8))
        let result = try TestEnvironment.storyreel(["plan", path])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr == "storyreel: error: \(path): not valid JSON: invalid value at line 3, column 1\n",
            "\(result.stderr)")
    }

    /// The handle is the story's id. The old render took both stories of a spec with one handle
    /// (exit 0), and wrote a manifest `validate` refused: `stories[1].id: 'ana.lima' is also the
    /// id of stories[0]`, and a transition from ana.lima to ana.lima.
    @Test func aSpecStoryWithAnEarlierStorysHandleIsSkipped() throws {
        let fixture = try BundleFixture()
        let spec = #"""
            {"stories": [
              {"handle": "ana.lima", "items": ["ana.lima/IMG_0001.MOV"]},
              {"handle": "ben_k", "items": ["ben_k/1.mp4"]},
              {"handle": "ana.lima", "displayName": "Ana again", "items": ["chloe/morning.mp4"]}
            ]}
            """#
        // Beside the clips, so the bundle is outside the spec's folder.
        let path = "\(fixture.stories)/spec.json"
        try Data(spec.utf8).write(to: URL(fileURLWithPath: path))
        let bundle = fixture.folder.path("reel")
        let result = try TestEnvironment.storyreel(["render", path, "-o", bundle, "--size", "360x640"])
        #expect(result.status == 65, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }
        #expect(
            errors == [
                "storyreel: error: stories[2]: skipped: handle \"ana.lima\" is also the handle of stories[0], "
                    + "which plays instead"
            ], "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        #expect(manifest.stories.map(\.id) == ["ana.lima", "ben_k"])
        #expect(manifest.stories.first?.user.displayName == "ana.lima", "the first story plays, as it was")
        #expect(manifest.transitions.map { "\($0.from)→\($0.to)" } == ["ana.lima→ben_k"])
        #expect(manifest.skipped.map(\.path) == ["stories[2]"])
        let validate = try TestEnvironment.storyreel(["validate", bundle])
        #expect(validate.status == 0, "\(validate.stderr)")
    }
}
