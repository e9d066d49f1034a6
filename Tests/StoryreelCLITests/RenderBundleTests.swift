import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `storyreel render` on the sample stories: the manifest, the files, the schema, incremental
/// re-runs, shards and kills (the lock: BundleLockWaitTests). Each test renders into a
/// fixture of its own, so they run in parallel: serialized, this suite ran last, alone on one
/// core for its final 10 s, which took `make test` to 9 m 58 s on 2 cores.
@Suite struct RenderBundleTests {
    @Test func demoManifestMatchesFFprobeAndTheSchema() throws {
        let fixture = try BundleFixture()
        let (result, summary) = try fixture.render(into: "reel", ["--both-directions"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(summary["skipped"] as? Int == 0)
        let bundle = fixture.folder.path("reel")
        let manifest = try fixture.manifest("reel")
        #expect(manifest.version == 1)
        let stories = manifest.stories
        #expect(stories.map(\.id) == ["ana.lima", "ben_k", "chloe", "dev-ops"])
        var total = 0.0
        for story in stories {
            let avatar = try #require(story.user.avatar)
            #expect(FileManager.default.fileExists(atPath: "\(bundle)/\(avatar)"))
            for item in story.items {
                let probe = try TestEnvironment.ffprobe("\(bundle)/\(item.src)")
                let format = try #require(probe["format"] as? [String: Any])
                let duration = try #require(Double(format["duration"] as? String ?? ""))
                #expect(abs(item.duration - duration) < 0.001)
                total += duration
                for image in [item.poster, item.thumbnail] {
                    let decoded = try TestEnvironment.run(
                        "ffmpeg", ["-v", "error", "-i", "\(bundle)/\(image)", "-f", "null", "-"])
                    #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(image) decodes")
                }
                let thumbnail = try TestEnvironment.ffprobe("\(bundle)/\(item.thumbnail)")
                #expect((thumbnail["streams"] as? [[String: Any]])?.first?["width"] as? Int == 180)
            }
        }
        #expect(abs(manifest.duration - total) < 0.01)
        let transitions = manifest.transitions
        #expect(transitions.count == 6, "3 boundaries, both directions")
        for transition in transitions {
            let src = transition.src
            let counted = try TestEnvironment.run(
                "ffprobe",
                [
                    "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                    "stream=nb_read_frames,width,height", "-of", "csv=p=0", "\(bundle)/\(src)",
                ])
            #expect(
                counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "\(BundleFixture.canvas.width),\(BundleFixture.canvas.height),15")
            #expect(transition.frames == 15)
            // Its codecs string, for a player's canPlayType: High profile (0x64) at ffprobe's level.
            let stream = try #require(
                (try TestEnvironment.ffprobe("\(bundle)/\(src)")["streams"] as? [[String: Any]])?.first)
            #expect(stream["profile"] as? String == "High")
            let level = try #require(stream["level"] as? Int)
            #expect(transition.codecs == "avc1.6400" + String(format: "%02x", level))
        }
        let schema = TestEnvironment.packageRoot.appendingPathComponent("schema/manifest.schema.json").path
        let validation = try TestEnvironment.run(
            "/usr/bin/python3",
            [
                "-c",
                "import json,sys,jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))"
                    + ".validate(json.load(open(sys.argv[2])))", schema, "\(bundle)/manifest.json",
            ])
        #expect(validation.status == 0, "\(validation.stderr)")
        let validate = try TestEnvironment.storyreel(["validate", "\(bundle)/manifest.json"])
        #expect(validate.status == 0, "\(validate.stderr)")
    }

