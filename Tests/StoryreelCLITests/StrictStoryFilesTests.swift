import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `story.json` and specs are read strictly: a value of the wrong type leaves that story out,
/// with the reason in the manifest's `skipped`; an unknown key is a warning naming the closest
/// known key.
@Suite struct StrictStoryFilesTests {
    @Test func aWrongTypeInStoryJSONSkipsThatStoryWithTheReason() throws {
        let fixture = try BundleFixture()
        try Data(#"{"displayName": "Chloe", "isRead": "yes"}"#.utf8).write(
            to: URL(fileURLWithPath: "\(fixture.stories)/chloe/story.json"))
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: error: chloe/story.json: skipped: \"isRead\" must be true or false, got \"yes\""),
            "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        let ids = manifest.stories.map(\.id)
        #expect(ids == ["ana.lima", "ben_k", "dev-ops"])
        let skipped = manifest.skipped
        #expect(skipped.contains { $0.path == "chloe/story.json" && $0.story == "chloe" })
        #expect(skipped.contains { $0.reason.contains("\"isRead\" must be true or false") })
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
    }

    @Test func aSpecEntryOfTheWrongTypeIsSkippedAndAnUnknownKeyWarns() throws {
        let fixture = try BundleFixture()
        let spec = #"""
            {"stories": [
              {"handle": "ana.lima", "items": ["stories/ana.lima/IMG_0001.MOV"], "isRead": 1},
              {"handle": "ben_k", "items": ["stories/ben_k/1.mp4"], "displayNmae": "Ben"}
            ]}
            """#
        let path = try fixture.folder.write("spec.json", Data(spec.utf8))
        let result = try TestEnvironment.storyreel(["plan", path, "--json"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains("stories[0]: skipped: \"isRead\" must be true or false, got 1"), "\(result.stderr)")
        #expect(
            result.stderr.contains("stories[1]: unknown key \"displayNmae\" (did you mean \"displayName\"?); ignored"),
            "\(result.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let stories = Set((plan?["units"] as? [[String: Any]] ?? []).compactMap { $0["story"] as? String })
        #expect(stories == ["ben_k"])
    }
}
