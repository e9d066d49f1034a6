import Foundation
import StoryMedia

/// The stories player page `render` writes beside the manifest as `index.html`: one
/// self-contained file (HTML, CSS and vanilla JavaScript, no network) that plays the bundle.
///
/// It embeds a copy of the manifest, so it plays from `file://`; served over HTTP it fetches
/// `manifest.json` instead. Its bytes depend only on the manifest's bytes and the template, so
/// a render rewrites it only when either changes.
public struct PlayerPage: Sendable {
    /// The page's name at the top of the bundle.
    public static let fileName = "index.html"

    /// The page's bytes.
    public let bytes: Data

    /// The page for a manifest's exact bytes (what `render` writes to `manifest.json`).
    public init(manifest: Data) {
        let text = String(decoding: Self.withoutWhitespace(manifest), as: UTF8.self)
        bytes = Data(PlayerPage.template.replacingOccurrences(of: "{{manifest}}", with: Self.scriptSafe(text)).utf8)
    }

    /// `json` without the white space between its tokens, byte for byte otherwise (strings and
    /// numbers as they are): the embedded copy of a 2000-story manifest was 121,214 lines, a
    /// third of the page (a scale QA pass).
    static func withoutWhitespace(_ json: Data) -> Data {
        var compact = Data()
        compact.reserveCapacity(json.count)
        var (inString, escaped) = (false, false)
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                continue
            }
            compact.append(byte)
        }
        return compact
    }

    /// True when `head` (a file's first bytes) begins as every page storyreel writes does,
    /// through its `generator` tag: a page of storyreel's, though perhaps for another manifest.
    static func isStoryreelPage(_ head: Data) -> Bool {
        head.starts(with: generatorPrefix)
    }

    /// True when the file at `path` begins as storyreel's pages do: a bundle copied without its
    /// ledger keeps a page for an older manifest, which is storyreel's to rewrite; any other
    /// `index.html` is someone's.
    static func isStoryreelPage(at path: String) -> Bool {
        let head = try? RegularFile(path: path, timeout: 5).read(upTo: generatorPrefix.count)
        return head.map(isStoryreelPage) ?? false
    }

    /// The template's bytes through its `<meta name="generator" content="storyreel">` tag.
    static let generatorPrefix: Data = {
        let tag = #"<meta name="generator" content="storyreel">"#
        guard let end = template.range(of: tag)?.upperBound else { return Data(template.utf8) }
        return Data(template[..<end].utf8)
    }()

    /// `json` made safe inside `<script type="application/json">`: every `<` becomes `\u003c`,
    /// which JSON reads back as `<` (it can only occur inside strings), so no `</script>` or
    /// `<!--` in a handle or a reason can end or change the script element.
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
