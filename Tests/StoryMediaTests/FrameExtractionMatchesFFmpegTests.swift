import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Frames taken at a time, first and last frames match what the ffmpeg CLI decodes at the same
/// time and size (auto-rotated, colour tags honoured; the HDR clip through the tone-mapping
/// chain), so timing, rotation, colour and scaling are all checked at once.
@Suite struct FrameExtractionMatchesFFmpegTests {
    /// Every sample clip with the reference chain its frames go through and the PSNR they must
    /// reach: SDR clips match ffmpeg's frame; the HDR clip, tone-mapped on the scaled-down picture,
    /// follows the chain (which tone-maps at full size) less closely.
    static let clips: [(name: String, filters: String?, minimumPSNR: Double)] = [
        ("black-intro.mp4", nil, 30),
        ("edit-list.mp4", nil, 30),
        ("portrait-h264.mp4", nil, 30),
        ("sixty-fps.mp4", nil, 30),
        ("iphone-hevc-hdr.mov", FFmpegReference.toneMapChain, 23),
    ]

    static func path(_ name: String) -> String { TestEnvironment.sample(name) }

    @Test(arguments: clips.map(\.name))
    func framesAtTimesMatchFFmpeg(name: String) throws {
        let clip = Self.clips.first { $0.name == name }!
        let source = try ClipFrameSource(path: Self.path(name))
        let duration = try #require(source.duration)
        for seconds in [0, duration / 2 + 0.01, duration - 0.1] {
            let image = try source.frame(at: seconds, size: .width(360))
            #expect(image.width == 360 && image.height == 640)
            #expect(!source.lastRequestWasClamped)
            let reference = try FFmpegReference.frame(
                Self.path(name), at: seconds, width: 360, height: 640, filters: clip.filters)
            let psnr = PixelComparison.psnr(image.pixels, reference)
            #expect(psnr >= clip.minimumPSNR, "\(name) at \(seconds) s: \(psnr) dB")
        }
    }

    @Test(arguments: clips.map(\.name))
    func lastFrameIsFFmpegsLastFrame(name: String) throws {
        let clip = Self.clips.first { $0.name == name }!
        let source = try ClipFrameSource(path: Self.path(name))
        let image = try source.lastFrame(size: .width(360))
        let reference = try FFmpegReference.lastFrame(Self.path(name), width: 360, height: 640, filters: clip.filters)
        let psnr = PixelComparison.psnr(image.pixels, reference)
        #expect(psnr >= clip.minimumPSNR, "\(name): \(psnr) dB")
        let last = try #require(source.lastFrameTime)
        #expect(last > (source.duration ?? 0) - 0.1)
    }

