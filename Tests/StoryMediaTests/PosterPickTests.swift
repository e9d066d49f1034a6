import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// The smart poster skips black, white and flat openings and prefers the most typical look of
/// the clip's opening.
@Suite struct PosterPickTests {
    static func path(_ name: String) -> String { TestEnvironment.sample(name) }

    /// An H.264 clip the ffmpeg CLI makes from the lavfi graph `source`, with the keyframe
    /// options `keyframes`, in a new temporary folder (kept while the folder lives).
    static func h264Clip(from source: String, keyframes: [String]) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let clip = folder.path("clip.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "libx264"] + keyframes + [
                "-pix_fmt", "yuv420p", clip,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        return (folder, clip)
    }

    @Test func blackIntroPosterIsNotDark() throws {
        let source = try ClipFrameSource(path: Self.path("black-intro.mp4"))
        let first = try source.firstFrame(size: .width(180))
        #expect(FFmpegReference.meanLuma(first.pixels) < 5, "the clip really opens on black")
        let poster = try source.posterFrame(size: .width(180))
        #expect(FFmpegReference.meanLuma(poster.pixels) > 40)
        let shown = try Self.shownTime(
            of: poster, from: source, clip: Self.path("black-intro.mp4"), width: 180, height: 320)
        #expect(shown >= 1, "the poster comes from after the black second")
    }

    @Test func posterOfEveryClipIsAnUprightFrameOfTheOpening() throws {
        for clip in TestEnvironment.sampleClips {
            let source = try ClipFrameSource(path: clip.path)
            let poster = try source.posterFrame(size: .width(90))
            #expect(poster.width == 90 && poster.height == 160, "\(clip.lastPathComponent)")
            let shown = try #require(source.lastFrameTime)
            let duration = try #require(source.duration)
            let opening = min(duration / 3, ClipFrameSource.posterWindowLimit)
            let limit = clip.lastPathComponent == "black-intro.mp4" ? duration / 2 : opening
            #expect(shown >= 0 && shown <= limit, "\(clip.lastPathComponent) poster at \(shown) s")
        }
    }

    /// A VFR clip whose only keyframe is its first frame, flat grey, shown for 0.13 s; the test
    /// pattern follows at 30 fps in non-key frames. Every keyframe candidate is dropped, so the
    /// pick decodes the frames between keyframes.
    @Test func greyOnlyKeyframeGivesAPosterOfTheFramesAfterIt() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("grey-keyframe.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=4", "-vf",
                "drawbox=enable='eq(n,0)':c=gray:t=fill,setpts='if(eq(N,0),0,(0.13+(N-1)/30)/TB)'",
                "-fps_mode", "vfr", "-c:v", "libx264", "-x264-params", "keyint=1000:min-keyint=1000:scenecut=0",
                "-pix_fmt", "yuv420p", clip,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let flags = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-of", "csv=p=0", clip])
        #expect(flags.stdout.split(separator: "\n").filter { $0.hasPrefix("K") }.count == 1, "one keyframe only")

        let source = try ClipFrameSource(path: clip)
        let first = try source.firstFrame(size: .width(90))
        #expect(FrameStatistics(of: first).isUninformative, "the clip really opens on a flat grey frame")
        let poster = try source.posterFrame(size: .width(90))
        let statistics = FrameStatistics(of: poster)
        #expect(!statistics.isUninformative)
        #expect(statistics.lumaDeviation > 4 * FrameStatistics.flatDeviationLimit)
        let shown = try Self.shownTime(of: poster, from: source, clip: clip, width: 90, height: 160)
        // The sequential fallback samples the clip's first half (4 s long: its first 2 s).
        #expect(shown >= 0.13 && shown <= 2, "poster at \(shown) s")
    }

