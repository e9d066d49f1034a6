import Foundation
import StoryMedia
import StoryPipeline
import StoryreelTestSupport
import Testing

/// Issue 9: an error line always names the file it is about. Parts of the media layer that
/// cannot know the path (encoders, scalers) throw errors without one, and whoever holds the
/// path names it (`cannot open the mjpeg encoder: Cannot allocate memory` named nothing).
@Suite struct ErrorLinesNamePathTests {
    let folder: TemporaryFolder
    init() throws {
        FFmpegLog.silence()
        folder = try TemporaryFolder()
    }

    func expectError(about path: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error")
        } catch let error as MediaError {
            #expect(error.path == path, "\(error)")
            #expect(error.description.hasPrefix("\(path): "))
        } catch {
            Issue.record("not a MediaError: \(error)")
        }
    }

    @Test func namingKeepsAPathAndAddsAMissingOne() {
        let unnamed = MediaError(.unsupported, "cannot open the mjpeg encoder: Cannot allocate memory")
        #expect(
            unnamed.naming("out.jpg").description == "out.jpg: cannot open the mjpeg encoder: Cannot allocate memory")
        let named = MediaError(.invalidMedia, path: "in.mov", "bad")
        #expect(named.naming("out.jpg").path == "in.mov")
        expectError(about: "out.jpg") { try MediaError.naming("out.jpg") { throw unnamed } }
    }

    @Test func videoClipWriterNamesTheClipForEncoderErrors() throws {
        let clip = folder.path("clip.mp4")
        let badSettings = [
            VideoEncoder.Settings(width: 101, height: 64, fps: 30),  // odd: used to trap
            VideoEncoder.Settings(width: 8194, height: 2, fps: 30),  // over the pixel budget
            VideoEncoder.Settings(width: 64, height: 64, fps: .nan),
            VideoEncoder.Settings(width: 64, height: 64, fps: 30, preset: "no-such-preset"),  // libx264 refuses to open
        ]
        for settings in badSettings {
            expectError(about: clip) { _ = try VideoClipWriter(path: clip, settings: settings) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no temporary file left")
    }

    @Test func posterJobNamesTheOutputForEncoderErrors() throws {
        let output = folder.path("poster.jpg")
        var job = PosterJob(clip: HostileFiles.goodClip, output: output)
        job.size = .width(64)
        job.quality = 0  // the image encoder refuses it, knowing no path
        expectError(about: output) { _ = try job.run() }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func everyFailingCommandNamesAPathItWasGiven() throws {
        let garbage = try folder.write("garbage.mov", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        let empty = try folder.write("empty.png", Data())
        let corrupt = folder.path("corrupt.mp4")
        try HostileFiles.corruptSampleSize(of: HostileFiles.goodClip, to: corrupt, value: 1 << 29)
        let wide = folder.path("wide.png")
        try HostileFiles.pixelBombPNG(at: wide, width: 9000, height: 64)
        let fifo = folder.path("face.png")
        try HostileFiles.fifo(at: fifo)
        let missingFolder = folder.path("no/such/folder/out.mp4")
        let good = HostileFiles.goodClip
        let runs: [[String]] = [
            ["inspect", garbage, corrupt],
            ["thumbnail", corrupt, "-o", folder.path("p.jpg")],
            ["cube", empty, good, "-o", folder.path("c.mp4")],
            ["cube", good, wide, "--size", "64x64", "-o", folder.path("c.mp4")],
            ["cube", fifo, good, "--filmstrip", folder.path("strip.png")],
            ["cube", good, good, "--size", "64x64", "-o", missingFolder],
        ]
        for arguments in runs {
            let result = try TestEnvironment.storyreel(arguments)
            #expect(result.status != 0 && result.status < 100, "\(arguments): \(result.status)")
            let lines = LimitedRun.errorLines(result.stderr)
            #expect(!lines.isEmpty, "\(arguments): \(result.stderr)")
            for line in lines {
                let named = arguments.contains { $0.hasPrefix("/") && line.hasPrefix("storyreel: error: \($0): ") }
                #expect(named, "\(line)")
            }
        }
    }

    /// From the QA pass: a bundle folder that cannot be made said only "cannot create the bundle
    /// folder" (on a read-only file system too); it now says which folder and why.
    @Test func aBundleFolderThatCannotBeMadeSaysWhy() throws {
        let file = try folder.write("plain-file", Data("x".utf8))
        let result = try TestEnvironment.storyreel(
            ["render", TestEnvironment.sample("stories"), "-o", file + "/reel", "--quiet"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: error: \(file)/reel: \(file) is a file, not a folder\n")
    }
}
