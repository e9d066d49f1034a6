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

    /// A bundle copied without `.storyreel/` (a deploy of its visible files, shard artifacts
    /// merged without hidden files) is a bundle too (a QA pass: it was rendered, exit 0, as
    /// stories named `clips` and `transitions`, the transitions copied in as clips): by its
    /// manifest, its page, or its output folders of key-named files alone. A story folder of
    /// one of those names, of a person's clips, is still a story.
    @Test func aBundleWithoutItsHiddenFolderIsABundleToo() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let cases: [(name: String, drop: [String], holds: String)] = [
            ("deployed", [], "storyreel's manifest.json"),
            ("page-only", ["manifest.json"], "storyreel's player page, index.html"),
            ("artifacts", ["manifest.json", "index.html"], "only storyreel's output folders, clips/, posters/, "),
        ]
        for (name, drop, holds) in cases {
            let copy = try fixture.copyWithoutHiddenFolder("reel", to: name)
            for file in drop { try FileManager.default.removeItem(atPath: "\(copy)/\(file)") }
            let before = try Self.tree(copy)
            let out = fixture.folder.path("\(name)-out")
            let render = try TestEnvironment.storyreel(["render", copy, "-o", out])
            #expect(render.status == 66, "\(name): \(render.stderr)")
            #expect(
                render.stderr.hasPrefix("storyreel: error: \(copy): a bundle storyreel rendered (it holds \(holds)"),
                "\(name): \(render.stderr)")
            #expect(render.stderr.hasSuffix("), not a stories folder; give the stories folder it was rendered from\n"))
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try TestEnvironment.storyreel(["plan", copy]).status == 66, "\(name)")
            let clip = TestEnvironment.sample("portrait-h264.mp4")
            let ingest = try TestEnvironment.storyreel(["ingest", clip, "--story", "zed", "--into", copy])
            #expect(ingest.status == 66, "\(name): \(ingest.stderr)")
            #expect(try Self.tree(copy) == before, "\(name)")
        }
        // Stories named as output folders, of a person's clips: rendered.
        let stories = fixture.folder.path("named")
        for story in ["clips", "transitions"] {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(story)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(stories)/\(story)/IMG_0001.mp4")
        }
        let named = try TestEnvironment.storyreel(["render", stories, "-o", fixture.folder.path("named-out")])
        #expect(named.status == 0, "\(named.stderr)")
    }
}
