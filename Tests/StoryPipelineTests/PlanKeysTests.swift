import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// A plan's keys name everything that goes into each output: changing one input or one
/// parameter changes exactly the keys of the outputs made from it, and no other.
@Suite struct PlanKeysTests {
    /// The plan of `stories` with `edit` applied to the default settings, as a key per unit
    /// (`poster ben_k/10.mp4`, `transition ana.lima→ben_k forward`).
    static func keys(_ stories: String, _ edit: (inout BundleSettings) -> Void = { _ in }) throws -> [String: String] {
        var settings = BundleSettings()
        edit(&settings)
        let plan = try BundlePlan.make(
            input: try StoryInput.load(stories), settings: settings, options: RenderOptions(), cache: nil)
        var keys: [String: String] = [:]
        for unit in plan.units {
            let name =
                unit.transition.map { "transition \($0.fromStory)→\($0.toStory) \($0.direction)" }
                ?? "\(unit.kind.rawValue) \(unit.sourceLabel)"
            #expect(keys[name] == nil, "one unit per name: \(name)")
            keys[name] = unit.key
        }
        return keys
    }

    /// The names whose keys differ between two plans (both must name the same units).
    static func changed(_ before: [String: String], _ after: [String: String]) -> Set<String> {
        #expect(Set(before.keys) == Set(after.keys))
        return Set(before.keys.filter { before[$0] != after[$0] })
    }

    static let samples = TestEnvironment.sample("stories")

    @Test func theSamplesPlanEveryOutput() throws {
        let keys = try Self.keys(Self.samples)
        // 9 clips × (clip, poster, thumbnail, two stills), 4 avatars, 3 forward transitions.
        #expect(keys.count == 9 * 5 + 4 + 3)
        #expect(try Self.keys(Self.samples) == keys, "the same input plans the same keys")
    }

    @Test func transitionParametersChangeOnlyTheTransitions() throws {
        let base = try Self.keys(Self.samples)
        let transitions = Set(base.keys.filter { $0.hasPrefix("transition ") })
        #expect(transitions.count == 3)
        #expect(Self.changed(base, try Self.keys(Self.samples) { $0.fps = 25 }) == transitions)
        #expect(Self.changed(base, try Self.keys(Self.samples) { $0.crf = 28 }) == transitions)
        #expect(Self.changed(base, try Self.keys(Self.samples) { $0.transitionDuration = 0.75 }) == transitions)
        #expect(Self.changed(base, try Self.keys(Self.samples) { $0.peak = .fixed(2_000_000) }) == transitions)
    }

    @Test func theCanvasChangesPostersStillsAndTransitionsButNotClipsThumbnailsOrAvatars() throws {
        let base = try Self.keys(Self.samples)
        let changed = Self.changed(base, try Self.keys(Self.samples) { $0.canvas = .fixed(width: 360, height: 640) })
        let expected = base.keys.filter { name in
            ["poster ", "first-frame ", "last-frame ", "transition "].contains { name.hasPrefix($0) }
        }
        #expect(changed == Set(expected))
        // A poster is the picture shrunk to fit the canvas: the 540x960 samples fit their own
        // canvas and 1080x1920 alike, so their posters keep their keys (a QA pass saw every
        // poster made again for a --size that could not change them).
        let larger = Self.changed(
            base, try Self.keys(Self.samples) { $0.canvas = .fixed(width: 1080, height: 1920) })
        #expect(
            larger
                == Set(
                    base.keys.filter { name in
                        ["first-frame ", "last-frame ", "transition "].contains { name.hasPrefix($0) }
                    }))
    }

    @Test func aChangedClipChangesItsOwnOutputsAndTheTransitionShowingIt() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.copyItem(atPath: Self.samples, toPath: stories)
        let base = try Self.keys(stories)
        // A trailing `free` atom: new bytes, the same pictures.
        let clip = try FileHandle(forWritingTo: URL(fileURLWithPath: stories + "/ben_k/10.mp4"))
        try clip.seekToEnd()
        try clip.write(contentsOf: Data([0, 0, 0, 8]) + Data("free".utf8))
        try clip.close()
        let changed = Self.changed(base, try Self.keys(stories))
        #expect(
            changed == [
                "clip ben_k/10.mp4", "poster ben_k/10.mp4", "thumbnail ben_k/10.mp4", "first-frame ben_k/10.mp4",
                "last-frame ben_k/10.mp4", "transition ben_k→chloe forward",
            ])
    }
}
