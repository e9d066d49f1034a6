import Foundation
import StoryreelTestSupport
import Testing

/// `render` writes `index.html`, the player page, as a keyed output: it embeds the manifest,
/// is rewritten only when the manifest changes, is recorded in the ledger, and is removed by
/// `--no-player` only when storyreel wrote it and it is unchanged.
@Suite struct PlayerPageOutputTests {
    func page(_ fixture: BundleFixture, _ name: String) -> String? {
        try? String(contentsOfFile: fixture.folder.path("\(name)/index.html"), encoding: .utf8)
    }

    /// The manifest JSON the page embeds, parsed.
    func embeddedManifest(_ page: String) throws -> NSDictionary {
        let open = #"<script type="application/json" id="manifest">"#
        let start = try #require(page.range(of: open)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        let object = try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8))
        return try #require(object as? NSDictionary)
    }

    func modified(_ path: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    func ledger(_ fixture: BundleFixture, _ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("\(name)/.storyreel/ledger.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// From the QA pass: a page or manifest edited by hand was overwritten by the next render,
    /// silently. It is someone's work: it is kept in .storyreel/replaced/, with a warning.
    @Test func anEditedPageOrManifestIsKeptAsideBeforeItIsWrittenAgain() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let bundle = fixture.folder.path("reel")
        let edited = try #require(page(fixture, "reel")) + "<!-- mine -->\n"
        try Data(edited.utf8).write(to: URL(fileURLWithPath: "\(bundle)/index.html"))
        let manifest = try fixture.manifestBytes("reel")
        let editedManifest = Data(
            String(decoding: manifest, as: UTF8.self).replacingOccurrences(
                of: "\"Ana Lima\"", with: "\"Ana L.\""
            ).utf8)
        #expect(editedManifest != manifest)
        try editedManifest.write(to: URL(fileURLWithPath: "\(bundle)/manifest.json"))
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.manifestBytes("reel") == manifest, "written again")
        #expect(page(fixture, "reel")?.contains("<!-- mine -->") == false, "written again")
        for (name, bytes) in [("index.html", Data(edited.utf8)), ("manifest.json", editedManifest)] {
            let kept = "\(bundle)/.storyreel/replaced/\(name)"
            #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == bytes, "\(name) kept")
            #expect(result.stderr.contains("warning: \(name) had changed since storyreel wrote it"), "\(result.stderr)")
        }
    }

    /// From the growth pass: a deploy step that made the same edit to the page after every
    /// render added a copy to `.storyreel/replaced/` each time, for good. The same bytes are kept
    /// once; a different edit still gets its own copy.
    @Test func aPageEditedTheSameWayAfterEveryRenderIsKeptOnce() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let bundle = fixture.folder.path("reel")
        let replaced = "\(bundle)/.storyreel/replaced"
        func editPage(_ mark: String) throws -> Data {
            let edited = Data((try #require(page(fixture, "reel")) + "<!-- \(mark) -->\n").utf8)
            try edited.write(to: URL(fileURLWithPath: "\(bundle)/index.html"))
            return edited
        }
        var keptBytes: [Data] = []
        for mark in ["analytics", "analytics", "analytics", "other"] {
            let edited = try editPage(mark)
            let (result, _) = try fixture.render(into: "reel")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains("warning: index.html had changed since storyreel wrote it"), "\(result.stderr)")
            #expect(page(fixture, "reel")?.contains("<!-- \(mark) -->") == false, "written again")
            if !keptBytes.contains(edited) { keptBytes.append(edited) }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: replaced).sorted()
        #expect(names == ["index-2.html", "index.html"], "\(names)")
        let kept = try names.map { try Data(contentsOf: URL(fileURLWithPath: "\(replaced)/\($0)")) }
        #expect(Set(kept) == Set(keptBytes), "each distinct edit kept, once")
    }

    @Test func renderWritesThePageWithTheManifestAndRewritesItOnlyWhenTheManifestChanges() throws {
        let fixture = try BundleFixture()
        let (first, _) = try fixture.render(into: "reel")
        #expect(first.status == 0, "\(first.stderr)")
        let html = try #require(page(fixture, "reel"))
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(!html.contains("http://") && !html.contains("https://"), "nothing from the network")
        let manifest = try JSONSerialization.jsonObject(with: fixture.manifestBytes("reel")) as? NSDictionary
        #expect(try embeddedManifest(html) == manifest)
        #expect(try ledger(fixture, "reel")["index.html"] != nil, "recorded as storyreel's")
        let path = fixture.folder.path("reel/index.html")
        let written = try modified(path)
        Thread.sleep(forTimeInterval: 0.05)
        let (again, _) = try fixture.render(into: "reel")
        #expect(again.status == 0)
        #expect(try modified(path) == written, "same manifest: not rewritten")
        // A new clip changes the manifest, and so the page.
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let ingest = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", fixture.folder.path("reel"),
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let updated = try #require(page(fixture, "reel"))
        #expect(updated != html)
        let after = try JSONSerialization.jsonObject(with: fixture.manifestBytes("reel")) as? NSDictionary
        #expect(try embeddedManifest(updated) == after, "ingest --render writes it too")
    }

    @Test func noPlayerIsKeptAndRemovesOnlyAnUnchangedPageStoryreelWrote() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let path = fixture.folder.path("reel/index.html")
        let off = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--size", BundleFixture.canvasArgument,
            "--no-player",
        ])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(off.stderr.contains("player yes → no"), "\(off.stderr)")
        // Not "pruned 1": --prune was not given.
        #expect(off.stderr.contains("storyreel: note: index.html removed (--no-player)\n"), "\(off.stderr)")
        #expect(!off.stderr.contains("pruned"), "\(off.stderr)")
        #expect(try ledger(fixture, "reel")["index.html"] == nil)
        // Kept: a later render without the option writes no page either.
        _ = try fixture.render(into: "reel")
        #expect(!FileManager.default.fileExists(atPath: path))
        let (on, _) = try fixture.render(into: "reel", ["--player"])
        #expect(on.status == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        // A page changed by hand is not removed.
        try Data("<p>mine</p>".utf8).write(to: URL(fileURLWithPath: path))
        let (offAgain, _) = try fixture.render(into: "reel", ["--no-player"])
        #expect(offAgain.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<p>mine</p>")
        #expect(
            offAgain.stderr.contains("index.html was changed since storyreel wrote it, so --no-player left it"),
            "\(offAgain.stderr)")
        let (both, _) = try fixture.render(into: "reel", ["--player", "--no-player"])
        #expect(both.status == 64)
    }

    @Test func aPageStoryreelDidNotWriteIsLeftAloneWithANote() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("site")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("<p>my site</p>".utf8).write(to: URL(fileURLWithPath: "\(out)/index.html"))
        // A folder holding only someone's index.html is no bundle (a QA pass: it was rendered
        // into without --force); with --force storyreel does not overwrite or prune the page.
        let refused = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", out, "--size", BundleFixture.canvasArgument,
        ])
        #expect(refused.status == 73, "\(refused.stderr)")
        let forced = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", out, "--size", BundleFixture.canvasArgument, "--prune", "--force",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: "\(out)/index.html", encoding: .utf8) == "<p>my site</p>")
        #expect(forced.stderr.contains("index.html: a file storyreel did not write"), "\(forced.stderr)")
    }

    @Test func aBundleCopiedWithoutItsHiddenFolderIsStillABundle() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        _ = try fixture.copyWithoutHiddenFolder("reel", to: "copy")
        let (again, _) = try fixture.render(into: "copy")
        #expect(again.status == 0, "a bundle with its page is a bundle: \(again.stderr)")
        #expect(!again.stderr.contains("did not write"), "the same page is adopted: \(again.stderr)")
        #expect(try ledger(fixture, "copy")["index.html"] != nil)
    }

    /// The old code adopted a page only when it was the very page it would write, so a copy
    /// whose manifest then changed kept its old page for good (naming transitions a prune had
    /// removed). A page that begins as storyreel's is storyreel's; a user's own page is not.
    @Test func aCopiedBundlesOlderPageIsRewrittenAndAUsersPageIsNot() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        for name in ["copy", "mine"] { _ = try fixture.copyWithoutHiddenFolder("reel", to: name) }
        let users = Data("<!doctype html><title>my own page</title>".utf8)
        try users.write(to: URL(fileURLWithPath: fixture.folder.path("mine/index.html")))
        for name in ["copy", "mine"] {
            let (result, _) = try fixture.render(into: name, ["--fps", "25"])
            #expect(result.status == 0, "\(result.stderr)")
            let html = try #require(page(fixture, name))
            if name == "copy" {
                #expect(!result.stderr.contains("did not write"), "\(result.stderr)")
                let manifest = try JSONSerialization.jsonObject(with: fixture.manifestBytes(name)) as? NSDictionary
                #expect(try embeddedManifest(html) == manifest, "the page plays the new manifest")
            } else {
                #expect(result.stderr.contains("index.html: a file storyreel did not write"), "\(result.stderr)")
                #expect(Data(html.utf8) == users)
            }
        }
    }
}
