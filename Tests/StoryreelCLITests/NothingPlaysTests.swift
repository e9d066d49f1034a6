import Foundation
import StoryPipeline
import StoryreelTestSupport
import Testing

/// A render in which nothing plays leaves the bundle as it was. From a QA pass: every clip
/// unreadable (a mount missing, a spec of broken paths) published an empty manifest over a good
/// one, and with `--prune` removed every output, while the run said only that clips were skipped.
@Suite struct NothingPlaysTests {
    @Test func aRenderInWhichNothingPlaysLeavesTheManifestAndPrunesNothing() throws {
        let fixture = try BundleFixture()
        let (first, firstSummary) = try fixture.render(into: "reel")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(firstSummary["manifest"] as? String == fixture.folder.path("reel/manifest.json"))
        let manifest = try fixture.manifestBytes("reel")
        let outputs = fixture.outputs("reel")
        let stories = try FileManager.default.contentsOfDirectory(atPath: fixture.stories)
        for story in stories {
            let folder = "\(fixture.stories)/\(story)"
            for clip in try FileManager.default.contentsOfDirectory(atPath: folder)
            where StoryInput.isClipFileName(clip) {
                try Data("not a clip".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(clip)"))
            }
        }
        let (result, summary) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "storyreel: error: nothing plays: every story was skipped, so the manifest was left as it was, "
                    + "and nothing was pruned\n"), "\(result.stderr)")
        #expect((summary["skipped"] as? Int ?? 0) > 0)
        // From a QA pass: --json could not tell this from a render that skipped some clips.
        #expect(summary["manifest"] is NSNull, "no manifest was written: \(summary)")
        #expect(try fixture.manifestBytes("reel") == manifest, "the manifest is left as it was")
        #expect(fixture.outputs("reel") == outputs, "nothing is pruned")
        // A shard keeps the settings as they were too: its --no-player was kept, and the next
        // render removed the page.
        let settings = fixture.folder.path("reel/.storyreel/settings.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: settings))
        let (shard, _) = try fixture.render(into: "reel", ["--shard", "1/2", "--no-player"])
        #expect(shard.status == 66, "\(shard.stderr)")
        #expect(!shard.stderr.contains("settings changed"), "\(shard.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: settings)) == before)
    }

