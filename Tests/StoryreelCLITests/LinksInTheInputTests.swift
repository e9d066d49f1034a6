import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// Links in a stories input: followed only when they lead inside INPUT (skipped with a reason
/// otherwise, like a folder with a bad name), and a linked clip enters the bundle as a regular
/// file, never as a symlink.
@Suite struct LinksInTheInputTests {
    func skippedPaths(_ manifest: Manifest) -> [String: String] {
        var result: [String: String] = [:]
        for entry in manifest.skipped {
            result[entry.path] = entry.reason
        }
        return result
    }

    @Test func aClipLinkedInsideTheInputIsCopiedOrHardLinkedAsARegularFile() throws {
        let fixture = try BundleFixture()
        let library = "\(fixture.stories)/.library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let clip = "\(fixture.stories)/ana.lima/IMG_0001.MOV"
        try FileManager.default.moveItem(atPath: clip, toPath: "\(library)/IMG_0001.MOV")
        try FileManager.default.createSymbolicLink(atPath: clip, withDestinationPath: "../.library/IMG_0001.MOV")
        for mode in ["--copy", "--link"] {
            let name = "reel\(mode)"
            let (result, _) = try fixture.render(into: name, [mode])
            #expect(result.status == 0, "\(mode): \(result.stderr)")
            let clips = fixture.outputs(name).filter { $0.hasPrefix("clips/") }
            #expect(clips.count == 9)
            for relative in clips {
                let path = fixture.folder.path("\(name)/\(relative)")
                var status = stat()
                #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG, "\(mode) \(relative)")
            }
            let validate = try TestEnvironment.storyreel(["validate", fixture.folder.path("\(name)/manifest.json")])
            #expect(validate.status == 0, "\(validate.stderr)")
        }
    }

    /// From a QA pass: a story folder's link whose target was moved away (or that loops) left the
    /// manifest with exit 0 and no word.
    @Test func aStoryLinkThatLeadsNowhereIsSkippedWithItsReason() throws {
        let fixture = try BundleFixture()
        try FileManager.default.createSymbolicLink(atPath: "\(fixture.stories)/gone", withDestinationPath: "moved-away")
        try FileManager.default.createSymbolicLink(atPath: "\(fixture.stories)/loop", withDestinationPath: "loop")
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65, "\(result.stderr)")
        let skipped = skippedPaths(try fixture.manifest("reel"))
        for name in ["gone", "loop"] {
            #expect(skipped[name]?.hasPrefix("a link that leads nowhere") == true, "\(name): \(skipped)")
        }
        #expect(try fixture.manifest("reel").stories.count == 4, "the others play")
    }

    @Test func linksLeadingOutsideTheInputAreSkippedAndNeverRead() throws {
        let fixture = try BundleFixture()
        let outside = fixture.folder.path("private")
        try FileManager.default.createDirectory(atPath: "\(outside)/story", withIntermediateDirectories: true)
        let secretClip = TestEnvironment.sample("sixty-fps.mp4")
        try FileManager.default.copyItem(atPath: secretClip, toPath: "\(outside)/story/secret.mp4")
        try FileManager.default.copyItem(
            atPath: "\(fixture.stories)/ana.lima/avatar.jpg", toPath: "\(outside)/face.jpg")
        let stories = fixture.stories
        try FileManager.default.createSymbolicLink(atPath: "\(stories)/chloe/zz.mp4", withDestinationPath: secretClip)
        try FileManager.default.createSymbolicLink(atPath: "\(stories)/zed", withDestinationPath: "\(outside)/story")
        try FileManager.default.removeItem(atPath: "\(stories)/ben_k/avatar.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: "\(stories)/ben_k/avatar.jpg", withDestinationPath: "\(outside)/face.jpg")
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65)
        let manifest = try fixture.manifest("reel")
        let skipped = skippedPaths(manifest)
        for path in ["chloe/zz.mp4", "zed", "ben_k/avatar.jpg"] {
            #expect(skipped[path]?.contains("outside the stories input") == true, "\(path): \(skipped)")
        }
        let playing = manifest.stories
        #expect(playing.map(\.id) == ["ana.lima", "ben_k", "chloe", "dev-ops"])
        // Raw JSON: the schema wants `avatar` written as null, which the typed model cannot tell
        // from a missing key.
        let raw = try JSONSerialization.jsonObject(with: fixture.manifestBytes("reel")) as? [String: Any]
        let ben = try #require((raw?["stories"] as? [[String: Any]])?.first { $0["id"] as? String == "ben_k" })
        #expect((ben["user"] as? [String: Any])?["avatar"] is NSNull)
        #expect(fixture.outputs("reel").filter { $0.hasPrefix("clips/") }.count == 9, "nothing from outside")
    }

    @Test func specPathsWithDotDotOutsideTheSpecFolderAreSkipped() throws {
        let fixture = try BundleFixture()
        let specFolder = fixture.folder.path("spec")
        try FileManager.default.createDirectory(atPath: specFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "\(fixture.stories)/ben_k/1.mp4", toPath: "\(specFolder)/inside.mp4")
        let spec = """
            {"stories": [{"handle": "ben", "avatar": "../stories/ben_k/avatar.jpg",
              "items": ["inside.mp4", "../stories/ben_k/2.mp4", "sub/../inside.mp4"]}]}
            """
        try Data(spec.utf8).write(to: URL(fileURLWithPath: "\(specFolder)/stories.json"))
        let out = fixture.folder.path("reel")
        let result = try TestEnvironment.storyreel(["render", "\(specFolder)/stories.json", "-o", out, "--json"])
        #expect(result.status == 65, "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        let skipped = skippedPaths(manifest)
        #expect(skipped["../stories/ben_k/2.mp4"]?.contains("outside the stories input") == true, "\(skipped)")
        #expect(skipped["../stories/ben_k/avatar.jpg"]?.contains("outside the stories input") == true)
        let items = manifest.stories.flatMap(\.items)
        #expect(items.count == 1, "inside.mp4 plays; sub/../inside.mp4 leads nowhere (no sub/)")
    }
}
