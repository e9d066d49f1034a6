import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// A pinned source is read, stamped and hashed as the file that was opened, whatever its path
/// names by then: a QA pass swapped a story folder to other content and back while a render
/// read it, and the other file's pictures were filed, and kept, under the clip's key.
@Suite struct SourcePinTests {
    @Test func aPinnedPathReadsThePinnedFileAfterTheNameIsTakenByAnother() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("clip.mp4")
        let other = folder.path("other.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: clip)
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: other)
        let clipStamp = try #require(FileStamp(path: clip))
        let clipHash = try ContentHasher.sha256(ofFileAt: clip)
        let clipWidth = try ClipProbe.inspect(path: clip).video?.width
        do {
            let pin = try SourcePin(path: clip)
            #expect(rename(other, clip) == 0, "the other file takes the clip's name")
            #expect(FileStamp(path: clip) == clipStamp)
            #expect(try ContentHasher.sha256(ofFileAt: clip) == clipHash)
            #expect(try ClipProbe.inspect(path: clip).video?.width == clipWidth)
            // A second pin of the path (another unit's), made now that the path names another
            // file, is refused as changed: every pin of a path alive at once is of one file.
            let refused = #expect(throws: MediaError.self) { _ = try SourcePin(path: clip) }
            #expect(refused?.reason.hasPrefix("it changed while storyreel read it") == true)
            #expect(FileStamp(path: clip) == clipStamp)
            withExtendedLifetime(pin) {}
        }
        do {
            // Pins of one file share its descriptor, open until the last lets go.
            let first = try SourcePin(path: clip)
            let second = try SourcePin(path: clip)
            let link = FolderPin.resolved(clip)
            #expect(link.hasPrefix("/proc/self/fd/"))
            withExtendedLifetime(first) {}
            _ = consume first
            #expect(FolderPin.resolved(clip) == link, "the second pin holds it")
            #expect(try ContentHasher.sha256(ofFileAt: clip) != clipHash, "the file pinned now, the other one's")
            withExtendedLifetime(second) {}
        }
        // Unpinned, the path is the other file's again.
        #expect(FileStamp(path: clip) != clipStamp)
        #expect(try ContentHasher.sha256(ofFileAt: clip) != clipHash)
    }
}
