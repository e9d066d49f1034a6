import Foundation
import StoryreelTestSupport
import Testing

/// `storyreel inspect --json` agrees with ffprobe on clips unlike the samples: the codecs the
/// mov demuxer carries (ProRes, DNxHD, MJPEG, HEVC, H.264, AV1, and MPEG-4, MPEG-2, VP9), whose
/// pixel format, profile and bit depth the QuickTime header does not give, and a stream-copy cut
/// whose edit list trims its start. The clips are made here by the ffmpeg CLI.
@Suite struct InspectOddClipsMatchFFprobeTests {
    /// A clip to make: its file name, the encoder (as `ffmpeg -encoders` lists it) and its
    /// options, and the pixel format, profile and bit depth ffprobe reports for it.
    struct OddClip: Sendable, CustomStringConvertible {
        let name: String
        let encoder: String
        let options: [String]
        let size: String
        let pixelFormat: String
        let profile: String
        let bitDepth: Int

        var description: String { name }
    }

    static let clips = [
        OddClip(
            name: "prores-proxy.mov", encoder: "prores_ks", options: ["-profile:v", "0"], size: "320x240",
            pixelFormat: "yuv422p10le", profile: "Proxy", bitDepth: 10),
        OddClip(
            name: "prores-4444.mov", encoder: "prores_ks", options: ["-profile:v", "4", "-pix_fmt", "yuv444p10le"],
            size: "320x240", pixelFormat: "yuv444p12le", profile: "4444", bitDepth: 12),
        // DNxHD allows only some size and bit rate pairs: 1280 × 720 at 90 Mb/s is one.
        OddClip(
            name: "dnxhd.mov", encoder: "dnxhd", options: ["-b:v", "90M", "-pix_fmt", "yuv422p"], size: "1280x720",
            pixelFormat: "yuv422p", profile: "DNXHD", bitDepth: 8),
        OddClip(
            name: "mjpeg.mov", encoder: "mjpeg", options: [], size: "320x240", pixelFormat: "yuvj420p",
            profile: "Baseline", bitDepth: 8),
        OddClip(
            name: "hevc.mov", encoder: "libx265", options: ["-x265-params", "log-level=error"], size: "320x240",
            pixelFormat: "yuv420p", profile: "Main", bitDepth: 8),
        OddClip(
            name: "hevc-422-10.mov", encoder: "libx265",
            options: ["-pix_fmt", "yuv422p10le", "-x265-params", "log-level=error"], size: "320x240",
            pixelFormat: "yuv422p10le", profile: "Rext", bitDepth: 10),
        OddClip(
            name: "h264.mov", encoder: "libx264", options: [], size: "320x240", pixelFormat: "yuv420p",
            profile: "High", bitDepth: 8),
        OddClip(
            name: "h264-10.mov", encoder: "libx264", options: ["-pix_fmt", "yuv420p10le"], size: "320x240",
            pixelFormat: "yuv420p10le", profile: "High 10", bitDepth: 10),
        // The identity matrix (GBR): the decoder's `gbrp`, not the parser's 4:4:4 YUV (a re-check
        // found `yuvj444p`).
        OddClip(
            name: "h264-rgb.mov", encoder: "libx264rgb", options: [], size: "320x240", pixelFormat: "gbrp",
            profile: "High 4:4:4 Predictive", bitDepth: 8),
        OddClip(
            name: "mpeg4.mov", encoder: "mpeg4", options: [], size: "320x240", pixelFormat: "yuv420p",
            profile: "Simple Profile", bitDepth: 8),
        OddClip(
            name: "mpeg2.mov", encoder: "mpeg2video", options: [], size: "320x240", pixelFormat: "yuv420p",
            profile: "Main", bitDepth: 8),
        OddClip(
            name: "vp9.mp4", encoder: "libvpx-vp9", options: ["-deadline", "realtime", "-cpu-used", "8"],
            size: "320x240", pixelFormat: "yuv420p", profile: "Profile 0", bitDepth: 8),
        // FFmpeg 5.1's mov muxer writes AV1 only into MP4; the demuxer is the same.
        OddClip(
            name: "av1.mp4", encoder: "libaom-av1", options: ["-cpu-used", "8", "-usage", "realtime"],
            size: "320x240", pixelFormat: "yuv420p", profile: "Main", bitDepth: 8),
    ]

