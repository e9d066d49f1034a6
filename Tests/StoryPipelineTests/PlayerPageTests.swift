import Foundation
import Testing

@testable import StoryPipeline

/// The player page embeds the manifest's exact JSON where no string in it can end the script.
@Suite struct PlayerPageTests {
    /// The JSON between the manifest script's tags.
    func embedded(_ page: Data) throws -> String {
        let text = String(decoding: page, as: UTF8.self)
        let open = #"<script type="application/json" id="manifest">"#
        let start = try #require(text.range(of: open)).upperBound
        let end = try #require(text.range(of: "</script>", range: start..<text.endIndex)).lowerBound
        return String(text[start..<end])
    }

    @Test func aNameThatLooksLikeMarkupCannotEndTheScript() throws {
        let name = "</script><script>alert(1)</script><!-- é"
        let manifest = Data(
            "{\"stories\": [{\"displayName\": \"\(name.replacingOccurrences(of: "/", with: "\\/"))\"}]}\n".utf8)
        let page = PlayerPage(manifest: manifest).bytes
        let json = try embedded(page)
        #expect(!json.contains("<"), "every < is escaped")
        let decoded = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let stories = try #require(decoded["stories"] as? [[String: Any]])
        #expect(stories.first?["displayName"] as? String == name)
        #expect(String(decoding: page, as: UTF8.self).components(separatedBy: "</script>").count == 3)
    }

    /// The copy is the manifest without the white space between tokens (a scale QA pass: a
    /// 2000-story manifest embedded pretty-printed was a third of the page), its strings whole.
    @Test func theCopyHasNoWhiteSpaceBetweenTokens() throws {
        let manifest = Data(
            "{\n  \"a\": [1, 2.50, -3e2],\n  \"b\": \"x \\\" y\\\\\",\n\t\"c\": {\"d\": \" \\n \"}\r\n}\n".utf8)
        let json = try embedded(PlayerPage(manifest: manifest).bytes)
        #expect(json == #"{"a":[1,2.50,-3e2],"b":"x \" y\\","c":{"d":" \n "}}"#)
        let original = try JSONSerialization.jsonObject(with: manifest) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary == original)
    }

    @Test func theSameManifestGivesTheSameBytesAndAnotherOneOthers() {
        let one = Data("{\"version\": 1}\n".utf8)
        let other = Data("{\"version\": 2}\n".utf8)
        #expect(PlayerPage(manifest: one).bytes == PlayerPage(manifest: one).bytes)
        #expect(PlayerPage(manifest: one).bytes != PlayerPage(manifest: other).bytes)
        #expect(String(decoding: PlayerPage(manifest: one).bytes, as: UTF8.self).hasPrefix("<!doctype html>\n"))
    }
}
