import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// What `storyreel validate` checks beyond the schema: unique ids, transitions that join
/// adjacent stories that exist, clips that still hash to their sha256, and referenced files
/// that are regular files inside the bundle; it never reads outside the bundle and never hangs
/// on a FIFO or a device.
@Suite struct ValidateBundleRulesTests {
    typealias Edit = (inout [String: Any]) -> Void

    /// Saves the fixture's manifest after `edit`, validates it and returns the problem lines
    /// (without the `storyreel: error: PATH: ` prefix), checking exit 65 when there are any.
    func problems(_ fixture: ManifestFixture, _ extra: [String] = [], _ edit: Edit) throws -> [String] {
        var manifest = fixture.goodManifest()
        edit(&manifest)
        let path = try fixture.save(manifest)
        let result = try fixture.validate([path] + extra)
        #expect(result.seconds < 10, "validate finished in \(result.seconds) s")
        let prefix = "storyreel: error: \(path): "
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix(prefix) }, "\(result.stderr)")
        #expect(result.status == (lines.isEmpty ? 0 : 65), "\(result.stderr)")
        return lines.map { String($0.dropFirst(prefix.count)) }
    }

    /// The sample stories rendered into `bundle`'s `reel`: its manifest's path and JSON object.
    func renderedManifest(_ bundle: BundleFixture) throws -> (path: String, manifest: [String: Any]) {
        let (rendered, _) = try bundle.render(into: "reel")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let path = bundle.folder.path("reel/manifest.json")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (path, manifest)
    }

    @Test func theFixtureIsValid() throws {
        #expect(try problems(ManifestFixture()) { _ in } == [])
    }

    /// `--json` prints `{"manifest", "valid", "problems"}` on stdout, the problems as stderr
    /// lists them, and `{"error", "exitCode"}` when there is no manifest to read (the scripting
    /// QA pass: of the commands a script runs on a bundle, only validate had no JSON).
    /// From a QA pass: a newer manifest version was "expected 1, got 2", where render says the
    /// bundle is a newer storyreel's; validate says so too. Other wrong versions are as before.
    @Test func aNewerVersionIsSaidToBeNewer() throws {
        #expect(
            try problems(ManifestFixture()) { $0["version"] = 2 } == [
                "version: 2 is newer than this storyreel reads (1): the bundle is a newer storyreel's; upgrade storyreel"
            ])
        #expect(try problems(ManifestFixture()) { $0["version"] = 0 } == ["version: expected 1, got 0"])
        // A fraction is no version, as the Kit says it (a Kit QA pass: `1.5` was "newer" here,
        // and not in the Kit, whose `newerVersion` an app reads to say "update the app").
        #expect(try problems(ManifestFixture()) { $0["version"] = 1.5 } == ["version: expected an integer, got 1.5"])
        let kit = #expect(throws: ManifestError.self) { try Manifest(jsonData: Data(#"{"version": 1.5}"#.utf8)) }
        #expect(kit?.description == "version: expected an integer, got 1.5")
        #expect(kit?.newerVersion == nil)
    }

    /// From a QA pass: the player page was never looked at, and one that was a symlink to
    /// /etc/passwd validated; a bundle with no page (`--no-player`) is valid.
    @Test func aPlayerPageLeadingOutsideIsAProblem() throws {
        let fixture = try ManifestFixture()
        let page = "\(fixture.bundle)/index.html"
        try? FileManager.default.removeItem(atPath: page)
        #expect(try problems(fixture) { _ in } == [], "no page")
        try FileManager.default.createSymbolicLink(atPath: page, withDestinationPath: "/etc/passwd")
        #expect(
            try problems(fixture) { _ in } == [
                "index.html: the player page is a symlink that leads outside the bundle"
            ])
    }

    @Test func jsonGivesTheProblemsStderrLists() throws {
        let fixture = try ManifestFixture()
        let good = try fixture.save(fixture.goodManifest())
        let valid = try TestEnvironment.storyreel(["validate", good, "--json"])
        #expect(valid.status == 0 && valid.stderr.isEmpty, "\(valid.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(valid.stdout.utf8)) as? [String: Any]
        #expect(object?["manifest"] as? String == good && object?["valid"] as? Bool == true, "\(valid.stdout)")
        #expect((object?["problems"] as? [Any])?.isEmpty == true, "\(valid.stdout)")

        var manifest = fixture.goodManifest()
        manifest["canvas"] = "big"
        let bad = try fixture.save(manifest, as: "bad.json")
        let invalid = try TestEnvironment.storyreel(["validate", bad, "--json"])
        #expect(invalid.status == 65, "\(invalid.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(invalid.stdout.utf8)) as? [String: Any]
        let prefix = "storyreel: error: \(bad): "
        let lines = invalid.stderr.split(separator: "\n").map { String($0.dropFirst(prefix.count)) }
        #expect(summary?["valid"] as? Bool == false)
        #expect(!lines.isEmpty && summary?["problems"] as? [String] == lines, "\(invalid.stdout)")

        let missing = try TestEnvironment.storyreel(["validate", fixture.folder.path("nosuch.json"), "--json"])
        #expect(missing.status == 66, "\(missing.stderr)")
        let failure = try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [String: Any]
        #expect(failure?["exitCode"] as? Int == 66, "\(missing.stdout)")
        #expect("storyreel: error: " + (failure?["error"] as? String ?? "-") + "\n" == missing.stderr)
    }

    /// An error audit: a file given as --root named the bundle ("the manifest's folder is not
    /// inside --root …"), not the option at fault.
    @Test func aRootThatIsAFileSaysSo() throws {
        let fixture = try ManifestFixture()
        _ = try fixture.save(fixture.goodManifest())
        let file = TestEnvironment.sample("portrait-h264.mp4")
        let result = try TestEnvironment.storyreel(["validate", fixture.bundle, "--root", file])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr == "storyreel: error: \(file): not a folder\n", "\(result.stderr)")
    }

    /// The old validator took a second transition for a pair and direction (the page played the
    /// last, StoryreelKit the first), and a story whose id was not its user's handle (the page
    /// keys transitions by the id and shows the handle).
    @Test func oneTransitionPerPairAndDirectionAndTheIdIsTheHandle() throws {
        let found = try problems(ManifestFixture()) { manifest in
            var transitions = manifest["transitions"] as! [[String: Any]]
            var second = transitions[0]
            second["src"] = transitions[1]["src"]
            transitions.append(second)
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions"], transitions)
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "user", "handle"], "benny")
        }
        #expect(
            found == [
                "stories[1].user.handle: expected the story's id, 'ben', got 'benny'",
                "transitions[3]: a second forward transition from 'ana' to 'ben' (transitions[0] is the first)",
            ])
    }

    /// The old validator read the first of two `src` keys in an item and said valid; a browser's
    /// JSON.parse takes the last, so the page played a URL validate never saw.
    @Test func aKeyGivenTwiceInAnObjectIsAProblem() throws {
        let fixture = try ManifestFixture()
        let path = try fixture.save(fixture.goodManifest())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // (JSONSerialization writes `/` as `\/`.)
        let src = "\"src\" : \"\(fixture.clipPath("a").replacingOccurrences(of: "/", with: "\\/"))\""
        #expect(text.contains(src), "the fixture's first item: \(text.prefix(400))")
        let twice = text.replacingOccurrences(of: src, with: src + ", \"src\" : \"https://example.com/x.mp4\"")
        try Data(twice.utf8).write(to: URL(fileURLWithPath: path))
        let result = try fixture.validate([path])
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "stories[0].items[0].src: is given twice in its object (JSON readers disagree on which value counts"),
            "\(result.stderr)")
    }

    /// A size of `Int.min` trapped `validate` (exit 132) where it compared an image's size with
    /// the one the manifest implies; now it is the one range problem, not one per image.
    @Test func sizesOutOfEveryRangeAreReportedOnceWithoutATrap() throws {
        let fixture = try ManifestFixture()
        let canvas = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["canvas", "width"], Int.min)
        }
        #expect(canvas == ["canvas.width: must be at least 2, got -9223372036854775808"])
        let item = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "width"], Int.min)
        }
        #expect(item == ["stories[0].items[0].width: must be at least 1, got -9223372036854775808"])
        // No picture over 8192 a side is decoded, so no item is one; the images' sizes were not
        // checked for one (a QA re-check), and the schema had no maximum.
        let wide = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "width"], 8193)
        }
        #expect(wide == ["stories[0].items[0].width: must be at most 8192, got 8193"])
    }

    /// Foundation reads a trailing comma and UTF-16; the page's `fetch(...).json()` does not, and
    /// played its embedded copy of a manifest `validate` had passed.
    @Test func jsonThatBrowsersRefuseIsAProblem() throws {
        let fixture = try ManifestFixture()
        let path = try fixture.save(fixture.goodManifest())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(trimmed.hasSuffix("}"))
        let withComma = trimmed.dropLast() + ",}"
        try Data(withComma.utf8).write(to: URL(fileURLWithPath: path))
        let comma = try fixture.validate([path])
        #expect(comma.status == 65)
        let lines = withComma.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            comma.stderr
                == "storyreel: error: \(path): manifest: not valid JSON: a comma before its closing '}' at line "
                + "\(lines.count), column \(lines.last!.count), which browsers refuse\n")
        try #require(text.data(using: .utf16)).write(to: URL(fileURLWithPath: path))
        let utf16 = try fixture.validate([path])
        #expect(utf16.status == 65)
        #expect(utf16.stderr.contains("manifest: not valid JSON: the text is not UTF-8"), "\(utf16.stderr)")
        // Text that breaks before a trailing comma is placed where it breaks (a QA pass: the
        // comma was blamed, with no line).
        try Data("{\n  \"version\": 1 2,\n}".utf8).write(to: URL(fileURLWithPath: path))
        let broken = try fixture.validate([path])
        #expect(broken.status == 65)
        #expect(
            broken.stderr.hasPrefix("storyreel: error: \(path): manifest: not valid JSON: ")
                && broken.stderr.contains("line 2, column"),
            "\(broken.stderr)")
    }

    /// From a QA pass: 200 arrays nested 500 deep (208 KB) took `validate` 255 s to refuse, and
    /// 125 million zeros (250 MB) 244 s and 8.2 GB. Both are refused from one pass over the bytes.
    @Test func deepOrHugeJSONIsRefusedBeforeItIsParsed() throws {
        let fixture = try ManifestFixture()
        let path = try fixture.save(fixture.goodManifest())
        let good = try String(contentsOfFile: path, encoding: .utf8)
        let skipped = try #require(good.range(of: #""skipped" : ["#))
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let nested = good.replacingCharacters(
            in: skipped, with: #""skipped" : ["# + Array(repeating: deep, count: 200).joined(separator: ",") + ",")
        try Data(nested.utf8).write(to: URL(fileURLWithPath: path))
        let refused = try fixture.validate([path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr
                == "storyreel: error: \(path): manifest: nests more than 32 levels deep (a manifest nests 5); not read\n"
        )
        #expect(refused.seconds < 5, "it took \(refused.seconds) s")
        // The same in UTF-16, whose bytes the count cannot read (a review: past 120 s).
        try #require(nested.data(using: .utf16LittleEndian)).write(to: URL(fileURLWithPath: path))
        let wide = try fixture.validate([path])
        #expect(wide.status == 65 && wide.stderr.contains("the text is not UTF-8"), "\(wide.stderr)")
        #expect(wide.seconds < 5, "it took \(wide.seconds) s")
        let zeros =
            good[..<skipped.upperBound] + "[0" + String(repeating: ",0", count: 10_000_000) + "],"
            + good[skipped.upperBound...]
        try Data(zeros.utf8).write(to: URL(fileURLWithPath: path))
        let huge = try fixture.validate([path])
        #expect(huge.status == 65, "\(huge.stderr)")
        #expect(
            huge.stderr
                == "storyreel: error: \(path): manifest: holds more than 10000000 JSON values (a manifest holds "
                + "about 25 an item); not read\n")
        #expect(huge.seconds < 5, "it took \(huge.seconds) s")
        // A number of 150 million digits took 28 s and 1.1 GB to refuse as out of range.
        let digits = good.replacingCharacters(
            in: skipped, with: #""skipped" : [1"# + String(repeating: "0", count: 100) + ",")
        try Data(digits.utf8).write(to: URL(fileURLWithPath: path))
        let long = try fixture.validate([path])
        #expect(
            long.status == 65
                && long.stderr
                    == "storyreel: error: \(path): manifest: holds a number longer than 100 characters; not read\n",
            "\(long.stderr)")
    }

    /// From a QA pass: a 15 MB manifest of five million wrong values gave five million lines
    /// (400 MB of stderr, 1 GB of memory, 12 s; 30 MB: 2.7 GB and 51 s). The first 1000 are
    /// listed, and a last line says there are more.
    @Test func theProblemsListedStopAtAThousand() throws {
        let fixture = try ManifestFixture()
        let path = try fixture.save(fixture.goodManifest())
        let good = try String(contentsOfFile: path, encoding: .utf8)
        let skipped = try #require(good.range(of: #""skipped" : ["#))
        let many = good.replacingCharacters(
            in: skipped, with: #""skipped" : ["# + String(repeating: "1,", count: 200_000))
        try Data(many.utf8).write(to: URL(fileURLWithPath: path))
        let result = try fixture.validate([path])
        let listed = result.stderr.split(separator: "\n")
        #expect(result.status == 65 && listed.count == 1001, "\(listed.count) lines")
        #expect(listed.first == "storyreel: error: \(path): skipped[0]: expected an object, got 1", "\(listed[0])")
        #expect(
            listed.last
                == "storyreel: error: \(path): manifest: more problems than these 1000, not listed (fix these and validate again)"
        )
    }

    /// From a QA pass: a rendered bundle passed `validate` with another item's still copied over
    /// an item's, another transition's clip copied over a transition's, and a transition's `fps`
    /// of 60 for a 30 fps clip. storyreel's images and transitions name the output they were made
    /// as in their own bytes, and a transition's file times its frames.
    @Test func anImageOrTransitionThatIsAnothersOrMistimedIsAProblem() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let reel = fixture.folder.path("reel")
        let items = try fixture.manifest("reel").stories.flatMap(\.items)
        let first = try #require(items[0].firstFrame)
        let other = try #require(items[1].firstFrame)
        try FileManager.default.removeItem(atPath: "\(reel)/\(first)")
        try FileManager.default.copyItem(atPath: "\(reel)/\(other)", toPath: "\(reel)/\(first)")
        let url = URL(fileURLWithPath: "\(reel)/manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var transitions = try #require(manifest["transitions"] as? [[String: Any]])
        try #require(transitions.count >= 2)
        let second = try #require(transitions[1]["src"] as? String)
        let firstTransition = try #require(transitions[0]["src"] as? String)
        try FileManager.default.removeItem(atPath: "\(reel)/\(firstTransition)")
        try FileManager.default.copyItem(atPath: "\(reel)/\(second)", toPath: "\(reel)/\(firstTransition)")
        transitions[1]["fps"] = 60
        transitions[1]["duration"] = Double(transitions[1]["frames"] as? Int ?? 0) / 60
        manifest["transitions"] = transitions
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)
        let result = try TestEnvironment.storyreel(["validate", reel])
        #expect(result.status == 65, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasSuffix("\(first) names itself \(other): another output's picture") }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasSuffix("transitions[0].src: \(firstTransition) names itself \(second): another transition's clip")
            }, "\(lines)")
        #expect(lines.contains { $0.contains("transitions[1].src: \(second) lasts ") }, "\(lines)")
        #expect(lines.count == 3, "\(lines)")
    }

    /// From a QA pass: a byte flipped in a poster's scan or in a transition's samples (a copy
    /// damaged on its way, an edit) passed `validate`, though each names the SHA-256 of its
    /// pictures in its own comment, which `render` already holds them to.
    @Test func anImageOrTransitionWhosePicturesChangedSinceItWasWrittenIsAProblem() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let reel = fixture.folder.path("reel")
        let manifest = try fixture.manifest("reel")
        let poster = try #require(manifest.stories.first?.items.first?.poster)
        let transition = try #require(manifest.transitions.first?.src)
        for (relative, share) in [(poster, 0.5), (transition, 0.75)] {
            let url = URL(fileURLWithPath: "\(reel)/\(relative)")
            var bytes = [UInt8](try Data(contentsOf: url))
            bytes[Int(Double(bytes.count) * share)] ^= 0x5A
            try Data(bytes).write(to: url)
        }
        let result = try TestEnvironment.storyreel(["validate", reel])
        #expect(result.status == 65, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let changed =
            "has changed since storyreel wrote it: its pictures are not the ones the SHA-256 in its own comment is of"
        #expect(lines.contains { $0.contains("poster: \(poster) \(changed)") }, "\(lines)")
        #expect(lines.contains { $0.contains("transitions[0].src: \(transition) \(changed)") }, "\(lines)")
        #expect(lines.count == 2, "\(lines)")
    }

    /// From a QA pass: `validate BUNDLE` read `manifest.json` through a symbolic link leading
    /// out of the bundle and printed that file's values in its problems (a token, in a CI log).
    @Test func aBundlesManifestThatIsASymbolicLinkIsNotFollowed() throws {
        let fixture = try ManifestFixture()
        let elsewhere = try TemporaryFolder()
        let secret = elsewhere.path("secret.json")
        try Data(#"{"version": "ghp_SECRETTOKEN"}"#.utf8).write(to: URL(fileURLWithPath: secret))
        try FileManager.default.createSymbolicLink(
            atPath: "\(fixture.bundle)/manifest.json", withDestinationPath: secret)
        for given in [fixture.bundle, "\(fixture.bundle)/manifest.json"] {
            let result = try fixture.validate([given])
            #expect(result.status == 66, "\(result.stderr)")
            #expect(
                result.stderr
                    == "storyreel: error: \(fixture.bundle)/manifest.json: is a symbolic link, not a manifest "
                    + "in its bundle; give its target\n")
            #expect(!result.stderr.contains("ghp_"))
        }
    }

    @Test func storyAndItemIdsAreUniqueAndAnItemIdIsItsClipsHashPrefix() throws {
        let fixture = try ManifestFixture()
        let twoBens = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 2, "id"], "ben")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 2, "user", "handle"], "ben")
            let transitions = manifest["transitions"] as! [Any]
            manifest["transitions"] = [transitions[0], transitions[2]]  // not the one to chloe
        }
        #expect(twoBens == ["stories[2].id: 'ben' is also the id of stories[1]"])

        let a = ValidateAgreesWithSchemaTests.item(of: fixture.goodManifest(), 0, 0)
        /// Chloe's story plays `item` after her clip (the durations are kept the sums).
        func chloeAlsoPlays(_ item: [String: Any]) -> Edit {
            { manifest in
                ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 2, "items", 1], item)
                ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 2, "duration"], 5)
                ValidateAgreesWithSchemaTests.set(&manifest, ["duration"], 12.5)
            }
        }
        let repeated = try problems(fixture, [], chloeAlsoPlays(a))
        #expect(repeated == ["stories[2].items[1].id: '\(a["id"]!)' is also the id of stories[0].items[0]"])

        var second = a
        second["id"] = "\(a["id"]!)-2"
        #expect(try problems(fixture, [], chloeAlsoPlays(second)) == [])

        let wrongPrefix = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "id"], "0123456789abcdef")
        }
        #expect(wrongPrefix == ["stories[0].items[0].id: does not start with the first 16 hex digits of its sha256"])
    }

    @Test func transitionsJoinAdjacentStoriesThatExist() throws {
        let fixture = try ManifestFixture()
        func transitionProblems(_ from: String, _ to: String, _ direction: String) throws -> [String] {
            try problems(fixture) { manifest in
                ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 0, "from"], from)
                ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 0, "to"], to)
                ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 0, "direction"], direction)
                // Alone: the fixture's others would be second ones for some of these pairs.
                manifest["transitions"] = [(manifest["transitions"] as! [Any])[0]]
            }
        }
        #expect(try transitionProblems("ben", "chloe", "forward") == [])
        #expect(try transitionProblems("chloe", "ben", "backward") == [])
        #expect(
            try transitionProblems("ana", "chloe", "forward") == [
                "transitions[0]: a forward transition joins stories[i] to stories[i+1], not stories[0] 'ana' to "
                    + "stories[2] 'chloe'"
            ])
        #expect(
            try transitionProblems("ana", "ben", "backward") == [
                "transitions[0]: a backward transition joins stories[i+1] to stories[i], not stories[0] 'ana' to "
                    + "stories[1] 'ben'"
            ])
        #expect(
            try transitionProblems("ben", "ana", "forward") == [
                "transitions[0]: a forward transition joins stories[i] to stories[i+1], not stories[1] 'ben' to "
                    + "stories[0] 'ana'"
            ])
        #expect(try transitionProblems("ana", "ana", "forward").count == 1)
        #expect(try transitionProblems("ana", "dora", "forward") == ["transitions[0].to: no story 'dora'"])
        #expect(try transitionProblems("zed", "ben", "forward") == ["transitions[0].from: no story 'zed'"])
    }

    /// From a hostile-bundle QA pass: a transition padded with a 10 GB hole (`truncate`), with
    /// 50 MB of bytes after its end, or with a `free` atom of 10 GB passed `validate`, and every
    /// sync of the bundle would upload it. A transition holds its samples and a few kilobytes of
    /// index and headers.
    @Test func aTransitionPaddedPastItsSamplesIsReported() throws {
        let fixture = try ManifestFixture()
        #expect(try problems(fixture) { _ in } == [])
        let transition = try ManifestFixture.transitionClip.get()
        // A `free` atom of 2 MiB after the clip's own, and a hole of a gigabyte.
        let free = HostileFiles.atom("free", containing: [UInt8](repeating: 0, count: 2 << 20))
        let padded = transition + Data(free)
        try fixture.write("transitions/ana-ben.mp4", padded)
        let holed = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(fixture.bundle)/transitions/ben-chloe.mp4"))
        try holed.truncate(atOffset: 1 << 30)
        try holed.close()
        let found = try problems(fixture) { _ in }
        let added = ": bytes added to it (padding, a hole), which every player and sync would download"
        #expect(found.count == 2, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix(
                    "transitions[0].src: transitions/ana-ben.mp4 is \(padded.count) bytes, while its samples hold ")
                    && $0.hasSuffix(added)
            }, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix(
                    "transitions[1].src: transitions/ben-chloe.mp4 is 1073741824 bytes, while its samples hold ")
                    && $0.hasSuffix(added)
            }, "\(found)")
    }

    @Test func aClipThatNoLongerMatchesItsHashIsReported() throws {
        let fixture = try ManifestFixture()
        try fixture.write(fixture.clipPath("b2"), Data("the bytes of clip b2, changed\n".utf8))
        let found = try problems(fixture) { _ in }
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix("stories[1].items[1].src: \(fixture.clipPath("b2")) does not match its sha256")
                == true)

        try fixture.write(fixture.clipPath("b2"), Data())
        #expect(try problems(fixture) { _ in }.first?.contains("does not match its sha256") == true, "an empty clip")
        try FileManager.default.removeItem(atPath: "\(fixture.bundle)/\(fixture.clipPath("b2"))")
        #expect(
            try problems(fixture) { _ in } == [
                "stories[1].items[1].src: \(fixture.clipPath("b2")) is not in the bundle"
            ])
        try FileManager.default.removeItem(atPath: "\(fixture.bundle)/posters/a.jpg")
        #expect(
            try problems(fixture) { _ in }.contains(
                "stories[0].items[0].poster: posters/a.jpg is not in the bundle"))
    }

    @Test func pathsThatLeaveTheBundleAreReportedAndNeverRead() throws {
        let fixture = try ManifestFixture()
        // A clip outside the bundle whose content has exactly the recorded hash: a validator
        // that followed the path would call the manifest valid.
        let outside = fixture.folder.path("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "\(fixture.bundle)/\(fixture.clipPath("a"))", toPath: "\(outside)/a.mp4")
        func clipProblems(_ src: String, _ extra: [String] = []) throws -> [String] {
            try problems(fixture, extra) {
                ValidateAgreesWithSchemaTests.set(&$0, ["stories", 0, "items", 0, "src"], src)
            }
        }
        #expect(
            try clipProblems("../outside/a.mp4") == [
                "stories[0].items[0].src: ../outside/a.mp4 leads outside the bundle (see --root)"
            ])
        // A .. after a name is not plain, wherever it leads (it used to be followed while it
        // stayed inside the bundle).
        #expect(
            try clipProblems("clips/../../outside/a.mp4").first?.hasSuffix(
                "got 'clips/../../outside/a.mp4'") == true)
        #expect(
            try clipProblems("clips/./../\(fixture.clipPath("a"))").first?.contains("a plain relative path") == true)
        #expect(try clipProblems("../reel/\(fixture.clipPath("a"))").count == 1, "out and back in is still out")

        // Symlinks: out of the bundle (relative or absolute), to a device, and one inside.
        let links = [
            ("clips/relative.mp4", "../../outside/a.mp4"), ("clips/absolute.mp4", "\(outside)/a.mp4"),
            ("clips/zero.mp4", "/dev/zero"), ("clips/up", ".."), ("clips/top", "../.."),
            ("clips/inside.mp4", "\(fixture.sha["a"]!).mp4"),
            ("clips/loop.mp4", "loop.mp4"),
        ]
        for (link, target) in links {
            try FileManager.default.createSymbolicLink(atPath: "\(fixture.bundle)/\(link)", withDestinationPath: target)
        }
        for name in ["relative.mp4", "absolute.mp4", "zero.mp4"] {
            #expect(
                try clipProblems("clips/\(name)") == [
                    "stories[0].items[0].src: clips/\(name) is a symlink that leads outside the bundle"
                ])
        }
        #expect(
            try clipProblems("clips/top/outside/a.mp4").first?.hasSuffix("is a symlink that leads outside the bundle")
                == true)
        #expect(try clipProblems("clips/up/\(fixture.clipPath("a"))") == [], "a symlink that stays inside is followed")
        #expect(try clipProblems("clips/inside.mp4") == [])
        #expect(try clipProblems("clips/loop.mp4") == ["stories[0].items[0].src: clips/loop.mp4 has a symlink loop"])
        #expect(try clipProblems("clips") == ["stories[0].items[0].src: clips is a folder, not a file"])

        // --root widens what is inside, e.g. for a --reference bundle whose clips are beside it.
        #expect(try clipProblems("../outside/a.mp4", ["--root", fixture.folder.path("")]) == [])
        #expect(try clipProblems("clips/absolute.mp4", ["--root", fixture.folder.path("")]) == [])
        #expect(
            try clipProblems("clips/zero.mp4", ["--root", fixture.folder.path("")]).first?.hasSuffix("outside --root")
                == true)
        // A clip gone from beside a --reference bundle is missing, not "not in --root" (a QA pass).
        #expect(
            try clipProblems("../outside/gone.mp4", ["--root", fixture.folder.path("")]) == [
                "stories[0].items[0].src: ../outside/gone.mp4 does not exist (no such file)"
            ])
        // So is one under a file where a folder should be (a re-check: still "is not in --root").
        #expect(
            try clipProblems("../outside/a.mp4/b.mp4", ["--root", fixture.folder.path("")]) == [
                "stories[0].items[0].src: ../outside/a.mp4/b.mp4 does not exist (no such file)"
            ])
    }

    /// The paths of the bug report, which the old validator resolved to the real files (a `/.`
    /// or a trailing `/` after a file, `//`, a NUL that ends the path lstat sees) and accepted.
    @Test func pathsThatAreNotPlainAreProblemsNamingTheirJSONPath() throws {
        let fixture = try ManifestFixture()
        let plainRule =
            "expected a plain relative path (non-empty components separated by single /, none of them . or .., "
            + "no leading or trailing / or space, no control character, #, ?, % or \\, no : in the first component)"
        let a = fixture.clipPath("a")
        let found = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "poster"], "posters/a.jpg/.")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "src"], "\(a)\u{0}.txt")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "items", 0, "thumbnail"], "thumbs/b1.jpg/")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "items", 1, "thumbnail"], "thumbs//b2.jpg")
        }
        #expect(
            found == [
                "stories[0].items[0].src: \(plainRule), after any leading ../, got '\(a)\\0.txt'",
                "stories[0].items[0].poster: \(plainRule), got 'posters/a.jpg/.'",
                "stories[1].items[0].thumbnail: \(plainRule), got 'thumbs/b1.jpg/'",
                "stories[1].items[1].thumbnail: \(plainRule), got 'thumbs//b2.jpg'",
            ])

        // A path a URL reads otherwise, though the file is there: a browser asked for `x` (the
        // rest a fragment), a folder up (`%2e%2e`), a query, and `/` for the backslash.
        for name in ["x#y.jpg", "%2e%2e.jpg", "x?y.jpg", "x\\y.jpg"] {
            try fixture.write("posters/\(name)", ManifestFixture.jpeg("poster", width: 360, height: 640))
            let found = try problems(fixture) {
                ValidateAgreesWithSchemaTests.set(&$0, ["stories", 0, "items", 0, "poster"], "posters/\(name)")
            }
            // (A backslash is shown escaped.)
            #expect(
                found.count == 1 && found[0].hasPrefix("stories[0].items[0].poster: \(plainRule), got 'posters/"),
                "posters/\(name): \(found)")
        }

        // From a QA pass: a first component with a colon is a URL's scheme to a browser (the page
        // fetched `https:example.invalid/x.mov` from that site), and a space at an end is dropped
        // (it fetched another file). Both files are there; both paths are refused.
        try FileManager.default.createDirectory(
            atPath: "\(fixture.bundle)/https:example.invalid", withIntermediateDirectories: true)
        for relative in ["https:example.invalid/a.jpg", "posters/a.jpg "] {
            try fixture.write(relative, ManifestFixture.jpeg("poster", width: 360, height: 640))
            let found = try problems(fixture) {
                ValidateAgreesWithSchemaTests.set(&$0, ["stories", 0, "items", 0, "poster"], relative)
            }
            #expect(found == ["stories[0].items[0].poster: \(plainRule), got '\(relative)'"], "\(relative)")
        }

        // Odd names are still plain: dots inside or leading (not . or .. alone), spaces, non-ASCII,
        // a colon after the first component.
        for name in [".a.jpg", "...jpg", "a b.jpg", "café.jpg", "..b", "a:b.jpg"] {
            try fixture.write("posters/\(name)", ManifestFixture.jpeg("poster", width: 360, height: 640))
            #expect(
                try problems(fixture) {
                    ValidateAgreesWithSchemaTests.set(&$0, ["stories", 0, "items", 0, "poster"], "posters/\(name)")
                } == [], "posters/\(name)")
        }
    }

    /// An image was checked only under a `.jpg` name: a poster pointing at a text file, a
    /// thumbnail at the manifest itself and an avatar at a clip were valid (a QA pass). A whole
    /// JPEG under another name is still one.
    @Test func imagesAreCheckedAsJPEGsWhateverTheirNames() throws {
        let fixture = try ManifestFixture()
        try fixture.write("posters/x", Data("hello, not a picture\n".utf8))
        // Its start and end markers alone: said so (it was "does not end with its end marker").
        try fixture.write("thumbs/c.jpg", Data([0xFF, 0xD8, 0xFF, 0xD9]))
        try fixture.write("thumbs/b1.png", ManifestFixture.jpeg("thumbnail b1", width: 180, height: 320))
        let found = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "poster"], "posters/x")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "thumbnail"], "manifest.json")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "items", 0, "thumbnail"], "thumbs/b1.png")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "user", "avatar"], "transitions/ana-ben.mp4")
        }
        #expect(
            found == [
                "stories[0].items[0].poster: posters/x is not a JPEG",
                "stories[0].items[0].thumbnail: manifest.json is not a JPEG",
                "stories[1].user.avatar: transitions/ana-ben.mp4 is not a JPEG",
                "stories[2].items[0].thumbnail: thumbs/c.jpg is not a whole JPEG: it holds its start and end markers only",
            ], "\(found)")
    }

    /// The old validator took any bytes under an image's or a transition's name: an empty
    /// poster, a cut transition, a clip of other frames or size, and a transition whose duration
    /// was not its frames at its rate were all valid.
    @Test func imagesAreWholeJPEGsAndTransitionsWholeClipsOfTheirFramesAndSize() throws {
        let fixture = try ManifestFixture()
        let transition = try ManifestFixture.transitionClip.get()
        try fixture.write("posters/a.jpg", Data())
        try fixture.write("thumbs/b1.jpg", ManifestFixture.jpeg("thumbnail b1").dropLast(2))
        try fixture.write("avatars/ben.jpg", transition)
        try fixture.write("transitions/ana-ben.mp4", transition.prefix(transition.count / 2))
        let found = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 1, "frames"], 14)
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 2, "duration"], 0.6)
        }
        #expect(found.count == 7, "\(found)")
        let expected = [
            "stories[0].items[0].poster: posters/a.jpg is not a JPEG",
            "stories[1].user.avatar: avatars/ben.jpg is not a JPEG",
            "stories[1].items[0].thumbnail: thumbs/b1.jpg is not a whole JPEG: it does not end with its end marker (cut short, or bytes added after it)",
            "transitions[1].src: transitions/ben-chloe.mp4 has 15 frames, not 14",
            "transitions[1].duration: expected 0.467, its frames at its fps, got 0.5",
            "transitions[2].duration: expected 0.5, its frames at its fps, got 0.6",
        ]
        for line in expected { #expect(found.contains(line), "\(line) in \(found)") }
        #expect(
            found.contains { $0.hasPrefix("transitions[0].src: transitions/ana-ben.mp4 ") },
            "the cut transition: \(found)")

        // A still fills the canvas and an avatar is a 180-pixel square: the old validator took
        // any whole JPEG under their names.
        let sizes = try ManifestFixture()
        try sizes.write("stills/a-first.jpg", ManifestFixture.jpeg("first a", width: 360, height: 640))
        try sizes.write("stills/a-last.jpg", ManifestFixture.jpeg("last a", width: 1080, height: 1920))
        try sizes.write("avatars/ana.jpg", ManifestFixture.jpeg("avatar ana", width: 1080, height: 1920))
        let wrongSizes = try problems(sizes) { manifest in
            ValidateAgreesWithSchemaTests.set(
                &manifest, ["stories", 0, "items", 0, "firstFrame"], "stills/a-first.jpg")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "lastFrame"], "stills/a-last.jpg")
        }
        // A poster or a thumbnail of another clip's size (within 2 pixels is the same: it is
        // sized from the decoded frame).
        try sizes.write("posters/a.jpg", ManifestFixture.jpeg("poster a", width: 240, height: 426))
        try sizes.write("thumbs/a.jpg", ManifestFixture.jpeg("thumbnail a", width: 180, height: 180))
        try sizes.write("posters/b1.jpg", ManifestFixture.jpeg("poster b1", width: 359, height: 642))
        #expect(
            wrongSizes == [
                "stories[0].user.avatar: avatars/ana.jpg is 1080x1920, not 180x180",
                "stories[0].items[0].lastFrame: stills/a-last.jpg is 1080x1920, not 360x640",
            ])
        let wrongImages = try problems(sizes) { _ in }
        #expect(
            wrongImages == [
                "stories[0].user.avatar: avatars/ana.jpg is 1080x1920, not 180x180",
                "stories[0].items[0].poster: posters/a.jpg is 240x426, not 360x640",
                "stories[0].items[0].thumbnail: thumbs/a.jpg is 180x180, not 180x320",
            ])

        // From the re-check QA pass: one file in two roles was size-checked once, by the first
        // role, so a poster given as the thumbnail (or a thumbnail as a still) passed.
        let twoRoles = try problems(ManifestFixture()) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "thumbnail"], "posters/a.jpg")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "items", 0, "firstFrame"], "thumbs/b1.jpg")
        }
        #expect(
            twoRoles == [
                "stories[0].items[0].thumbnail: posters/a.jpg is 360x640, not 180x320",
                "stories[1].items[0].firstFrame: thumbs/b1.jpg is 180x320, not 360x640",
            ])

        let otherSize = try ManifestFixture()
        let wrongCanvas = try problems(otherSize) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["canvas"], ["width": 720, "height": 1280])
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 0, "width"], 720)
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 0, "height"], 1280)
        }
        #expect(
            wrongCanvas == [
                "transitions[0].src: transitions/ana-ben.mp4 is 360x640, not 720x1280",
                "transitions[1]: is 360x640, not the canvas, 720x1280",
                "transitions[2]: is 360x640, not the canvas, 720x1280",
            ])
    }

    /// From a QA pass of validate as a CI gate: a real poster's start and end with a 1 GiB hole
    /// between them passed (only the first and last bytes were read), and every player would
    /// have downloaded it. Its bytes are now held to what a JPEG of its size can hold.
    @Test func aJPEGPaddedPastWhatItsSizeCanHoldIsAProblem() throws {
        let fixture = try ManifestFixture()
        let poster = "\(fixture.bundle)/posters/a.jpg"
        let whole = try Data(contentsOf: URL(fileURLWithPath: poster))
        try whole.dropLast(2).write(to: URL(fileURLWithPath: poster))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: poster))
        try handle.truncate(atOffset: 1 << 30)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0xFF, 0xD9]))
        try handle.close()
        let found = try problems(fixture) { _ in }
        #expect(
            found == [
                "stories[0].items[0].poster: posters/a.jpg is \((1 << 30) + 2) bytes, more than a 360x640 JPEG can hold (3813376)"
            ],
            "\(found)")
    }

    /// A transition's `codecs`, when given, is its clip's: a player asks `canPlayType` about it
    /// rather than loading the clip.
    @Test func aTransitionsCodecsAreItsClips() throws {
        let fixture = try ManifestFixture()
        let probe = try TestEnvironment.storyreel(["inspect", "--json", fixture.bundle + "/transitions/ana-ben.mp4"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [[String: Any]])
        let codecs = try #require((info.first?["video"] as? [String: Any])?["codecs"] as? String)
        #expect(codecs.hasPrefix("avc1."))
        let found = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 0, "codecs"], codecs)
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 1, "codecs"], "hvc1.1.6.L90.90")
        }
        #expect(found == ["transitions[1].src: transitions/ben-chloe.mp4 has codecs \(codecs), not 'hvc1.1.6.L90.90'"])
        let notAString = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["transitions", 2, "codecs"], 7)
        }
        #expect(notAString == ["transitions[2].codecs: expected a string, got 7"])
    }

    /// An item's `codecs`, when given, is its clip's (a QA pass: a tampered one validated); the
    /// fixture's clips are text, so a `codecs` for one of them is a problem too.
    @Test func anItemsCodecsAreItsClips() throws {
        let bundle = try BundleFixture()
        var (manifestPath, manifest) = try renderedManifest(bundle)
        let actual = try #require(
            ((manifest["stories"] as? [[String: Any]])?[0]["items"] as? [[String: Any]])?[0]["codecs"] as? String)
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "codecs"], "hvc1.1.6.L93.90")
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let tampered = try TestEnvironment.storyreel(["validate", manifestPath])
        #expect(tampered.status == 65)
        let src = try #require(
            ((manifest["stories"] as? [[String: Any]])?[0]["items"] as? [[String: Any]])?[0]["src"] as? String)
        #expect(
            tampered.stderr
                == "storyreel: error: \(manifestPath): stories[0].items[0].codecs: is 'hvc1.1.6.L93.90', but \(src) "
                + "has codecs \(actual)\n")

        let text = try problems(ManifestFixture()) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "codecs"], "avc1.64001e")
        }
        #expect(text.count == 1 && text[0].hasPrefix("stories[0].items[0].codecs: is 'avc1.64001e', but "), "\(text)")
    }

    /// An item says what its clip is: duration, size, turn, frame rate, codec, HDR kind and
    /// sound are each the probe's. A QA pass: an item's duration of 500 or 1e300 s (the sums
    /// mended) validated, and the page stood on that item's stills for as long when it could not
    /// play the clip.
    @Test func anItemsFactsAreItsClips() throws {
        let bundle = try BundleFixture()
        var (manifestPath, manifest) = try renderedManifest(bundle)
        #expect(try TestEnvironment.storyreel(["validate", manifestPath]).status == 0)
        let item = try #require(((manifest["stories"] as? [[String: Any]])?[0]["items"] as? [[String: Any]])?[0])
        let (src, duration) = (try #require(item["src"] as? String), try #require(item["duration"] as? Double))
        let (width, height) = (try #require(item["width"] as? Int), try #require(item["height"] as? Int))
        let hasAudio = try #require(item["hasAudio"] as? Bool)
        let inspected = try TestEnvironment.storyreel(["inspect", "--json", bundle.folder.path("reel/\(src)")])
        let probed = try #require(
            (try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(abs((probed["duration"] as? Double ?? 0) - duration) < 0.001, "the item's duration is the probe's")
        let added = 500 - duration
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "duration"], 500)
        let story = try #require((manifest["stories"] as? [[String: Any]])?[0]["duration"] as? Double)
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "duration"], story + added)
        ValidateAgreesWithSchemaTests.set(
            &manifest, ["duration"], try #require(manifest["duration"] as? Double) + added)
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "width"], width + 2)
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "hasAudio"], !hasAudio)
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "hdr"], "pq")
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let tampered = try TestEnvironment.storyreel(["validate", manifestPath])
        #expect(tampered.status == 65)
        let prefix = "storyreel: error: \(manifestPath): stories[0].items[0]."
        let seconds = String(format: "%.3f", duration).replacingOccurrences(
            of: #"\.?0+$"#, with: "", options: .regularExpression)
        #expect(
            tampered.stderr.split(separator: "\n").map(String.init) == [
                prefix + "duration: is 500, but \(src) lasts \(seconds) s",
                prefix + "width: is \(width + 2) (height \(height)), but \(src) is shown at \(width)x\(height)",
                prefix + "hdr: is 'pq', but \(src) is 'none'",
                prefix + "hasAudio: is \(!hasAudio), but \(src) has " + (hasAudio ? "sound" : "no sound"),
            ], "\(tampered.stderr)")
    }

    /// From a QA pass: an item's clip cut short, its sha256 (and id) mended to the cut bytes,
    /// validated, where a transition cut short is reported: its probe's warning (what render
    /// skips and ingest rejects) is a problem of the item's too.
    @Test func anItemClipCutShortIsReportedAsATransitionIs() throws {
        let bundle = try BundleFixture()
        var (manifestPath, manifest) = try renderedManifest(bundle)
        let item = try #require(((manifest["stories"] as? [[String: Any]])?[0]["items"] as? [[String: Any]])?[0])
        let src = try #require(item["src"] as? String)
        let clip = bundle.folder.path("reel/\(src)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try FileManager.default.removeItem(atPath: clip)  // a copy, maybe hard-linked: not written through
        try whole.prefix(whole.count * 2 / 3).write(to: URL(fileURLWithPath: clip))
        let sha256 = try TestEnvironment.run("sha256sum", [clip]).stdout.split(separator: " ")[0]
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "sha256"], String(sha256))
        ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "id"], String(sha256.prefix(16)))
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let result = try TestEnvironment.storyreel(["validate", manifestPath])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "stories[0].items[0].src: \(src) cannot be trusted: the moov index points "), "\(result.stderr)")
    }

    /// The old validator never compared the durations with the items': a top-level 999 and a
    /// story's 0.1 were valid.
    @Test func durationsAreTheSumsOfTheirItemsDurations() throws {
        let fixture = try ManifestFixture()
        let found = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["duration"], 999)
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "duration"], 0.1)
        }
        #expect(
            found == [
                "duration: expected 10, the sum of every item's duration, got 999",
                "stories[1].duration: expected 5, the sum of its items' durations, got 0.1",
            ])
        #expect(
            try problems(fixture) { ValidateAgreesWithSchemaTests.set(&$0, ["duration"], 10.002) } == [
                "duration: expected 10, the sum of every item's duration, got 10.002"
            ])
        // Within a millisecond, as adding up doubles in another order may give: 0.1 + 0.2 is
        // 0.30000000000000004.
        let sums = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "items", 0, "duration"], 0.1)
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "items", 1, "duration"], 0.2)
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 1, "duration"], 0.3)
            ValidateAgreesWithSchemaTests.set(&manifest, ["duration"], 5.3009)
        }
        #expect(sums == [])
        // An item the schema faults is reported once, at the item, not again in the sums.
        let negative = try problems(fixture) {
            ValidateAgreesWithSchemaTests.set(&$0, ["stories", 0, "items", 0, "duration"], -1)
        }
        #expect(negative == ["stories[0].items[0].duration: must be greater than 0, got -1"])
    }

    @Test func aFIFOOrADeviceIsReportedWithoutWaiting() throws {
        let fixture = try ManifestFixture()
        #expect(mkfifo("\(fixture.bundle)/clips/fifo.mp4", 0o644) == 0)
        #expect(mkfifo("\(fixture.bundle)/posters/fifo.jpg", 0o644) == 0)
        let found = try problems(fixture) { manifest in
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "src"], "clips/fifo.mp4")
            ValidateAgreesWithSchemaTests.set(&manifest, ["stories", 0, "items", 0, "poster"], "posters/fifo.jpg")
        }
        #expect(
            found == [
                "stories[0].items[0].poster: posters/fifo.jpg is a FIFO, not a regular file",
                "stories[0].items[0].src: clips/fifo.mp4 is a FIFO, not a regular file",
            ])

        // The manifest itself as a FIFO, or a device: refused at once (66), never read.
        let fifoManifest = fixture.folder.path("manifest-fifo.json")
        #expect(mkfifo(fifoManifest, 0o644) == 0)
        for manifest in [fifoManifest, "/dev/zero"] {
            let result = try fixture.validate([manifest])
            #expect(result.status == 66, "\(manifest): \(result.stderr)")
            #expect(result.seconds < 10)
            #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
        }
    }
}
