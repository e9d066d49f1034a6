import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// A one-character output name in the current folder is an ordinary name. Foundation's
/// `deletingLastPathComponent` traps on one on Linux, so `thumbnail -o y` and `cube -o c` died
/// with SIGILL and a backtrace after writing their file.
@Suite struct OneCharacterNamesTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func thumbnailWritesAOneCharacterName() throws {
        let result = try TestEnvironment.storyreel(
            ["thumbnail", TestEnvironment.sample("portrait-h264.mp4"), "-o", "y", "--width", "90"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == "y\n")
        #expect(FileManager.default.fileExists(atPath: folder.path("y")))
    }

    @Test func cubeTakesAOneCharacterNameAsANameWithoutAClipExtension() throws {
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let bare = try TestEnvironment.storyreel(
            ["cube", clip, clip, "-o", "c", "--size", "90x160", "--duration", "0.2", "--quiet"], in: folder.url)
        // Refused for its name (the old code wrote an MP4 under any name), not a crash.
        #expect(bare.status == 64, "\(bare.stderr)")
        #expect(bare.stderr.hasPrefix("storyreel: error: -o 'c': cube writes an MP4 or QuickTime clip"))
        let short = try TestEnvironment.storyreel(
            ["cube", clip, clip, "-o", "c.mp4", "--size", "90x160", "--duration", "0.2", "--quiet"], in: folder.url)
        #expect(short.status == 0, "\(short.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("c.mp4")))
    }

    @Test func theContainingFolderOfAPath() {
        let cases = [
            ("y", "."), ("yy", "."), ("a/b", "a"), ("/y", "/"), ("a/b/", "a"), ("/", "/"), ("a//b", "a"),
            ("//y", "/"), ("./y", "."), ("../y", ".."),
        ]
        for (path, folder) in cases { #expect(path.containingFolder == folder, "\(path)") }
    }

    /// The name a writer gives the file in its folder (``String/containingFolder``).
    @Test func theLastComponentOfAPath() {
        let cases = [
            ("y", "y"), ("a/b", "b"), ("/y", "y"), ("a/b/", "b"), ("a//b", "b"), ("./y", "y"), ("a/ü b", "ü b"),
        ]
        for (path, name) in cases { #expect(path.lastComponent == name, "\(path)") }
    }
}
