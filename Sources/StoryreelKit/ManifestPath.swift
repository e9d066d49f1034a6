/// The rule every path in a manifest follows, so a player can join it to the manifest's URL
/// as it is: `schema/manifest.schema.json` states the same rule as a `pattern`.
///
/// A path is *plain* when it is one or more non-empty components separated by single `/`, none
/// of them `.` or `..`, with no leading or trailing `/`, no control character (U+0000–U+001F,
/// U+007F) and none of the characters a URL reads otherwise (`#` starts a fragment, `?` a
/// query, `%` an escape, `\` is a `/` to browsers): `posters/3f2c….jpg`, never
/// `posters/3f2c….jpg/.`, `thumbs//a.jpg`, `thumbs/a.jpg/`, `clips/x#y.mov` or a name holding
/// a NUL. Nor may its first component hold a `:` (a URL reads `https:x/a.mov` as a scheme and
/// fetches it from another site), nor the path start or end with a space (a URL drops it, and
/// fetches another file). Every file inside a bundle is named by a plain path; an item's
/// `src` may also start with `../` steps, for a `--reference` bundle whose clips live beside it.
public enum ManifestPath {
    /// True when `path` is plain: non-empty components separated by single `/`, none of them
    /// `.` or `..`, no leading or trailing `/` or space, no control character, no `#`, `?`, `%`
    /// or `\`, and no `:` in the first component.
    public static func isPlain(_ path: String) -> Bool {
        isPlain(path.utf8[...], afterParentSteps: false)
    }

    /// True when `path` is any number of leading `../` steps followed by a plain path: how an
    /// item's `src` names a clip outside the bundle (`../stories/ana.lima/IMG_0001.MOV`). Such a
    /// path may lead anywhere (`../../../../etc/passwd` passes): a player that loads bundles it
    /// did not make checks their paths with ``isPlain(_:)``, which keeps them inside.
    public static func isPlainAfterParentSteps(_ path: String) -> Bool {
        var rest = path.utf8[...]
        while rest.starts(with: parentStep) { rest = rest.dropFirst(parentStep.count) }
        // After a `../` step the first component a URL reads is `..`, and the path starts with a
        // dot: a colon or a space at the start of what follows is a name's.
        return isPlain(rest, afterParentSteps: rest.count != path.utf8.count)
    }

    /// The first character of `text` that no plain path holds (a control character, `#`, `?`,
    /// `%` or `\`), or nil when there is none.
    public static func forbiddenCharacter(in text: String) -> Character? {
        text.utf8.first(where: isForbiddenByte).map { Character(Unicode.Scalar($0)) }
    }

    /// `../` in UTF-8.
    private static let parentStep = Array("../".utf8)

    /// The rule on UTF-8 bytes: `/` and `.` are ASCII, so this splits exactly where the
    /// schema's pattern does (by code point, never by grapheme: `/` followed by a combining
    /// mark still separates components).
    private static func isPlain(_ bytes: Substring.UTF8View, afterParentSteps: Bool) -> Bool {
        let dot = UInt8(ascii: ".")
        let space = UInt8(ascii: " ")
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return !bytes.contains(where: isForbiddenByte) && (afterParentSteps || bytes.first != space)
            && bytes.last != space
            && (afterParentSteps || components.first?.contains(UInt8(ascii: ":")) != true)
            && components.allSatisfy { component in
                !component.isEmpty && !component.elementsEqual([dot]) && !component.elementsEqual([dot, dot])
            }
    }

    /// A byte of a control character, `#`, `?`, `%` or `\` in UTF-8: every byte of a longer
    /// character is 0x80 or above.
    private static func isForbiddenByte(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || urlSpecialBytes.contains(byte)
    }

    /// `#`, `?`, `%` and `\`: what a URL joined from a path would read as a fragment, a query, an
    /// escape or (to browsers) a separator.
    private static let urlSpecialBytes: [UInt8] = Array("#?%\\".utf8)
}
