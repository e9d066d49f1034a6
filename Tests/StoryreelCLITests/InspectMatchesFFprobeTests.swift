import Foundation
import StoryreelTestSupport
import Testing

/// `storyreel inspect --json` agrees with ffprobe on every sample clip.
@Suite struct InspectMatchesFFprobeTests {
    static let clips = (TestEnvironment.sampleClips + TestEnvironment.storyClips).map(\.path)

    @Test func everySampleClipIsInspected() throws {
        #expect(Self.clips.count >= 14, "samples/ should hold 5 sample clips and 9 story clips")
        let result = try TestEnvironment.storyreel(["inspect", "--json"] + Self.clips)
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.map { $0["path"] as? String } == Self.clips)
    }

    @Test(arguments: clips)
    func metadataAgreesWithFFprobe(clip: String) throws {
        try expectAgreement(clip)
    }

    /// Clips the samples lack, made by the ffmpeg CLI: what each one broke is in its comment.
    static let madeClips: [(name: String, arguments: [String])] = [
        // A 2:1 pixel aspect ratio in the MP4's `pasp` box: shown 640x240, reported 320x240.
        ("sar-2.mp4", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-vf", "setsar=2/1", "-c:v", "libx264"]),
        // A creation time written as a tag, as `use_metadata_tags` writes any text: one that can
        // exist is reported as written; `2099-13-45T99:99:99Z` is null (a QA pass).
        (
            "tagged-time.mov",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-c:v", "libx264", "-metadata",
                "creation_time=2024-02-29T12:34:56.000000Z", "-movflags", "use_metadata_tags",
            ]
        ),
        (
            "impossible-time.mov",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-c:v", "libx264", "-metadata",
                "creation_time=2099-13-45T99:99:99Z", "-movflags", "use_metadata_tags",
            ]
        ),
        (
            "sar-3-4.mov",
            ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-vf", "setsar=3/4", "-c:v", "libx264"]
        ),
        // PQ and HLG tagged only in the bitstream (no `colr` box): reported SDR.
        (
            "pq-vui.mov",
            [
                "-f", "lavfi", "-i", "smptebars=s=320x240:r=30:d=0.3", "-pix_fmt", "yuv420p10le", "-c:v", "libx265",
                "-preset", "ultrafast", "-tag:v", "hvc1", "-x265-params",
                "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc",
            ]
        ),
        (
            "hlg-vui.mp4",
            [
                "-f", "lavfi", "-i", "smptebars=s=320x240:r=30:d=0.3", "-pix_fmt", "yuv420p10le", "-c:v", "libx264",
                "-x264-params", "colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc",
            ]
        ),
        // Mono MP3 in an MP4, whose sample entry says 2 channels: reported stereo.
        (
            "mono-mp3.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-f", "lavfi", "-i",
                "sine=sample_rate=44100:duration=0.3", "-c:v", "libx264", "-c:a", "libmp3lame", "-ac", "1",
            ]
        ),
        // Mono MP2 in an MP4 (MPEG audio layer II, which the demuxer calls mp3): the parser
        // FFmpeg has for it leaves the sample entry's 2 channels.
        (
            "mono-mp2.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-f", "lavfi", "-i",
                "sine=sample_rate=44100:duration=0.3", "-c:v", "libx264", "-c:a", "mp2", "-ac", "1",
            ]
        ),
        // An untagged high-definition clip: no matrix, as ffprobe says; it was "bt709", the
        // matrix storyreel draws it with (a QA pass).
        ("untagged-hd.mp4", ["-f", "lavfi", "-i", "testsrc2=s=720x1280:r=30:d=0.1", "-c:v", "libx264"]),
        // Full-range H.264: ffprobe's `yuvj420p`, reported `yuv420p`.
        (
            "full-range.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=0.3", "-vf", "scale=out_range=full", "-pix_fmt",
                "yuvj420p", "-c:v", "libx264",
            ]
        ),
    ]

    @Test func madeClipsAgreeWithFFprobe() throws {
        let folder = try TemporaryFolder()
        for clip in Self.madeClips {
            let path = folder.path(clip.name)
            try HostileFiles.ffmpeg(clip.arguments + [path])
            try expectAgreement(path)
        }
        let inspected = try TestEnvironment.storyreel(["inspect", "--json", folder.path("sar-2.mp4")])
        let video = try #require(
            ((try JSONSerialization.jsonObject(with: Data(inspected.stdout.utf8)) as? [[String: Any]])?.first)?["video"]
                as? [String: Any])
        #expect(video["displayWidth"] as? Int == 640 && video["displayHeight"] as? Int == 240, "\(video)")
        // A 1:1000 pixel aspect ratio in the `pasp` box (no encoder writes one): shown 1 pixel
        // wide, as the decoder's frames are, not 0 with a false "over storyreel's limit" (a QA pass).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("sar-2.mp4")))
        let pasp = try #require(bytes.range(of: Data("pasp".utf8)))
        bytes.replaceSubrange(pasp.upperBound..<(pasp.upperBound + 8), with: [0, 0, 0, 1, 0, 0, 0x03, 0xE8])
        try bytes.write(to: URL(fileURLWithPath: folder.path("sar-1-1000.mp4")))
        try expectAgreement(folder.path("sar-1-1000.mp4"))
        let narrow = try TestEnvironment.storyreel(["inspect", "--json", folder.path("sar-1-1000.mp4")])
        #expect(narrow.status == 0 && narrow.stderr.isEmpty, "\(narrow.stderr)")
        #expect(narrow.stdout.contains("\"displayWidth\": 1,"), "\(narrow.stdout)")
        for (name, time) in [("tagged-time.mov", "\"2024-02-29T12:34:56.000000Z\""), ("impossible-time.mov", "null")] {
            let tags = try TestEnvironment.ffprobe(folder.path(name))["format"] as? [String: Any]
            #expect((tags?["tags"] as? [String: Any])?["creation_time"] != nil, "ffprobe reads the tag: \(name)")
            let result = try TestEnvironment.storyreel(["inspect", "--json", folder.path(name)])
            #expect(result.stdout.contains("\"creationTime\": \(time),"), "\(name): \(result.stdout)")
        }
        for (name, kind) in [("pq-vui.mov", "pq"), ("hlg-vui.mp4", "hlg")] {
            let result = try TestEnvironment.storyreel(["inspect", "--json", folder.path(name)])
            #expect(result.stdout.contains("\"hdr\": \"\(kind)\""), "\(result.stdout)")
        }
        // A 3:4 pixel aspect in the H.264 bitstream alone (the `pasp` box renamed `free`, so the
        // container says nothing): reported and drawn 320x240, where ffprobe and MediaInfo read
        // the VUI's 240x240 (a QA pass).
        var quickTime = try Data(contentsOf: URL(fileURLWithPath: folder.path("sar-3-4.mov")))
        let box = try #require(quickTime.range(of: Data("pasp".utf8)))
        quickTime.replaceSubrange(box, with: Data("free".utf8))
        let vuiOnly = folder.path("sar-3-4-vui.mov")
        try quickTime.write(to: URL(fileURLWithPath: vuiOnly))
        #expect(try TestEnvironment.ffprobeVideoStream(vuiOnly)["sample_aspect_ratio"] as? String == "3:4")
        try expectAgreement(vuiOnly)
        // Its poster is the one of the same clip with the box, at 240x240; both are drawn as
        // ffmpeg draws the clip (testsrc2's fine lines, narrowed by two scalers: 27.5 dB).
        var posters: [[UInt8]] = []
        for clip in [vuiOnly, folder.path("sar-3-4.mov")] {
            let poster = folder.path((clip as NSString).lastPathComponent + ".png")
            let drawn = try TestEnvironment.storyreel(["thumbnail", clip, "--at", "0", "-o", poster])
            #expect(drawn.status == 0, "\(drawn.stderr)")
            let stream = try TestEnvironment.ffprobeVideoStream(poster)
            #expect(stream["width"] as? Int == 240 && stream["height"] as? Int == 240, "\(stream)")
            posters.append(try PixelComparison.ffmpegImage(poster, width: 240, height: 240))
        }
        #expect(PixelComparison.psnr(posters[0], posters[1]) >= 60)
        let squareReference = try PixelComparison.ffmpegImage(
            vuiOnly, width: 240, height: 240,
            options: ["-frames:v", "1", "-vf", "scale=iw*sar:ih,setsar=1"] + PixelComparison.mediaLayerScaling)
        #expect(PixelComparison.psnr(posters[0], squareReference) >= 25)
        // The poster of the 2:1 clip is drawn at its display shape, as ffmpeg draws it.
        let poster = folder.path("sar.png")
        let thumbnail = try TestEnvironment.storyreel(
            ["thumbnail", folder.path("sar-2.mp4"), "--at", "0", "-o", poster])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        let ours = try PixelComparison.ffmpegImage(poster, width: 640, height: 240)
        let reference = try PixelComparison.ffmpegImage(
            folder.path("sar-2.mp4"), width: 640, height: 240,
            options: ["-frames:v", "1", "-vf", "scale=iw*sar:ih,setsar=1"] + PixelComparison.mediaLayerScaling)
        #expect(PixelComparison.psnr(ours, reference) >= 30)
    }

    /// Expects `inspect --json clip` to agree with ffprobe on the container, the video and the
    /// audio stream.
    func expectAgreement(_ clip: String) throws {
        let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let probe = try TestEnvironment.ffprobe(clip)
        let format = try #require(probe["format"] as? [String: Any])
        let streams = try #require(probe["streams"] as? [[String: Any]])
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })

        let duration = try #require(Double(format["duration"] as? String ?? ""))
        #expect(abs((ours["duration"] as? Double ?? -1) - duration) < 0.001)
        #expect((ours["size"] as? Int).map(String.init) == format["size"] as? String)
        #expect((ours["bitRate"] as? Int).map(String.init) == format["bit_rate"] as? String)

        let ourVideo = try #require(ours["video"] as? [String: Any])
        #expect(ourVideo["codec"] as? String == video["codec_name"] as? String)
        #expect(ourVideo["width"] as? Int == video["width"] as? Int)
        #expect(ourVideo["height"] as? Int == video["height"] as? Int)
        #expect(ourVideo["pixelFormat"] as? String == video["pix_fmt"] as? String, "\(clip)")
        #expect(ourVideo["profile"] as? String == video["profile"] as? String)
        #expect((ourVideo["bitRate"] as? Int).map(String.init) == video["bit_rate"] as? String)
        let rate = (video["avg_frame_rate"] as? String ?? "0/1").split(separator: "/").compactMap { Double($0) }
        #expect(abs((ourVideo["frameRate"] as? Double ?? 0) - rate[0] / rate[1]) < 1e-9)

        let sideData = video["side_data_list"] as? [[String: Any]] ?? []
        let ffprobeRotation = sideData.compactMap { $0["rotation"] as? Int }.first ?? 0
        #expect(ourVideo["rotation"] as? Int == ((-ffprobeRotation) % 360 + 360) % 360)
        let swapped = ffprobeRotation % 180 != 0
        let aspect = (video["sample_aspect_ratio"] as? String ?? "1:1").split(separator: ":").compactMap { Double($0) }
        let stretch = aspect.count == 2 && aspect[0] > 0 && aspect[1] > 0 ? aspect[0] / aspect[1] : 1
        let shownWidth = ((video["width"] as? Int).map { max(1, Int((Double($0) * stretch).rounded())) })
        #expect(ourVideo["displayWidth"] as? Int == (swapped ? video["height"] as? Int : shownWidth), "\(clip)")
        #expect(ourVideo["colorTransfer"] as? String == video["color_transfer"] as? String, "\(clip)")
        // ffprobe's JSON leaves out a field it would print as `unknown`: null here.
        #expect(ourVideo["colorPrimaries"] as? String == video["color_primaries"] as? String, "\(clip)")
        #expect(ourVideo["colorSpace"] as? String == video["color_space"] as? String, "\(clip)")
        #expect(ourVideo["colorRange"] as? String == video["color_range"] as? String, "\(clip)")

        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let ourAudio = ours["audio"] as? [String: Any]
        #expect((ourAudio == nil) == (audio == nil))
        if let audio, let ourAudio {
            #expect(ourAudio["codec"] as? String == audio["codec_name"] as? String)
            #expect(ourAudio["channels"] as? Int == audio["channels"] as? Int)
            #expect((ourAudio["sampleRate"] as? Int).map(String.init) == audio["sample_rate"] as? String)
            // The layout ffprobe names (its decoder's: `stereo` for an MP4's AAC, whose header
            // gives only a count), and the language, `und` being none.
            #expect(ourAudio["channelLayout"] as? String == audio["channel_layout"] as? String, "\(clip)")
            let language = (audio["tags"] as? [String: Any])?["language"] as? String
            #expect(ourAudio["language"] as? String == (language == "und" ? nil : language), "\(clip)")
        }
    }

    /// From an inspect QA pass: where the container's `colr` box and the bitstream's VUI differ
    /// (a stream copy re-tagged with `-color_trc`, a common "fix"), the container's won, so a PQ
    /// bitstream tagged BT.709 was called SDR while `thumbnail` tone-mapped it as PQ, and an SDR
    /// one tagged HLG was called HLG; a full-range H.264 stream tagged limited was `yuv420p`.
    /// ffprobe (its decoder) takes the bitstream's, and so does storyreel's decoder. Also every
    /// colour field: primaries, matrix and range, as ffprobe gives them, read without decoding.
    @Test func theBitstreamsColourWinsOverTheContainersAsFFprobeSays() throws {
        let folder = try TemporaryFolder()
        let source = ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=0.3"]
        let made: [(name: String, arguments: [String], retag: [String], expected: [String: String])] = [
            (
                "pq.mp4",
                source + [
                    "-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-color_trc", "smpte2084", "-color_primaries",
                    "bt2020", "-colorspace", "bt2020nc", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                ], ["-color_trc", "bt709", "-color_primaries", "bt709", "-colorspace", "bt709"],
                [
                    "colorTransfer": "smpte2084", "colorPrimaries": "bt2020", "colorSpace": "bt2020nc",
                    "colorRange": "tv", "hdr": "pq",
                ]
            ),
            (
                "sdr.mp4",
                source + [
                    "-c:v", "libx265", "-x265-params",
                    "log-level=error:transfer=bt709:colorprim=bt709:colormatrix=bt709",
                    "-tag:v", "hvc1",
                ], ["-color_trc", "arib-std-b67", "-color_primaries", "bt2020", "-colorspace", "bt2020nc"],
                ["colorTransfer": "bt709", "colorPrimaries": "bt709", "colorSpace": "bt709", "hdr": "none"]
            ),
            (
                "full-range.mp4",
                source + ["-c:v", "libx264", "-pix_fmt", "yuvj420p"],
                ["-color_range", "tv", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"],
                ["colorRange": "pc", "pixelFormat": "yuvj420p"]
            ),
        ]
        for clip in made {
            let original = folder.path("original-" + clip.name)
            try HostileFiles.ffmpeg(clip.arguments + [original])
            let retagged = folder.path(clip.name)
            try HostileFiles.ffmpeg(["-i", original, "-c", "copy"] + clip.retag + [retagged])
            let result = try TestEnvironment.storyreel(["inspect", "--json", retagged])
            let ours = try #require(
                (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
            let video = try #require(ours["video"] as? [String: Any])
            for (key, value) in clip.expected {
                #expect(video[key] as? String == value, "\(clip.name) \(key): \(video)")
            }
            try expectAgreement(retagged)
        }
    }

    /// From an inspect QA pass: of two enabled video tracks (a dashcam's two cameras) the one of
    /// the higher bit rate was reported and drawn, where players (and ffprobe's first stream,
    /// MediaInfo's first track) take the first. A disabled first track is passed over.
    @Test func ofTwoEnabledVideoTracksTheFirstIsTheClips() throws {
        let folder = try TemporaryFolder()
        let small = ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=2"]
        let large = ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2"]
        let both = folder.path("both.mp4")
        try HostileFiles.ffmpeg(
            small + large + [
                "-map", "0", "-map", "1", "-c:v", "libx264", "-disposition:v:0", "default", "-disposition:v:1",
                "default", both,
            ])
        let secondOnly = folder.path("second-only.mp4")
        try HostileFiles.ffmpeg(
            small + large + [
                "-map", "0", "-map", "1", "-c:v", "libx264", "-disposition:v:0", "0", "-disposition:v:1", "default",
                secondOnly,
            ])
        for (clip, size, frames) in [(both, [160, 120], 50), (secondOnly, [320, 240], 60)] {
            let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
            let video = try #require(
                ((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)?[
                    "video"]
                    as? [String: Any])
            #expect([video["width"] as? Int, video["height"] as? Int] == size, "\(clip): \(video)")
            #expect(video["frameCount"] as? Int == frames, "\(clip): \(video)")
            let poster = folder.path((clip as NSString).lastPathComponent + ".png")
            let thumbnail = try TestEnvironment.storyreel(["thumbnail", clip, "--at", "0", "-o", poster])
            #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
            let drawn = try TestEnvironment.ffprobeVideoStream(poster)
            #expect([drawn["width"] as? Int, drawn["height"] as? Int] == size, "\(clip): \(drawn)")
        }
    }

    @Test func iphoneClipIsPortraitHLGWithRotation90() throws {
        let clip = TestEnvironment.sample("iphone-hevc-hdr.mov")
        let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let ours = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let video = try #require(ours["video"] as? [String: Any])
        #expect(ours["container"] as? String == "mov")
        #expect(video["rotation"] as? Int == 90)
        #expect(video["displayWidth"] as? Int == 720)
        #expect(video["displayHeight"] as? Int == 1280)
        #expect(video["hdr"] as? String == "hlg")
        #expect(video["bitDepth"] as? Int == 10)
        #expect(video["codecTag"] as? String == "hvc1")
    }

    @Test func editListClipCountsOnlyShownFrames() throws {
        let clip = TestEnvironment.sample("edit-list.mp4")
        let result = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let ours = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let video = try #require(ours["video"] as? [String: Any])
        let counted = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                "stream=nb_read_packets", "-of", "csv=p=0", clip,
            ])
        let packets = try #require(Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let frameCount = try #require(video["frameCount"] as? Int)
        #expect(frameCount < packets, "the edit list hides the lead-in samples")
        let duration = try #require(ours["duration"] as? Double)
        #expect(abs(Double(frameCount) / 30 - duration) < 0.05)
    }

    @Test func humanOutputIsAnAlignedBlockPerClip() throws {
        let clip = TestEnvironment.sample("iphone-hevc-hdr.mov")
        let result = try TestEnvironment.storyreel(["inspect", clip])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(clip + "\n"))
        for label in [
            "container", "video", "coded size", "display size", "frame rate", "frames", "pixel format",
            "transfer", "HDR", "audio",
        ] {
            #expect(result.stdout.contains("\n  \(label) "), "missing row \(label)")
        }
        #expect(result.stdout.contains("720x1280 (rotation 90°)"))
        #expect(result.stdout.contains("hlg"))
        #expect(result.stdout.contains("\n  frame rate    30.000 fps, constant (CFR)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("\n  transfer      arib-std-b67 (HLG)\n"), "\(result.stdout)")
    }

    /// The video row gives the codecs string and the stream's bit rate, as ffprobe gives them
    /// (a QA pass: both were in the JSON only).
    @Test(arguments: ["iphone-hevc-hdr.mov", "portrait-h264.mp4"])
    func theVideoRowHasTheCodecsStringAndTheStreamsRate(_ name: String) throws {
        let clip = TestEnvironment.sample(name)
        let probed = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=bit_rate", "-of",
                "default=noprint_wrappers=1:nokey=1", clip,
            ])
        let bitRate = try #require(Double(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let json = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let video = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first?["video"]
                as? [String: Any])
        let codecs = try #require(video["codecs"] as? String)
        let result = try TestEnvironment.storyreel(["inspect", clip])
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("  video ") })
        #expect(row.hasSuffix(", \(codecs), \(String(format: "%.0f", bitRate / 1000)) kb/s"), "\(row)")
    }

    /// A clip with no frames to time (a fragmented MP4's init segment alone) has no rate, and
    /// is not called constant: it read "unknown rate, constant (CFR)" (a QA pass).
    @Test func anUnknownFrameRateIsNotCalledConstant() throws {
        let folder = try TemporaryFolder()
        let fragmented = folder.path("fragmented.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=1", "-c:v", "libx264", "-movflags",
            "frag_keyframe+empty_moov",
            fragmented,
        ])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fragmented))
        let moov = try #require(bytes.range(of: Data("moov".utf8))?.lowerBound) - 4
        let size = HostileFiles.bigEndian([UInt8](bytes[moov..<(moov + 4)])[...])
        let initSegment = try folder.write("init.mp4", bytes.prefix(moov + size))
        let result = try TestEnvironment.storyreel(["inspect", initSegment])
        #expect(result.stdout.contains("\n  frame rate    unknown\n"), "\(result.stdout)")
    }
}
