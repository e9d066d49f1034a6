import Foundation
import StoryreelTestSupport
import Testing

/// A bundle is not a stories folder. From a QA pass: `render OUT -o OUT2` rendered the bundle's
/// `clips/`, `posters/` … as stories (exit 65 for "no playable clip" in four of them, and a
/// bundle of transitions between them), and `ingest --into OUT` filed the upload as a story
/// folder inside the bundle, exit 0. Each now says what the folder is, and writes nothing.
@Suite struct BundleGivenAsStoriesTests {
    static let reason = "a bundle storyreel rendered (it holds .storyreel/), not a stories folder"

    /// Every path under `folder`, relative, sorted.
    static func tree(_ folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
    }

    @Test func renderAndPlanRefuseABundleAsTheirInput() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let bundle = fixture.folder.path("reel")
        let before = try Self.tree(bundle)
        let render = try TestEnvironment.storyreel(["render", bundle, "-o", fixture.folder.path("reel2")])
        #expect(render.status == 66, "\(render.stderr)")
        #expect(
            render.stderr
                == "storyreel: error: \(bundle): \(Self.reason); give the stories folder it was rendered from\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("reel2")))
        let plan = try TestEnvironment.storyreel(["plan", bundle])
        #expect(plan.status == 66, "\(plan.stderr)")
        #expect(plan.stdout.isEmpty)
        #expect(try Self.tree(bundle) == before)
    }

    /// A shard's output has no manifest (nor has a first render interrupted): its ledger says it
    /// is a bundle (a review: it was still rendered as stories, and ingested into).
    @Test func aShardsOutputWithoutAManifestIsABundleToo() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "part", ["--shard", "1/2"]).0.status == 0)
        let bundle = fixture.folder.path("part")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/manifest.json"))
        let render = try TestEnvironment.storyreel(["render", bundle, "-o", fixture.folder.path("reel2")])
        #expect(render.status == 66, "\(render.stderr)")
        #expect(render.stderr.contains(Self.reason), "\(render.stderr)")
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let ingest = try TestEnvironment.storyreel(["ingest", clip, "--story", "zed", "--into", bundle])
        #expect(ingest.status == 66, "\(ingest.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/zed"))
    }

    @Test func ingestRefusesABundleAsItsStoriesFolder() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let bundle = fixture.folder.path("reel")
        let before = try Self.tree(bundle)
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let result = try TestEnvironment.storyreel(["ingest", clip, "--story", "zed", "--into", bundle])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: error: \(bundle): \(Self.reason); --into takes the stories folder, --render the bundle\n"
        )
        #expect(try Self.tree(bundle) == before)
        // The stories folder itself is still taken.
        let good = try TestEnvironment.storyreel(["ingest", clip, "--story", "zed", "--into", fixture.stories])
        #expect(good.status == 0, "\(good.stderr)")
    }
}
