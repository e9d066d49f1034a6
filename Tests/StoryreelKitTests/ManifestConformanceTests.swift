import StoryreelKit
import Testing

/// What an app's SwiftUI code asks of the model (a QA pass: an app had to add the conformances
/// itself, which Swift 6 warns about): stories and items identified by their ids
/// (`ForEach(manifest.stories)`), hashable values (`NavigationLink(value:)`, a `Set`), and an item
/// built from its required parts alone (previews, tests).
@Suite struct ManifestConformanceTests {
    /// The identity `ForEach` takes of `value`; compiles only for an `Identifiable` type.
    func identity<Value: Identifiable>(of value: Value) -> Value.ID { value.id }

    @Test func storiesAndItemsAreIdentifiedByTheirIDs() {
        let story = ManifestSamples.manifest(items: [2, 1]).stories[1]
        #expect(identity(of: story) == "s1")
        #expect(identity(of: story.items[0]) == story.items[0].id)
    }

    /// From a Kit consumer review: users, transitions and skipped entries were not
    /// `Identifiable`, so `ForEach(manifest.transitions)` needed an `id:` key path of the app's.
    @Test func usersTransitionsAndSkippedEntriesAreIdentified() {
        let manifest = ManifestSamples.manifest(items: [2, 1, 1], transitions: .both)
        #expect(identity(of: manifest.stories[1].user) == "s1")
        let ids = manifest.transitions.map { identity(of: $0) }
        #expect(Set(ids).count == manifest.transitions.count, "each join once")
        #expect(ids.first == Manifest.Transition.ID(from: "s0", to: "s1", direction: .forward))
        #expect(identity(of: Manifest.SkippedEntry(path: "s2/a.mov", story: "s2", reason: "broken")) == "s2/a.mov")
    }

    @Test func theModelValuesAreHashable() {
        let manifest = ManifestSamples.manifest(items: [2, 1], transitions: .both)
        #expect(Set([manifest, manifest, ManifestSamples.manifest(items: [1])]).count == 2)
        #expect(Set(manifest.stories + manifest.stories).count == 2)
        #expect(Set(manifest.stories.flatMap(\.items)).count == 3)
        #expect(Set(manifest.stories.map(\.user)).count == 2)
        #expect(Set(manifest.transitions + manifest.transitions).count == 2)
        #expect(Set([manifest.canvas, Manifest.Size(width: 360, height: 640)]).count == 1)
        #expect(Set([Manifest.SkippedEntry(path: "a.mov", story: nil, reason: "broken")]).count == 1)
        var navigator = StoryNavigator(manifest: manifest)
        let steps: Set<PlaybackStep> = [navigator.current, navigator.itemDidFinish(), navigator.itemDidFinish(), .end]
        #expect(steps.count == 4)
        #expect(Set([SeenState(), navigator.seen, navigator.seen]).count == 2)
    }

    @Test func anItemNeedsNoneOfItsOptionalParts() {
        let item = Manifest.Item(
            id: "0000000000000001", src: "clips/1.mp4", sha256: String(repeating: "0", count: 64), duration: 2,
            width: 360, height: 640, rotation: 0, frameRate: 30, codec: "h264", hdr: "none", hasAudio: false,
            poster: "posters/1.jpg", thumbnail: "thumbs/1.jpg")
        #expect(item.codecs == nil && item.firstFrame == nil && item.lastFrame == nil)
        let withStills = Manifest.Item(
            id: item.id, src: item.src, sha256: item.sha256, duration: 2, width: 360, height: 640, rotation: 0,
            frameRate: 30, codec: "h264", hdr: "none", hasAudio: false, poster: item.poster, thumbnail: item.thumbnail,
            lastFrame: "stills/1-last.jpg")
        #expect(withStills.firstFrame == nil && withStills.lastFrame == "stills/1-last.jpg")
    }
}
