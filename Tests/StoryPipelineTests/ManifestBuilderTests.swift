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
            #expect(abs(story.duration - resolved.items.map(\.record.duration).reduce(0, +)) < 1e-9)
            #expect(story.user.avatar == resolved.avatarOutput)
        }
        #expect(abs(manifest.duration - manifest.stories.map(\.duration).reduce(0, +)) < 1e-9)
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

    /// From a QA pass: a story of 0.1 s and 0.2 s items said it lasted 0.30000000000000004 s.
    /// Sums are rounded to the microsecond, as ffprobe writes durations.
    @Test func durationsAreSumsRoundedToTheMicrosecond() throws {
        let plan = try Self.plan()
        var stories = plan.stories
        stories[0].items[0].record.duration = 0.1
        stories[0].items[1].record.duration = 0.2
        stories[1].items[0].record.duration = 0.7
        let manifest = try ManifestBuilder(stories: stories, transitions: [], skipped: [], plan: plan, bundle: ".")
            .build().manifest
        #expect(0.1 + 0.2 != 0.3, "the sum this test is about")
        #expect(manifest.stories[0].duration == 0.3)
        let text = String(decoding: try manifest.jsonData(), as: UTF8.self)
        #expect(text.contains("\"duration\": 0.3,"), "\(text.prefix(400))")
        #expect(!text.contains("0000000"), "\(text)")
        let sum = manifest.stories.map(\.duration).reduce(0, +)
        #expect(manifest.duration == (sum * 1_000_000).rounded() / 1_000_000)
    }

    /// From an end-to-end QA pass: 7 frames at 24 fps were written 0.2916666666666667 s, where
    /// every other duration is rounded to the microsecond.
    @Test func aTransitionsDurationIsRoundedToTheMicrosecond() throws {
        var settings = BundleSettings()
        settings.fps = 24
        settings.transitionDuration = 0.3
        let plan = try BundlePlan.make(
            input: try StoryInput.load(TestEnvironment.sample("stories")), settings: settings,
            options: RenderOptions(), cache: nil)
        let transitions = try plan.transitionUnits(between: plan.stories)
        let manifest = try ManifestBuilder(
            stories: plan.stories, transitions: transitions, skipped: [], plan: plan, bundle: "/tmp/reel"
        ).build().manifest
        #expect(manifest.transitions.map(\.frames) == [7, 7, 7])
        #expect(manifest.transitions.allSatisfy { $0.duration == 0.291667 }, "\(manifest.transitions)")
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
