import Foundation
import StoryreelTestSupport
import Testing

/// Bad and hostile input gets one clear line on stderr and the documented sysexits code.
@Suite struct InspectBadInputTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    var goodClip: String { TestEnvironment.sample("portrait-h264.mp4") }

    func inspect(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.storyreel(["inspect"] + arguments)
    }

    /// A 2 s H.264 test card named `name` in the folder, with the mov muxer's `movflags`.
    func testCard(_ name: String, movflags: String) throws -> String {
        let path = folder.path(name)
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:d=2", "-c:v", "libx264", "-g", "15", "-movflags", movflags,
                path,
            ])
        return path
    }

    @Test func emptyFileIsInvalidMedia() throws {
        let path = try folder.write("empty.mov", Data())
        let result = try inspect([path])
        #expect(result.status == 65)
        #expect(result.stderr == "storyreel: error: \(path): empty file (0 bytes)\n")
    }

    /// A file whose file system gives it no size but has bytes (/proc's) is not called empty, as
    /// it was (a QA pass).
    @Test func aProcFileIsNotCalledEmpty() throws {
        let result = try inspect(["/proc/self/status"])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "storyreel: error: /proc/self/status: its file system gives it no size (as /proc's files have "
                + "none), so it is not a media file\n")
    }

    /// From the hostile-input QA pass: an mdhd timescale of 0 (FFmpeg reads 1) gave 1 frame at
    /// 0.002 fps with no warning; ffprobe warns. It is a warning now, so render skips the clip.
    @Test func aZeroMediaTimescaleIsAWarning() throws {
        let path = folder.path("timescale.mp4")
        try HostileFiles.zeroMediaTimescale(of: goodClip, to: path)
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let warning =
            "the video track's timescale is 0, 1 or over 2^31 − 1 ticks per second, so its frame times, rate and count "
            + "cannot be trusted"
        #expect(result.stderr == "storyreel: warning: \(path): \(warning)\n")
        let reports = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(reports?.first?["warnings"] as? [String] == [warning])
    }

    /// From a QA pass: a size table (stsz) listing half the samples its chunk tables hold made
    /// FFmpeg's index end after 45 of the 90 frames, and inspect reported the 45 with no warning,
    /// where ffprobe prints "wrong sample count". It is a warning now, so ingest rejects the clip
    /// and render skips it.
    @Test func aShortSampleSizeTableIsAWarningAsFFprobeSaysSo() throws {
        let path = folder.path("short-stsz.mp4")
        try HostileFiles.shortenSampleSizeTable(of: goodClip, to: path, count: 45)
        let probe = try TestEnvironment.run("ffprobe", ["-v", "error", path])
        #expect(probe.stderr.contains("wrong sample count"), "ffprobe sees the fault too: \(probe.stderr)")
        let warning =
            "a track's sample tables disagree (its chunks hold more samples than its size table, stsz, lists; "
            + "ffprobe's \"wrong sample count\"): the track is read only in part, and players differ"
        let report = try inspectWarns(path, warning)
        #expect((report["video"] as? [String: Any])?["frameCount"] as? Int == 45, "the index FFmpeg kept")
        // The same clip whole: no warning.
        let whole = try inspect([goodClip])
        #expect(whole.status == 0 && whole.stderr.isEmpty, "\(whole.stderr)")

        let fixture = try BundleFixture()
        let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "new", "--into", fixture.stories])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(ingest.stderr == "storyreel: error: \(path): rejected: \(warning)\n")
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/new"), "nothing filed")
    }

    /// From a QA pass: one sample size of 2^30 bytes or more in the size table (stsz) ends
    /// FFmpeg's index of the track at that sample, with "Sample size … is too large" that only
    /// ffprobe printed: inspect reported 2 of 75 frames clean, ingest took the clip and render
    /// shipped it as a 2.5 s item. It is a warning now, so ingest rejects the clip and render
    /// skips it. (2^29 to 2^30 − 1 wraps FFmpeg's 30-bit size field, which the index check
    /// reports as a corrupt index; 2^31 and more are negative to FFmpeg, which refuses the file.)
    @Test(arguments: [UInt32(1 << 30), 0x7FFF_FFFF])
    func aSampleOverFFmpegsSizeLimitIsAWarningAsFFprobeSaysSo(size: UInt32) throws {
        let path = folder.path("huge-sample.mp4")
        try HostileFiles.corruptSampleSize(of: goodClip, to: path, entry: 2, value: size)
        let (listed, read, complaint) = try listedAndReadSamples(path)
        #expect(complaint.contains("Sample size \(size) is too large"), "ffprobe sees the fault too: \(complaint)")
        #expect(read == "2" && listed != read, "\(listed), \(read)")
        let warning =
            "a track's size table (stsz) gives a sample 2^30 bytes or more (ffprobe's \"Sample size … is too large\"): "
            + "the track is read only up to that sample, and players differ"
        let report = try inspectWarns(path, warning)
        #expect((report["video"] as? [String: Any])?["frameCount"] as? Int == 2, "the index FFmpeg kept")

        let fixture = try BundleFixture()
        let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "new", "--into", fixture.stories])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(ingest.stderr == "storyreel: error: \(path): rejected: \(warning)\n")
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/new"), "nothing filed")
    }

    /// From an inspect QA pass: at a nanosecond track timescale, an ordinary x264 encode's
    /// composition offsets (ctts) are too large for FFmpeg, which drops them ("CTTS invalid", that
    /// only ffprobe printed): inspect reported 28 of its 30 frames clean, mistimed behind its edit
    /// list. It is a warning now, so ingest rejects the clip and render skips it; the same encode
    /// at a 90 kHz timescale is clean.
    @Test func compositionOffsetsTooLargeForFFmpegAreAWarningAsFFprobeSaysSo() throws {
        let path = folder.path("nanoseconds.mp4")
        let options = ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=3", "-c:v", "libx264", "-video_track_timescale"]
        try HostileFiles.ffmpeg(options + ["1000000000", path])
        let probe = try TestEnvironment.run("ffprobe", ["-v", "warning", path])
        #expect(probe.stderr.contains("CTTS invalid"), "ffprobe sees the fault too: \(probe.stderr)")
        let warning =
            "a track's composition offsets (ctts) are too large for FFmpeg, which drops them (ffprobe's \"CTTS "
            + "invalid\"): its frames are read mistimed and some not at all, and players differ; re-encode it from its source"
        let report = try inspectWarns(path, warning)
        #expect((report["video"] as? [String: Any])?["frameCount"] as? Int == 28, "what FFmpeg reads")
        let clean = folder.path("ninety-kilohertz.mp4")
        try HostileFiles.ffmpeg(options + ["90000", clean])
        let result = try inspect([clean, "--json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    /// From a QA pass: a corrupt time table (`stts`) putting every frame at one time, or 90
    /// frames into 6 ms, was taken without a word: ingest took the clips and the manifest said 0
    /// and 15360 frames a second. Each is a warning now, so ingest rejects the clip and render
    /// skips it. Only the frames the edit list shows count (48 of the 90 here): a cut made
    /// without re-encoding keeps a keyframe long before its start. (A delta of 2^31 − 1 ticks
    /// leaves one frame shown, a still, which plays as one.)
    /// A rate over 1,000 is said as the rule it is: a valid 1200 fps encode was called corrupt (a
    /// later QA pass).
    static let corruptTimeTables: [(delta: UInt32, warning: String)] = [
        (
            0,
            "all 48 of the video track's frames have the same time: its time table (stts) is corrupt, so its "
                + "frame times, rate and count cannot be trusted"
        ),
        (
            1,
            "the video track's 48 frames fall within 5.794 ms (8111 frames a second): more than 1,000 a second is "
                + "read as a corrupt time table (stts), so its frame times, rate and count cannot be trusted"
        ),
    ]

    @Test(arguments: Self.corruptTimeTables)
    func aCorruptTimeTableIsAWarning(delta: UInt32, warning: String) throws {
        let path = folder.path("stts-\(delta).mp4")
        try HostileFiles.timeTableDelta(of: goodClip, to: path, delta: delta)
        _ = try inspectWarns(path, warning)
        let fixture = try BundleFixture()
        let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "new", "--into", fixture.stories])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(ingest.stderr == "storyreel: error: \(path): rejected: \(warning)\n")
    }

    /// Runs `inspect --json` on `path` and expects exit 0, `warning` as its one line on stderr
    /// and as the report's only warning; returns the report.
    func inspectWarns(_ path: String, _ warning: String) throws -> [String: Any] {
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "storyreel: warning: \(path): \(warning)\n")
        let report = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(report["warnings"] as? [String] == [warning])
        return report
    }

    /// ffprobe's counts for the first video stream: the samples its time table lists
    /// (`nb_frames`) and the packets it reads, and what it printed on stderr.
    func listedAndReadSamples(_ path: String) throws -> (listed: String, read: String, stderr: String) {
        let probe = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                "stream=nb_frames,nb_read_packets", "-of", "csv=p=0", path,
            ])
        let counts = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        guard counts.count == 2 else { throw TestFailure("ffprobe gave \(probe.stdout) for \(path)") }
        return (counts[0], counts[1], probe.stderr)
    }

    /// From a QA pass: with half of its chunk offsets (stco) cut off, a clip's chunks hold 45 of
    /// the 90 samples its size and time tables list. FFmpeg indexes the 45 without a word
    /// (ffprobe gives nb_frames 90 and reads 45 packets, with no error), and inspect reported 45
    /// frames clean. A clip whose edit list trims its end, from which FFmpeg's index rightly
    /// leaves samples out too, is no fault.
    @Test func chunkTablesHoldingFewerSamplesThanListedAreAWarning() throws {
        let path = folder.path("short-stco.mp4")
        try HostileFiles.shortenChunkOffsetTable(of: goodClip, to: path, count: 44)
        let (listed, read, complaint) = try listedAndReadSamples(path)
        #expect(complaint.isEmpty, "ffprobe says nothing of it: \(complaint)")
        #expect(listed != read)
        let report = try inspectWarns(
            path,
            "the video track's chunk tables (stsc, stco) hold \(read) samples, its size table (stsz) lists \(listed): "
                + "the track is read only in part, and players differ")
        #expect((report["video"] as? [String: Any])?["frameCount"] as? Int == Int(read))

        // The edit-list sample with its one edit cut to half its length (a trim an editor
        // writes): FFmpeg's index leaves out the frames past the edit, and that is no fault.
        var edited = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("edit-list.mp4"))))
        let elst = try #require(edited.indices.dropLast(24).first { Array(edited[$0..<$0 + 4]) == Array("elst".utf8) })
        // 'elst', version 0 and flags (4), one entry (4), then its duration (4).
        #expect(edited[elst + 4] == 0 && HostileFiles.bigEndian(edited[(elst + 8)..<(elst + 12)]) == 1)
        let half = HostileFiles.bigEndian(edited[(elst + 12)..<(elst + 16)]) / 2
        for index in 0..<4 { edited[elst + 12 + index] = UInt8(truncatingIfNeeded: half >> (24 - 8 * index)) }
        let trimmed = try folder.write("trimmed.mp4", Data(edited))
        let trimmedCounts = try listedAndReadSamples(trimmed)
        #expect(trimmedCounts.listed != trimmedCounts.read, "\(trimmedCounts)")
        let trimmedResult = try inspect([trimmed])
        #expect(trimmedResult.status == 0 && trimmedResult.stderr.isEmpty, "\(trimmedResult.stderr)")
    }

    /// From an inspect QA pass: an edit list that starts past the video track's last frame
    /// shows none of its frames (ffmpeg decodes none, and `thumbnail` found none to show), while
    /// `inspect` said 2 s at 30 fps and 0 frames with no warning, and `render` took the clip.
    @Test func anEditListThatShowsNoFrameIsAWarning() throws {
        var edited = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("edit-list.mp4"))))
        let elst = try #require(edited.indices.dropLast(24).first { Array(edited[$0..<$0 + 4]) == Array("elst".utf8) })
        // 'elst', version 0 and flags (4), one entry (4), its duration (4), then the track time
        // it starts at (4).
        #expect(edited[elst + 4] == 0 && HostileFiles.bigEndian(edited[(elst + 8)..<(elst + 12)]) == 1)
        for (index, byte) in [0x7F, 0xFF, 0xFF, 0xF0].enumerated() { edited[elst + 16 + index] = UInt8(byte) }
        let path = try folder.write("edit-past-the-end.mp4", Data(edited))
        #expect(try listedAndReadSamples(path).listed == "48")
        let report = try inspectWarns(
            path, "the video track's edit list (elst) shows none of its frames: players show nothing")
        #expect((report["video"] as? [String: Any])?["frameCount"] as? Int == 0)
        let poster = try TestEnvironment.storyreel(["thumbnail", path, "-o", folder.path("poster.jpg")])
        #expect(poster.status == 65, "\(poster.stderr)")
    }

    /// Bytes from a fixed seed (SplitMix64): random ones began as an MP3 frame one run in about
    /// 2,000 (0xFF, then 0xE0 or more), which is named as MP3 (a clean clone's run).
    @Test func garbageIsNotQuickTime() throws {
        var state: UInt64 = 0x5EED
        let bytes = (0..<4096).map { _ -> UInt8 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: mixed ^ (mixed >> 31))
        }
        let path = try folder.write("garbage.mov", Data(bytes))
        let result = try inspect([path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path): not a QuickTime/MP4 file"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// From the phone-uploads QA pass: a WebM named `.mp4` (Chrome's MediaRecorder makes them)
    /// and an MPEG-TS named so were both "not a QuickTime/MP4 file (no ftyp or moov atom at the
    /// start)", and support had to run ffprobe to learn what they were. The first bytes say.
    @Test func anotherFormatNamedMP4IsNamed() throws {
        let formats: [(name: String, options: [String], said: String)] = [
            (
                "webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-f", "webm"],
                "a WebM/Matroska file, not a QuickTime/MP4 file: convert it to MP4"
            ),
            (
                "ts", ["-c:v", "libx264", "-f", "mpegts"],
                "an MPEG transport stream, not a QuickTime/MP4 file: convert it to MP4"
            ),
            ("jpeg", ["-frames:v", "1", "-f", "image2", "-c:v", "mjpeg"], "a JPEG image, not a video"),
        ]
        try expectNamed(formats, madeFrom: "testsrc2=s=90x160:r=30:d=1")
    }

    /// From a QA pass of stills: an iPhone photo (HEIC) and an AVIF image, complete files in the
    /// ISO format with no `moov`, were called truncated or still uploading, which invites a retry
    /// that can never succeed; WebP, TIFF and BMP images had no name.
    @Test func anImageOfAnotherFormatIsNamed() throws {
        let formats: [(name: String, options: [String], said: String)] = [
            ("webp", ["-frames:v", "1", "-c:v", "libwebp", "-f", "webp"], "a WebP image, not a video"),
            ("tiff", ["-frames:v", "1", "-c:v", "tiff", "-f", "image2"], "a TIFF image, not a video"),
            ("bmp", ["-frames:v", "1", "-c:v", "bmp", "-f", "image2"], "a BMP image, not a video"),
        ]
        try expectNamed(formats, madeFrom: "testsrc2=s=90x160:r=30:d=1")
        // A HEIF file's top level as Apple's camera writes it: ftyp, meta (the items), mdat.
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array(type.utf8) + payload
        }
        for (name, brands, said) in [
            ("photo.heic", "heic\0\0\0\0mif1heic", "a HEIC (HEIF) image, not a video"),
            ("photo.avif", "avif\0\0\0\0avifmif1miaf", "an AVIF image, not a video"),
        ] {
            let bytes =
                box("ftyp", Array(brands.utf8)) + box("meta", [UInt8](repeating: 0, count: 64))
                + box("mdat", (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            let path = try folder.write(name, Data(bytes))
            let result = try inspect([path])
            #expect(result.status == 65)
            #expect(result.stderr == "storyreel: error: \(path): \(said)\n", "\(name)")
        }
    }

    /// From the audio QA pass: a FLAC, an AAC stream (ADTS), a bare MP3 without a tag and a CAF
    /// named `.mp4` were "not a QuickTime/MP4 file", and an Ogg Opus voice note was told to
    /// "convert it to MP4", which would still hold no video.
    @Test func anAudioFileNamedMP4IsNamedAudio() throws {
        let formats: [(name: String, options: [String], said: String)] = [
            ("flac", ["-c:a", "flac", "-f", "flac"], "a FLAC file (audio), not a video"),
            ("adts", ["-c:a", "aac", "-f", "adts"], "an AAC (ADTS) file (audio), not a video"),
            (
                "mp3", ["-c:a", "libmp3lame", "-id3v2_version", "0", "-write_xing", "0", "-f", "mp3"],
                "an MP3 file (audio), not a video"
            ),
            ("caf", ["-c:a", "pcm_s16le", "-f", "caf"], "a CAF file (audio), not a video"),
            ("opus", ["-c:a", "libopus", "-f", "ogg"], "an Ogg Opus file (audio), not a video"),
        ]
        try expectNamed(formats, madeFrom: "sine=d=1")
    }

    /// Makes each of `formats` from the lavfi source `source` with its ffmpeg output options,
    /// named `NAME.mp4`, and expects `inspect` to refuse it (65) with the one line it says.
    func expectNamed(_ formats: [(name: String, options: [String], said: String)], madeFrom source: String) throws {
        for format in formats {
            let path = folder.path("\(format.name).mp4")
            try HostileFiles.ffmpeg(["-f", "lavfi", "-i", source] + format.options + [path])
            let result = try inspect([path])
            #expect(result.status == 65)
            #expect(result.stderr == "storyreel: error: \(path): \(format.said)\n", "\(format.name)")
        }
    }

    @Test func playlistDisguisedAsMovIsRefused() throws {
        let path = try folder.write(
            "story.mov", Data("#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:2,\nhttp://127.0.0.1:9/a.ts\n".utf8))
        let result = try inspect([path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("HLS playlist"))
    }

    @Test func truncatedUploadWithoutMoovIsInvalid() throws {
        let full = folder.path("moov-last.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=2", "-c:v", "libx264", full])
        #expect(made.status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let path = try folder.write("truncated.mp4", data.prefix(data.count / 2))
        let result = try inspect([path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("moov atom not found"))
        // From a QA pass: 4096 `free` atoms before the moov (which ffprobe reads through) were
        // called truncated; storyreel reads that many top-level atoms and says so.
        let mdatEnd = try #require(data.range(of: Data("moov".utf8))?.lowerBound) - 4
        let padded =
            data.prefix(mdatEnd)
            + Data(repeating: 0, count: 4096 * 8).enumerated().map { index, _ in
                [0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65][index % 8]
            } + data.suffix(from: mdatEnd)
        let many = try folder.write("many-free.mp4", padded)
        #expect((try TestEnvironment.ffprobe(many)["streams"] as? [Any])?.isEmpty == false, "ffprobe reads it")
        let refused = try inspect([many])
        #expect(refused.status == 65)
        #expect(
            refused.stderr
                == "storyreel: error: \(many): no moov atom (the index) among its first 4096 top-level atoms, which "
                + "is as far as storyreel reads (a real clip has a few)\n", "\(refused.stderr)")
    }

    /// From a QA pass: a clip whose moov comes last, cut inside the moov (an upload that stopped
    /// while its index was being written), was read as a file with no video and no audio (0,
    /// `video none`), where the same cut inside a moov at the front was refused (65). Both are
    /// now refused, saying why, by every command.
    @Test(arguments: [false, true])
    func truncatedUploadCutInsideItsMoovIsInvalid(moovFirst: Bool) throws {
        let full = folder.path("whole.mp4")
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:d=2", "-f", "lavfi", "-i", "sine=d=2", "-c:v", "libx264",
                "-c:a", "aac", "-g", "30",
            ] + (moovFirst ? ["-movflags", "+faststart"] : []) + [full])
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let moov = try #require(data.range(of: Data("moov".utf8), options: moovFirst ? [] : .backwards)).lowerBound - 4
        let path = try folder.write("cut.mp4", data.prefix(moov + 200))
        let reason = "\(path): the moov atom (the index) is cut short: the file is truncated or still uploading"
        let result = try inspect([path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "storyreel: error: \(reason)\n")
        let poster = try TestEnvironment.storyreel(["thumbnail", path, "-o", folder.path("poster.jpg")])
        #expect(poster.status == 65)
        #expect(poster.stderr == "storyreel: error: \(reason)\n")
    }

    /// From a QA pass: an upload written into a file preallocated at its final size (its moov
    /// first, whole; its end still zeros) passed every check, and was ingested (0).
    @Test func anUploadIntoAPreallocatedFileIsSeenAndRejected() throws {
        let full = try testCard("whole.mp4", movflags: "+faststart")
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let written = data.count * 6 / 10
        let path = try folder.write("upload.mp4", data.prefix(written) + Data(count: data.count - written))
        let reason = "the file looks preallocated and still being written"
        let result = try inspect([path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(path): the last video sample (at byte "), "\(result.stderr)")
        #expect(result.stderr.contains(reason))
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "ana", "--into", stories])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("rejected: the last video sample"), "\(ingest.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana").isEmpty)
        // The whole file has no such warning, nor has an uncompressed clip ending in black,
        // whose last frame is all zeros (a QA pass).
        #expect(!(try inspect([full])).stderr.contains(reason))
        let raw = folder.path("raw-ends-black.mov")
        try HostileFiles.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=10:d=1,drawbox=enable='gte(t,0.9)':c=black:t=fill",
                "-c:v", "rawvideo", "-pix_fmt", "rgb24", raw,
            ])
        let rawInspected = try inspect([raw])
        #expect(rawInspected.status == 0 && !rawInspected.stderr.contains(reason), "\(rawInspected.stderr)")
    }

    /// From an ingest QA pass: an upload stalled inside its last picture (its last 4000 bytes
    /// not written) was ingested, and the finished file then went in beside it. An H.264 or HEVC
    /// sample never ends in a zero byte, so one ending in 8 is not written yet.
    @Test func anUploadStalledInItsLastPictureIsSeenAndRejected() throws {
        let stories = folder.path("stalled")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let encoders = [
            (["-c:v", "libx264"], "h264.mp4"),
            (["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=error"], "hevc.mp4"),
        ]
        for (encoder, name) in encoders {
            let whole = folder.path("whole-\(name)")
            try HostileFiles.ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=1"] + encoder + [
                    "-pix_fmt", "yuv420p", "-movflags", "+faststart", whole,
                ])
            // The last picture, at the file's end (no audio), half written.
            let sizes = try TestEnvironment.run(
                "ffprobe", ["-v", "error", "-show_entries", "packet=size", "-of", "csv=p=0", whole])
            let last = try #require(sizes.stdout.split(separator: "\n").last.flatMap { Int($0) })
            try #require(last >= 256, "a last picture of \(last) bytes")
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            let path = try folder.write("stalled-\(name)", data.prefix(data.count - last / 2) + Data(count: last / 2))
            let result = try inspect([path])
            #expect(result.stderr.contains("warning: \(path): the last video sample (at byte "), "\(result.stderr)")
            #expect(result.stderr.contains("ends in zeros: the file looks preallocated and still being written"))
            let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "ana", "--into", stories])
            #expect(ingest.status == 65, "\(ingest.stderr)")
            #expect(try inspect([whole]).stderr.isEmpty, "the whole file")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana").isEmpty)
        // A raw stream's trailing zeros (trailing_zero_8bits), which `-c copy` keeps in the last
        // sample, are no unwritten end: the finished file went in (a re-check: 65).
        let raw = folder.path("padded.h264")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", raw,
        ])
        let padded = try Data(contentsOf: URL(fileURLWithPath: raw)) + Data(count: 16)
        try padded.write(to: URL(fileURLWithPath: raw))
        let copied = folder.path("padded.mp4")
        try HostileFiles.ffmpeg(["-framerate", "30", "-i", raw, "-c", "copy", copied])
        #expect(try inspect([copied]).stderr.isEmpty, "a finished file with a padded last sample")
        let ingest = try TestEnvironment.storyreel(["ingest", copied, "--story", "ana", "--into", stories])
        #expect(ingest.status == 0, "\(ingest.stderr)")
    }

    /// From the audio QA pass: in an interleaved file the last bytes are usually audio, so an
    /// upload whose unwritten end held only audio samples passed the check of the last video
    /// sample, went in, and stopped Chromium before its end. The whole file has no such warning.
    @Test func anUploadWhoseUnwrittenEndIsAudioIsSeenToo() throws {
        let whole = folder.path("with-audio.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=3", "-f", "lavfi", "-i", "sine=d=3",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart", whole,
        ])
        let packets = try TestEnvironment.run(
            "ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pos,size", "-of", "csv=p=0", whole])
        let rows = packets.stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
        let videoEnd = try #require(rows.filter { $0.count == 3 && $0[0] == 0 }.map { $0[2] + $0[1] }.max())
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try #require(videoEnd < data.count - 8, "audio after the last picture")
        let path = try folder.write("upload.mp4", data.prefix(videoEnd) + Data(count: data.count - videoEnd))
        let result = try inspect([path])
        #expect(result.stderr.contains("warning: \(path): the last audio sample (at byte "), "\(result.stderr)")
        #expect(result.stderr.contains("the file looks preallocated and still being written"))
        #expect(try inspect([whole]).stderr.isEmpty, "the whole file")
    }

    /// Writes copies of `data` whose last `unwritten` bytes are zeros, as uploads stalled there,
    /// and expects each one's `inspect` to say `warning(path)` and `ingest` to reject it (65),
    /// so the story `ana` of the stories folder `name` (made here) stays empty. Returns that folder.
    @discardableResult
    func expectStalledCopiesRejected(
        of data: Data, unwritten counts: [Int], into name: String, warning: (String) -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let stories = folder.path(name)
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        for unwritten in counts {
            let path = try folder.write(
                "stalled-\(unwritten).mp4", data.prefix(data.count - unwritten) + Data(count: unwritten))
            let result = try inspect([path])
            #expect(
                result.stderr.contains(warning(path)), "\(unwritten): \(result.stderr)", sourceLocation: sourceLocation)
            let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "ana", "--into", stories])
            #expect(ingest.status == 65, "\(ingest.stderr)", sourceLocation: sourceLocation)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana").isEmpty,
            sourceLocation: sourceLocation)
        return stories
    }

    /// From an ingest QA pass: an upload preallocated at its final size (index first) with its
    /// last 1 to 270 bytes still zeros was ingested (0), and the finished file then went in
    /// beside it: its last AAC frames were too small, or not all zeros, for the checks above.
    /// An AAC frame's last byte is never 0 (its END element's 1 bits), so a zero there says it.
    @Test func anUploadStalledInItsLastAudioFrameIsSeenAndRejected() throws {
        let whole = folder.path("audio-last.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=2", "-f", "lavfi", "-i", "sine=d=2",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-movflags", "+faststart", whole,
        ])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        #expect(try inspect([whole]).stderr.isEmpty, "the whole file")
        let stories = try expectStalledCopiesRejected(of: data, unwritten: [1, 3, 50], into: "audio-stalled") { _ in
            "ends in a zero byte, which no AAC frame does: the file looks preallocated and still being written"
        }
        let ingest = try TestEnvironment.storyreel(["ingest", whole, "--story", "ana", "--into", stories])
        #expect(ingest.status == 0, "the finished file goes in: \(ingest.stderr)")
    }

    /// From an ingest QA pass: an upload preallocated at its final size, its index written last
    /// (ffmpeg's default layout) and stalled in it, its last 120 to 700 bytes still zeros, was
    /// ingested (0) with the second half of its audio read from byte 0, and the finished file
    /// then went in beside it. Zeros at the end of the index, outside a padding atom, say so.
    @Test func anUploadStalledInItsIndexIsSeenAndRejected() throws {
        let whole = folder.path("index-last.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=2", "-f", "lavfi", "-i", "sine=d=2",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", whole,
        ])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        #expect(try inspect([whole]).stderr.isEmpty, "the whole file")
        try expectStalledCopiesRejected(of: data, unwritten: [120, 300, 700], into: "index-stalled") {
            "warning: \($0): its index (the moov atom) is not all written: it ends in zeros or in blocks not written "
                + "yet: the file looks preallocated and still being written"
        }
        // Zeros a padding atom holds at the index's end are written: the moov (last in the file)
        // grown by a `free` atom of 120 zero bytes has no warning.
        let moov = try #require(data.range(of: Data("moov".utf8), options: .backwards)?.lowerBound)
        var padded = data
        let size = padded[(moov - 4)..<moov].reduce(0) { $0 << 8 | Int($1) } + 128
        padded.replaceSubrange((moov - 4)..<moov, with: withUnsafeBytes(of: UInt32(size).bigEndian) { Data($0) })
        try #require(moov - 4 + size - 128 == data.count, "the moov is the file's last atom")
        padded += withUnsafeBytes(of: UInt32(128).bigEndian) { Data($0) } + Data("free".utf8) + Data(count: 120)
        let paddedPath = try folder.write("padded-index.mp4", padded)
        let paddedResult = try inspect([paddedPath])
        #expect(paddedResult.status == 0 && paddedResult.stderr.isEmpty, "\(paddedResult.stderr)")
    }

    /// From a re-check of the above: zeros in the index that are content, not bytes unwritten,
    /// were taken for an upload still being written (65 from ingest, skipped by render): a BMP
    /// cover's black rows at the end of the index, and a sparse copy (`cp --sparse=always`) of a
    /// clip whose index ends in 16 KiB of `free` padding, its zeros made a hole.
    @Test func zerosThatAreTheIndexsContentAreNoUnwrittenUpload() throws {
        let clip = try testCard("plain.mp4", movflags: "-faststart")
        let cover = folder.path("cover.bmp")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=640x480:d=1", "-frames:v", "1", "-pix_fmt", "bgr24", cover,
        ])
        let covered = folder.path("covered.mp4")
        try HostileFiles.ffmpeg([
            "-i", clip, "-i", cover, "-map", "0", "-map", "1", "-c", "copy", "-disposition:v:1", "attached_pic",
            covered,
        ])
        let coveredResult = try inspect([covered])
        #expect(coveredResult.status == 0 && coveredResult.stderr.isEmpty, "\(coveredResult.stderr)")
        var data = try Data(contentsOf: URL(fileURLWithPath: clip))
        let moov = try #require(data.range(of: Data("moov".utf8), options: .backwards)?.lowerBound)
        let size = data[(moov - 4)..<moov].reduce(0) { $0 << 8 | Int($1) }
        try #require(moov - 4 + size == data.count, "the moov is the file's last atom")
        let pad = 16_392
        data.replaceSubrange((moov - 4)..<moov, with: withUnsafeBytes(of: UInt32(size + pad).bigEndian) { Data($0) })
        data += withUnsafeBytes(of: UInt32(pad).bigEndian) { Data($0) } + Data("free".utf8) + Data(count: pad - 8)
        let padded = try folder.write("padded.mp4", data)
        let sparse = folder.path("sparse.mp4")
        let copied = try TestEnvironment.run("cp", ["--sparse=always", padded, sparse])
        try #require(copied.status == 0, "\(copied.stderr)")
        let blocks = try TestEnvironment.run("stat", ["--format=%b %B %s", sparse]).stdout.split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(blocks.count == 3 && blocks[0] * blocks[1] < blocks[2] - 8192, "the copy has holes: \(blocks)")
        for path in [padded, sparse] {
            let result = try inspect([path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(path): \(result.stderr)")
        }
    }

    /// From the same re-check: a chunked upload's unwritten gap inside a large H.264 frame, past
    /// its start, went unseen (a 64 KiB gap in a 194 KB frame). An H.264 or HEVC sample never
    /// holds a block of zeros, so a block not written anywhere in it says so.
    @Test func anUnwrittenGapInsideALargeFrameIsSeen() throws {
        let whole = folder.path("large-frames.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=0.5", "-c:v", "libx264", "-preset", "ultrafast",
            "-qp", "5", "-g", "1", "-pix_fmt", "yuv420p", whole,
        ])
        let packets = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size", "-of", "csv=p=0", whole])
        // ffprobe prints a packet's size before its position.
        let frames = packets.stdout.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
            .filter { $0.count == 2 }.map { (position: $0[1], size: $0[0]) }
        let frame = try #require(frames.first { $0.position >= 65_536 && $0.size >= 3 * 16_384 })
        let gapStart = (frame.position + 4096 + 4095) / 4096 * 4096
        let gapEnd = gapStart + 16_384
        try #require(gapEnd < frame.position + frame.size, "the gap lies inside the frame, past its start")
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let path = folder.path("gap-in-frame.mp4")
        let allocated = try TestEnvironment.run("fallocate", ["-l", "\(data.count)", path])
        try #require(allocated.status == 0, "\(allocated.stderr)")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: data.prefix(gapStart))
        try handle.seek(toOffset: UInt64(gapEnd))
        try handle.write(contentsOf: data.suffix(from: gapEnd))
        try handle.close()
        let result = try inspect([path])
        #expect(
            result.stderr.contains(
                "a video sample (at byte \(frame.position)) lies in a part of the file not written yet: the file looks "
                    + "preallocated and still being written"), "\(result.stderr)")
    }

    /// From an ingest QA pass: an upload preallocated at its final size before any of it came
    /// was "not a QuickTime/MP4 file", which a backend throws away as garbage, where one with 40
    /// bytes written is still being written. Its zeros are blocks no one has written; a file of
    /// written zeros is still no clip.
    @Test func anUploadWithNothingWrittenYetIsStillBeingWritten() throws {
        let path = folder.path("nothing-yet.mp4")
        let allocated = try TestEnvironment.run("fallocate", ["-l", "3000000", path])
        try #require(allocated.status == 0, "\(allocated.stderr)")
        let result = try inspect([path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: error: \(path): its start is not written yet (blocks preallocated, not written): the "
                + "file looks preallocated and still being written\n")
        let zeros = try folder.write("zeros.mp4", Data(count: 3_000_000))
        #expect(
            try inspect([zeros]).stderr
                == "storyreel: error: \(zeros): not a QuickTime/MP4 file (no ftyp or moov atom at the start)\n")
    }

    /// From an ingest QA pass: an upload preallocated at its final size and filled out of order
    /// (as chunked and parallel uploads are), a fifth in its middle not written yet, was ingested
    /// (0) and played with 68 pictures broken. The file system says which blocks are unwritten.
    @Test func anUploadFilledOutOfOrderIsSeenAndRejected() throws {
        let stories = folder.path("out-of-order")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        for movflags in ["+faststart", "-faststart"] {
            let whole = folder.path("whole\(movflags).mp4")
            try HostileFiles.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-movflags", movflags, whole,
            ])
            let data = try Data(contentsOf: URL(fileURLWithPath: whole))
            let path = folder.path("upload\(movflags).mp4")
            let allocated = try TestEnvironment.run("fallocate", ["-l", "\(data.count)", path])
            try #require(allocated.status == 0, "\(allocated.stderr)")
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: data.prefix(data.count * 4 / 10))
            try handle.seek(toOffset: UInt64(data.count * 6 / 10))
            try handle.write(contentsOf: data.suffix(from: data.count * 6 / 10))
            try handle.close()
            let result = try inspect([path])
            #expect(
                result.stderr.contains(
                    "lies in a part of the file not written yet: the file looks preallocated and still being written"),
                "\(result.stderr)")
            let ingest = try TestEnvironment.storyreel(["ingest", path, "--story", "ana", "--into", stories])
            #expect(ingest.status == 65, "\(ingest.stderr)")
            // Written to its last byte, the same file goes in.
            let finished = try #require(FileHandle(forWritingAtPath: path))
            try finished.seek(toOffset: UInt64(data.count * 4 / 10))
            try finished.write(contentsOf: data[(data.count * 4 / 10)..<(data.count * 6 / 10)])
            try finished.close()
            let again = try TestEnvironment.storyreel(["ingest", path, "--story", "ana", "--into", stories])
            #expect(again.status == 0, "\(again.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana").count == 2)
    }

    /// From an ingest QA pass: a clip whose movie and track headers (mvhd, mdhd) say 1 s over
    /// 20 s of frames was inspected as 1 s in silence, ingested past `--max-duration 5` and
    /// listed in the manifest as 1 s. The frames running far past the headers are a warning.
    @Test func framesRunningFarPastTheHeadersDurationAreAWarning() throws {
        let whole = folder.path("long.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=64x64:r=30:d=20", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", whole,
        ])
        var data = try Data(contentsOf: URL(fileURLWithPath: whole))
        for atom in ["mvhd", "mdhd"] {
            // Version 0: version and flags, creation and modification times, the timescale, then
            // the duration (4 bytes each): the duration set to one timescale, 1 s.
            let at = try #require(data.range(of: Data(atom.utf8))?.lowerBound)
            try #require(data[at + 4] == 0, "\(atom) is version 0")
            data.replaceSubrange((at + 20)..<(at + 24), with: Data(data[(at + 16)..<(at + 20)]))
        }
        let path = try folder.write("lies.mp4", data)
        let result = try inspect([path])
        #expect(
            result.stderr.contains(
                "warning: \(path): the video track's frames run 19.967 s, while its headers say the clip lasts 1.000 s: "
                    + "its duration cannot be trusted"), "\(result.stderr)")
        #expect(try inspect([whole]).stderr.isEmpty, "the whole file")
        let stories = folder.path("lies-stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let ingest = try TestEnvironment.storyreel([
            "ingest", path, "--story", "ana", "--into", stories, "--max-duration", "5",
        ])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana").isEmpty)
    }

    /// From a QA pass: a fragmented MP4 cut short was said to have its moov index point past
    /// the end, where its samples are indexed by its fragments' headers.
    @Test func aTruncatedFragmentedClipNamesItsFragmentsIndex() throws {
        let full = try testCard("fragmented.mp4", movflags: "frag_keyframe+empty_moov")
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let path = try folder.write("cut.mp4", data.prefix(data.count / 2))
        let result = try inspect(["--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains { $0.hasPrefix("the fragments' index (moof) points ") }, "\(warnings)")

        // Cut inside one of the first audio samples, which `inspect` decodes: the truncation is
        // the one warning (an inspect QA pass: the line also told to re-encode the good audio).
        let withAudio = folder.path("fragmented-audio.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=3", "-f", "lavfi", "-i", "sine=sample_rate=48000:d=3",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-g", "30",
            "-movflags", "frag_keyframe+empty_moov", withAudio,
        ])
        let packets = try TestEnvironment.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-read_intervals", "%+#3", "-show_entries",
                "packet=pos,size", "-of", "json", withAudio,
            ])
        let third = try #require(
            ((try JSONSerialization.jsonObject(with: Data(packets.stdout.utf8)) as? [String: Any])?["packets"]
                as? [[String: Any]])?.last)
        let position = try #require(Int(third["pos"] as? String ?? ""))
        let size = try #require(Int(third["size"] as? String ?? ""))
        let cutInAudio = try folder.write(
            "cut-in-audio.mp4", try Data(contentsOf: URL(fileURLWithPath: withAudio)).prefix(position + size / 2))
        let audioResult = try inspect(["--json", cutInAudio])
        let audioReport = try #require(
            (try JSONSerialization.jsonObject(with: Data(audioResult.stdout.utf8)) as? [[String: Any]])?.first)
        let audioWarnings = try #require(audioReport["warnings"] as? [String])
        #expect(audioWarnings.count == 1, "\(audioWarnings)")
        #expect(audioWarnings.first?.hasPrefix("the fragments' index (moof) points ") == true, "\(audioWarnings)")
    }

    /// From a QA pass: a fragmented MP4 cut where its first fragment starts (an upload stalled
    /// after its header) passed with no frames and no word, and one cut inside that fragment's
    /// header said only "Invalid data found".
    @Test func aFragmentedClipCutAtItsFirstFragmentIsSaidToBe() throws {
        let full = try testCard("fragmented-header.mp4", movflags: "frag_keyframe+empty_moov")
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        var offset = 0
        var fragment: (start: Int, size: Int)?
        while fragment == nil, offset + 8 <= data.count {
            let size = HostileFiles.bigEndian([UInt8](data[offset..<offset + 4])[...])
            if data[offset + 4..<offset + 8] == Data("moof".utf8) { fragment = (offset, size) }
            guard size >= 8 else { break }
            offset += size
        }
        let moof = try #require(fragment)
        let header = try folder.write("header-only.mp4", data.prefix(moof.start))
        _ = try inspectWarns(
            header,
            "the video track holds no frames (a fragmented MP4 cut before its first fragment, or an empty "
                + "recording): players show nothing")
        let cut = try folder.write("cut-in-moof.mp4", data.prefix(moof.start + moof.size - 1))
        let result = try inspect([cut])
        #expect(result.status == 65)
        #expect(
            result.stderr.hasPrefix(
                "storyreel: error: \(cut): not a readable QuickTime/MP4 file (it ends part-way through an atom: it "
                    + "looks truncated): "), "\(result.stderr)")
    }

    /// From a QA pass: a chunk offset (stco) or time (stts) table whose count was forged to
    /// 2^31 − 1 made FFmpeg fail to allocate it, and the line said "Cannot allocate memory",
    /// which blames the machine.
    ///
    /// A re-check: FFmpeg keeps chunk offsets in 8 bytes (stco's too), and refuses an stts of
    /// 2^31 / 8 − 1 entries by a check of its own; those counts still said "Cannot allocate".
    @Test(arguments: [
        ("stco", UInt32(0x7FFF_FFFF)), ("stts", 0x7FFF_FFFF), ("stco", 300_000_000), ("stts", 268_435_455),
    ])
    func aForgedTableCountIsSaidToBeForged(table: String, count: UInt32) throws {
        var clip = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodClip)))
        let name = Array(table.utf8)
        let atom = try #require((0..<clip.count - 4).first { Array(clip[$0..<$0 + 4]) == name })
        // The count, after the type, its version and flags.
        withUnsafeBytes(of: count.bigEndian) { clip.replaceSubrange(atom + 8..<atom + 12, with: $0) }
        let bytes = HostileFiles.bigEndian(clip[atom - 4..<atom]) - 8  // the atom's size, less its header
        let path = try folder.write("forged-\(table)-\(count).mp4", Data(clip))
        let result = try inspect([path])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "storyreel: error: \(path): its \(table) table lists \(count) entries in its \(bytes) bytes: the "
                + "index is corrupt or forged\n")
    }

    @Test func truncatedUploadWithIntactMoovIsReadWithAWarning() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: goodClip))
        let path = try folder.write("cut.mp4", data.prefix(data.count * 2 / 3))
        let result = try inspect(["--json", path])
        #expect(result.status == 0)
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("past the end of the file") })
        #expect(result.stderr.contains("warning: \(path)"))
    }

    @Test func missingPathAndFolderAreNoInput() throws {
        let missing = folder.path("nope.mov")
        let result = try inspect([missing])
        #expect(result.status == 66)
        #expect(result.stderr == "storyreel: error: \(missing): no such file\n")
        let directory = try inspect([folder.url.path])
        #expect(directory.status == 66)
        #expect(directory.stderr.contains("a folder, not a file"))
    }

    @Test func audioOnlyClipHasNullVideo() throws {
        let path = folder.path("voice.m4a")
        let made = try TestEnvironment.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", path])
        #expect(made.status == 0)
        let result = try inspect(["--json", path])
        #expect(result.status == 0)
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(object["video"] is NSNull)
        #expect((object["audio"] as? [String: Any])?["codec"] as? String == "aac")
    }

    /// The old code took an audio file's cover art (an attached picture, as ffprobe's
    /// disposition says) for its video: `video mjpeg`, an unknown frame rate, 0 frames, and
    /// `thumbnail` failed with "the video stream has no frames".
    @Test func coverArtIsNotVideo() throws {
        let path = folder.path("song.m4a")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", "-f", "lavfi", "-i", "testsrc=s=64x64:d=1",
                "-map", "0", "-map", "1", "-frames:v", "1", "-c:a", "aac", "-c:v", "mjpeg", "-disposition:v",
                "attached_pic", path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let streams = try #require(try TestEnvironment.ffprobe(path)["streams"] as? [[String: Any]])
        let cover = streams.first { $0["codec_type"] as? String == "video" }
        #expect((cover?["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1, "ffprobe: \(streams)")
        let result = try inspect(["--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(object["video"] is NSNull)
        #expect((object["audio"] as? [String: Any])?["codec"] as? String == "aac")
        let poster = try TestEnvironment.storyreel(["thumbnail", path, "-o", folder.path("song.jpg")])
        #expect(poster.status == 65)
        #expect(poster.stderr == "storyreel: error: \(path): no video stream (audio only)\n")
    }

    @Test func batchReportsGoodClipsAndTheFirstFailureDecidesTheExitCode() throws {
        let empty = try folder.write("empty.mov", Data())
        let missing = folder.path("missing.mov")
        let result = try inspect(["--json", goodClip, missing, empty])
        #expect(result.status == 66, "the first failing clip (missing) decides")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 3)
        #expect(array[0]["error"] is NSNull)
        #expect(array[0]["video"] is [String: Any])
        #expect(array[1]["error"] as? String == "no such file")
        #expect(array[2]["error"] as? String == "empty file (0 bytes)")
        // Each entry's own exit code (a scripting QA pass: only the first failure's was known).
        #expect(array.map { $0["exitCode"] as? Int } == [0, 66, 65])
        #expect(result.stderr.split(separator: "\n").count == 2)
        let reversed = try inspect([empty, missing])
        #expect(reversed.status == 65)
    }

    @Test func expiredDeadlineTimesOut() throws {
        let result = try inspect(["--timeout", "0.000001", goodClip])
        #expect(result.status == 65)
        // The old line called the good clip "not a readable QuickTime/MP4 file"; a later one
        // said "after 1e-06 s" (a QA pass).
        #expect(
            result.stderr
                == "storyreel: error: \(goodClip): timed out after 0.000001 s while reading and decoding it; raise "
                + "--timeout for very large or long clips\n", "\(result.stderr)")
    }

    /// From a QA pass: a 4 MB upload whose edit list held 300,000 edits of 3 ms took 2 GB and
    /// 10 s to inspect (FFmpeg's demuxer expands each edit into index entries), and as much in
    /// every command. An edit list of more than 10,000 entries is refused before FFmpeg reads it.
    @Test func anEditListOfMoreThan10000EntriesIsRefused() throws {
        func box(_ type: String, _ body: Data) -> Data {
            var size = UInt32(8 + body.count).bigEndian
            return Data(bytes: &size, count: 4) + Data(type.utf8) + body
        }
        func word(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        /// A clip whose track has `edits` edits and, when `frames` is given, that many frames
        /// with a keyframe only at the start (`stsz` and `stss`).
        func clip(edits: UInt32, frames: UInt32? = nil) -> Data {
            let entry = Data([0, 0, 0, 100, 0, 0, 0, 0, 0, 1, 0, 0])  // 100 ticks from 0, rate 1
            let elst = box("elst", word(0) + word(edits) + Data((0..<Int(edits)).flatMap { _ in entry }))
            let table = frames.map { frames in
                box(
                    "mdia",
                    box(
                        "minf",
                        box(
                            "stbl",
                            box("stsz", word(0) + word(100) + word(frames)) + box("stss", word(0) + word(1) + word(1))))
                )
            }
            return box("ftyp", Data("isom\0\0\u{2}\0isom".utf8))
                + box("moov", box("trak", box("edts", elst) + (table ?? Data()))) + box("mdat", Data(count: 16))
        }
        let many = try folder.write("edits.mp4", clip(edits: 10_001))
        let result = try inspect([many])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "storyreel: error: \(many): its edit list (elst) has 10001 entries, more than the 10000 storyreel "
                + "reads (a real clip has a few; each costs memory when the index is read)\n")
        let allowed = try folder.write("allowed.mp4", clip(edits: 10_000))
        #expect(try !inspect([allowed]).stderr.contains("edit list"))
        // Fewer edits over a long run of frames without a keyframe cost as much: each edit is
        // expanded from the keyframe before it (3,000 into a clip with a keyframe a minute took
        // 763 MB). 5,000 × 300 frames is over the 1,000,000 index entries allowed; 3,000 is not.
        let longRun = try folder.write("long-run.mp4", clip(edits: 5_000, frames: 300))
        #expect(
            try inspect([longRun]).stderr
                == "storyreel: error: \(longRun): its edit list (elst) has 5000 entries over keyframes up to 300 "
                + "frames apart, which FFmpeg would expand into more than 1000000 index entries\n")
        let shorterRun = try folder.write("shorter-run.mp4", clip(edits: 3_000, frames: 300))
        #expect(try !inspect([shorterRun]).stderr.contains("edit list"))
        #expect(try inspect([TestEnvironment.sample("edit-list.mp4")]).status == 0)
    }

    /// From a QA pass: the size came from the sample description (`stsd`), not the bitstream, as
    /// the decoder and ffprobe take it. A 720x1280 clip said to be 1x1 became a 1x1 item whose
    /// 720x1280 poster validate refused; said to be 65535x65535, it was refused as a picture
    /// over the budget, though it decodes.
    ///
    /// A later QA pass: without a `pasp` box, FFmpeg gives the track the pixel aspect of its
    /// track header (720x1280 here) against the sample description's size, so a description of
    /// the coded size (736 wide, macroblock-aligned) squeezed the picture to 704 wide (ffprobe
    /// says 45:46). A track header of the picture's own size gives square pixels.
    @Test(arguments: [
        (UInt16(1), UInt16(1), true), (65535, 65535, true), (360, 640, true), (736, 1280, false), (360, 640, false),
    ])
    func theBitstreamsPictureSizeWinsOverTheSampleDescriptions(
        width: UInt16, height: UInt16, keepsPixelAspectBox: Bool
    ) throws {
        let path = folder.path("stsd-\(width)x\(height)-\(keepsPixelAspectBox).mp4")
        try HostileFiles.sampleDescriptionSize(of: goodClip, to: path, width: width, height: height)
        if !keepsPixelAspectBox {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let box = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("pasp".utf8) })
            bytes.replaceSubrange(box..<box + 4, with: Array("free".utf8))
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let probe = try TestEnvironment.ffprobeVideoStream(path)
        #expect(probe["width"] as? Int == 720 && probe["height"] as? Int == 1280, "ffprobe: \(probe)")
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let video = try #require(
            ((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)?["video"]
                as? [String: Any])
        #expect(video["width"] as? Int == 720 && video["height"] as? Int == 1280, "\(video)")
        #expect(video["displayWidth"] as? Int == 720 && video["displayHeight"] as? Int == 1280, "\(video)")
        let poster = folder.path("poster-\(width)-\(keepsPixelAspectBox).png")
        let thumbnail = try TestEnvironment.storyreel(["thumbnail", path, "-o", poster, "--at", "0"])
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        let image = try TestEnvironment.ffprobeVideoStream(poster)
        #expect(image["width"] as? Int == 720 && image["height"] as? Int == 1280, "\(image)")
    }

    /// A re-check of the test above: measured against the bitstream's picture, a track header of
    /// its size gives no pixel aspect, and a bitstream's own (4:3 in its VUI) applies, in the
    /// pictures as in `inspect` (the poster was 360 wide where inspect said 480); a track header
    /// wider than the picture stretches it by exactly the ratio (it was measured against the
    /// sample description's 368: 704 wide for 720).
    @Test(arguments: [(UInt32(360), 480), (720, 720)])
    func theTrackHeaderIsMeasuredAgainstTheBitstreamsPicture(trackWidth: UInt32, shownWidth: Int) throws {
        let source = folder.path("vui-4-3.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=360x640:r=30:d=0.3", "-vf", "setsar=4/3", "-c:v", "libx264", source,
        ])
        let path = folder.path("vui-4-3-stsd-368-tkhd-\(trackWidth).mp4")
        try HostileFiles.sampleDescriptionSize(of: source, to: path, width: 368, height: 640)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func find(_ type: String) throws -> Int {
            try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array(type.utf8) })
        }
        bytes.replaceSubrange(try find("pasp")..<(try find("pasp") + 4), with: Array("free".utf8))
        let header = try find("tkhd")
        #expect(bytes[header + 4] == 0, "a version 0 tkhd")
        // 'tkhd' (4), version and flags (4), times, id, reserved and duration (20), reserved (8),
        // layer, group, volume and reserved (8), the matrix (36), then the width in 16.16.
        withUnsafeBytes(of: (trackWidth << 16).bigEndian) { bytes.replaceSubrange(header + 80..<header + 84, with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try inspect([path, "--json"])
        let video = try #require(
            ((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)?["video"]
                as? [String: Any])
        #expect(video["displayWidth"] as? Int == shownWidth && video["displayHeight"] as? Int == 640, "\(video)")
        let poster = folder.path("vui-poster-\(trackWidth).png")
        #expect(try TestEnvironment.storyreel(["thumbnail", path, "-o", poster, "--at", "0"]).status == 0)
        let image = try TestEnvironment.ffprobeVideoStream(poster)
        #expect(image["width"] as? Int == shownWidth && image["height"] as? Int == 640, "\(image)")
    }

    /// The good clip with each byte of its (version 0) `mvhd` duration set to `byte`, written as
    /// `name` in the test's folder.
    func goodClip(withHeaderDurationBytes byte: UInt8, as name: String) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodClip)))
        let atom = try #require(Data(bytes).range(of: Data("mvhd".utf8))?.lowerBound)
        #expect(bytes[atom + 4] == 0, "a version 0 mvhd")
        // After 'mvhd': version and flags, creation and modification times, timescale, duration.
        for index in atom + 20..<atom + 24 { bytes[index] = byte }
        return try folder.write(name, Data(bytes))
    }

    /// From a QA pass: an `mvhd` duration of 2^32 − 1 ticks over 3 s of tracks went into the
    /// manifest as 4294967.295 s, in silence; a player timing items by it would stall for weeks.
    @Test func aContainerFarLongerThanItsTracksIsAWarning() throws {
        let path = try goodClip(withHeaderDurationBytes: 0xFF, as: "long-container.mp4")
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let clip = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect((clip["duration"] as? Double).map { $0 > 1_000_000 } == true, "\(clip)")
        let warnings = clip["warnings"] as? [String] ?? []
        #expect(warnings.count == 1 && warnings[0].hasPrefix("the container says it lasts "), "\(warnings)")
        #expect(warnings.first?.hasSuffix(" s: players would hold its last frame for the difference") == true)
        // Its size over that duration: as ffprobe's (N/A, null, where it rounds to 0: it was 0).
        let probed = try TestEnvironment.ffprobe(path)["format"] as? [String: Any]
        #expect(
            (clip["bitRate"] as? Int).map(String.init) == probed?["bit_rate"] as? String, "\(clip) \(probed ?? [:])")
        let good = try inspect([goodClip, "--json"])
        #expect(!good.stdout.contains("the container says"))
        // A caption that runs past the picture is a track too: the container lasts as long as it
        // (a QA pass: such an upload was rejected).
        let captions = try folder.write("captions.srt", Data("1\n00:00:00,000 --> 00:00:05,000\nhi\n".utf8))
        let captioned = folder.path("captioned.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=2", "-i", captions, "-c:v", "libx264", "-c:s", "mov_text",
            captioned,
        ])
        let long = try inspect([captioned, "--json"])
        #expect(long.status == 0 && !long.stdout.contains("the container says"), "\(long.stdout)")
        let captionedClip = (try JSONSerialization.jsonObject(with: Data(long.stdout.utf8)) as? [[String: Any]])?.first
        #expect(captionedClip?["duration"] as? Double == 5, "the container lasts as its captions: \(long.stdout)")
    }

    /// From an inspect QA pass: a clip whose video cannot decode (its `avcC` box renamed `free`:
    /// ffprobe says "Invalid data found when processing input"; or a sample entry FFmpeg does not
    /// know) was reported with exit 0 and no warning, the codec of the second as `none`, read as
    /// no video. Each is a warning now, so render skips it and ingest rejects it as thumbnail
    /// already refused it; the unknown one is `unknown`, as ffprobe names it, with its sample
    /// entry as the codecs string.
    @Test func videoThatDoesNotDecodeIsAWarning() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodClip)))
        func renamed(_ box: String, to name: String, as file: String) throws -> String {
            let table = try #require(Data(bytes).range(of: Data("stsd".utf8))?.lowerBound)
            let at = try #require(Data(bytes).range(of: Data(box.utf8), in: table..<bytes.count)?.lowerBound)
            var changed = bytes
            changed.replaceSubrange(at..<(at + 4), with: Array(name.utf8))
            return try folder.write(file, Data(changed))
        }
        let noConfiguration = try renamed("avcC", to: "free", as: "no-avcC.mp4")
        let unknown = try renamed("avc1", to: "zzzz", as: "unknown-entry.mp4")
        let result = try inspect([noConfiguration, unknown, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let clips = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(
            clips.first?["warnings"] as? [String] == [
                "the video (h264) does not decode (cannot decode: Invalid data found when processing input): players "
                    + "cannot show it"
            ], "\(clips)")
        let video = clips.last?["video"] as? [String: Any]
        #expect(video?["codec"] as? String == "unknown" && video?["codecs"] as? String == "zzzz", "\(clips)")
        // ffprobe's JSON leaves an optional field out; its plain output names it.
        let probed = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", unknown])
        #expect(probed.stdout == "unknown\n", "\(probed.stdout)")
        #expect(
            (clips.last?["warnings"] as? [String])?.first?.hasPrefix("the video (unknown) does not decode (") == true)
        let human = try inspect([unknown])
        #expect(human.stdout.contains("video         unknown, zzzz"), "\(human.stdout)")
        // A VP9 clip cut without re-encoding starts on a frame that does not decode alone, and
        // plays: no warning (a re-check found it warned, and render skipped it).
        let vp9 = folder.path("vp9.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=1", "-c:v", "libvpx-vp9", "-deadline", "realtime",
            "-cpu-used", "8", "-g", "8", vp9,
        ])
        let cut = folder.path("vp9-cut.mp4")
        try HostileFiles.ffmpeg(["-i", vp9, "-ss", "0.2", "-c", "copy", "-copyinkf", cut])
        let fine = try inspect([cut, "--json"])
        #expect(fine.status == 0 && fine.stdout.contains("\"warnings\": []"), "\(fine.stdout)")
    }

    /// From an inspect QA pass: an `mvhd` duration of a third of the tracks' passed in silence
    /// (`duration` 1 s, and so the manifest's, over 3 s that players play whole, as ffprobe's
    /// stream and MediaInfo say). A stream-copy cut, whose edit list trims the start, is fine.
    @Test func aContainerShorterThanItsTracksIsAWarning() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: goodClip)))
        let atom = try #require(Data(bytes).range(of: Data("mvhd".utf8))?.lowerBound)
        #expect(bytes[atom + 4] == 0, "a version 0 mvhd")
        // After 'mvhd': version and flags, creation and modification times, timescale, duration.
        let timescale = bytes[(atom + 16)..<(atom + 20)].reduce(0) { $0 << 8 | UInt32($1) }
        for (index, shift) in zip(atom + 20..<atom + 24, [24, 16, 8, 0]) {
            bytes[index] = UInt8(timescale >> shift & 0xFF)
        }
        let path = try folder.write("short-container.mp4", Data(bytes))
        let probed = try TestEnvironment.ffprobe(path)
        #expect((probed["format"] as? [String: Any])?["duration"] as? String == "1.000000", "\(probed)")
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let clip = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(
            clip["warnings"] as? [String] == [
                "the container says it lasts 1.000 s, its longest track 3.000 s: players play the tracks whole, while "
                    + "its duration says less; remux it (ffmpeg -i IN -c copy OUT.mp4)"
            ], "\(clip)")
        let source = folder.path("gop.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=6", "-c:v", "libx264", "-g", "150", "-bf", "3", source,
        ])
        let cut = folder.path("cut.mp4")
        try HostileFiles.ffmpeg(["-ss", "4.5", "-i", source, "-t", "1.2", "-c", "copy", cut])
        let fine = try inspect([cut, "--json"])
        #expect(fine.status == 0 && !fine.stdout.contains("the container says"), "\(fine.stdout)")
    }

    /// From a QA pass: an `mvhd` duration of 0 over 3 s of tracks was shown as 0 s in silence, and
    /// render skipped the clip as a bare "no duration"; a fragmented MP4 (whose header says 0 too)
    /// is fine.
    @Test func aContainerOfZeroSecondsOverLastingTracksIsAWarning() throws {
        let path = try goodClip(withHeaderDurationBytes: 0, as: "zero-container.mp4")
        let probed = try TestEnvironment.ffprobe(path)["format"] as? [String: Any]
        #expect(probed?["duration"] as? String == "0.000000", "ffprobe reads the header's 0 too")
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let clip = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        let warnings = clip["warnings"] as? [String] ?? []
        #expect(
            warnings == [
                "the container says it lasts 0.000 s, its longest track 3.000 s: players may take it for empty; "
                    + "remux it (ffmpeg -i IN -c copy OUT.mp4)"
            ], "\(clip)")
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/ann", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: stories + "/ann/1.mp4")
        try FileManager.default.copyItem(atPath: goodClip, toPath: stories + "/ann/2.mp4")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("out"), "--quiet"])
        #expect(render.status == 65)
        #expect(render.stderr.contains("ann/1.mp4: skipped: " + warnings.joined()), "\(render.stderr)")
        let fragmented = folder.path("fragmented.mp4")
        try HostileFiles.ffmpeg(["-i", goodClip, "-c", "copy", "-movflags", "frag_keyframe+empty_moov", fragmented])
        let fine = try inspect([fragmented, "--json"])
        #expect(fine.status == 0 && !fine.stdout.contains("the container says"), "\(fine.stdout)")
    }

    /// From a QA pass: a version 1 `mvhd` whose 64-bit duration overflows FFmpeg's (2^64 − 1
    /// ticks) was reported as lasting -0.001 s, in silence; one of 2^40 − 1 ticks gave a bit
    /// rate of 0 where ffprobe says N/A.
    @Test func aHeaderDurationBelowZeroIsUnknownAndSaidSo() throws {
        let path = try versionOneMVHD(duration: [UInt8](repeating: 0xFF, count: 8), named: "negative-duration.mp4")
        let probed = try TestEnvironment.ffprobe(path)["format"] as? [String: Any]
        #expect(
            (probed?["duration"] as? String).flatMap(Double.init).map { $0 < 0 } == true, "ffprobe: \(probed ?? [:])")
        let result = try inspect([path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let clip = try #require(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(clip["duration"] is NSNull && clip["bitRate"] is NSNull, "\(clip)")
        #expect(
            clip["warnings"] as? [String]
                == ["the container's header gives a duration below zero (-0.001 s): it is reported as unknown"],
            "\(clip)")
        let long = try versionOneMVHD(duration: [0, 0, 0] + [UInt8](repeating: 0xFF, count: 5), named: "eons.mp4")
        let eons = try inspect([long, "--json"])
        #expect(eons.stdout.contains("\"bitRate\": null,"), "\(eons.stdout)")
        #expect(try TestEnvironment.ffprobe(long)["format"].map { ($0 as? [String: Any])?["bit_rate"] == nil } == true)
    }

    /// A 2 s clip whose `mvhd` is rewritten as version 1 with `duration` (8 bytes, big-endian).
    private func versionOneMVHD(duration: [UInt8], named name: String) throws -> String {
        let made = folder.path("moov-last-\(name)")
        try HostileFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x48:r=30:d=2", "-c:v", "libx264", made])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
        let moov = try #require(Data(bytes).range(of: Data("moov".utf8))?.lowerBound) - 4
        let mdat = try #require(Data(bytes).range(of: Data("mdat".utf8))?.lowerBound) - 4
        #expect(mdat < moov, "the index is written last, so a longer mvhd moves no sample")
        let atom = try #require(Data(bytes).range(of: Data("mvhd".utf8))?.lowerBound) - 4
        #expect(bytes[atom + 8] == 0 && bytes[atom + 3] == 108, "a version 0 mvhd of 108 bytes")
        // Version 1: 64-bit creation and modification times and duration, the rest as it was.
        let timescale = Array(bytes[(atom + 20)..<(atom + 24)])
        let rest = Array(bytes[(atom + 28)..<(atom + 108)])
        let mvhd: [UInt8] =
            [0, 0, 0, 120] + Array("mvhd".utf8) + [1, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + timescale
            + duration + rest
        bytes.replaceSubrange(atom..<(atom + 108), with: mvhd)
        let moovSize = UInt32(HostileFiles.bigEndian(bytes[moov..<(moov + 4)]) + 12)
        bytes.replaceSubrange(moov..<(moov + 4), with: withUnsafeBytes(of: moovSize.bigEndian, Array.init))
        return try folder.write(name, Data(bytes))
    }

    @Test func badFlagsAreUsageErrors() throws {
        let unknown = try inspect(["--jsn", goodClip])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option '--jsn'; did you mean '--json'?"))
        #expect(try inspect([]).status == 64)
        #expect(try inspect(["--timeout", "soon", goodClip]).status == 64)
        #expect(try inspect(["--timeout", "-1", goodClip]).status == 64)
        let help = try inspect(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: storyreel inspect"))
        #expect(help.stdout.contains("EXAMPLES:"))
    }

    @Test func versionAndUnknownCommand() throws {
        let version = try TestEnvironment.storyreel(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("storyreel "))
        let unknown = try TestEnvironment.storyreel(["inspcet"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("did you mean 'inspect'?"))
    }
}
