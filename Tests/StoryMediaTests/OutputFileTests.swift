import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Issue 9, items 1 and 7: a clip being written lives under storyreel's one temporary-name
/// scheme (``TemporaryFile``), beside the clip or in a staging folder, so a stale-temp sweep
/// can tell it from a user's file; it becomes the clip only when finished, with the usual
/// permissions, and a writer dropped or failed part-way leaves nothing behind.
@Suite struct OutputFileTests {
    let folder: TemporaryFolder
    init() throws {
        FFmpegLog.silence()
        folder = try TemporaryFolder()
    }

    static let settings = VideoEncoder.Settings(width: 64, height: 64, fps: 10, preset: "ultrafast")
    static let picture = [UInt8](repeating: 128, count: 64 * 64 * 4)

    func names(in path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func theTemporaryFileHasStoryreelsNameAndBecomesTheClip() throws {
        let clip = folder.path("clip.mp4")
        let writer = try VideoClipWriter(path: clip, settings: Self.settings)
        try Self.picture.withUnsafeBufferPointer { try writer.append(rgba: $0) }
        let writing = try names(in: folder.url.path)
        #expect(writing.count == 1 && TemporaryFile.isTemporaryName(writing[0]), "\(writing)")
        #expect(writing.first?.hasPrefix(".clip.mp4.") == true)
        try writer.finish()
        #expect(try names(in: folder.url.path) == ["clip.mp4"])
        let mask = umask(0o022)
        umask(mask)
        let mode = try FileManager.default.attributesOfItem(atPath: clip)[.posixPermissions] as? Int
        #expect(mode == Int(0o666 & ~mask), "like any new file, not the temporary file's 0600")
    }

    @Test func aStagingFolderHoldsTheTemporaryFile() throws {
        let staging = folder.path(".storyreel")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        let clip = folder.path("clip.mov")
        let writer = try VideoClipWriter(path: clip, settings: Self.settings, stagingFolder: staging)
        try Self.picture.withUnsafeBufferPointer { try writer.append(rgba: $0) }
        #expect(try names(in: folder.url.path) == [".storyreel"], "nothing beside the clip")
        #expect(try names(in: staging).allSatisfy(TemporaryFile.isTemporaryName))
        try writer.finish()
        #expect(try names(in: folder.url.path) == [".storyreel", "clip.mov"])
        #expect(try names(in: staging).isEmpty)
    }

    @Test func aWriterDroppedBeforeItFinishesLeavesNothing() throws {
        do {
            let writer = try VideoClipWriter(path: folder.path("clip.mp4"), settings: Self.settings)
            for _ in 0..<5 { try Self.picture.withUnsafeBufferPointer { try writer.append(rgba: $0) } }
        }
        #expect(try names(in: folder.url.path).isEmpty)
    }
}
