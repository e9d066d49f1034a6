import StoryMedia
import Testing

/// A value a message quotes is cut at 80 characters with `…`, and by Unicode scalars too, so no
/// line grows with what a file holds.
@Suite struct StringShortenedTests {
    @Test func shortTextIsWholeAndLongTextIsCutAndMarked() {
        #expect("abc".shortened() == "abc")
        #expect(String(repeating: "a", count: 80).shortened() == String(repeating: "a", count: 80))
        #expect(String(repeating: "a", count: 81).shortened() == String(repeating: "a", count: 80) + "…")
        #expect(String(repeating: "a", count: 300).shortened() == String(repeating: "a", count: 80) + "…")
        // Family emoji (5 scalars each): 80 of them are 400 scalars, over the scalar budget.
        let families = String(repeating: "👩‍👩‍👧", count: 100).shortened()
        #expect(families.hasSuffix("…"))
        #expect(families.count <= 81)
    }

    /// From a review: one character of a million combining marks made a 2 MB line.
    @Test func oneCharacterOfAMillionMarksIsCutInside() {
        let text = "a" + String(repeating: "\u{301}", count: 1_000_000)
        let shown = text.shortened()
        #expect(shown.unicodeScalars.count <= 4 * 80 + 1)
        #expect(shown.hasSuffix("…"))
    }
}
