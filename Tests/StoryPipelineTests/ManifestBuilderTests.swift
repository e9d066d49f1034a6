import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The manifest is built from what the run already has (the resolved stories, the transition
/// units that made it, what was skipped), with unique ids for repeated content.
@Suite struct ManifestBuilderTests {
    static func plan() throws -> BundlePlan {
        try BundlePlan.make(
            input: try StoryInput.load(TestEnvironment.sample("stories")),
            settings: BundleSettings(), options: RenderOptions(), cache: nil)
    }

    @Test func storiesItemsAndTransitionsComeFromTheUnits() throws {
        let plan = try Self.plan()
        let transitions = try plan.transitionUnits(between: plan.stories)
        let result = try ManifestBuilder(
            stories: plan.stories, transitions: transitions, skipped: [], plan: plan, bundle: "/tmp/reel"
        ).build()
        let manifest = result.manifest
        #expect(manifest.version == 1)
        #expect(manifest.canvas == Manifest.Size(width: plan.canvasWidth, height: plan.canvasHeight))
        #expect(manifest.stories.map(\.id) == plan.stories.map(\.id))
        for (story, resolved) in zip(manifest.stories, plan.stories) {
            #expect(story.items.map(\.sha256) == resolved.items.map(\.record.sha256))
            #expect(story.items.map(\.src) == resolved.items.map { $0.outputs.clip ?? "" })
            #expect(story.items.map(\.firstFrame) == resolved.items.map(\.outputs.firstFrame))
            #expect(story.duration == resolved.items.map(\.record.duration).reduce(0, +))
            #expect(story.user.avatar == resolved.avatarOutput)
        }
        #expect(manifest.duration == manifest.stories.map(\.duration).reduce(0, +))
        #expect(manifest.transitions.map(\.src) == transitions.map(\.output))
        #expect(
            manifest.transitions.map { "\($0.from)→\($0.to)" } == ["ana.lima→ben_k", "ben_k→chloe", "chloe→dev-ops"])
        #expect(manifest.transitions.allSatisfy { $0.frames == 15 && $0.fps == 30 && $0.duration == 0.5 })
        let expectedFiles = Set(
            plan.stories.flatMap { $0.items.flatMap(\.outputs.all) + [$0.avatarOutput].compactMap { $0 } }
                + transitions.map(\.output))
        #expect(result.referencedFiles == expectedFiles)
        #expect(try Manifest(jsonData: manifest.jsonData()) == manifest)
    }

    @Test func repeatedContentGetsNumberedIdsAndSkippedEntriesAreKept() throws {
        let plan = try Self.plan()
        var stories = plan.stories
        let repost = stories[0].items[0]
        stories[2].items.append(repost)
        stories[3].items.insert(repost, at: 0)
        stories[1].avatarOutput = nil
        let skipped = [
            SkippedEntry(path: "chloe/broken.mov", story: "chloe", reason: "moov atom not found"),
            SkippedEntry(path: "no handle!", story: nil, reason: "not a valid handle"),
        ]
        let manifest = try ManifestBuilder(stories: stories, transitions: [], skipped: skipped, plan: plan, bundle: ".")
            .build().manifest
        let id = repost.record.id
        #expect(manifest.stories[0].items[0].id == id)
        #expect(manifest.stories[2].items.last?.id == "\(id)-2")
        #expect(manifest.stories[3].items.first?.id == "\(id)-3", "numbered in play order")
        #expect(manifest.stories[3].items.first?.src == manifest.stories[0].items[0].src, "one copy of the content")
        #expect(Set(manifest.stories.flatMap(\.items).map(\.id)).count == manifest.stories.flatMap(\.items).count)
        #expect(manifest.stories[1].user.avatar == nil)
        #expect(manifest.skipped == skipped)
        #expect(manifest.transitions.isEmpty)
        let text = String(decoding: try manifest.jsonData(), as: UTF8.self)
        #expect(text.contains("\"avatar\": null") && text.contains("\"story\": null"))
    }
}