    @Test func rerunRendersNothingAndManifestIsByteIdenticalWhateverOutIsCalled() throws {
        let fixture = try BundleFixture()
        let (first, firstSummary) = try fixture.render(into: "one")
        #expect(first.status == 0, "\(first.stderr)")
        #expect((firstSummary["rendered"] as? Int ?? 0) > 0)
        /// Every file in the bundle, hidden ones too, with its inode and mtime.
        func stamps() -> [String: String] {
            let root = fixture.folder.path("one")
            let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
            return Dictionary(
                uniqueKeysWithValues: names.compactMap { name in
                    let attributes = try? FileManager.default.attributesOfItem(atPath: "\(root)/\(name)")
                    guard attributes?[.type] as? FileAttributeType == .typeRegular else { return nil }
                    return (name, "\(attributes?[.systemFileNumber] ?? 0) \(attributes?[.modificationDate] ?? 0)")
                })
        }
        let before = stamps()
        let (again, summary) = try fixture.render(into: "one")
        #expect(again.status == 0)
        #expect(summary["rendered"] as? Int == 0)
        // Nothing is written again: the old code rewrote .storyreel/ledger.json, same bytes.
        let after = stamps()
        let rewritten = Set(after.keys).union(before.keys).filter { after[$0] != before[$0] }.sorted()
        #expect(rewritten.isEmpty, "\(rewritten)")
        #expect(summary["cached"] as? Int == firstSummary["rendered"] as? Int)
        let (_, other) = try fixture.render(into: "another-name")
        #expect(other["rendered"] as? Int == firstSummary["rendered"] as? Int)
        #expect(try fixture.manifestBytes("one") == fixture.manifestBytes("another-name"))
    }

