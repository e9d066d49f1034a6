import Foundation
import StoryreelKit
import Testing

/// `Manifest.checkIDsAreUnique()` names the first repeated story or item id as `validate` does:
/// decoding lets such a manifest through, and the navigator, the seen state and SwiftUI lists
/// take each id for one story or item.
@Suite struct ManifestUniqueIDsTests {
    @Test func aManifestWithUniqueIDsPasses() throws {
        try ManifestSamples.manifest(items: [2, 3, 1]).checkIDsAreUnique()
    }

    @Test func aRepeatedItemIDIsNamedWhereItIsGivenAgain() throws {
        var manifest = ManifestSamples.manifest(items: [2, 3, 1])
        let first = manifest.stories[0].items[1].id
        manifest.stories[1].items[2].id = first
        #expect(
            throws: ManifestError(path: "stories[1].items[2].id", "'\(first)' is also the id of stories[0].items[1]")
        ) {
            try manifest.checkIDsAreUnique()
        }
        // What the check is for: the navigator takes the repeat for seen once the first is, so a
        // swipe into the story lands past its unseen first item.
        manifest.stories[1].items[0].id = manifest.stories[0].items[0].id
        var navigator = StoryNavigator(manifest: manifest)
        navigator.swipeToNextStory()
        #expect(navigator.currentItem?.id == manifest.stories[1].items[1].id)
    }

    @Test func aRepeatedStoryIDComesFirstAndQuotesAreEscaped() throws {
        var manifest = ManifestSamples.manifest(items: [1, 1, 1])
        manifest.stories[2].id = "it's"
        manifest.stories[1].id = "it's"
        manifest.stories[2].items[0].id = manifest.stories[0].items[0].id
        let error = try #require(throws: ManifestError.self) { try manifest.checkIDsAreUnique() }
        #expect(error.description == #"stories[2].id: 'it\'s' is also the id of stories[1]"#)
    }
}