    /// A clip that opens on a flat grey keyframe, then shows a 1-pixel checkerboard (keyframes
    /// every 0.5 s). On a 64 × 64 averaged copy the checkerboard is as flat as the grey; its
    /// pixels are not, so the first checkerboard keyframe is the poster, without the sequential
    /// fallback (which, finding nothing but flat frames, used to give the grey first frame).
    @Test func fineTextureAfterAGreyKeyframeIsThePoster() throws {
        let (folder, clip) = try Self.h264Clip(
            from: "color=c=black:s=360x640:r=30:d=2,format=yuv420p,geq=lum='if(mod(X+Y,2),235,16)':cb=128:cr=128,"
                + "drawbox=enable='lt(n,15)':c=gray:t=fill",
            keyframes: ["-x264-params", "keyint=15:min-keyint=15:scenecut=0"])
        defer { withExtendedLifetime(folder) {} }
        let source = try ClipFrameSource(path: clip)
        let first = try source.firstFrame(size: .original)
        #expect(FrameStatistics(of: first).isUninformative, "the clip really opens on a flat grey frame")
        let poster = try source.posterFrame(size: .original)
        let shown = try Self.shownTime(of: poster, from: source, clip: clip, width: 360, height: 640)
        #expect(abs(shown - 0.5) < 0.001, "poster at \(shown) s, not the first checkerboard keyframe")
        #expect(FrameStatistics.robustSpread(ofLumaIn: poster) > 100, "the poster is the checkerboard")
    }

    /// From QA passes: 2 s of black, then content, in a clip whose second half starts in the
    /// black. With keyframes at 0 and 2 s, every try stayed in the first half, and the poster was
    /// black, in silence (exit 0): the second half's keyframes are tried. With one keyframe only
    /// (a long group of pictures, as screen recordings and hardware encoders make) there is none
    /// there either: the second half is then decoded in order, as the last try.
    @Test(arguments: [
        (1, ["-x264-params", "keyint=300:min-keyint=300:scenecut=0", "-force_key_frames", "2"]),
        (2, ["-g", "600", "-sc_threshold", "0"]),
    ])
    func contentOnlyInTheSecondHalfIsThePoster(contentSeconds: Int, keyframes: [String]) throws {
        let (folder, clip) = try Self.h264Clip(
            from: "color=c=black:s=180x320:r=30:d=2[k];testsrc2=s=180x320:r=30:d=\(contentSeconds)[c];"
                + "[k][c]concat=n=2:v=1:a=0",
            keyframes: keyframes)
        defer { withExtendedLifetime(folder) {} }
        let source = try ClipFrameSource(path: clip)
        let poster = try source.posterFrame(size: .width(90))
        #expect(!FrameStatistics(of: poster).isUninformative, "not the black intro")
        let shown = try Self.shownTime(of: poster, from: source, clip: clip, width: 90, height: 160)
        #expect(shown >= 2, "poster at \(shown) s")
    }

    /// Pixel spread: a texture over the whole picture counts as detail even when the averaged copy
    /// is flat; a thin strip of detail on a blank picture does not.
    @Test func pixelSpreadTellsATextureFromAStrip() {
        let side = 64
        let grey = RGBAImageBuffer(width: side, height: side, pixels: [UInt8](repeating: 128, count: side * side * 4))
        let checkerboard = RGBAImageBuffer(
            width: side, height: side,
            pixels: (0..<side * side).flatMap { index -> [UInt8] in
                let value: UInt8 = (index % side + index / side) % 2 == 0 ? 0 : 255
                return [value, value, value, 255]
            })
        let textured = FrameStatistics(downscaled: grey, pixelSamples: checkerboard)
        #expect(textured.lumaDeviation < 0.5, "the averaged copy is flat")
        #expect(abs(textured.pixelSpread - 127.5 * 1.4826) < 1, "half black, half white: \(textured.pixelSpread)")
        #expect(!textured.isUninformative)
        // Two white rows of 64 (3%) on grey: a status bar on a blank screen.
        var strip = grey.pixels
        for index in 0..<(2 * side * 4) { strip[index] = 255 }
        let barred = FrameStatistics(
            downscaled: grey, pixelSamples: RGBAImageBuffer(width: side, height: side, pixels: strip))
        #expect(barred.pixelSpread == 0)
        #expect(barred.isUninformative)
        #expect(FrameStatistics.robustSpread(ofLumaIn: RGBAImageBuffer(width: 0, height: 0, pixels: [])) == 0)
    }