    // A no-op re-run writes its manifest from what it keeps: the old code opened every
    // transition again to read its codecs string (6 FFmpeg probes, a quarter of the run's time).
    // Nor is a source clip or a clip copy opened (the stat cache and the ledger answer for them).
    @Test(.enabled(if: IngestLeavesNothingBehindTests.canTrace, "needs strace and ptrace"))
    func aNoOpRerunOpensNoMediaFile() throws {
        let fixture = try BundleFixture()
        let (first, _) = try fixture.render(into: "reel")
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try fixture.manifest("reel")
        #expect(!manifest.transitions.isEmpty)
        let before = try fixture.manifestBytes("reel")
        let trace = fixture.folder.path("trace")
        let again = try TestEnvironment.run(
            "/usr/bin/strace",
            [
                "-f", "-o", trace, "-e", "trace=open,openat,openat2", TestEnvironment.storyreelBinary, "render",
                fixture.stories, "-o", fixture.folder.path("reel"), "--size", BundleFixture.canvasArgument, "--json",
            ])
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(summary?["rendered"] as? Int == 0)
        let opened = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("open") && !$0.contains("ENOENT") }
        let media = opened.filter { line in [".mp4\"", ".mov\"", ".MOV\"", ".m4v\""].contains { line.contains($0) } }
        #expect(media.isEmpty, "\(media.joined(separator: "\n"))")
        #expect(try fixture.manifestBytes("reel") == before)
        #expect(manifest.transitions.allSatisfy { $0.codecs?.hasPrefix("avc1.") == true })
    }
    @Test func changingOneClipRedoesOnlyWhatDependsOnIt() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let before = Set(fixture.outputs("reel"))
        // ben_k/10.mp4 is ben_k's last clip: it faces the ben_k → chloe transition.
        let clip = "\(fixture.stories)/ben_k/10.mp4"
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("black-intro.mp4"), toPath: clip)
        let (result, summary) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        // A clip copy, a poster, a thumbnail, the first and last frame stills and one transition.
        #expect(summary["rendered"] as? Int == 6)
        let after = Set(fixture.outputs("reel"))
        #expect(after.subtracting(before).count == 6)
        #expect(before.subtracting(after).count == 6, "--prune removed the old outputs")
        // Adding a story adds its units and the transition into it.
        let newStory = "\(fixture.stories)/zoe"
        try FileManager.default.createDirectory(atPath: newStory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: "\(newStory)/a.mp4")
        let (_, added) = try fixture.render(into: "reel")
        // zoe plays after chloe and before dev-ops (read): clip, poster, thumb, 2 stills and 2 new
        // transitions.
        #expect(added["rendered"] as? Int == 7)
        let manifest = try fixture.manifest("reel")
        #expect(manifest.stories.map(\.id) == ["ana.lima", "ben_k", "chloe", "zoe", "dev-ops"])
    }

    @Test func threeShardsMergedGiveTheSameManifestAsOneRun() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "single")
        var renderedInShards = 0
        for shard in 1...3 {
            let (result, summary) = try fixture.render(into: "shard\(shard)", ["--shard", "\(shard)/3"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("shard\(shard)/manifest.json")))
            renderedInShards += summary["rendered"] as? Int ?? 0
        }
        let merged = fixture.folder.path("merged")
        for shard in 1...3 {
            let copy = try TestEnvironment.run("cp", ["-R", fixture.folder.path("shard\(shard)") + "/.", merged])
            #expect(copy.status == 0, "\(copy.stderr)")
        }
        let (final, summary) = try fixture.render(into: "merged")
        #expect(final.status == 0)
        #expect(summary["rendered"] as? Int == 0, "the shards did all the work")
        #expect(renderedInShards == summary["cached"] as? Int)
        #expect(try fixture.manifestBytes("merged") == fixture.manifestBytes("single"))
    }

    @Test func killedRenderLeavesThePreviousManifestAndTheNextRunFinishes() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let previous = try fixture.manifestBytes("reel")
        // More work: a bigger canvas redoes every transition.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestEnvironment.storyreelBinary)
        process.arguments = [
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--size", "1080x1920", "--quiet",
        ]
        process.standardError = FileHandle.nullDevice
        let transitionsBefore = fixture.outputs("reel").filter { $0.hasPrefix("transitions/") }.count
        try process.run()
        // Kill it midway: once the first new transition is in place, two more are still to come.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline,
            fixture.outputs("reel").filter({ $0.hasPrefix("transitions/") }).count == transitionsBefore
        {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(process.isRunning, "the render must still be running when it is killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try fixture.manifestBytes("reel") == previous)
        let validate = try TestEnvironment.storyreel(["validate", fixture.folder.path("reel/manifest.json")])
        #expect(validate.status == 0, "\(validate.stderr)")
        let (result, _) = try fixture.render(into: "reel", ["--size", "1080x1920"])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        #expect(manifest.canvas.width == 1080)
        let leftovers = fixture.outputs("reel").filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(leftovers.isEmpty, "stale temp files are removed")
    }

    @Test func badClipIsSkippedAndEverythingElseRenders() throws {
        let fixture = try BundleFixture()
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: "\(fixture.stories)/chloe/zz-broken.mov"))
        let (result, summary) = try fixture.render(into: "reel")
        #expect(result.status == 65)
        #expect(summary["skipped"] as? Int == 1, "the JSON summary is printed even with exit 65")
        let manifest = try fixture.manifest("reel")
        let skipped = manifest.skipped
        #expect(skipped.first?.path == "chloe/zz-broken.mov")
        #expect(skipped.first?.story == "chloe")
        let items = manifest.stories.flatMap(\.items)
        #expect(items.count == 9)
    }

    /// From a QA pass: with OUT reached through a symlinked folder, `--reference` wrote `src`
    /// paths relative to OUT as given, which lead elsewhere from OUT's real folder (where
    /// `validate` refused them), with exit 0 and no word. The paths stay as they are (a browser
    /// resolves them from the path given); the render says so.
    @Test func referenceThroughASymlinkedOutSaysWhereItsPathsLead() throws {
        let fixture = try BundleFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder.path("real"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fixture.folder.path("a/b"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.path("a/b/out"), withDestinationPath: "../../real")
        let (result, _) = try fixture.render(into: "a/b/out/reel", ["--reference"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: warning: \(fixture.folder.path("a/b/out/reel")) is reached through a symbolic link: "
                    + "the clips' src paths (../../../../stories/"),
            "\(result.stderr)")
    }

    @Test func linkMakesHardLinksAndReferencePointsAtTheOriginals() throws {
        let fixture = try BundleFixture()
        let (linked, _) = try fixture.render(into: "linked", ["--link"])
        #expect(linked.status == 0, "\(linked.stderr)")
        let manifest = try fixture.manifest("linked")
        let items = manifest.stories.flatMap(\.items)
        let first = try #require(items.first?.src)
        let copy = try FileManager.default.attributesOfItem(atPath: fixture.folder.path("linked/\(first)"))
        let original = try FileManager.default.attributesOfItem(atPath: "\(fixture.stories)/ana.lima/IMG_0001.MOV")
        #expect(copy[.systemFileNumber] as? Int == original[.systemFileNumber] as? Int, "a hard link, not a copy")
        // Switched to --copy, the bundle's clips are copies: they stayed links to the sources,
        // and an edit of a source in place changed the published clip (a QA pass). plan says so.
        let plan = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--bundle", fixture.folder.path("linked"), "--copy", "--json", "--size",
            BundleFixture.canvasArgument,
        ])
        let units = (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["units"]
        let toDo = (units as? [[String: Any]] ?? []).filter { $0["done"] as? Bool == false }.compactMap {
            $0["kind"] as? String
        }
        #expect(toDo == Array(repeating: "clip", count: Set(items.map(\.src)).count), "\(plan.stderr)")
        // The text says it too, in a fourth field (a QA note: only the JSON told).
        let text = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--bundle", fixture.folder.path("linked"), "--copy", "--size",
            BundleFixture.canvasArgument,
        ])
        let rows = text.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(rows.count == (units as? [Any])?.count && rows.allSatisfy { $0.count == 4 }, "\(text.stdout)")
        #expect(rows.filter { $0.last == "to do" }.map { String($0[0]) } == toDo, "\(text.stdout)")
        #expect(rows.filter { $0.last == "done" }.count == rows.count - toDo.count, "\(text.stdout)")
        let (copied, copiedSummary) = try fixture.render(into: "linked", ["--copy"])
        #expect(copied.status == 0, "\(copied.stderr)")
        // Each copy is counted as made (the summary said "rendered 0"), and nothing else is.
        #expect(copiedSummary["rendered"] as? Int == Set(items.map(\.src)).count, "\(copied.stderr)")
        let now = try FileManager.default.attributesOfItem(atPath: fixture.folder.path("linked/\(first)"))
        #expect(now[.systemFileNumber] as? Int != original[.systemFileNumber] as? Int, "a copy, not a link")
        #expect(now[.referenceCount] as? Int == 1)
        let again = try fixture.render(into: "linked").0
        #expect(again.status == 0 && !again.stderr.contains("set aside"), "the ledger knows the copy: \(again.stderr)")
        #expect(try TestEnvironment.storyreel(["validate", fixture.folder.path("linked")]).status == 0)
        // And back to --link: the copies become links again (a QA pass: they stayed copies, and
        // the switch saved no space), each counted as made; plan says so first, and after.
        func clipsToDo(_ mode: String) throws -> [String] {
            let plan = try TestEnvironment.storyreel([
                "plan", fixture.stories, "--bundle", fixture.folder.path("linked"), mode, "--json", "--size",
                BundleFixture.canvasArgument,
            ])
            let units = (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["units"]
            return (units as? [[String: Any]] ?? []).filter { $0["done"] as? Bool == false }.compactMap {
                $0["kind"] as? String
            }
        }
        #expect(try clipsToDo("--link") == Array(repeating: "clip", count: Set(items.map(\.src)).count))
        let (relinked, relinkedSummary) = try fixture.render(into: "linked", ["--link"])
        #expect(relinked.status == 0, "\(relinked.stderr)")
        #expect(relinkedSummary["rendered"] as? Int == Set(items.map(\.src)).count, "\(relinked.stderr)")
        let linkedAgain = try FileManager.default.attributesOfItem(atPath: fixture.folder.path("linked/\(first)"))
        #expect(linkedAgain[.systemFileNumber] as? Int == original[.systemFileNumber] as? Int, "a link again")
        #expect(try clipsToDo("--link").isEmpty)
        let (still, stillSummary) = try fixture.render(into: "linked")
        #expect(still.status == 0 && stillSummary["rendered"] as? Int == 0, "\(still.stderr)")
        #expect(try TestEnvironment.storyreel(["validate", fixture.folder.path("linked")]).status == 0)

        let (referenced, _) = try fixture.render(into: "referenced", ["--reference"])
        #expect(referenced.status == 0, "\(referenced.stderr)")
        #expect(!referenced.stderr.contains("symbolic link"), "\(referenced.stderr)")
        let referencedManifest = try fixture.manifest("referenced")
        let sources = referencedManifest.stories.flatMap(\.items).map(\.src)
        #expect(sources.first == "../stories/ana.lima/IMG_0001.MOV")
        #expect(fixture.outputs("referenced").filter { $0.hasPrefix("clips/") }.isEmpty)
        let validate = try TestEnvironment.storyreel([
            "validate", fixture.folder.path("referenced/manifest.json"), "--root", fixture.folder.path(""),
        ])
        #expect(validate.status == 0, "\(validate.stderr)")
        let strict = try TestEnvironment.storyreel(["validate", fixture.folder.path("referenced")])
        #expect(strict.status == 65, "without --root, clips outside the bundle are not read")
        #expect(strict.stderr.contains("src: ../stories/ana.lima/IMG_0001.MOV leads outside the bundle"))
    }
}
