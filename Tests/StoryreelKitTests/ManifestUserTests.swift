import StoryreelKit
import Testing

/// The name an app shows for a user: its display name, or its handle where that is blank, by
/// the rule `render` and the player page share.
@Suite struct ManifestUserTests {
    @Test(arguments: ["", " \t", "\u{200B}", "\u{FEFF}", "\u{3164}", "\u{85}", "\u{2028}\u{200D}"])
    func aBlankOrInvisibleNameShowsTheHandle(_ blank: String) {
        let user = Manifest.User(handle: "zoe", displayName: blank, avatar: nil)
        #expect(Manifest.User.isBlank(blank))
        #expect(user.shownName == "zoe")
    }

    @Test(arguments: ["Zoë", "\u{200B}x", "👩‍👩‍👧", "\u{0644}"])
    func aNameWithAnythingVisibleIsShown(_ name: String) {
        #expect(!Manifest.User.isBlank(name))
        #expect(Manifest.User(handle: "zoe", displayName: name, avatar: nil).shownName == name)
    }
}