    /// The time of the frame `source` last gave (`poster`), after expecting `poster` to be
    /// ffmpeg's frame of `clip` there (PSNR ≥ 30 dB at `width` × `height`). ffmpeg's frame is
    /// fetched just before that time, so that rounding to microseconds cannot pick the next one.
    static func shownTime(
        of poster: RGBAImageBuffer, from source: ClipFrameSource, clip: String, width: Int, height: Int
    ) throws -> Double {
        let shown = try #require(source.lastFrameTime)
        let reference = try FFmpegReference.frame(clip, at: max(0, shown - 0.001), width: width, height: height)
        #expect(PixelComparison.psnr(poster.pixels, reference) >= 30, "poster at \(shown) s against ffmpeg's frame")
        return shown
    }

    static func statistics(mean: Double, deviation: Double = 40, histogram: [Double]) -> FrameStatistics {
        FrameStatistics(lumaMean: mean, lumaDeviation: deviation, histogram: histogram)
    }

    @Test func uninformativeFramesAreDroppedAndTheTypicalOneWins() {
        let usual = [0.5, 0.5, 0, 0]
        let candidates = [
            Self.statistics(mean: 3, histogram: [1, 0, 0, 0]),  // black
            Self.statistics(mean: 120, histogram: [0, 0, 0.5, 0.5]),  // an outlier look
            Self.statistics(mean: 245, deviation: 8, histogram: [0, 0, 0, 1]),  // white flash
            Self.statistics(mean: 110, histogram: [0.4, 0.6, 0, 0]),
            Self.statistics(mean: 100, histogram: usual),
            Self.statistics(mean: 100, deviation: 2, histogram: usual),  // flat
            Self.statistics(mean: 105, histogram: [0.6, 0.4, 0, 0]),
        ]
        #expect(candidates[0].isUninformative && candidates[2].isUninformative && candidates[5].isUninformative)
        // A white page with detail on it (a light-mode screen recording) is not near-white.
        #expect(!Self.statistics(mean: 241, deviation: 49, histogram: [0, 0, 0, 1]).isUninformative)
        #expect(FrameStatistics.typicalIndex(of: candidates) == 4)
    }

    /// Two candidates are always equally near their mean: the earlier won, which in a fade-in
    /// is the darker (a poster of mean luma 41 where the content has 125).
    @Test func ofEquallyTypicalCandidatesTheOneWithMoreContrastWins() {
        let dim = Self.statistics(mean: 40, deviation: 20, histogram: [0.8, 0.2, 0, 0])
        let bright = Self.statistics(mean: 90, deviation: 45, histogram: [0.2, 0.8, 0, 0])
        #expect(FrameStatistics.typicalIndex(of: [dim, bright]) == 1)
        #expect(FrameStatistics.typicalIndex(of: [bright, dim]) == 0)
        #expect(FrameStatistics.typicalIndex(of: [dim, dim]) == 0, "the earliest of equals")
        // All dropped: the one with the most contrast, else the first.
        let black = Self.statistics(mean: 2, deviation: 1, histogram: [1, 0, 0, 0])
        let night = Self.statistics(mean: 20, deviation: 9, histogram: [1, 0, 0, 0])
        #expect(FrameStatistics.leastUninformativeIndex(of: [black, night, black]) == 1)
        #expect(FrameStatistics.leastUninformativeIndex(of: [black, black]) == 0)
        #expect(FrameStatistics.leastUninformativeIndex(of: []) == nil)
    }