    /// From a QA pass: `render samples` (the folder above `samples/stories`) ended with a
    /// warning, "nothing plays: every story was skipped", then "skipped 0" and exit 66, no
    /// error line and no hint. The outcome is the last line, an error, says no story holds a
    /// clip, and names the folder of stories inside INPUT; `plan` says the same.
    @Test func theFolderAboveTheStoriesIsNamedAsTheOneToGive() throws {
        let fixture = try BundleFixture()
        let above = fixture.folder.url.path
        let outputs = try TemporaryFolder()
        let out = outputs.path("reel")
        let render = try TestEnvironment.storyreel(["render", above, "-o", out])
        #expect(render.status == 66, "\(render.stderr)")
        let hint = "; '\(above)/stories' holds story folders: give it as INPUT\n"
        #expect(
            render.stderr.hasSuffix(
                "storyreel: error: nothing plays: no story holds a clip, so no bundle was made ('\(out)' holds only its "
                    + "lock file)" + hint), "\(render.stderr)")
        #expect(!render.stderr.contains("warning: nothing plays"), "\(render.stderr)")
        let plan = try TestEnvironment.storyreel(["plan", above])
        #expect(plan.status == 66)
        #expect(
            plan.stderr.hasSuffix("storyreel: error: nothing plays: no story holds a clip" + hint), "\(plan.stderr)")
        let json = try TestEnvironment.storyreel(["render", above, "-o", out, "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((summary["warnings"] as? [String])?.last?.hasPrefix("nothing plays: no story holds a clip") == true)
    }

    /// A first render in which nothing plays makes no bundle. From a QA pass: a new OUT was left
    /// holding `.lock`, an empty ledger and six empty folders, a folder that looked like a bundle.
    /// OUT and its lock file stay (a re-check: with them removed, a render queued on that lock
    /// failed with 73 once it had it).
    @Test func aFirstRenderInWhichNothingPlaysLeavesNoBundle() throws {
        let fixture = try BundleFixture()
        let stories = fixture.folder.path("broken")
        try FileManager.default.createDirectory(atPath: "\(stories)/alice", withIntermediateDirectories: true)
        try Data("not a clip".utf8).write(to: URL(fileURLWithPath: "\(stories)/alice/1.mp4"))
        let out = fixture.folder.path("new/reel")
        let result = try TestEnvironment.storyreel(["render", stories, "-o", out])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                "storyreel: error: nothing plays: every story was skipped, so no bundle was made ('\(out)' holds only "
                    + "its lock file)\n"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [".lock"], "no skeleton")
        // A retry finds OUT holding only its lock file: bare, so it is taken away again (a
        // re-check: the retry left the skeleton).
        let retry = try TestEnvironment.storyreel(["render", stories, "-o", out])
        #expect(retry.stderr.contains("so no bundle was made"), "\(retry.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [".lock"])
        // A clip that opens but does not decode is copied before its frames fail: the copy, as
        // storyreel wrote it, goes too (a re-check found 200 such copies left).
        var clip = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("portrait-h264.mp4")))
        let mdat = try #require(clip.range(of: Data("mdat".utf8)))
        // Garbled, not zeros, which say "preallocated" and skip the clip before it is copied.
        clip.replaceSubrange(
            mdat.upperBound..<clip.count, with: Data(repeating: 0x01, count: clip.count - mdat.upperBound))
        try clip.write(to: URL(fileURLWithPath: "\(stories)/alice/1.mp4"))
        let undecodable = try TestEnvironment.storyreel(["render", stories, "-o", out])
        #expect(
            undecodable.status == 66 && undecodable.stderr.contains("so no bundle was made"), "\(undecodable.stderr)")
        // What it copied went with the bundle: a QA pass read "rendered 1" beside "no bundle".
        #expect(
            undecodable.stderr.contains("storyreel: note: rendered 0, cached 0, skipped 2"), "\(undecodable.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [".lock"])
        // An empty folder given as OUT is bare too (a re-check: it kept the copies and skeleton).
        try FileManager.default.removeItem(atPath: out)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let given = try TestEnvironment.storyreel(["render", stories, "-o", out])
        #expect(given.status == 66 && given.stderr.contains("so no bundle was made"), "\(given.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [".lock"])
        // One holding a file of someone else's is no bundle, and is refused (render --force
        // keeps everything).
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(out)/notes.txt"))
        let forced = try TestEnvironment.storyreel(["render", stories, "-o", out, "--force"])
        #expect(forced.status == 66 && forced.stderr.contains("so no manifest was written"), "\(forced.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(out)/notes.txt"))
    }

    /// An INPUT that holds no stories exits 66, never 65. From a review of the CI examples
    /// (docs/bundles.md): they take 65 (some clips skipped, the rest rendered) as done, and an empty
    /// mount, a bundle given as the stories folder, or clips none of which could be read exited
    /// 65 too, so the job passed having rendered nothing.
    @Test func anInputWithNoStoriesIsNoInputNotASkippedClip() throws {
        let fixture = try BundleFixture()
        let empty = fixture.folder.path("empty-mount")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let broken = fixture.folder.path("broken")
        try FileManager.default.createDirectory(atPath: "\(broken)/alice", withIntermediateDirectories: true)
        try Data("not a clip".utf8).write(to: URL(fileURLWithPath: "\(broken)/alice/1.mp4"))
        let out = fixture.folder.path("reel")
        // The README's guard, as a CI step runs it.
        let guarded = "\"$STORYREEL\" render \"$1\" -o \"$2\" || [ $? -eq 65 ]"
        for input in [empty, broken] {
            let result = try TestEnvironment.run(
                "/bin/sh", ["-c", "STORYREEL=\"$0\"; \(guarded)", TestEnvironment.storyreelBinary, input, out])
            #expect(result.status != 0, "\(input): the CI step passed: \(result.stderr)")
            let plan = try TestEnvironment.storyreel(["plan", input])
            #expect(plan.status == 66, "\(input): \(plan.stderr)")
        }
        let render = try TestEnvironment.storyreel(["render", empty, "-o", out])
        #expect(
            render.status == 66
                && render.stderr
                    == "storyreel: error: \(empty): not a stories folder: it has no story subfolders "
                    + "(expected STORIES/HANDLE/clip.mov)\n",
            "\(render.stderr)")
        let plan = try TestEnvironment.storyreel(["plan", broken])
        #expect(plan.stderr.hasSuffix("storyreel: error: nothing plays: every story was skipped\n"), "\(plan.stderr)")
        // Some clips skipped, the rest rendered, is still 65, which the guard takes as done.
        try Data("not a clip".utf8).write(to: URL(fileURLWithPath: "\(fixture.stories)/ben_k/1.mp4"))
        let partial = try TestEnvironment.run(
            "/bin/sh", ["-c", "STORYREEL=\"$0\"; \(guarded)", TestEnvironment.storyreelBinary, fixture.stories, out])
        #expect(partial.status == 0, "\(partial.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(out)/manifest.json"))
    }
}