    /// From a QA pass: a crop the stream's header gives on the left (a lossless crop made with
    /// `h264_metadata`) was applied rounded down to keep the planes aligned, as libavcodec does
    /// by default, so every frame showed columns the clip crops away, at another aspect than the
    /// clip's (a 1080x1080 clip gave a 1116x1080 poster). Browsers and AVPlayer crop exactly.
    @Test func aLeftCropInTheStreamHeaderIsAppliedExactly() throws {
        let folder = try TemporaryFolder()
        let cropped = folder.path("cropped.mp4")
        let crop = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-i", Self.path("portrait-h264.mp4"), "-c", "copy", "-bsf:v",
                "h264_metadata=crop_left=100", cropped,
            ])
        #expect(crop.status == 0, "\(crop.stderr)")
        let image = try ClipFrameSource(path: cropped).firstFrame(size: .width(310))
        #expect(image.width == 310 && image.height == 640, "620x1280 shown: \(image.width)x\(image.height)")
        // The truth: the whole picture cropped by ffmpeg's crop filter, which crops exactly.
        let reference = try FFmpegReference.frame(
            Self.path("portrait-h264.mp4"), at: 0, width: 310, height: 640, filters: "crop=620:1280:100:0")
        let psnr = PixelComparison.psnr(image.pixels, reference)
        #expect(psnr >= 30, "\(psnr) dB")
    }

    @Test func firstFrameIsTheFrameAtZero() throws {
        let source = try ClipFrameSource(path: Self.path("edit-list.mp4"))
        let first = try source.firstFrame(size: .width(180))
        #expect(source.lastFrameTime == 0)
        #expect(try source.frame(at: 0, size: .width(180)) == first)
        let reference = try FFmpegReference.frame(Self.path("edit-list.mp4"), at: 0, width: 180, height: 320)
        #expect(PixelComparison.psnr(first.pixels, reference) >= 30)
    }

    @Test func timeBetweenFramesPicksTheNextFrame() throws {
        let source = try ClipFrameSource(path: Self.path("sixty-fps.mp4"))
        let image = try source.frame(at: 1.001, size: .width(180))
        let frameTime = try #require(source.lastFrameTime)
        #expect(abs(frameTime - 61.0 / 60) < 1e-6, "first frame at or after 1.001 s is frame 61")
        let reference = try FFmpegReference.frame(Self.path("sixty-fps.mp4"), at: 1.001, width: 180, height: 320)
        #expect(PixelComparison.psnr(image.pixels, reference) >= 30)
        let previous = try FFmpegReference.frame(Self.path("sixty-fps.mp4"), at: 1.0, width: 180, height: 320)
        #expect(PixelComparison.psnr(image.pixels, previous) < PixelComparison.psnr(image.pixels, reference))
    }

    @Test func timeCountsFromTheClipStartAndFindsFramesBeforeAReorderedKeyframe() throws {
        // Without an edit list, B-frame delay starts the video 2 frames after the audio: times
        // count from the clip's start (the audio's 0), as `ffmpeg -ss` counts. Keyframes every
        // 20 frames: the one shown at 1.033 s is decoded at 1.000 s, so a seek by decode time
        // for 1.000 s lands on it, after the frames shown at 1.000 and 1.017 s.
        let folder = try TemporaryFolder()
        let path = folder.path("late-video.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=180x320:r=60:d=2", "-f", "lavfi", "-i",
                "sine=d=2", "-c:v", "libx264", "-bf", "2", "-g", "20", "-x264-params", "scenecut=0", "-c:a", "aac",
                "-use_editlist", "0", path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let source = try ClipFrameSource(path: path)
        let early = try source.frame(at: 0.5, size: .original)
        #expect(abs(try #require(source.lastFrameTime) - 0.5) < 1e-6)
        let atHalf = try FFmpegReference.frame(path, at: 0.5, width: 180, height: 320)
        #expect(PixelComparison.psnr(early.pixels, atHalf) >= 30)

        let image = try source.frame(at: 1.0, size: .original)
        #expect(abs(try #require(source.lastFrameTime) - 1.0) < 1e-6, "the frame shown at 1.000 s")
        let decodedFromTheStart = try FFmpegReference.frame(
            path, at: 0, width: 180, height: 320, filters: "select='gte(t,0.999)'")
        #expect(PixelComparison.psnr(image.pixels, decodedFromTheStart) >= 30)
    }

    @Test func timePastTheEndIsClampedToTheLastFrame() throws {
        let source = try ClipFrameSource(path: Self.path("portrait-h264.mp4"))
        let late = try source.frame(at: 60, size: .width(180))
        #expect(source.lastRequestWasClamped)
        let last = try source.lastFrame(size: .width(180))
        #expect(!source.lastRequestWasClamped)
        #expect(late == last)
        _ = try source.frame(at: 1, size: .width(180))
        #expect(!source.lastRequestWasClamped)
    }

    @Test func truncatedClipGivesItsLastDecodableFrame() throws {
        let folder = try TemporaryFolder()
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.path("portrait-h264.mp4")))
        let path = try folder.write("cut.mp4", data.prefix(data.count * 2 / 3))
        let source = try ClipFrameSource(path: path)
        let image = try source.lastFrame(size: .width(180))
        let shown = try #require(source.lastFrameTime)
        #expect(shown > 0.5 && shown < 2.9, "the last frame is from the part that was uploaded")
        let original = try FFmpegReference.frame(Self.path("portrait-h264.mp4"), at: shown, width: 180, height: 320)
        #expect(PixelComparison.psnr(image.pixels, original) >= 30)
    }

    @Test func sizesFollowTheDisplaySize() throws {
        let source = try ClipFrameSource(path: Self.path("iphone-hevc-hdr.mov"))
        let info = try ClipProbe.inspect(path: Self.path("iphone-hevc-hdr.mov"))
        #expect(source.displayWidth == info.video?.displayWidth && source.displayHeight == info.video?.displayHeight)
        let original = try source.firstFrame(size: .original)
        #expect(original.width == 720 && original.height == 1280)
        let byHeight = try source.firstFrame(size: .height(321))
        #expect(byHeight.width == 180 && byHeight.height == 321)
        let filled = try source.firstFrame(size: .fill(width: 300, height: 300))
        #expect(filled.width == 300 && filled.height == 300)
    }

    @Test func audioOnlyClipHasNoVideoStream() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("voice.m4a")
        let made = try TestEnvironment.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", path])
        #expect(made.status == 0)
        #expect {
            try ClipFrameSource(path: path)
        } throws: { error in
            let error = error as? MediaError
            return error?.kind == .noVideoStream && error?.reason == "no video stream (audio only)"
        }
    }
}