    /// 3.2 s of black, then the test pattern, with one keyframe: every candidate up to 3 s is
    /// black, and the old pick gave the black first frame.
    @Test func aBlackIntroLongerThanTheWindowWithOneKeyframeGivesAPosterOfTheContent() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("long-black.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=black:s=180x320:r=30:d=3.2", "-f", "lavfi", "-i",
            "testsrc2=s=180x320:r=30:d=6", "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264",
            "-x264-params", "keyint=1000:min-keyint=1000:scenecut=0", "-pix_fmt", "yuv420p", clip,
        ])
        let source = try ClipFrameSource(path: clip)
        let poster = try source.posterFrame(size: .width(90))
        #expect(!FrameStatistics(of: poster).isUninformative)
        let shown = try Self.shownTime(of: poster, from: source, clip: clip, width: 90, height: 160)
        #expect(shown >= 3.2 && shown <= 4.6, "poster at \(shown) s: the content, in the first half")
    }

    /// A fade of `fade` seconds over a clip of `duration`, from black or from white, with x264's
    /// keyframes (one at 0, the next at 8.3 s) or one a second, as phones make.
    struct Fade: Sendable, CustomTestStringConvertible {
        let colour: String
        let fade: Int
        let duration: Int
        let keyframes: [String]
        var testDescription: String {
            "\(fade) s from \(colour) over \(duration) s, \(keyframes.isEmpty ? "x264's keyframes" : keyframes.joined(separator: " "))"
        }
        static let all = [
            Fade(colour: "black", fade: 6, duration: 12, keyframes: []),
            Fade(colour: "white", fade: 6, duration: 12, keyframes: []),
            Fade(colour: "black", fade: 6, duration: 12, keyframes: ["-g", "30"]),
            Fade(colour: "black", fade: 3, duration: 4, keyframes: ["-g", "30"]),
            Fade(colour: "black", fade: 2, duration: 4, keyframes: ["-g", "30"]),
            Fade(colour: "black", fade: 6, duration: 20, keyframes: ["-g", "9999", "-sc_threshold", "0"]),
        ]
    }

    /// From QA passes: in a 6 s fade-in, every frame of the pick's window (at most 3 s) is still
    /// fading, and the poster was at a quarter of the content's brightness (mean luma 30 for
    /// 127), or washed out from white (204); in a 4 s clip with a keyframe a second, the
    /// window's two keyframes (black, then the fade a third in) gave one at a third (42 or 63).
    /// The frames after the window are looked at when the window's contrast still rises at its
    /// end.
    @Test(arguments: Fade.all)
    func aFadeInGivesAPosterOfTheFullContent(fade: Fade) throws {
        let (folder, clip) = try Self.h264Clip(
            from: "testsrc2=s=180x320:r=30:d=\(fade.duration),fade=t=in:st=0:d=\(fade.fade):color=\(fade.colour)",
            keyframes: fade.keyframes)
        defer { withExtendedLifetime(folder) {} }
        let source = try ClipFrameSource(path: clip)
        let poster = try source.posterFrame(size: .width(90))
        let content = try FFmpegReference.frame(clip, at: Double(fade.duration) - 0.2, width: 90, height: 160)
        let (posterLuma, contentLuma) = (FFmpegReference.meanLuma(poster.pixels), FFmpegReference.meanLuma(content))
        #expect(abs(posterLuma - contentLuma) < 0.1 * contentLuma, "poster luma \(posterLuma), content \(contentLuma)")
        let shown = try Self.shownTime(of: poster, from: source, clip: clip, width: 90, height: 160)
        #expect(shown >= 0.75 * Double(fade.fade) && shown <= 10, "poster at \(shown) s")
    }

    /// A fade-in of `fade` seconds over a 5 s clip (ending late in it, or after it), from black
    /// or from white, with the keyframes a QA pass found it on.
    struct LongFade: Sendable, CustomTestStringConvertible {
        let colour: String
        let fade: Double
        let keyframes: [String]
        var testDescription: String { "\(fade) s from \(colour) over 5 s, \(keyframes.joined(separator: " "))" }
        static let all = [
            LongFade(colour: "black", fade: 6, keyframes: ["-g", "30", "-sc_threshold", "0"]),
            LongFade(colour: "white", fade: 6, keyframes: ["-g", "30", "-sc_threshold", "0"]),
            LongFade(colour: "black", fade: 5.5, keyframes: ["-g", "30", "-sc_threshold", "0"]),
            LongFade(colour: "black", fade: 4.5, keyframes: ["-g", "30"]),
            LongFade(
                colour: "black", fade: 4.5,
                keyframes: [
                    "-g", "300", "-sc_threshold", "0", "-force_key_frames", "0,0.1333,1.1333,2.1333,3.1333,4.1333",
                ]
            ),
        ]
    }

    /// From a QA pass: the rest of a long fade was taken to be over at the first sample whose
    /// contrast rose by less than 5% from the one before, which depends on how close the samples
    /// are, and a picture's own contrast wobbles by a few percent (testsrc2's is level from 3.3 s
    /// to 3.5 s). A 6 s fade in a 5 s clip got a poster at 3.3 s (mean luma 70 where its last
    /// frame has 107), one from white at 3.5 s (177 for 147), a 4.5 s fade with a keyframe at
    /// 0.13 s (x264's scene cut) one at 3.4 s (97 for 127), and a 5.5 s fade one at 3.5 s while
    /// a 5 s fade's was at 4.7 s. The poster is within a few levels of the fade's end, or of the
    /// last frame when the fade goes on past it. Through the built binary, so that the
    /// previous one can be checked.
    @Test(arguments: LongFade.all)
    func aLongFadeIsFollowedToItsEndHoweverCloseItsSamplesAre(fade: LongFade) throws {
        let (folder, clip) = try Self.h264Clip(
            from: "testsrc2=s=180x320:r=30:d=5,fade=t=in:st=0:d=\(fade.fade):color=\(fade.colour)",
            keyframes: fade.keyframes)
        defer { withExtendedLifetime(folder) {} }
        let posterPath = folder.path("poster.png")
        let made = try TestEnvironment.storyreel(["thumbnail", clip, "-o", posterPath, "--width", "90"])
        try #require(made.status == 0, "\(made.stderr)")
        let poster = try FFmpegReference.frame(posterPath, at: 0, width: 90, height: 160)
        // The fullest frame: where the fade is over, or the last frame (4.967 s).
        let fullest = try FFmpegReference.frame(clip, at: min(fade.fade + 0.2, 4.95), width: 90, height: 160)
        let (posterLuma, fullestLuma) = (FFmpegReference.meanLuma(poster), FFmpegReference.meanLuma(fullest))
        #expect(abs(posterLuma - fullestLuma) <= 8, "poster luma \(posterLuma), the fade's fullest \(fullestLuma)")
    }

    /// From the poster-pick QA pass: one black first frame (a phone's camera start) before the
    /// content was taken for a fade; the pick decoded on to 10 s (two to five times the cost)
    /// and took a frame after a cut to other, brighter content. A 0.2 s white flash with a dark
    /// silhouette also beat the night scene after it. Both keep the content's own frame.
    @Test func aBlackFirstFrameBeforeACutOrAFlashBeforeANightSceneKeepTheContent() throws {
        let (cutFolder, cut) = try Self.h264Clip(
            from: "testsrc2=s=180x320:r=30:d=4,eq=contrast=0.6:saturation=0.6,fade=in:d=0.1[a];"
                + "smptehdbars=s=180x320:r=30:d=6[b];[a][b]concat=n=2:v=1:a=0",
            keyframes: ["-g", "60", "-keyint_min", "60", "-sc_threshold", "0"])
        defer { withExtendedLifetime(cutFolder) {} }
        let source = try ClipFrameSource(path: cut)
        _ = try source.posterFrame(size: .width(90))
        let shown = try #require(source.lastFrameTime)
        #expect(shown > 0 && shown < 4, "poster at \(shown) s: the first shot, before the cut at 4 s")
        let (flashFolder, flash) = try Self.h264Clip(
            from:
                "color=white:s=180x320:r=30:d=0.2,drawbox=x=iw*0.4:y=ih*0.6:w=iw*0.2:h=ih*0.4:color=0x202020:t=fill[w];"
                + "testsrc2=s=180x320:r=30:d=3.8,eq=brightness=-0.38:contrast=0.5[n];[w][n]concat=n=2:v=1:a=0",
            keyframes: ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0"])
        defer { withExtendedLifetime(flashFolder) {} }
        let night = try ClipFrameSource(path: flash)
        let poster = try night.posterFrame(size: .width(90))
        #expect(FFmpegReference.meanLuma(poster.pixels) < 120, "the night scene, not the flash")
        #expect(try #require(night.lastFrameTime) >= 0.2)
    }

    /// From a review: in a 4 s clip with a keyframe a second, a 1.5 s fade-in and a cut at
    /// 2.2 s, the keyframe probed at 2 s (the fade over, the same shot) was thrown away, the cut
    /// ended the rest of the fade, and the poster was the mid-fade keyframe at 1 s (luma 82 for
    /// 123). The probed keyframe is one of the frames the poster may be.
    @Test func theKeyframeProbedAfterAFadeCanBeThePoster() throws {
        let (folder, clip) = try Self.h264Clip(
            from: "testsrc2=s=180x320:r=30:d=2.2,fade=t=in:st=0:d=1.5[a];smptehdbars=s=180x320:r=30:d=1.8[b];"
                + "[a][b]concat=n=2:v=1:a=0",
            keyframes: ["-g", "30", "-keyint_min", "30", "-sc_threshold", "0"])
        defer { withExtendedLifetime(folder) {} }
        let source = try ClipFrameSource(path: clip)
        let poster = try source.posterFrame(size: .width(90))
        let shown = try #require(source.lastFrameTime)
        #expect(shown >= 1.5 && shown < 2.2, "poster at \(shown) s: the first shot, faded in")
        let content = try FFmpegReference.frame(clip, at: 2.0, width: 90, height: 160)
        let (posterLuma, contentLuma) = (FFmpegReference.meanLuma(poster.pixels), FFmpegReference.meanLuma(content))
        #expect(abs(posterLuma - contentLuma) < 0.1 * contentLuma, "poster luma \(posterLuma), content \(contentLuma)")
    }

    @Test func aFadeIsContrastRisingThroughoutAndIntoTheLastFrame() {
        func frames(_ deviations: [Double]) -> [FrameStatistics] {
            deviations.map { Self.statistics(mean: 60, deviation: $0, histogram: [1, 0]) }
        }
        #expect(FrameStatistics.isFadingIn(frames([0, 5, 10, 15, 20, 25])))
        #expect(FrameStatistics.isFadingIn(frames([10, 9.6, 14, 20])), "a dip within 5%")
        #expect(!FrameStatistics.isFadingIn(frames([10, 20, 30, 30])), "settled at its end")
        #expect(!FrameStatistics.isFadingIn(frames([10, 20, 15, 30])), "not rising throughout")
        #expect(!FrameStatistics.isFadingIn(frames([40, 42, 44, 46, 48])), "20% over them all")
        #expect(!FrameStatistics.isFadingIn(frames([10, 30])), "two informative ones say nothing")
        #expect(!FrameStatistics.isFadingIn(frames([0, 30])), "one black frame before the content is no fade")
        #expect(FrameStatistics.isFadingIn(frames([0, 20, 30])), "two rising after a black one: a short clip's fade")
        #expect(FrameStatistics.isFadingIn(frames([0, 0.4, 0.3, 12, 20, 30])), "noise in the black is not a fall")
        #expect(!FrameStatistics.isFadingIn([]))
        // After the fade: up to where it is over, not past a fall or a cut.
        func timed(_ deviations: [Double], from start: Double, every step: Double) -> [(
            time: Double, statistics: FrameStatistics
        )] {
            frames(deviations).enumerated().map { (start + Double($0.offset) * step, $0.element) }
        }
        func later(_ frames: [(time: Double, statistics: FrameStatistics)]) -> [(
            time: Double?, statistics: FrameStatistics
        )] {
            frames.map { ($0.time, $0.statistics) }
        }
        let fadeSoFar = timed([15], from: 1, every: 1)
        let rising = timed([20, 30, 40, 41, 45], from: 2, every: 1)
        #expect(FrameStatistics.restOfFade(later(rising), after: fadeSoFar).map(\.lumaDeviation) == [20, 30, 40, 41])
        let fall = timed([20, 12, 40], from: 2, every: 1)
        #expect(FrameStatistics.restOfFade(later(fall), after: fadeSoFar).count == 1, "a fall ends it")
        // However close the samples: a linear fade rising 3% from one to the next (10 a second
        // from 30 at 3 s, sampled every 0.1 s), then level from 4 s: over at 4.5 s, half a second
        // into the level, where the rise from one sample to the next ended it at 3.1 s.
        let dense = timed((1...10).map { 30 + Double($0) } + [40, 40, 40, 40, 40, 40], from: 3.1, every: 0.1)
        let denseRest = FrameStatistics.restOfFade(later(dense), after: timed([20, 30], from: 2, every: 1))
        #expect(denseRest.count == 15, "over at \(3.0 + 0.1 * Double(denseRest.count)) s")
        let slowFade = timed([20, 30], from: 2, every: 1)
        #expect(!FrameStatistics.fadeIsOver(at: (3.1, frames([30.5])[0]), after: slowFade), "a rise from 2 s, not 3 s")
        #expect(FrameStatistics.fadeIsOver(at: (3.6, frames([30])[0]), after: slowFade), "level for half a second")
        var cut = frames([20, 30])
        cut[1].layout = (0..<64).map { Double($0 % 8 < 4 ? 200 : 20) }
        cut[0].layout = (0..<64).map { Double($0 / 8 < 4 ? 200 : 20) }
        #expect(!cut[1].resembles(cut[0]))
        let cutLater = cut.enumerated().map { (time: Double?(2 + Double($0.offset)), statistics: $0.element) }
        #expect(FrameStatistics.restOfFade(cutLater, after: fadeSoFar).count == 1, "a cut ends it")
        var faded = cut[0]
        faded.layout = cut[0].layout.map { $0 * 0.4 }
        #expect(faded.resembles(cut[0]), "a fade scales the layout")
    }

    @Test func allUninformativeGivesNoPick() {
        let candidates = [
            Self.statistics(mean: 2, histogram: [1, 0]), Self.statistics(mean: 250, deviation: 3, histogram: [0, 1]),
        ]
        #expect(FrameStatistics.typicalIndex(of: candidates) == nil)
        #expect(FrameStatistics.typicalIndex(of: []) == nil)
    }

    @Test func statisticsMeasureLumaAndColour() {
        let grey = RGBAImageBuffer(width: 4, height: 4, pixels: [UInt8](repeating: 128, count: 64))
        let flat = FrameStatistics(of: grey)
        #expect(abs(flat.lumaMean - 128) < 1 && flat.lumaDeviation < 0.5)
        #expect(flat.isUninformative)
        let stripes = RGBAImageBuffer(
            width: 2, height: 2, pixels: [0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255])
        let striped = FrameStatistics(of: stripes)
        #expect(abs(striped.lumaMean - 127.5) < 1 && abs(striped.lumaDeviation - 127.5) < 1)
        #expect(!striped.isUninformative)
        #expect(striped.histogram.count == 3 * FrameStatistics.binsPerChannel)
        #expect(abs(striped.histogram.reduce(0, +) - 3) < 1e-9)
    }
}
