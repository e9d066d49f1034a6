import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Issue 9, memory bombs: a small file that declares a huge picture (a 16000x16000 PNG of a few
/// dozen KB; a 16000x16000 MJPEG or PNG QuickTime clip) is refused from its header before
/// anything is decoded, with exit 65 and a reason naming the size and the limit, and the run's
/// peak memory stays low. Before, one such PNG made a render take 821 MB; a thumbnail of these
/// clips took over 2 GB. A still wider than the canvas limit (8192) is refused the same way.
@Suite struct PixelBudgetTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// Far below what decoding any of these bombs takes (1 GB and more), far above what
    /// storyreel needs to refuse them (about 50 MB for a debug build).
    static let peakLimitKiB = 300_000

    static let limitText = "over storyreel's limit of 8192 pixels per side and 8192x8192 pixels in all"

    func expectRefused(_ outcome: LimitedRun.Outcome, naming path: String, size: String) {
        let result = outcome.result
        #expect(result.status == 65, "\(result.status): \(result.stderr)")
        let lines = LimitedRun.errorLines(result.stderr)
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("storyreel: error: \(path): ") == true, "\(lines)")
        #expect(lines.first?.contains("is \(size), \(Self.limitText)") == true, "\(lines)")
        let peak = outcome.peakKiB ?? .max
        #expect(peak < Self.peakLimitKiB, "peak memory \(peak) KiB")
    }

    @Test func budgetIsEightKPerSideAndEightKSquared() {
        #expect(PixelBudget.maximumSide == 8192)
        #expect(PixelBudget.maximumPixels == 8192 * 8192)
        #expect(PixelBudget.allows(width: 8192, height: 8192))
        #expect(PixelBudget.allows(width: 1, height: 8192))
        #expect(!PixelBudget.allows(width: 8193, height: 2))
        #expect(!PixelBudget.allows(width: 16000, height: 16000))
        #expect(!PixelBudget.allows(width: 0, height: 100))
        #expect(!PixelBudget.allows(width: .max, height: .max))
    }

    /// From the QA passes: `thumbnail --width 8192 --height 8192` (and `cube --size 8192x8192`)
    /// were refused (65, "the scaled picture is 8192x8374"), though both sides are in range:
    /// the fill's margin for the scaler's filter took the picture on the way over the budget.
    /// A picture on the way may be a quarter over; the output stays within it.
    @Test func theLargestFillAskedForIsMade() throws {
        let outputs = try TemporaryFolder()
        let poster = outputs.path("largest.jpg")
        let result = try TestEnvironment.storyreel(
            ["thumbnail", HostileFiles.goodClip, "-o", poster, "--width", "8192", "--height", "8192"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try TestEnvironment.ffprobeVideoStream(poster)
        #expect(stream["width"] as? Int == 8192 && stream["height"] as? Int == 8192, "\(stream)")
        #expect(PixelBudget.allowsIntermediate(width: 8192, height: 8374))
        #expect(!PixelBudget.allowsIntermediate(width: 8192, height: 10241))
        #expect(!PixelBudget.allowsIntermediate(width: 10240, height: 10240), "a quarter over in all, not per side")
    }

    /// From a QA pass: a 640x360 clip of 13:1 pixels (`setsar=13/1`, shown at 8320x360, as
    /// ffprobe's DAR 208:9 says) had no poster at any size (65, "the displayed picture is
    /// 8320x360, over storyreel's limit"), and `inspect` warned that storyreel would not decode
    /// it; ffmpegthumbnailer -s 1080 writes 1080x46. The budget is on the picture decoded and on
    /// the poster written: `--width 1080` gives 1080x46, a fill 540x960, and only the poster at
    /// its display size is refused, before any decoding, with a line naming --width.
    @Test func aSmallClipOfWidePixelsHasScaledDownPostersAndNoneAtItsDisplaySize() throws {
        let clip = folder.path("sar13.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=1", "-vf", "setsar=13/1", "-c:v", "libx264",
            "-pix_fmt", "yuv420p", clip,
        ])
        let outputs = try TemporaryFolder()
        for (arguments, size) in [
            (["--width", "1080"], (1080, 46)), (["--width", "540", "--height", "960"], (540, 960)),
        ] {
            let poster = outputs.path("poster-\(size.0).jpg")
            let made = try TestEnvironment.storyreel(["thumbnail", clip, "-o", poster] + arguments)
            #expect(made.status == 0, "\(arguments): \(made.stderr)")
            let stream = try TestEnvironment.ffprobeVideoStream(poster)
            #expect(stream["width"] as? Int == size.0 && stream["height"] as? Int == size.1, "\(arguments): \(stream)")
        }
        let whole = try TestEnvironment.storyreel(["thumbnail", clip, "-o", outputs.path("whole.jpg")])
        #expect(whole.status == 65, "\(whole.status): \(whole.stderr)")
        let lines = LimitedRun.errorLines(whole.stderr)
        #expect(
            lines == [
                "storyreel: error: \(clip): the poster would be 8320x360 (its display size), \(Self.limitText); "
                    + "give --width or --height"
            ], "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: outputs.path("whole.jpg")))
        // inspect says what storyreel does with it: `render` skips it (a manifest item is at most
        // 8192 a side), as before.
        let inspected = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [[String: Any]])?.first)
        let warnings = object["warnings"] as? [String] ?? []
        #expect(
            warnings.count == 1 && warnings[0].hasPrefix("the picture is 640x360, shown at 8320x360, "), "\(warnings)")
        #expect(!warnings.contains { $0.contains("will not decode") }, "\(warnings)")
    }

    /// Thumbnail and cube (TO) refuse `clip` from its header, and write nothing.
    func expectClipRefused(_ clip: String) throws {
        let outputs = try TemporaryFolder()
        let thumbnail = try LimitedRun.storyreel(
            ["thumbnail", clip, "-o", outputs.path("poster.jpg"), "--width", "320"], measuresMemory: true)
        expectRefused(thumbnail, naming: clip, size: "16000x16000")
        let cube = try LimitedRun.storyreel(
            ["cube", HostileFiles.goodClip, clip, "--size", "64x64", "-o", outputs.path("cube.mp4")],
            measuresMemory: true)
        expectRefused(cube, naming: clip, size: "16000x16000")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    @Test func pngClipBombIsRefusedByThumbnailAndCubeAndOnlyWarnedAboutByInspect() throws {
        let clip = folder.path("bomb-png.mov")
        try HostileFiles.pngPixelBombClip(at: clip)
        try expectClipRefused(clip)

        // inspect decodes nothing, so it reports the clip, with a warning that it will not be decoded.
        let outcome = try LimitedRun.storyreel(["inspect", "--json", clip], measuresMemory: true)
        #expect(outcome.result.status == 0, "\(outcome.result.stderr)")
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(outcome.result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect((object["video"] as? [String: Any])?["width"] as? Int == 16000)
        let warnings = object["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("16000x16000, \(Self.limitText)") }, "\(warnings)")
        #expect((outcome.peakKiB ?? .max) < Self.peakLimitKiB)

        // The container says 64x64, so only the decoder's max_pixels sees the 16000x16000 PNG.
        let liar = folder.path("liar.mov")
        try HostileFiles.lyingPixelBombClip(from: clip, at: liar)
        let outputs = try TemporaryFolder()
        let lied = try LimitedRun.storyreel(
            ["thumbnail", liar, "-o", outputs.path("poster.jpg"), "--at", "0"], measuresMemory: true)
        #expect(lied.result.status == 65, "\(lied.result.stderr)")
        let lines = LimitedRun.errorLines(lied.result.stderr)
        #expect(lines.count == 1 && lines[0].hasPrefix("storyreel: error: \(liar): "), "\(lines)")
        #expect((lied.peakKiB ?? .max) < Self.peakLimitKiB, "peak memory \(lied.peakKiB ?? -1) KiB")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    @Test func mjpegClipBombIsRefusedByThumbnailAndCube() throws {
        let clip = folder.path("bomb-mjpeg.mov")
        try HostileFiles.mjpegPixelBombClip(at: clip)
        try expectClipRefused(clip)
    }

    @Test func cubeRefusesAPixelBombStillWithOrWithoutACanvasSize() throws {
        let still = folder.path("bomb.png")
        try HostileFiles.pixelBombPNG(at: still)
        let outputs = try TemporaryFolder()
        let runs = [
            ["cube", still, HostileFiles.goodClip, "-o", outputs.path("a.mp4")],  // the canvas would come from it
            ["cube", HostileFiles.goodClip, still, "--size", "360x640", "-o", outputs.path("b.mp4")],
            ["cube", still, HostileFiles.goodClip, "--size", "360x640", "--frames-dir", outputs.path("frames")],
        ]
        for arguments in runs {
            let outcome = try LimitedRun.storyreel(arguments, measuresMemory: true)
            expectRefused(outcome, naming: still, size: "16000x16000")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    @Test func cubeRefusesAStillWiderThanTheCanvasLimit() throws {
        let still = folder.path("panorama.png")
        try HostileFiles.pixelBombPNG(at: still, width: 9000, height: 200)
        let outputs = try TemporaryFolder()
        let outcome = try LimitedRun.storyreel(
            ["cube", still, HostileFiles.goodClip, "--size", "360x640", "-o", outputs.path("cube.mp4")],
            measuresMemory: true)
        expectRefused(outcome, naming: still, size: "9000x200")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    /// From the session's notes: the smart pick kept every frame it looked at, whole. A 1.2 MB
    /// clip of 8192 × 8192 black frames (every try runs) took 3.3 GB, and aborted under a lower
    /// `ulimit -v`. It now keeps at most ``ClipFrameSource/posterRetentionBytes`` of frames and
    /// decodes the winner again when it was let go: here a keyframe at 5 s, after 5 s of black
    /// (2.6 GB before, 1.5 GB now, most of it the one 8192 × 8192 picture being encoded). One
    /// frame of the pattern is enough, and making four more took 4 s of the test's 11.
    @Test func theSmartPickKeepsABoundedShareOfTheFramesItLooksAt() throws {
        let clip = folder.path("late-8k.mp4")
        let square = "s=8192x8192:r=5"
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=black:\(square):d=5,format=yuv420p",
            "-f", "lavfi", "-i", "testsrc2=\(square):d=0.2,format=yuv420p",
            "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264", "-preset", "ultrafast", "-g", "5",
            "-threads", "2", clip,
        ])
        let outputs = try TemporaryFolder()
        let smart = try LimitedRun.storyreel(
            ["thumbnail", clip, "-o", outputs.path("smart.jpg")], seconds: 120, measuresMemory: true)
        #expect(smart.result.status == 0, "\(smart.result.stderr)")
        #expect(!smart.result.stderr.contains("near-black"), "the pattern at 5 s is found: \(smart.result.stderr)")
        let peak = smart.peakKiB ?? .max
        #expect(peak < 2_000_000, "peak memory \(peak) KiB")
        let chosen = try TestEnvironment.storyreel(["thumbnail", clip, "--at", "5", "-o", outputs.path("at5.jpg")])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        let picked = try Data(contentsOf: outputs.url.appendingPathComponent("smart.jpg"))
        #expect(
            picked == (try Data(contentsOf: outputs.url.appendingPathComponent("at5.jpg"))), "the frame decoded again")
    }

    /// An audit's: a 6.5 MB H.264 clip of 8192x8192 frames in 4:4:4 10-bit declaring 16
    /// reference pictures (403 MB each) took 8.4 GB to make a cube of. Here 4096x4096 (100 MB
    /// each, 1.6 GB of references): 1.8 GB before, refused now.
    @Test func aStreamKeepingGigabytesOfReferencePicturesIsRefused() throws {
        let clip = folder.path("references.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=4096x4096:r=30,format=yuv444p10le", "-frames:v", "3", "-c:v", "libx264",
            "-preset", "ultrafast", "-x264-params", "ref=16:bframes=0", "-threads", "2", clip,
        ])
        let outputs = try TemporaryFolder()
        let refused = try LimitedRun.storyreel(
            ["thumbnail", clip, "-o", outputs.path("poster.jpg"), "--at", "100%"], measuresMemory: true)
        #expect(refused.result.status == 65, "\(refused.result.stderr)")
        let lines = LimitedRun.errorLines(refused.result.stderr)
        #expect(
            lines == [
                "storyreel: error: \(clip): its stream keeps 16 reference pictures of 4096x4096 (96 MB each), more "
                    + "than the 1024 MB storyreel decodes (the largest level keeps 5 of 8192x4352)"
            ], "\(lines)")
        #expect((refused.peakKiB ?? .max) < 600_000, "peak memory \(refused.peakKiB ?? -1) KiB")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputs.url.path).isEmpty)
    }

    /// An audit's: one 8192x8192 JPEG 2000 frame of 50 KB (`mjp2` in a QuickTime file) took
    /// 3.8 s and 1.2 GB to decode, in one call no deadline reaches. It is not decoded; `inspect`
    /// still reports the clip.
    @Test func jpeg2000VideoIsNotDecoded() throws {
        let clip = folder.path("j2k.mov")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=256x256:r=30", "-frames:v", "2", "-c:v", "jpeg2000", clip,
        ])
        let poster = folder.path("poster.jpg")
        let refused = try TestEnvironment.storyreel(["thumbnail", clip, "-o", poster])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr
                == "storyreel: error: \(clip): JPEG 2000 video is not decoded (its decoder takes seconds and gigabytes "
                + "a large frame)\n")
        #expect(!FileManager.default.fileExists(atPath: poster))
        let inspected = try TestEnvironment.storyreel(["inspect", "--json", clip])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let video =
            ((try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [[String: Any]])?.first?[
                "video"] as? [String: Any])
        #expect(video?["codec"] as? String == "jpeg2000" && video?["width"] as? Int == 256, "\(inspected.stdout)")
    }

    /// One decode call is not interrupted, and a frame it finished past the deadline was handed
    /// out: an audit's 8192x8192 FFV1 frame took 26 s, and `thumbnail --at 0 --timeout 5` wrote
    /// it and exited 0. Here one 8192x8192 16-bit PNG frame (2.9 MB) takes about 0.5 s to decode:
    /// at `--timeout 0.1` it was written (exit 0); now the run times out.
    @Test func aFrameDecodedPastTheDeadlineIsNotUsed() throws {
        let clip = folder.path("slow.mov")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=black:s=8192x8192", "-frames:v", "1", "-pix_fmt", "rgba64be", "-c:v", "png",
            "-pred", "none", "-compression_level", "1", clip,
        ])
        let poster = folder.path("slow.jpg")
        let late = try TestEnvironment.storyreel(["thumbnail", clip, "-o", poster, "--at", "0", "--timeout", "0.1"])
        #expect(late.status == 65, "\(late.stderr)")
        #expect(
            late.stderr
                == "storyreel: error: \(clip): timed out after 0.1 s while reading and decoding it; raise --timeout for "
                + "very large or long clips\n")
        #expect(!FileManager.default.fileExists(atPath: poster))
        // Small: an 8192x8192 poster took 3 s more of CPU to convert and encode.
        let inTime = try TestEnvironment.storyreel(["thumbnail", clip, "-o", poster, "--at", "0", "--width", "180"])
        #expect(inTime.status == 0, "\(inTime.stderr)")
    }

    /// AV1 has eight reference slots, which any stream may fill, and dav1d allocates their
    /// pictures itself, outside the picture ledger: a 12-frame clip of 8192x4352 in 4:4:4
    /// 12-bit took 2.04 GB for a thumbnail. Here two frames of 6144x4096 (144 MB each, eight of
    /// them 1.2 GB) are refused after the first (exit 0 before); the largest level's picture in
    /// 4:2:0 10-bit is not (eight of 8192x4352 fit).
    @Test func anAV1StreamWhoseSlotsWouldHoldGigabytesIsRefused() throws {
        let clip = folder.path("av1-slots.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=6144x4096:r=30,format=yuv444p12le", "-frames:v", "2", "-c:v",
            "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-crf", "50", "-b:v", "0", clip,
        ])
        let poster = folder.path("av1.jpg")
        try expectFirstFrameRefused(
            clip, poster: poster,
            "its stream may keep 8 reference pictures of 6144x4096 (144 MB each), more than the 1024 MB storyreel "
                + "decodes (8 of the largest level's 8192x4352 in 4:2:0 10-bit fit)")
        let largest = folder.path("av1-largest.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=8192x4352:r=30,format=yuv420p10le", "-frames:v", "1", "-c:v",
            "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-crf", "50", "-b:v", "0", largest,
        ])
        let decoded = try TestEnvironment.storyreel(["thumbnail", largest, "-o", poster, "--at", "0"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
    }

    /// FFmpeg's HEVC decoder does not say how many pictures it keeps (its H.264 decoder does):
    /// an audit's 16-picture stream of 4:4:4 12-bit took 0.99 GB at 4096x2048, about 7 GB at
    /// 8192x8192. The count is read from the stream's sequence parameter set: 16 of 4096x3072
    /// (72 MB each) is refused; the same stream of 2 frames was decoded before (exit 0). So is
    /// the same stream whose set sits in an `hvcC` array labelled as another type: FFmpeg's
    /// decoder reads the unit's own header, storyreel read the label and decoded it (exit 0; at
    /// 8192x4096, 4 GB for one thumbnail).
    @Test func anHEVCStreamKeepingGigabytesOfPicturesIsRefused() throws {
        let clip = folder.path("hevc-references.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=4096x3072:r=30,format=yuv444p12le", "-frames:v", "2", "-c:v", "libx265",
            "-preset", "ultrafast", "-x265-params",
            "log-level=error:ref=16:bframes=0:allow-non-conformance=1:rc-lookahead=0:frame-threads=1:pools=1", clip,
        ])
        let poster = folder.path("hevc.jpg")
        let reason =
            "its stream keeps 16 reference pictures of 4096x3072 (72 MB each), more than the 1024 MB storyreel "
            + "decodes (the largest level keeps 5 of 8192x4352)"
        try expectFirstFrameRefused(clip, poster: poster, reason)
        let relabelled = folder.path("hevc-relabelled.mp4")
        try HostileFiles.relabelledSequenceParameterSets(of: clip, to: relabelled)
        try expectFirstFrameRefused(relabelled, poster: poster, reason)
    }

    /// Runs `thumbnail CLIP -o POSTER --at 0` and expects it refused (65) with `reason` as its one
    /// line, and no poster written.
    func expectFirstFrameRefused(
        _ clip: String, poster: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let refused = try TestEnvironment.storyreel(["thumbnail", clip, "-o", poster, "--at", "0"])
        #expect(refused.status == 65, "\(refused.stderr)", sourceLocation: sourceLocation)
        #expect(refused.stderr == "storyreel: error: \(clip): \(reason)\n", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: poster), sourceLocation: sourceLocation)
    }
}
