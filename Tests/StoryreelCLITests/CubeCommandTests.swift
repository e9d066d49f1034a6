import CubeRender
import Foundation
import StoryMedia
import StoryPipeline
import StoryreelTestSupport
import Testing

/// `storyreel cube` end to end: the encoded clip as ffprobe sees it, the PNG frames against the
/// renderer run in-process, backward against forward, stills, the filmstrip, and bad input.
@Suite struct CubeCommandTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let fromClip = TestEnvironment.sample("stories/ana.lima/IMG_0001.MOV")
    static let toClip = TestEnvironment.sample("stories/ben_k/1.mp4")

    func cube(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.storyreel(["cube"] + arguments)
    }

    /// Every file under the temp folder, relative, sorted (hidden temp files included).
    func filesLeft() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.url.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String { files.append(relative) }
        return files.sorted()
    }

    /// A still made by the ffmpeg CLI from one of its test sources.
    func makeStill(_ name: String, source: String) throws -> String {
        let path = folder.path(name)
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-frames:v", "1", path])
        guard made.status == 0 else { throw TestFailure("ffmpeg could not make \(name): \(made.stderr)") }
        return path
    }

    @Test func clipsMakeAnH264ClipAndFramesThatMatchTheRenderer() throws {
        let output = folder.path("cube.mp4")
        let frames = folder.path("frames")
        let result = try cube([
            Self.fromClip, Self.toClip, "--size", "270x480", "-o", output, "--frames-dir", frames,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let frameCount = 15
        // What was written is a note, as every line on stderr is one (a scripting QA pass: this
        // one had no prefix, and a log filter on the prefixes missed it).
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "storyreel: note: cube 270x480, 15 frames -> \(output), \(frames)/frame_*.png")
        #expect(
            lines.allSatisfy { $0.hasPrefix("storyreel: note: ") || $0.hasPrefix("storyreel: warning: ") }, "\(lines)")

        let stream = try TestEnvironment.ffprobeVideoStream(output)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["profile"] as? String == "High")
        #expect(stream["pix_fmt"] as? String == "yuv420p")
        #expect(stream["width"] as? Int == 270)
        #expect(stream["height"] as? Int == 480)
        #expect(stream["nb_read_frames"] as? String == "\(frameCount)")
        #expect(stream["avg_frame_rate"] as? String == "30/1")
        #expect(stream["color_transfer"] as? String == "bt709")
        #expect(stream["color_primaries"] as? String == "bt709")
        #expect(stream["color_space"] as? String == "bt709")

        // Besides the frames, the hidden record of them (so a later run can replace them).
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names == [".storyreel-frames"] + (0..<frameCount).map { String(format: "frame_%04d.png", $0) })
        #expect(try filesLeft() == ["cube.mp4", "frames"] + names.map { "frames/\($0)" })

        // Frame 0 as the renderer draws it in-process, from the faces the library decodes.
        var parameters = CubeTransitionJob.Parameters()
        parameters.width = 270
        parameters.height = 480
        let job = CubeTransitionJob(from: Self.fromClip, to: Self.toClip, parameters: parameters)
        let faces = try job.loadFaces()
        let renderer = try CubeRenderer(
            from: try RGBAImage(width: 270, height: 480, pixels: faces.from.pixels),
            to: try RGBAImage(width: 270, height: 480, pixels: faces.to.pixels),
            spec: job.spec(width: 270, height: 480))
        let expected = renderer.renderImage(frame: 0).pixels
        let firstPNG = try PixelComparison.ffmpegImage("\(frames)/frame_0000.png", width: 270, height: 480)
        #expect(PixelComparison.psnr(firstPNG, expected) >= 40)

        let decoded = try PixelComparison.ffmpegFrames(output, width: 270, height: 480)
        #expect(decoded.count == frameCount)
        for (index, picture) in decoded.enumerated() {
            let png = try PixelComparison.ffmpegImage(
                "\(frames)/\(String(format: "frame_%04d.png", index))", width: 270, height: 480)
            // The PNGs are the RGBA render; the clip is drawn in yuv420p, its chroma at half size
            // from the faces' 4:2:0 chroma. 4:2:0 alone (no encoding) costs these colour bars
            // 27-31 dB of RGB PSNR, and drawing the chroma at half size softens their colour
            // edges a little more (about 1.2 dB here). Luma is drawn at full size.
            #expect(PixelComparison.lumaPSNR(picture, png) >= 35, "frame \(index)")
            #expect(PixelComparison.psnr(picture, png) >= 24, "frame \(index)")
        }
    }

    /// A clip written alone draws its faces from the clips' decoded planes as they are (both
    /// samples are yuv420p, BT.709, at the canvas size); with PNG frames beside it, from the RGBA
    /// faces the frames are drawn from. The two draw the same picture: luma as closely as the
    /// clip with frames does (above), colour within what 4:2:0 costs these bars (27-31 dB).
    @Test func aClipAloneDrawsTheFramesTheRGBARenderDraws() throws {
        let alone = folder.path("alone.mp4")
        let frames = folder.path("frames")
        #expect(try cube([Self.fromClip, Self.toClip, "-o", alone, "--quiet"]).status == 0)
        #expect(try cube([Self.fromClip, Self.toClip, "--frames-dir", frames, "--quiet"]).status == 0)
        let decoded = try PixelComparison.ffmpegFrames(alone, width: 540, height: 960)
        #expect(decoded.count == 15)
        for (index, picture) in decoded.enumerated() {
            let png = try PixelComparison.ffmpegImage(
                "\(frames)/\(String(format: "frame_%04d.png", index))", width: 540, height: 960)
            #expect(PixelComparison.lumaPSNR(picture, png) >= 35, "frame \(index)")
            #expect(PixelComparison.psnr(picture, png) >= 26, "frame \(index)")
        }
    }

    /// From a QA pass of cube: the same H.264 cube at 16x16 made 2 to 7 different files in 16
    /// runs, from identical pictures; libx264's AVX-512 code was the cause (its AVX2 code, which
    /// storyreel now gives it, makes one).
    @Test func theSameCubeMakesTheSameFileEveryRun() throws {
        let from = TestEnvironment.sample("stories/ana.lima/IMG_0002.MOV")
        var digests: Set<String> = []
        for run in 0..<16 {
            let output = folder.path("same-\(run).mp4")
            let result = try cube([from, Self.toClip, "--size", "16x16", "-o", output, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            digests.insert(String(try TestEnvironment.run("sha256sum", [output]).stdout.prefix(64)))
        }
        #expect(digests.count == 1, "\(digests.count) different files from 16 runs")
    }

    @Test func hevcClipIsTaggedHvc1() throws {
        let output = folder.path("cube-hevc.mp4")
        let result = try cube([
            Self.fromClip, Self.toClip, "--size", "270x480", "--duration", "0.2", "--codec", "hevc", "-o", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try TestEnvironment.ffprobeVideoStream(output)
        #expect(stream["codec_name"] as? String == "hevc")
        #expect(stream["codec_tag_string"] as? String == "hvc1")
        #expect(stream["nb_read_frames"] as? String == "6")
        #expect(stream["avg_frame_rate"] as? String == "30/1")
    }

    @Test func defaultCanvasIsFromsDisplaySize() throws {
        let output = folder.path("default.mp4")
        let result = try cube([Self.fromClip, Self.toClip, "--duration", "0.1", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try TestEnvironment.ffprobeVideoStream(output)
        #expect(stream["width"] as? Int == 540)
        #expect(stream["height"] as? Int == 960)
        #expect(stream["nb_read_frames"] as? String == "3")
    }

    @Test func backwardIsForwardWithFacesSwappedInReverse() throws {
        let first = try makeStill("a.png", source: "testsrc2=s=270x480")
        let second = try makeStill("b.jpg", source: "mandelbrot=s=300x500")
        let common = ["--size", "270x480", "--duration", "0.3", "--fps", "20"]
        let backward = try cube(
            [first, second, "--direction", "backward", "--frames-dir", folder.path("back")] + common)
        #expect(backward.status == 0, "\(backward.stderr)")
        let forward = try cube([second, first, "--frames-dir", folder.path("fwd")] + common)
        #expect(forward.status == 0, "\(forward.stderr)")
        let frameCount = 6
        func frame(_ name: String, _ index: Int) throws -> Data {
            try Data(contentsOf: URL(fileURLWithPath: CubeTransitionJob.framePath(in: folder.path(name), index: index)))
        }
        for index in 0..<frameCount {
            #expect(try frame("back", index) == frame("fwd", frameCount - 1 - index), "backward frame \(index)")
        }
        let extra = CubeTransitionJob.framePath(in: folder.path("back"), index: frameCount)
        #expect(!FileManager.default.fileExists(atPath: extra))
    }

    @Test func backwardClipFacesAreBothFirstFrames() throws {
        var parameters = CubeTransitionJob.Parameters()
        parameters.width = 270
        parameters.height = 480
        parameters.direction = .backward
        let faces = try CubeTransitionJob(from: Self.fromClip, to: Self.toClip, parameters: parameters).loadFaces()
        let fill = FrameSize.fill(width: 270, height: 480)
        #expect(faces.from == (try ClipFrameSource(path: Self.fromClip).firstFrame(size: fill)))
        #expect(faces.to == (try ClipFrameSource(path: Self.toClip).firstFrame(size: fill)))
        parameters.direction = .forward
        let forwardFaces = try CubeTransitionJob(from: Self.fromClip, to: Self.toClip, parameters: parameters)
            .loadFaces()
        #expect(forwardFaces.from == (try ClipFrameSource(path: Self.fromClip).lastFrame(size: fill)))
    }

    @Test func stillsWorkAsFacesAndSetTheCanvas() throws {
        let first = try makeStill("face.png", source: "testsrc2=s=301x480")
        let second = try makeStill("face.jpeg", source: "mandelbrot=s=640x360")
        let output = folder.path("stills.mp4")
        let result = try cube([first, second, "--duration", "0.2", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try TestEnvironment.ffprobeVideoStream(output)
        #expect(stream["width"] as? Int == 300)
        #expect(stream["height"] as? Int == 480)
        #expect(stream["nb_read_frames"] as? String == "6")
    }

    @Test func filmstripHasFiveTilesOf240Pixels() throws {
        let strip = folder.path("strip.png")
        let result = try cube([Self.fromClip, Self.toClip, "--size", "270x486", "--filmstrip", strip])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try TestEnvironment.ffprobeVideoStream(strip)
        #expect(stream["height"] as? Int == 240)
        #expect(stream["width"] as? Int == 5 * 133)
        #expect(try filesLeft() == ["strip.png"])
    }

    /// A filmstrip wider than an image storyreel writes (a canvas over about 6.8 times as wide
    /// as high) is a usage error before any work: it was refused (65, blaming the input) only
    /// once both faces were decoded and every frame rendered (a QA pass).
    @Test func aFilmstripTooWideToWriteIsRefusedBeforeAnyWork() throws {
        let result = try cube([
            Self.fromClip, Self.toClip, "--size", "1920x240", "-o", folder.path("t.mp4"), "--filmstrip",
            folder.path("strip.png"),
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("a filmstrip of a 1920x240 canvas would be 9600x240"), "\(result.stderr)")
        #expect(try filesLeft().isEmpty)
    }

    /// A FROM too small to be the canvas says so, not "cube width 0 must be positive" (a QA pass).
    @Test func aFromTooSmallForTheCanvasSaysSo() throws {
        let tiny = try makeStill("tiny.png", source: "color=red:s=8x8,scale=1:1")
        let result = try cube([tiny, Self.toClip, "-o", folder.path("t.mp4")])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains("its 1x1 picture is too small to be the canvas (at least 2x2"), "\(result.stderr)")
        #expect(try filesLeft() == ["tiny.png"])
    }

    /// From a QA pass: a canvas from FROM under x265's 16x16 failed at the encoder, after the
    /// faces were decoded, with libx265's "Invalid argument"; a given --size said why (64).
    @Test func aFromTooNarrowForHEVCSaysSoAsAGivenSizeDoes() throws {
        let narrow = try makeStill("narrow.png", source: "color=red:s=14x200")
        let result = try cube([narrow, Self.toClip, "--codec", "hevc", "-o", folder.path("n.mp4")])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "its 14x200 picture cannot be the canvas (HEVC (x265) needs a canvas of at least 16x16"),
            "\(result.stderr)")
        #expect(try filesLeft() == ["narrow.png"])
    }

    @Test func garbageStillIsInvalidMediaAndLeavesNothing() throws {
        let garbage = try folder.write("garbage.png", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7919) }))
        let outputs = [
            "-o", folder.path("out.mp4"), "--frames-dir", folder.path("frames"), "--filmstrip", folder.path("s.png"),
        ]
        let result = try cube([garbage, Self.toClip, "--size", "270x480"] + outputs)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(garbage): not a PNG or JPEG image"))
        #expect(try filesLeft() == ["garbage.png"])
    }

    /// From a scripting QA pass: with FROM and TO both bad, only FROM was named, so a CI
    /// fix-and-retry took two rounds. Both are named, in argument order, and the exit is FROM's;
    /// a good TO adds nothing.
    @Test(arguments: [[], ["--size", "270x480"]])
    func twoBadInputsAreBothNamed(extra: [String]) throws {
        let garbage = try folder.write("garbage.mp4", Data(repeating: 7, count: 4096))
        let missing = folder.path("missing.mov")
        let badStill = try folder.write("bad.png", Data(repeating: 1, count: 64))
        let both = try cube([garbage, missing, "-o", folder.path("out.mp4")] + extra)
        #expect(both.status == 65, "\(both.stderr)")
        #expect(
            LimitedRun.errorLines(both.stderr) == [
                "storyreel: error: \(garbage): not a QuickTime/MP4 file (no ftyp or moov atom at the start)",
                "storyreel: error: \(missing): no such file",
            ], "\(both.stderr)")
        let stillToo = try cube([missing, badStill, "-o", folder.path("out.mp4")] + extra)
        #expect(stillToo.status == 66, "\(stillToo.stderr)")
        let lines = LimitedRun.errorLines(stillToo.stderr)
        #expect(lines.count == 2 && lines.first == "storyreel: error: \(missing): no such file", "\(lines)")
        #expect(lines.last?.hasPrefix("storyreel: error: \(badStill): ") == true, "\(lines)")
        let one = try cube([garbage, Self.toClip, "-o", folder.path("out.mp4")] + extra)
        #expect(LimitedRun.errorLines(one.stderr).count == 1, "\(one.stderr)")
        #expect(try filesLeft() == ["bad.png", "garbage.mp4"])
    }

    @Test func missingInputIsNoInputAndLeavesNothing() throws {
        let missing = folder.path("missing.mov")
        let result = try cube([
            Self.fromClip, missing, "-o", folder.path("out.mp4"), "--frames-dir", folder.path("f"),
        ])
        #expect(result.status == 66)
        #expect(result.stderr.contains("\(missing): no such file"))
        #expect(try filesLeft().isEmpty)
    }

    @Test(arguments: [
        ["--size", "271x480"], ["--size", "0x0"], ["--size", "9000x9000"], ["--duration", "0"], ["--fps", "-3"],
        ["--duration", "0.01", "--fps", "30"], ["--easing", "bouncy"], ["--crf", "60"], ["--shade", "2"],
        ["--codec", "hevc", "--size", "14x14"],  // x265 opens no encoder under 16x16: it failed at the encoder
    ])
    func badValuesAreUsageErrorsAndLeaveNothing(extra: [String]) throws {
        let result = try cube(
            [Self.fromClip, Self.toClip, "-o", folder.path("out.mp4"), "--frames-dir", folder.path("f")] + extra)
        #expect(result.status == 64, "\(extra): \(result.stderr)")
        #expect(result.stderr.hasPrefix("storyreel: error: "))
        #expect(try filesLeft().isEmpty)
    }

    @Test func unwritableOutputsAreCannotCreateAndLeaveNothing() throws {
        let common = [Self.fromClip, Self.toClip, "--size", "270x480", "--duration", "0.1"]
        let taken = folder.path("taken.mp4")
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
        let intoFolder = try cube(common + ["-o", taken, "--frames-dir", folder.path("frames")])
        #expect(intoFolder.status == 73, "\(intoFolder.stderr)")
        let plainFile = try folder.write("file", Data())
        let framesIntoFile = try cube(common + ["-o", folder.path("out.mp4"), "--frames-dir", plainFile])
        #expect(framesIntoFile.status == 73, "\(framesIntoFile.stderr)")
        // The filmstrip fails last, after every frame was written: the frames and their new folder go too.
        let lateFailure = try cube(
            common + [
                "-o", folder.path("out.mp4"), "--frames-dir", folder.path("new/frames"), "--filmstrip",
                folder.path("missing/strip.png"),
            ])
        #expect(lateFailure.status == 73, "\(lateFailure.stderr)")
        #expect(try filesLeft() == ["file", "taken.mp4"])
    }

    /// From the QA pass: `-o out.mkv` and `--filmstrip strip.jpg` got an MP4 and a PNG under
    /// those names. A name that says another format is refused before any work.
    @Test func outputNamesSayWhatIsWritten() throws {
        let common = [Self.fromClip, Self.toClip, "--size", "90x160", "--duration", "0.1"]
        for (option, name, reason) in [
            ("-o", "out.mkv", "cube writes an MP4 or QuickTime clip"), ("-o", "out.webm", "cube writes an MP4"),
            ("--filmstrip", "strip.jpg", "the filmstrip is a PNG"),
        ] {
            let result = try cube(common + [option, folder.path(name)])
            #expect(result.status == 64, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path(name)))
        }
        #expect(try cube(common + ["-o", folder.path("out.M4V")]).status == 0)
    }

    /// Two outputs naming one file, however spelled, are refused before any work: one would be
    /// written over the other. An existing file there keeps its bytes.
    @Test func outputsNamingOneFileAreAUsageError() throws {
        let common = [Self.fromClip, Self.toClip, "--size", "270x480", "--duration", "0.1"]
        let same = try cube(common + ["-o", folder.path("x.mp4"), "--filmstrip", folder.path("x.mp4")])
        #expect(same.status == 64, "\(same.stderr)")
        #expect(
            same.stderr.contains(
                "-o '\(folder.path("x.mp4"))' and --filmstrip '\(folder.path("x.mp4"))' are the same file"))
        #expect(same.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }.count == 1)
        // A conflict between paths, said alone as docs/cli.md has it (a CLI QA pass: this one, the
        // same spelling twice, came with the command's synopsis).
        #expect(!same.stderr.contains("; usage: "), "\(same.stderr)")
        #expect(try filesLeft().isEmpty)
        let existing = try folder.write("y.mp4", Data("keep".utf8))
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: false)
        let spelled = try cube(common + ["-o", existing, "--filmstrip", folder.path("sub/../y.mp4")])
        #expect(spelled.status == 64, "\(spelled.stderr)")
        try FileManager.default.linkItem(atPath: existing, toPath: folder.path("hard-y.png"))
        let linked = try cube(common + ["-o", existing, "--filmstrip", folder.path("hard-y.png")])
        #expect(linked.status == 64, "\(linked.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)) == Data("keep".utf8))
        #expect(try filesLeft() == ["hard-y.png", "sub", "y.mp4"])
        // A frames folder named as the clip (a QA pass: the folder was made, then refused, 73).
        let folderAndClip = try cube(common + ["-o", folder.path("z.mp4"), "--frames-dir", folder.path("z.mp4")])
        #expect(folderAndClip.status == 64, "\(folderAndClip.stderr)")
        #expect(
            folderAndClip.stderr.contains(
                "-o '\(folder.path("z.mp4"))' and --frames-dir '\(folder.path("z.mp4"))' are the same file"),
            "\(folderAndClip.stderr)")
        #expect(try filesLeft() == ["hard-y.png", "sub", "y.mp4"])
    }

    /// From a QA pass: a name longer than the file system allows (255 bytes here) failed with 73
    /// only once the transition was rendered and encoded. It is a usage error before any work,
    /// for every command's outputs.
    @Test func aNameTooLongForTheFileSystemIsRefusedBeforeAnyWork() throws {
        let long = String(repeating: "n", count: 300)
        let common = [Self.fromClip, Self.toClip, "--size", "90x160", "--duration", "0.1"]
        for (option, name) in [("-o", long + ".mp4"), ("--filmstrip", long + ".png"), ("--frames-dir", long)] {
            let result = try cube(common + [option, folder.path(name)])
            #expect(result.status == 64, "\(option): \(result.stderr)")
            #expect(result.stderr.contains("the name is \(name.utf8.count) bytes"), "\(result.stderr)")
        }
        let thumbnail = try TestEnvironment.storyreel(["thumbnail", Self.toClip, "-o", folder.path(long + ".jpg")])
        #expect(thumbnail.status == 64, "\(thumbnail.stderr)")
        #expect(thumbnail.stderr.contains("the name is 304 bytes"), "\(thumbnail.stderr)")
        // The folder outputs too (a CLI QA pass: 73 once the folder was made, "File name too long").
        let stories = TestEnvironment.sample("stories")
        for arguments in [
            ["render", stories, "-o", folder.path(long)], ["render", stories, "-o", folder.path(long), "--json"],
            ["thumbnail", Self.toClip, "--out-dir", folder.path(long)],
            ["ingest", Self.toClip, "--story", "a", "--into", folder.path(long), "--create"],
            [
                "ingest", Self.toClip, "--story", "a", "--into", folder.path("s"), "--create", "--render",
                folder.path(long),
            ],
        ] {
            let result = try TestEnvironment.storyreel(arguments)
            #expect(result.status == 64, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.contains("the name is 300 bytes"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try filesLeft().isEmpty)
    }

    @Test func noOutputIsAUsageError() throws {
        let result = try cube([Self.fromClip, Self.toClip])
        #expect(result.status == 64)
        #expect(result.stderr.contains("needs an output"))
        let one = try cube([Self.fromClip, "-o", folder.path("out.mp4")])
        #expect(one.status == 64)
        #expect(try filesLeft().isEmpty)
    }

    /// From a QA pass: `-o .mp4` was told to name it .mp4, and ffmpeg's names for cube's options
    /// got no hint or another option's (`-c:v hevc`: `--crf`).
    @Test func aNameThatIsAllExtensionAndFFmpegsOptionNamesAreNamed() throws {
        let cases: [([String], String)] = [
            (
                ["-o", folder.path(".mp4")],
                "-o '\(folder.path(".mp4"))': give the file a name before its extension (clip.mp4)"
            ),
            (["--filmstrip", ".png"], "--filmstrip '.png': give the file a name before its extension (clip.png)"),
            (["-o", folder.path("t.mp4"), "-c:v", "hevc"], "unknown option '-c:v'; did you mean '--codec'?"),
            (["-o", folder.path("t.mp4"), "-r", "30"], "unknown option '-r'; did you mean '--fps'?"),
            (["-o", folder.path("t.mp4"), "-s", "90x160"], "unknown option '-s'; did you mean '--size'?"),
            // ffmpeg's duration and scale filter (a re-check: no hint).
            (["-o", folder.path("t.mp4"), "-t", "0.5"], "unknown option '-t'; did you mean '--duration'?"),
            (["-o", folder.path("t.mp4"), "-vf", "scale=90:160"], "unknown option '-vf'; did you mean '--size'?"),
            (["-v"], "unknown option '-v'; the version is 'storyreel --version'"),
            // render's name for the turn's length, and a codec given as a flag (a QA pass:
            // pointed to render, ingest and plan, and to nothing).
            (
                ["-o", folder.path("t.mp4"), "--transition-duration", "1"],
                "unknown option '--transition-duration'; did you mean '--duration'?"
            ),
            (["-o", folder.path("t.mp4"), "--hevc"], "unknown option '--hevc'; did you mean '--codec hevc'?"),
            (["-o", folder.path("t.mp4"), "--x264"], "unknown option '--x264'; did you mean '--codec h264'?"),
        ]
        for (arguments, message) in cases {
            let result = try cube([Self.fromClip, Self.toClip] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("storyreel: error: \(message)"), "\(arguments): \(result.stderr)")
        }
        // An option before the command is said to be one.
        let before = try TestEnvironment.storyreel(["-o", folder.path("t.mp4"), "cube", Self.fromClip, Self.toClip])
        #expect(before.status == 64)
        #expect(
            before.stderr.contains("options go after the command ('-o' is an option of thumbnail, cube"),
            "\(before.stderr)")
        #expect(try filesLeft().isEmpty)
    }

    /// A truncated upload as FROM or TO is refused (65) with the warning `inspect` gives, as
    /// `render` skips it: its frames stop early, so its "last frame" is one from the middle.
    /// (The old code rendered that frame and exited 0.)
    @Test func truncatedClipIsRefused() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("stories/chloe/morning.mp4")))
        let cut = folder.path("cut.mp4")
        try whole.prefix(60_000).write(to: URL(fileURLWithPath: cut))
        for inputs in [[cut, Self.toClip], [Self.fromClip, cut]] {
            let out = folder.path("out.mp4")
            let result = try TestEnvironment.storyreel(["cube"] + inputs + ["--size", "64x64", "-o", out])
            #expect(result.status == 65, "\(inputs): \(result.stderr)")
            #expect(result.stderr.hasPrefix("storyreel: error: \(cut): the moov index points"), "\(result.stderr)")
            #expect(result.stderr.contains("it looks truncated"))
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// From a cube QA pass: a still named without a still's extension was "a PNG image, not a
    /// video", which did not say how to use it; and the encoder's options without -o did nothing,
    /// in silence.
    @Test func aStillWithoutItsExtensionAndUnusedEncoderOptionsAreSaid() throws {
        let still = try makeStill("red.png", source: "color=red:s=64x112")
        let unnamed = folder.path("avatar")
        try FileManager.default.copyItem(atPath: still, toPath: unnamed)
        let refused = try cube([unnamed, Self.toClip, "-o", folder.path("n.mp4")])
        #expect(refused.status == 65)
        #expect(
            refused.stderr
                == "storyreel: error: \(unnamed): a PNG image, not a video; name it .png or .jpg to use it as a still face\n"
        )
        // The other way round, a clip named as a still was "not a PNG or JPEG image (unknown
        // signature)" (a QA pass), as FROM (the canvas's) or as TO.
        let misnamed = folder.path("clip.jpg")
        try FileManager.default.copyItem(atPath: Self.toClip, toPath: misnamed)
        for inputs in [[misnamed, Self.toClip], [Self.toClip, misnamed]] {
            let video = try cube(inputs + ["-o", folder.path("v.mp4")])
            #expect(video.status == 65)
            #expect(
                video.stderr
                    == "storyreel: error: \(misnamed): an MP4 or QuickTime video, not a PNG or JPEG image; "
                    + "name it .mp4 or .mov to use it as a clip face\n")
        }
        let framesOnly = try cube([
            still, Self.toClip, "--crf", "40", "--codec", "hevc", "--frames-dir", folder.path("f"),
        ])
        #expect(framesOnly.status == 0, "\(framesOnly.stderr)")
        #expect(
            framesOnly.stderr.hasPrefix(
                "storyreel: note: --codec, --crf shape the -o clip's encoding; without -o they do nothing\n"),
            "\(framesOnly.stderr)")
    }

    /// From a cube QA pass: a clip with transparency (PNG in a `.mov`, as a sticker exported
    /// with alpha; ProRes 4444 and QuickTime Animation likewise) showed the colour stored under
    /// its transparent pixels, red here, where a still with transparency is drawn over black.
    @Test func aClipWithTransparencyIsDrawnOverBlack() throws {
        let clip = folder.path("transparent-red.mov")
        try HostileFiles.ffmpeg(
            ["-f", "lavfi", "-i", "color=c=red@0.0:s=64x64:r=30:d=0.5,format=rgba", "-c:v", "png", clip])
        let frames = folder.path("frames")
        let out = folder.path("cube.mp4")
        let result = try TestEnvironment.storyreel(
            ["cube", clip, Self.toClip, "--size", "64x64", "--frames-dir", frames, "-o", out, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        // The brightest colour channel of the left half of an image's RGBA pixels: FROM's face
        // fills it in the cube's frame 0 (TO's turns in at the right), and the poster is all FROM.
        func brightest(_ path: String) throws -> UInt8 {
            try PixelComparison.ffmpegImage(path, width: 64, height: 64).enumerated()
                .filter { $0.offset % 4 != 3 && $0.offset % 256 < 128 }.map(\.element).max() ?? 255
        }
        #expect(try brightest("\(frames)/frame_0000.png") <= 2, "frame 0")
        #expect(try brightest(out) <= 20, "the clip's frame 0")
        let poster = folder.path("poster.png")
        #expect(try TestEnvironment.storyreel(["thumbnail", clip, "--at", "0", "-o", poster]).status == 0)
        #expect(try brightest(poster) <= 2)
    }

    /// From a cube QA pass: an upload still being written into a file preallocated at its final
    /// size (its end zeros) was taken in silence, its last decodable frame, from its middle, for
    /// its last. It is refused, as a truncated clip is and as `ingest` rejects it; `thumbnail`
    /// warns of it.
    @Test func anUploadIntoAPreallocatedFileIsRefused() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fromClip))
        let written = whole.count * 6 / 10
        let upload = folder.path("upload.mp4")
        try (whole.prefix(written) + Data(count: whole.count - written)).write(to: URL(fileURLWithPath: upload))
        for inputs in [[upload, Self.toClip], [Self.fromClip, upload]] {
            let out = folder.path("out.mp4")
            let result = try TestEnvironment.storyreel(["cube"] + inputs + ["--size", "64x64", "-o", out])
            #expect(result.status == 65, "\(inputs): \(result.stderr)")
            #expect(result.stderr.hasPrefix("storyreel: error: \(upload): the last "), "\(result.stderr)")
            #expect(result.stderr.contains("the file looks preallocated and still being written"))
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let poster = folder.path("poster.jpg")
        let thumbnail = try TestEnvironment.storyreel(["thumbnail", upload, "--at", "100%", "-o", poster])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(thumbnail.stderr.contains("the file looks preallocated and still being written; the poster is taken"))
    }
}