    /// The encoders this ffmpeg has (`ffmpeg -encoders`).
    static let encoders: Set<String> = {
        guard let result = try? TestEnvironment.run("ffmpeg", ["-hide_banner", "-encoders"]) else { return [] }
        return Set(
            result.stdout.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                return fields.count >= 2 && fields[0].count == 6 ? String(fields[1]) : nil
            })
    }()

    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func ours(_ path: String) throws -> [String: Any] {
        let result = try TestEnvironment.storyreel(["inspect", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return try #require(array?.first?["video"] as? [String: Any])
    }

    func ffprobeVideo(_ path: String) throws -> [String: Any] {
        let streams = try TestEnvironment.ffprobe(path)["streams"] as? [[String: Any]]
        return try #require(streams?.first { $0["codec_type"] as? String == "video" })
    }

    @Test func everyCodecOfTheListHasAnEncoderHere() {
        // The codec test below skips a codec only when this ffmpeg cannot encode it; Debian 12's
        // ffmpeg has them all, so a skip here means a changed build, not a pass.
        let missing = Set(Self.clips.map(\.encoder)).subtracting(Self.encoders)
        #expect(missing.isEmpty, "no encoder for \(missing.sorted()) in this ffmpeg: those codecs go untested")
    }

    @Test(arguments: clips)
    func codecDetailsAgreeWithFFprobe(clip: OddClip) throws {
        guard Self.encoders.contains(clip.encoder) else { return }
        let path = folder.path(clip.name)
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(clip.size):r=30", "-t", "0.3", "-c:v",
                clip.encoder,
            ]
                + clip.options + [path])
        try #require(made.status == 0, "ffmpeg could not make \(clip.name): \(made.stderr)")
        let video = try ours(path)
        let probe = try ffprobeVideo(path)
        #expect(video["codec"] as? String == probe["codec_name"] as? String)
        #expect(video["pixelFormat"] as? String == probe["pix_fmt"] as? String)
        #expect(video["profile"] as? String == probe["profile"] as? String)
        if let bits = probe["bits_per_raw_sample"] as? String {
            #expect(video["bitDepth"] as? Int == Int(bits))
        }
        // ffprobe's own words, as the issue quotes them, so a changed ffprobe cannot hide a miss.
        #expect(video["pixelFormat"] as? String == clip.pixelFormat)
        #expect(video["profile"] as? String == clip.profile)
        #expect(video["bitDepth"] as? Int == clip.bitDepth)
        #expect(video["variableFrameRate"] as? Bool == false)
    }

    /// A VP9 clip's codecs string is the full `vp09.PP.LL.DD` that its `vpcC` box gives, read
    /// from the box (FFmpeg's demuxer does not keep it). From a QA pass: it was `vp09` alone,
    /// which a browser's `canPlayType` does not take; and a later one: derived from the picture
    /// size and rate, it named level 41 where FFmpeg's muxer wrote 40 (1080p at 60 fps) and 30
    /// for 20 (240 fps), so a box's own level is what is given, even one no muxer here writes.
    @Test(
        arguments: [
            ("vp9-8.mp4", "320x240", "30", ["-pix_fmt", "yuv420p"], nil),
            ("vp9-10.mp4", "320x240", "30", ["-pix_fmt", "yuv420p10le"], nil),
            ("vp9-720p.mp4", "1280x720", "30", ["-pix_fmt", "yuv420p"], nil),
            ("vp9-444.mp4", "320x240", "30", ["-pix_fmt", "yuv444p"], nil),
            ("vp9-1080p60.mp4", "1920x1080", "60", ["-pix_fmt", "yuv420p"], nil),
            ("vp9-240fps.mp4", "320x240", "240", ["-pix_fmt", "yuv420p"], nil),
            ("vp9-level-52.mp4", "320x240", "30", ["-pix_fmt", "yuv420p"], 52),
        ] as [(String, String, String, [String], UInt8?)])
    func vp9CodecsAreTheVPCCBoxs(name: String, size: String, rate: String, options: [String], level: UInt8?) throws {
        guard Self.encoders.contains("libvpx-vp9") else { return }
        let path = folder.path(name)
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate)", "-t", "0.2", "-c:v",
                "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
            ] + options + [path])
        try #require(made.status == 0, "ffmpeg could not make \(name): \(made.stderr)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let box = try #require(
            (0..<(bytes.count - 11)).first { bytes[$0..<($0 + 4)].elementsEqual("vpcC".utf8) }, "a vpcC box")
        if let level {
            bytes[box + 9] = level
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        // vpcC: the tag, version and flags (4 bytes), profile, level, bit depth << 4 | chroma …
        let (profile, boxLevel, depth) = (Int(bytes[box + 8]), Int(bytes[box + 9]), Int(bytes[box + 10] >> 4))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        #expect(try ours(path)["codecs"] as? String == "vp09.\(two(profile)).\(two(boxLevel)).\(two(depth))")
    }

    /// A mid-GOP stream copy of a B-frame H.264 clip: the edit list hides the lead-in samples,
    /// which interleave with shown ones in decode order, yet every packet lasts 512/15360 s.
    @Test(arguments: ["1.4", "1.41", "0.9"])
    func editListCutIsConstantFrameRate(start: String) throws {
        let source = folder.path("source.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=3", "-c:v", "libx264", "-g", "30",
                "-bf", "3", source,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let cut = folder.path("cut-\(start).mp4")
        let copied = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-ss", start, "-i", source, "-t", "1.2", "-c", "copy", cut])
        try #require(copied.status == 0, "\(copied.stderr)")

        let packets = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=duration,flags", "-of", "csv=p=0",
                cut,
            ])
        let lines = packets.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("D") }, "the cut has samples its edit list discards")
        #expect(lines.allSatisfy { $0.hasPrefix("512,") }, "every packet lasts 512 ticks")
        let probe = try ffprobeVideo(cut)
        #expect(probe["time_base"] as? String == "1/15360")
        #expect(probe["r_frame_rate"] as? String == "30/1")

        let video = try ours(cut)
        #expect(video["variableFrameRate"] as? Bool == false)
        #expect(abs((video["frameRate"] as? Double ?? 0) - 30) < 1e-9)
    }

    /// From an inspect QA pass: a constant rate on a timescale that is no multiple of it steps
    /// a tick unevenly (29.97 fps at 1000: 33 and 34 ms), which the one-tick slack allows, but
    /// the held-frame check compared the average rate with the median step, a fraction of a tick
    /// off every frame, so 29.97 fps went VFR from 4 s on, and 60 fps at 1000 or 240 at 600 at
    /// 2 s. docs/inspect.md names both as constant. The rate is ffprobe's `avg_frame_rate`.
    @Test(arguments: [
        ("30000/1001", "5", "1000"), ("60", "2", "1000"), ("240", "2", "600"), ("30000/1001", "20", "1000"),
    ])
    func aRateOnATimescaleThatIsNoMultipleOfItIsConstant(rate: String, seconds: String, timescale: String) throws {
        let path = folder.path("cfr-\(timescale).mp4")
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=64x48:r=\(rate):d=\(seconds)", "-c:v", "libx264", "-preset",
                "ultrafast",
                "-video_track_timescale", timescale, path,
            ])
        let video = try ours(path)
        #expect(video["variableFrameRate"] as? Bool == false, "\(rate) fps at \(timescale): \(video)")
        let average = try #require((try ffprobeVideo(path))["avg_frame_rate"] as? String).split(separator: "/")
            .compactMap { Double($0) }
        #expect(average.count == 2 && abs((video["frameRate"] as? Double ?? 0) - average[0] / average[1]) < 1e-6)
    }

    @Test func unevenFrameDurationsAreStillVariable() throws {
        let path = folder.path("vfr.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-vf",
                "setpts='if(lt(N,30),N/30,1+(N-30)/15)/TB'", "-fps_mode", "vfr", "-c:v", "libx264", path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try ours(path)["variableFrameRate"] as? Bool == true)
    }

    /// From an inspect QA pass: a frame held far longer than the others, first or last, left the
    /// clip "constant (CFR)" at an average rate no frame has (20.225 fps for 59 frames of 1/30 s
    /// and one of 1 s; MediaInfo says VFR); the last one shows in no step between frames, only in
    /// the average rate against the steps.
    @Test(arguments: [
        "if(eq(N,0),0,1+(N-1)/30)", "if(lt(N,59),N/30,59/30+1)",
    ])
    func aFrameHeldFirstOrLastMakesTheRateVariable(timestamps: String) throws {
        let path = folder.path("held.mp4")
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=2", "-vf",
                "setpts='\(timestamps)/TB'", "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "ultrafast", path,
            ])
        let video = try ours(path)
        #expect(video["variableFrameRate"] as? Bool == true, "\(video)")
        #expect(video["frameCount"] as? Int == 60)
    }

    /// From an inspect QA pass: HLG signalled the backward-compatible way, BT.2020's transfer in
    /// the VUI and HLG in an alternative transfer characteristics SEI (ARIB STD-B67), was `HDR
    /// none`, while `thumbnail` tone-mapped its frames as HLG. ffprobe's decoded frames say
    /// `arib-std-b67`; without the SEI the clip stays BT.2020 SDR.
    @Test(arguments: [
        ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error:transfer=bt2020-10:atc-sei=18"],
        ["-c:v", "libx264", "-x264-params", "transfer=bt2020-10:alternative-transfer=arib-std-b67"],
        ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error:transfer=bt2020-10"],
    ])
    func hlgSignalledByAnAlternativeTransferIsHLG(encoder: [String]) throws {
        let path = folder.path("hlg.mp4")
        try HostileFiles.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=0.2", "-pix_fmt", "yuv420p10le"]
                + encoder + ["-preset", "ultrafast", path])
        let frames = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_entries",
                "frame=color_transfer", "-of", "csv=p=0", path,
            ])
        // The first field of the first frame's line (side data may follow it).
        let transfer = frames.stdout.split(separator: "\n").first?.split(separator: ",").first.map(String.init)
        let alternative = encoder.joined().contains("arib-std-b67") || encoder.joined().contains("atc-sei")
        #expect(transfer == (alternative ? "arib-std-b67" : "bt2020-10"), "ffprobe's first frame")
        let video = try ours(path)
        #expect(video["colorTransfer"] as? String == transfer)
        #expect(video["hdr"] as? String == (alternative ? "hlg" : "none"), "\(video)")
    }

    /// From an inspect QA pass: an HDR10 clip's mastering display and content light levels, in
    /// its SEI messages (x265's `master-display` and `max-cll`), were not reported: `pq` alone,
    /// where MediaInfo gives `Display P3`, 0.0001 to 1000 cd/m², MaxCLL and MaxFALL. They agree
    /// with ffprobe's first decoded frame's side data.
    @Test func hdr10LightMetadataIsReportedAsFFprobesFrameGivesIt() throws {
        let path = folder.path("hdr10.mp4")
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=0.2", "-pix_fmt", "yuv420p10le",
                "-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params",
                "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:hdr10=1:"
                    + "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1):"
                    + "max-cll=1000,400",
                path,
            ])
        let probed = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_frames", "-show_entries",
                "frame=side_data_list", "-of", "json", path,
            ])
        let frames = try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any]
        let sideData = try #require(
            ((frames?["frames"] as? [[String: Any]])?.first?["side_data_list"]) as? [[String: Any]])
        func ratio(_ text: Any?) -> Double? {
            let parts = (text as? String)?.split(separator: "/").compactMap { Double($0) } ?? []
            return parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : nil
        }
        let mastering = try #require(sideData.first { $0["side_data_type"] as? String == "Mastering display metadata" })
        let light = try #require(sideData.first { $0["side_data_type"] as? String == "Content light level metadata" })

        let video = try ours(path)
        let display = try #require(video["masteringDisplay"] as? [String: Any], "\(video)")
        #expect(display["gamut"] as? String == "Display P3")
        let primaries = try #require(display["primaries"] as? [[Double]])
        let expected = ["red", "green", "blue"].map { [ratio(mastering["\($0)_x"]), ratio(mastering["\($0)_y"])] }
        #expect(primaries.map { $0.map(Optional.some) } == expected)
        #expect(
            display["whitePoint"] as? [Double]
                == [ratio(mastering["white_point_x"]), ratio(mastering["white_point_y"])].compactMap { $0 })
        #expect(display["minLuminance"] as? Double == ratio(mastering["min_luminance"]))
        #expect(display["maxLuminance"] as? Double == ratio(mastering["max_luminance"]))
        #expect(video["maxContentLightLevel"] as? Int == light["max_content"] as? Int)
        #expect(video["maxFrameAverageLightLevel"] as? Int == light["max_average"] as? Int)
        let block = try TestEnvironment.storyreel(["inspect", path])
        #expect(
            block.stdout.contains(
                "\n  mastering     Display P3, 0.0001–1000 cd/m²\n  light level   MaxCLL 1000, MaxFALL 400 cd/m²\n"),
            "\(block.stdout)")
    }

    /// From an inspect QA pass: a camera's make and model in the plain tags (Canon, Sony,
    /// `-metadata make=`) were in the JSON's `tags` only, where the block shows Apple's.
    @Test func aCamerasMakeAndModelAreShownFromThePlainTagsToo() throws {
        let path = folder.path("canon.mov")
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=96x160:r=30:d=0.2", "-c:v", "libx264",
                "-preset", "ultrafast", "-metadata", "make=Canon", "-metadata", "model=EOS R5", "-movflags",
                "use_metadata_tags", path,
            ])
        let block = try TestEnvironment.storyreel(["inspect", path])
        #expect(block.stdout.contains("\n  make          Canon\n  model         EOS R5\n"), "\(block.stdout)")
    }

    /// From a QA pass: `container` came from FFmpeg's `major_brand` tag, which a metadata item of
    /// that name overwrites. An iPhone `.MOV` remuxed to `.mp4` with `-movflags use_metadata_tags`
    /// (how its location and make tags are kept) was reported `mov (qt)`, though its `ftyp` says
    /// `isom`, as MediaInfo reads it; the other way round, `mp4 (isom)` for a `qt  ` file. A file
    /// with no `ftyp` at all is a QuickTime movie (it was called `mp4`).
    @Test func theContainerIsTheFilesOwnFileType() throws {
        func make(_ arguments: [String]) throws {
            let made = try TestEnvironment.run("ffmpeg", ["-v", "error", "-y"] + arguments)
            try #require(made.status == 0, "\(made.stderr)")
        }
        let base = folder.path("base.mp4")
        try make(["-f", "lavfi", "-i", "testsrc2=s=96x160:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast", base])
        let quickTime = folder.path("tags.mov")
        try make(["-i", base, "-c", "copy", "-metadata", "title=x", quickTime])
        let remuxed = folder.path("remuxed.mp4")
        try make(["-i", quickTime, "-c", "copy", "-map_metadata", "0", "-movflags", "use_metadata_tags", remuxed])
        let tagged = folder.path("tagged.mov")
        try make([
            "-i", base, "-c", "copy", "-map_metadata", "0", "-movflags", "use_metadata_tags", "-metadata",
            "major_brand=isom", tagged,
        ])
        func brand(_ path: String) throws -> String {
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: path))[8..<12], as: UTF8.self)
        }
        func container(_ path: String) throws -> (json: String?, line: String?) {
            let json = try TestEnvironment.storyreel(["inspect", "--json", path])
            let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            let human = try TestEnvironment.storyreel(["inspect", path])
            let line = human.stdout.split(separator: "\n").first { $0.contains("container") }
            return (array?.first?["container"] as? String, line.map(String.init))
        }
        // The remux's ftyp says isom, while ffprobe's tag (the copied item) says QuickTime.
        #expect(try brand(remuxed) == "isom")
        let tags = try TestEnvironment.ffprobe(remuxed)["format"] as? [String: Any]
        #expect((tags?["tags"] as? [String: Any])?["major_brand"] as? String == "qt  ", "the tag misleads")
        let fromRemux = try container(remuxed)
        #expect(fromRemux.json == "mp4" && fromRemux.line?.contains(" mp4 (isom), ") == true, "\(fromRemux)")
        #expect(try brand(tagged) == "qt  ")
        let fromTagged = try container(tagged)
        #expect(fromTagged.json == "mov" && fromTagged.line?.contains(" mov (qt), ") == true, "\(fromTagged)")
        // No ftyp: the atom renamed to `free`, as a QuickTime movie of before 2001 has none.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: quickTime))
        bytes.replaceSubrange(4..<8, with: Data("free".utf8))
        let classic = folder.path("classic.mov")
        try bytes.write(to: URL(fileURLWithPath: classic))
        let fromClassic = try container(classic)
        #expect(fromClassic.json == "mov" && fromClassic.line?.contains(" mov, ") == true, "\(fromClassic)")
    }
}
