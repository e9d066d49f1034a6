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
        let (first, _) = try fixture.render(into: "reel")
        #expect(first.status == 0, "\(first.stderr)")
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
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: warning: nothing plays: every story was skipped, so the manifest was left as it was, "
                    + "and nothing was pruned"), "\(result.stderr)")
        #expect((summary["skipped"] as? Int ?? 0) > 0)
        #expect(try fixture.manifestBytes("reel") == manifest, "the manifest is left as it was")
        #expect(fixture.outputs("reel") == outputs, "nothing is pruned")
        // A shard keeps the settings as they were too: its --no-player was kept, and the next
        // render removed the page.
        let settings = fixture.folder.path("reel/.storyreel/settings.json")
        let before = try Data(contentsOf: URL(fileURLWithPath: settings))
        let (shard, _) = try fixture.render(into: "reel", ["--shard", "1/2", "--no-player"])
        #expect(shard.status == 65, "\(shard.stderr)")
        #expect(!shard.stderr.contains("settings changed"), "\(shard.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: settings)) == before)
    }
}
