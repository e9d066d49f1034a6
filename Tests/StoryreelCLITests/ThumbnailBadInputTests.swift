import Foundation
import StoryreelTestSupport
import Testing

/// Bad clips and bad flags give one clear line on stderr, the documented exit code, and never a
/// partial or stray output file; the good clips of a batch are still written.
@Suite struct ThumbnailBadInputTests {
    let folder: TemporaryFolder
    let outputs: TemporaryFolder
    init() throws {
        folder = try TemporaryFolder()
        outputs = try TemporaryFolder()
    }

    var goodClip: String { TestEnvironment.sample("portrait-h264.mp4") }

    func thumbnail(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.storyreel(["thumbnail"] + arguments)
    }

    /// Everything in the output folder, hidden temporary files included.
    func outputFiles(_ subfolder: String? = nil) throws -> [String] {
        let path = subfolder.map { outputs.path($0) } ?? outputs.url.path
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    func audioOnlyClip() throws -> String {
        let path = folder.path("voice.m4a")
        let made = try TestEnvironment.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", path])
        guard made.status == 0 else { throw TestFailure("ffmpeg could not make an audio clip: \(made.stderr)") }
        return path
    }

    @Test func badClipsGiveTheirExitCodesAndNoOutput() throws {
        let empty = try folder.write("empty.mov", Data())
        let garbage = try folder.write("garbage.mp4", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        let missing = folder.path("missing.mov")
        let audio = try audioOnlyClip()
        let cases: [(clip: String, status: Int32, reason: String)] = [
            (empty, 65, "empty file (0 bytes)"), (garbage, 65, "not a QuickTime/MP4 file"),
            (missing, 66, "no such file"), (audio, 65, "no video stream (audio only)"),
            (folder.url.path, 66, "a folder, not a file"),
        ]
        for (clip, status, reason) in cases {
            let out = outputs.path("poster.jpg")
            let result = try thumbnail([clip, "-o", out])
            #expect(result.status == status, "\(clip): \(result.stderr)")
            #expect(result.stderr.hasPrefix("storyreel: error: \(clip): "), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(try outputFiles().isEmpty, "no output, no temporary file for \(clip)")
        }
    }

    @Test func batchWritesTheGoodClipsAndTheFirstFailureDecidesTheExitCode() throws {
        let empty = try folder.write("empty.mov", Data())
        let missing = folder.path("missing.mov")
        let audio = try audioOnlyClip()
        let result = try thumbnail([goodClip, audio, missing, empty, "--out-dir", outputs.url.path, "--width", "90"])
        #expect(result.status == 65, "the audio-only clip fails first: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "storyreel: error: \(audio): no video stream (audio only)",
                "storyreel: error: \(missing): no such file",
                "storyreel: error: \(empty): empty file (0 bytes)",
            ])
        #expect(try outputFiles() == [".storyreel-posters", "portrait-h264.jpg"])
        let reordered = try thumbnail([missing, empty, goodClip, "--out-dir", outputs.url.path, "--width", "90"])
        #expect(reordered.status == 66)
    }

    /// `--out-dir` creates its folder (and missing parents); a run that writes no poster takes
    /// them away again, and leaves a folder that was already there, with its files.
    @Test func outDirMadeForNothingIsRemoved() throws {
        let empty = try folder.write("empty.mov", Data())
        let failed = try thumbnail([empty, "--out-dir", outputs.path("new/posters")])
        #expect(failed.status == 65, "\(failed.stderr)")
        #expect(try outputFiles().isEmpty, "no folder left for a run that wrote nothing")
        try FileManager.default.createDirectory(atPath: outputs.path("kept"), withIntermediateDirectories: false)
        try outputs.write("kept/mine.txt", Data("mine".utf8))
        let intoExisting = try thumbnail([empty, "--out-dir", outputs.path("kept")])
        #expect(intoExisting.status == 65)
        #expect(try outputFiles("kept") == ["mine.txt"])
        let partly = try thumbnail([empty, goodClip, "--out-dir", outputs.path("new/posters"), "--width", "90"])
        #expect(partly.status == 65)
        #expect(try outputFiles("new/posters") == [".storyreel-posters", "portrait-h264.jpg"])
    }

