import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// Clips whose header leaves out what the other clips' headers give:
/// - a fragmented MP4 (what web recorders and CMAF packagers write), whose `moov` holds no
///   samples, so no container duration or start time;
/// - MPEG-4 Part 2 and H.263 (older phones and cameras), whose size the mov demuxer leaves to
///   the stream's own headers.
/// `inspect` agrees with ffprobe on them, and `thumbnail` picks the frames it picks on the same
/// clip written the usual way. The old code reported no duration and a 0x0 size, took `--at`
/// from the wrong origin and refused the MPEG-4 clips ("the video has no size").
@Suite struct FragmentedAndOldCodecClipsTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// Makes `name` from a 2 s, 30 fps test card with the ffmpeg CLI.
    func make(_ name: String, _ options: [String], size: String = "320x240") throws -> String {
        let path = folder.path(name)
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=30:d=2"] + options + [path])
        try #require(made.status == 0, "ffmpeg could not make \(name): \(made.stderr)")
        return path
    }

    func inspect(_ path: String) throws -> [String: Any] {
        let result = try TestEnvironment.storyreel(["inspect", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return try #require(array?.first)
    }

    func poster(_ clip: String, at time: String, _ name: String) throws -> Data {
        let path = folder.path(name)
        let result = try TestEnvironment.storyreel(["thumbnail", clip, "-o", path, "--at", time])
        #expect(result.status == 0, "\(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func fragmentedMP4HasItsDurationAndItsFramesAtTimes() throws {
        let options = ["-c:v", "libx264", "-g", "15", "-bf", "2"]
        let fragmented = try make("fragmented.mp4", options + ["-movflags", "frag_keyframe+empty_moov"])
        let plain = try make("plain.mp4", options + ["-use_editlist", "0"])
        let ours = try inspect(fragmented)
        let format = try #require(try TestEnvironment.ffprobe(fragmented)["format"] as? [String: Any])
        let duration = try #require(Double(format["duration"] as? String ?? ""))
        #expect(abs(duration - 2) < 1e-6, "ffprobe: \(duration)")
        #expect(abs((ours["duration"] as? Double ?? 0) - duration) < 1e-6, "\(ours)")
        let bitRate = try #require(Int(format["bit_rate"] as? String ?? ""))
        #expect(ours["bitRate"] as? Int == bitRate, "ffprobe: \(bitRate)")
        // A duration of no whole number of microseconds is ffprobe's, rounded to them (a QA pass:
        // 2.1333333333333333 where ffprobe says 2.133333, and a bit rate 1 off).
        let odd = folder.path("fragmented-odd.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=160x120:r=15:d=2.0667", "-c:v", "libx264", "-movflags",
            "frag_keyframe+empty_moov", odd,
        ])
        let oddFormat = try #require(try TestEnvironment.ffprobe(odd)["format"] as? [String: Any])
        let oddOurs = try inspect(odd)
        #expect(oddOurs["duration"] as? Double == Double(oddFormat["duration"] as? String ?? ""), "\(oddOurs)")
        #expect((oddOurs["bitRate"] as? Int).map(String.init) == oddFormat["bit_rate"] as? String, "\(oddOurs)")
        #expect(try #require(ours["video"] as? [String: Any])["frameCount"] as? Int == 60)
        // Both start 2 frames in (B-frame delay, no edit list): --at counts from there.
        #expect(Double(format["start_time"] as? String ?? "") == 0.066667)
        for (index, time) in ["0", "1.0", "1.5", "50%", "100%"].enumerated() {
            #expect(
                try poster(fragmented, at: time, "fragmented-\(index).png")
                    == poster(plain, at: time, "plain-\(index).png"),
                "--at \(time)")
        }
    }

    /// From an inspect QA pass: with a segment index (`sidx`, as DASH packagers write), FFmpeg's
    /// demuxer reads a fragmented MP4's fragments only as it plays them, so `inspect` counted
    /// the first fragment's frames (30 of 300 with one sidx, 50 of 60 with one a fragment) and
    /// missed a frame rate that changes in a later fragment. Every fragment's header is read
    /// now: the counts are ffprobe's packet counts, and frames at times come from the right
    /// fragment.
    @Test func aSegmentIndexedMP4CountsEveryFragmentsFrames() throws {
        let x264 = ["-c:v", "libx264", "-g", "10"]
        let clips = [
            try make("global-sidx.mp4", x264 + ["-movflags", "dash+global_sidx"]),
            try make("dash.mp4", x264 + ["-movflags", "dash"]),
        ]
        let plain = try make("plain-g10.mp4", x264 + ["-use_editlist", "0"])
        for clip in clips {
            let packets = try TestEnvironment.run(
                "ffprobe",
                [
                    "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                    "stream=nb_read_packets", "-of", "csv=p=0", clip,
                ])
            #expect(packets.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "60")
            let video = try #require(try inspect(clip)["video"] as? [String: Any])
            #expect(video["frameCount"] as? Int == 60, "\(clip): \(video)")
            #expect(video["variableFrameRate"] as? Bool == false)
            // Read from its start again after the walk, and from the right fragment.
            for (index, time) in ["0", "1.5"].enumerated() {
                #expect(
                    try poster(clip, at: time, "\((clip as NSString).lastPathComponent)-\(index).png")
                        == poster(plain, at: time, "plain-g10-\(index).png"), "\(clip) --at \(time)")
            }
        }
        // 1 s at 30 fps, then 1 s at 15 fps, in fragments a global sidx indexes.
        let fast = try make("fast.mp4", ["-t", "1", "-c:v", "libx264"])
        let slow = folder.path("slow.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x240:r=15:d=1", "-c:v", "libx264", slow,
        ])
        let list = try folder.write("list.txt", Data("file '\(fast)'\nfile '\(slow)'\n".utf8))
        let joined = folder.path("joined.mp4")
        try HostileFiles.ffmpeg(["-f", "concat", "-safe", "0", "-i", list, "-c", "copy", joined])
        let varying = folder.path("varying-sidx.mp4")
        try HostileFiles.ffmpeg([
            "-i", joined, "-c:v", "libx264", "-g", "30", "-fps_mode", "passthrough", "-movflags",
            "frag_keyframe+empty_moov+default_base_moof+global_sidx", varying,
        ])
        let video = try #require(try inspect(varying)["video"] as? [String: Any])
        #expect(video["frameCount"] as? Int == 45, "\(video)")
        #expect(video["variableFrameRate"] as? Bool == true, "\(video)")
    }

    /// From an inspect QA pass: ffmpeg's DASH muxer, writing a fragment for each frame, writes a
    /// segment index (sidx) entry of 2^32 − 1024 ticks ("writing incorrect sidx"), and FFmpeg
    /// takes the track's duration from it: a 3 s clip lasted 129 days, in ffprobe too, with no
    /// warning, and `render` put that in the manifest. It is warned about now, so `render` skips
    /// the clip and `ingest` rejects it; the same frames a fragment to a keyframe, whose index is
    /// right, are not.
    @Test func aSegmentIndexLastingLongerThanItsFramesIsAWarning() throws {
        let x264 = ["-c:v", "libx264", "-g", "10", "-movflags"]
        let wrong = try make("sidx-every-frame.mp4", x264 + ["frag_every_frame+empty_moov+dash+global_sidx"])
        let right = try make("sidx-every-keyframe.mp4", x264 + ["frag_keyframe+empty_moov+dash+global_sidx"])
        let format = try #require(try TestEnvironment.ffprobe(wrong)["format"] as? [String: Any])
        let claimed = try #require(Double(format["duration"] as? String ?? ""))
        #expect(claimed > 86_400, "ffprobe takes the sidx's duration too")
        let report = try inspect(wrong)
        #expect((report["video"] as? [String: Any])?["frameCount"] as? Int == 60)
        let warning = try #require((report["warnings"] as? [String])?.first, "\(report)")
        #expect(
            warning.hasPrefix("its segment index (sidx) says the video track lasts ")
                && warning.hasSuffix(
                    " s, its 60 frames end at 2.000 s: its duration cannot be trusted, and players differ; remux it "
                        + "(ffmpeg -i IN -c copy OUT.mp4)"),
            "\(warning)")
        #expect((try inspect(right)["warnings"] as? [String]) == [])
    }

    /// A clip whose container starts 5 s before its first frame (an empty edit, as
    /// `-output_ts_offset` writes): 7 s long with 2 s of video. The old `--at 50%` took half of
    /// the 7 s from the first frame, past the last one, and gave the last frame.
    @Test func percentIsOfTheVideosOwnSpan() throws {
        let clip = try make("offset.mp4", ["-output_ts_offset", "5", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let frames = try PixelComparison.ffmpegFrames(
            clip, width: 320, height: 240, options: PixelComparison.mediaLayerScaling)
        #expect(frames.count == 60)
        // And the same pictures 3 s into a clip whose audio starts at 0 s (QA: the share was of
        // the span from 0 s, so 50% and 100% both gave the first frame).
        let late = folder.path("late.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-itsoffset", "3", "-i", clip, "-f", "lavfi", "-i", "sine=d=6", "-map", "0:v",
                "-map", "1:a", "-c:v", "copy", "-c:a", "aac", late,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        for path in [clip, late] {
            for (time, expected) in [("0%", 0), ("50%", 30), ("100%", 59)] {
                let name = "\((path as NSString).lastPathComponent)-\(expected).png"
                _ = try poster(path, at: time, name)
                let ours = try PixelComparison.ffmpegImage(folder.path(name), width: 320, height: 240)
                let scores = frames.map { PixelComparison.psnr(ours, $0) }
                let best = scores.indices.max { scores[$0] < scores[$1] }
                #expect(
                    best.map { abs($0 - expected) <= 1 } == true, "\(name) --at \(time): frame \(best ?? -1)")
            }
        }
    }

    @Test(arguments: [
        ("mpeg4.mp4", ["-c:v", "mpeg4"], "320x240"), ("mpeg4.mov", ["-c:v", "mpeg4"], "320x240"),
        ("h263.mov", ["-c:v", "h263"], "352x288"),
    ])
    func sizeComesFromTheStreamHeaders(name: String, options: [String], size: String) throws {
        let clip = try make(name, options, size: size)
        let video = try #require(try inspect(clip)["video"] as? [String: Any])
        let probe = try TestEnvironment.ffprobeVideoStream(clip)
        #expect(video["width"] as? Int == probe["width"] as? Int)
        #expect(video["height"] as? Int == probe["height"] as? Int)
        #expect("\(video["width"] ?? 0)x\(video["height"] ?? 0)" == size)
        _ = try poster(clip, at: "1.0", "\(name).png")
        let (width, height) = (try #require(video["width"] as? Int), try #require(video["height"] as? Int))
        let ours = try PixelComparison.ffmpegImage(folder.path("\(name).png"), width: width, height: height)
        let frames = try PixelComparison.ffmpegFrames(
            clip, width: width, height: height, options: PixelComparison.mediaLayerScaling)
        #expect(frames.count == 60)
        // The frame shown at 1 s, not its neighbours (about 20 dB; the RGB conversions differ
        // by about 30 dB on this test card, as for H.264 in FrameExtractionMatchesFFmpegTests).
        let atOneSecond = PixelComparison.psnr(ours, frames[30])
        #expect(atOneSecond >= 28)
        #expect(atOneSecond > PixelComparison.psnr(ours, frames[29]) + 5)
        #expect(atOneSecond > PixelComparison.psnr(ours, frames[31]) + 5)
    }

    /// From the geometry QA pass: a clip cut mid-GOP without re-encoding (a stream recording, a
    /// capture trimmed with `-c copy`) opens on ten P-frames whose keyframe was cut off; decoding
    /// starts at its first keyframe (0.333 s), as ffmpeg's does. Every seek failed on it ("cannot
    /// seek"): `thumbnail` exited 65 for any `--at`, and `render` skipped the clip.
    @Test func aClipCutMidGOPShowsItsFirstKeyframe() throws {
        let annexB = folder.path("whole.h264")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15",
            "-bf", "0", "-bsf:v", "h264_mp4toannexb", "-f", "h264", annexB,
        ])
        // Drops the first five pictures (NAL types 1 and 5) and what comes between them; keeps the
        // parameter sets before the first one.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: annexB)))
        var starts = (0..<max(0, bytes.count - 3)).filter { bytes[$0] == 0 && bytes[$0 + 1] == 0 && bytes[$0 + 2] == 1 }
        var cut = [UInt8]()
        var pictures = 0
        starts.append(bytes.count)
        for (start, end) in zip(starts, starts.dropFirst()) {
            let type = start + 3 < bytes.count ? bytes[start + 3] & 0x1F : 0
            if type == 1 || type == 5 { pictures += 1 }
            if pictures > 5 || (pictures == 0 && type != 6) { cut += [0] + bytes[start..<end] }
        }
        try Data(cut).write(to: URL(fileURLWithPath: folder.path("cut.h264")))
        let clip = folder.path("cut.mp4")
        try HostileFiles.ffmpeg(["-r", "30", "-i", folder.path("cut.h264"), "-c", "copy", "-copyinkf", clip])
        let frames = try PixelComparison.ffmpegFrames(
            clip, width: 320, height: 240, options: PixelComparison.mediaLayerScaling)
        #expect(frames.count == 45, "ffmpeg decodes from the first keyframe, the 11th frame of 55")
        for (time, expected) in [("0", 0), ("1.0", 20), ("100%", 44)] {
            let name = "cut-\(expected).png"
            _ = try poster(clip, at: time, name)
            let ours = try PixelComparison.ffmpegImage(folder.path(name), width: 320, height: 240)
            let scores = frames.map { PixelComparison.psnr(ours, $0) }
            #expect(scores[expected] >= 28, "--at \(time)")
            #expect(scores.indices.max { scores[$0] < scores[$1] } == expected, "--at \(time): \(scores)")
        }
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/cam", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: clip, toPath: stories + "/cam/cut.mp4")
        let reel = folder.path("reel")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", reel, "--size", "180x320"])
        #expect(render.status == 0, "\(render.stderr)")
        let manifest = try Manifest(jsonData: Data(contentsOf: URL(fileURLWithPath: reel + "/manifest.json")))
        let item = try #require(manifest.stories.first?.items.first)
        for still in [item.firstFrame, item.lastFrame, item.poster as String?] {
            #expect(still.map { FileManager.default.fileExists(atPath: "\(reel)/\($0)") } == true, "\(item)")
        }
    }

    /// From the phone-uploads QA pass: an audio-only upload (a song with its cover picture) was
    /// rejected for "no video stream", and support had to run ffprobe to learn it was audio.
    @Test func anAudioOnlyUploadIsRejectedAsAudioOnly() throws {
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/cam", withIntermediateDirectories: true)
        let song = folder.path("song.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "sine=d=1", "-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-map", "0:a", "-map",
            "1:v", "-frames:v", "1", "-c:a", "aac", "-c:v", "mjpeg", "-disposition:v:0", "attached_pic", song,
        ])
        let ingest = try TestEnvironment.storyreel(["ingest", song, "--story", "cam", "--into", stories])
        #expect(ingest.status == 65)
        #expect(
            ingest.stderr == "storyreel: error: \(song): rejected: no video stream (audio only)\n", "\(ingest.stderr)")
    }

    /// From the phone-uploads QA pass: Dolby Vision profile 5 has no base layer other players
    /// show (it is IPTPQc2), so it plays in Dolby Vision players only and its pictures come out
    /// in the wrong colours; it went in without a word. Profile 8.4 (an iPhone's, HLG
    /// underneath) stays quiet.
    @Test func dolbyVisionWithoutACompatibleBaseLayerIsNamedByRenderAndIngest() throws {
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/cam", withIntermediateDirectories: true)
        try HostileFiles.dolbyVisionClip(at: "\(stories)/cam/1-dv5.mp4", profile: 5, compatibility: 0)
        try HostileFiles.dolbyVisionClip(
            at: "\(stories)/cam/2-dv84.mp4", profile: 8, compatibility: 4, transfer: "arib-std-b67")
        let inspect = try TestEnvironment.storyreel(["inspect", "\(stories)/cam/1-dv5.mp4"])
        #expect(inspect.stdout.contains("dolbyVision (Dolby Vision 5)"), "\(inspect.stdout)")
        // Tagged PQ too, it is still Dolby Vision's alone: its base layer is no PQ picture (an
        // inspect QA pass: it was `pq`).
        let tagged = folder.path("dv5-pq.mp4")
        try HostileFiles.dolbyVisionClip(at: tagged, profile: 5, compatibility: 0, transfer: "smpte2084")
        let taggedInspect = try TestEnvironment.storyreel(["inspect", tagged])
        #expect(taggedInspect.stdout.contains("dolbyVision (Dolby Vision 5)"), "\(taggedInspect.stdout)")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("reel"), "--size", "180x320"])
        #expect(render.status == 0, "\(render.stderr)")
        let warnings = render.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: warning: ") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first?.hasPrefix(
                "storyreel: warning: cam/1-dv5.mp4: Dolby Vision profile 5 (hvc1.2.4.") == true,
            "\(warnings)")
        #expect(warnings.first?.contains("come out in the wrong colours") == true)
        let ingest = try TestEnvironment.storyreel([
            "ingest", "\(stories)/cam/1-dv5.mp4", "--story", "new", "--into", stories,
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("Dolby Vision profile 5 (hvc1."), "\(ingest.stderr)")
    }

    /// From an inspect QA pass: a track under Dolby Vision's own sample entry (`dvh1`, `dvhe`)
    /// had the codecs string `hvc1.…`, so a player that plays no Dolby Vision entry was told it
    /// could play it. It is Dolby's `dvh1.PP.LL` (profile, level), `render` names it, and the
    /// bundle validates (its items' codecs are what `validate` reads).
    @Test func aDolbyVisionSampleEntryIsNamedByItsOwnCodecsString() throws {
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/cam", withIntermediateDirectories: true)
        let clip = "\(stories)/cam/1-dvh1.mp4"
        try HostileFiles.dolbyVisionClip(
            at: clip, profile: 8, compatibility: 4, transfer: "arib-std-b67", sampleEntry: "dvh1")
        let inspect = try TestEnvironment.storyreel(["inspect", "--json", clip])
        let video =
            (try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [[String: Any]])?.first?[
                "video"] as? [String: Any]
        #expect(
            video?["codecTag"] as? String == "dvh1" && video?["codecs"] as? String == "dvh1.08.06", "\(inspect.stdout)")
        // The same clip under hvc1 keeps its HEVC string.
        let plain = folder.path("hvc1.mp4")
        try HostileFiles.dolbyVisionClip(at: plain, profile: 8, compatibility: 4, transfer: "arib-std-b67")
        let hvc1 = try TestEnvironment.storyreel(["inspect", "--json", plain])
        #expect(hvc1.stdout.contains(#""codecs": "hvc1.2."#), "\(hvc1.stdout)")
        let reel = folder.path("reel")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", reel, "--size", "180x320"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(
            render.stderr.contains(
                "storyreel: warning: cam/1-dvh1.mp4: Dolby Vision under its own sample entry (dvh1.08.06) plays in "
                    + "Dolby Vision players only"), "\(render.stderr)")
        #expect(try String(contentsOfFile: reel + "/manifest.json", encoding: .utf8).contains(#""dvh1.08.06""#))
        let validate = try TestEnvironment.storyreel(["validate", reel])
        #expect(validate.status == 0, "\(validate.stderr)")
        // The entry without its record (against Dolby's spec) is named by the entry alone.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: plain))
        let stsd = try #require(bytes.range(of: Data("stsd".utf8)))
        let entry = try #require(bytes.range(of: Data("hvc1".utf8), in: stsd.upperBound..<bytes.count))
        bytes.replaceSubrange(entry, with: Data("dvh1".utf8))
        let record = try #require(bytes.range(of: Data("dvvC".utf8)))
        bytes.replaceSubrange(record, with: Data("free".utf8))
        let bare = folder.path("bare.mp4")
        try bytes.write(to: URL(fileURLWithPath: bare))
        let bareInspect = try TestEnvironment.storyreel(["inspect", "--json", bare])
        #expect(bareInspect.stdout.contains(#""codecs": "dvh1","#), "\(bareInspect.stdout)")
    }

    /// A camera's ProRes or Motion JPEG, or H.264 High 10, plays in few players: `render` and
    /// `ingest` say so (and still use it; the page shows its stills). 8-bit H.264 and HEVC do
    /// not warn. From a QA pass: such uploads went in without a word.
    @Test func clipsFewPlayersPlayAreNamedByRenderAndIngest() throws {
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/cam", withIntermediateDirectories: true)
        let clips: [(String, [String], String?)] = [
            ("prores.mov", ["-c:v", "prores_ks", "-profile:v", "0"], "ProRes (prores)"),
            ("mjpeg.mov", ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p"], "Motion JPEG (mjpeg)"),
            ("high10.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p10le"], "H.264 High 10 (avc1.6e"),
            ("plain.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], nil),
            // ffmpeg's own default tag for HEVC in MP4, which Apple's players refuse.
            (
                "hev1.mp4", ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=none"],
                "HEVC tagged hev1 (hev1."
            ),
            (
                "hevc.mp4",
                ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=none"], nil
            ),
        ]
        for (name, options, _) in clips {
            try FileManager.default.moveItem(atPath: try make(name, options), toPath: "\(stories)/cam/\(name)")
        }
        let render = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("reel"), "--size", "180x320"])
        #expect(render.status == 0, "\(render.stderr)")
        let warnings = render.stderr.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("storyreel: warning: ")
        }
        for (name, _, concern) in clips {
            let line = warnings.first { $0.hasPrefix("storyreel: warning: cam/\(name): ") }
            if let concern {
                #expect(line?.contains(": \(concern)") == true, "\(name): \(warnings)")
                #expect(line?.contains("the player page shows its stills where it cannot play it") == true)
            } else {
                #expect(line == nil, "\(name): \(warnings)")
            }
        }
        #expect(warnings.count == 4, "\(warnings)")
        // ingest warns on the clip it took in.
        let ingest = try TestEnvironment.storyreel([
            "ingest", "\(stories)/cam/mjpeg.mov", "--story", "new", "--into", stories,
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("storyreel: warning: new/"), "\(ingest.stderr)")
        #expect(ingest.stderr.contains("Motion JPEG (mjpeg) plays in few players"), "\(ingest.stderr)")
        // With --render, the render's warning about the same clip is not given again.
        let both = try TestEnvironment.storyreel([
            "ingest", "\(stories)/cam/prores.mov", "--story", "again", "--into", stories, "--render",
            folder.path("reel"),
        ])
        #expect(both.status == 0, "\(both.stderr)")
        let lines = both.stderr.split(separator: "\n").filter { $0.contains("again/") && $0.contains("ProRes") }
        #expect(lines.count == 1, "\(both.stderr)")
    }
}
