import CFFmpeg
import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// storyreel reads no chapters, and FFmpeg's demuxer makes one, with a title, of each sample of
/// a chapter track: an audit's 2.9 million took 1.15 GB in every command. Clips are opened
/// with `ignore_chapters`.
@Suite struct ChapterReadingTests {
    @Test func aClipsChaptersAreNotRead() throws {
        let folder = try TemporaryFolder()
        let metadata = folder.path("chapters.txt")
        try Data(
            """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=500
            title=One
            [CHAPTER]
            TIMEBASE=1/1000
            START=500
            END=1000
            title=Two

            """.utf8
        ).write(to: URL(fileURLWithPath: metadata))
        let clip = folder.path("chapters.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=64x64:d=1", "-i", metadata, "-map_metadata", "1", "-map_chapters", "1",
            "-c:v", "libx264", clip,
        ])
        let probed = try TestEnvironment.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", clip])
        let chapters =
            (try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any])?["chapters"] as? [Any]
        #expect(chapters?.count == 2, "the clip has its chapters: \(probed.stdout)")
        let file = try InputFile(path: clip)
        #expect(file.context.pointee.nb_chapters == 0)
        #expect(file.bestStream(.video) != nil)
    }
}
