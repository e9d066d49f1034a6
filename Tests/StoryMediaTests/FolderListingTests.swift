import Testing

@testable import StoryMedia

/// A name that is not UTF-8 is shown with one `\xHH` per bad byte and `\\` for a backslash, so
/// that two such names never read as one, nor as a valid name (shown as it is) without `\`.
@Suite struct FolderListingTests {
    static func bytes(_ text: String, then tail: [UInt8] = []) -> [UInt8] { Array(text.utf8) + tail }

    static let cases: [(bytes: [UInt8], shown: String)] = [
        (bytes("a", then: [0xFF]), #"a\xFF"#),
        (bytes("a", then: [0xFE]), #"a\xFE"#),
        (bytes("caf\u{E9}", then: [0xC3]), #"café\xC3"#),
        ([0xE2, 0x82, 0x78], #"\xE2\x82x"#),
        (bytes(#"a\b"#, then: [0x80]), #"a\\b\x80"#),
    ]

    @Test func aBadByteIsWrittenOutAndABackslashDoubled() {
        for (bytes, shown) in Self.cases {
            #expect(FolderListing.escapedName(bytes) == shown)
        }
    }

    @Test func twoNamesThatDifferInABadByteAreShownApart() {
        let names = [[0x61, 0xFF], [0x61, 0xFE]].map(FolderListing.escapedName) + ["a\u{FFFD}"]
        #expect(Set(names).count == 3, "\(names)")
    }
}