    @Test func unwritableOutputIsCannotCreateAndLeavesNothing() throws {
        let missingFolder = outputs.path("no/such/folder/poster.jpg")
        let result = try thumbnail([goodClip, "-o", missingFolder, "--width", "90"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("storyreel: error: \(missingFolder): "))
        #expect(try outputFiles().isEmpty)

        let blocker = try outputs.write("blocker", Data("a file".utf8))
        let underFile = try thumbnail([goodClip, "--out-dir", blocker])
        #expect(underFile.status == 73, "\(underFile.stderr)")
        #expect(underFile.stderr.contains("not a folder"))

        try FileManager.default.createDirectory(atPath: outputs.path("taken.jpg"), withIntermediateDirectories: false)
        let onFolder = try thumbnail([goodClip, "-o", outputs.path("taken.jpg"), "--width", "90"])
        #expect(onFolder.status == 73)
        #expect(try outputFiles() == ["blocker", "taken.jpg"], "no temporary files left")
    }

    @Test func badFlagsAreUsageErrors() throws {
        let out = outputs.path("poster.jpg")
        let cases: [([String], String)] = [
            ([goodClip], "-o OUT"),
            ([goodClip, goodClip, "-o", out], "-o takes exactly one CLIP"),
            ([goodClip, "-o", out, "--out-dir", outputs.url.path], "not both"),
            (["-o", out], "at least one CLIP"),
            (
                [goodClip, "-o", out, "--at", "soon"],
                "--at must be seconds from 0 to 1000000, as 1.5 or [HH:]MM:SS[.fraction], or a percentage"
            ),
            ([goodClip, "-o", out, "--at", "-1"], "--at must be seconds from 0"),
            ([goodClip, "-o", out, "--at", "150%"], "from 0% to 100%"),
            ([goodClip, "-o", out, "--quality", "0"], "--quality must be a whole number from 1 to 100"),
            ([goodClip, "-o", out, "--quality", "101"], "--quality"),
            ([goodClip, "-o", out, "--format", "gif"], "--format must be one of"),
            // The line names the path, as every error line does, and .jpeg (a QA pass).
            (
                [goodClip, "-o", outputs.path("poster.gif")],
                "-o '\(outputs.path("poster.gif"))': cannot tell the image format from '.gif'; name it .jpg (or .jpeg)"
            ),
            // ffmpegthumbnailer's names, and the version's short name after the command (a QA pass).
            ([goodClip, "-o", out, "--time", "1"], "unknown option '--time'; did you mean '--at'?"),
            ([goodClip, "-o", out, "-s", "90"], "unknown option '-s'; did you mean '--width'?"),
            // ffmpeg's scale filter, and a value glued with '=' (a re-check: no hint).
            ([goodClip, "-o", out, "-vf", "scale=90:-2"], "unknown option '-vf'; did you mean '--width'?"),
            ([goodClip, "-o", out, "-ss=1"], "unknown option '-ss=1'; did you mean '--at'?"),
            ([goodClip, "-v"], "unknown option '-v'; the version is 'storyreel --version'"),
            ([goodClip, "-o", out, "--width", "0"], "--width"),
            ([goodClip, "-o", out, "--widht", "90"], "did you mean '--width'?"),
            ([goodClip, "-o", out, "--timeout", "-3"], "--timeout"),
            // It was taken in silence and did nothing there (a QA pass).
            ([goodClip, "--out-dir", outputs.path("posters"), "--force"], "--force replaces an -o file only"),
            // `-output` wrote a poster named `utput` and exited 0 (a QA pass).
            ([goodClip, "-output"], "unknown option '-output'; did you mean '--output'?"),
        ]
        for (arguments, message) in cases {
            let result = try thumbnail(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try outputFiles().isEmpty)
    }

    @Test func expiredDeadlineTimesOut() throws {
        let result = try thumbnail(["--timeout", "0.000001", goodClip, "-o", outputs.path("poster.jpg")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("timed out"))
        #expect(try outputFiles().isEmpty)
    }

    /// An error audit: a truncated upload (its index whole) gave its frame 0 for `--at 100%` in
    /// silence, and `--at 2` a note blaming the time asked for. It warns as inspect does.
    @Test func aTruncatedClipsPosterSaysItIsTakenFromWhatIsLeft() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: goodClip))
        let cut = try folder.write("cut.mp4", data.prefix(30000))
        for at in ["100%", "2"] {
            let result = try thumbnail([cut, "-o", outputs.path("cut-\(at).jpg"), "--at", at])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "storyreel: warning: \(cut): the moov index points ")
                    && result.stderr.contains(
                        "it looks truncated; the poster is taken from what is left"),
                "\(result.stderr)")
        }
    }

    /// From a thumbnail QA pass: `--at 50%` of a clip cut to 3.5 s of its 6 s (its index whole)
    /// gave the frame at 3 s, half of the 6 s, and `75%` the last frame in silence, where
    /// docs/thumbnail.md says a share is of what is left. It is now of the frames that decode.
    @Test func aShareOfATruncatedClipIsOfWhatIsLeft() throws {
        let full = folder.path("six-seconds.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=64x64:r=30:d=6", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart", full,
        ])
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = try folder.write("cut-at-60.mp4", data.prefix(data.count * 6 / 10))
        let frames = try PixelComparison.ffmpegFrames(full, width: 64, height: 64)
        let left = try PixelComparison.ffmpegFrames(cut, width: 64, height: 64).count
        #expect(frames.count == 180 && (60..<150).contains(left), "\(left) of \(frames.count) frames decode")
        for share in [25, 50, 75] {
            let poster = outputs.path("cut-\(share).png")
            let result = try thumbnail([cut, "-o", poster, "--at", "\(share)%"])
            #expect(result.status == 0, "\(result.stderr)")
            let picture = try PixelComparison.ffmpegImage(poster, width: 64, height: 64)
            let shown = frames.indices.max {
                PixelComparison.psnr(frames[$0], picture) < PixelComparison.psnr(frames[$1], picture)
            }
            let wanted = left * share / 100
            #expect(
                shown.map { abs($0 - wanted) <= 1 } == true,
                "--at \(share)%: frame \(shown ?? -1), not \(wanted) of \(left)")
        }
    }

    /// A video track whose sample table lists no sample (`stsz` count 0) has no frame: said in
    /// those words (65), for a poster and for a cube face. (The old code said "cannot seek:
    /// Operation not permitted".)
    @Test func videoTrackWithoutSamplesSaysSo() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodClip)))
        let stsz = try #require(bytes.indices.dropLast(16).first { bytes[$0..<$0 + 4].elementsEqual("stsz".utf8) })
        bytes.replaceSubrange(stsz + 12..<stsz + 16, with: [0, 0, 0, 0])
        let clip = try folder.write("no-samples.mp4", Data(bytes))
        let poster = try thumbnail([clip, "-o", outputs.path("p.jpg")])
        #expect(poster.status == 65)
        #expect(poster.stderr == "storyreel: error: \(clip): the video stream has no frames\n")
        let cube = try TestEnvironment.storyreel([
            "cube", clip, goodClip, "--size", "64x64", "-o", outputs.path("c.mp4"),
        ])
        #expect(cube.status == 65)
        #expect(cube.stderr == "storyreel: error: \(clip): the video stream has no frames\n")
        #expect(try outputFiles().isEmpty)
    }
}
