import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// The audio a clip is reported with is the audio players play, and audio players cannot play is
/// named. From the audio QA pass, each checked in Chromium: AAC with its layout in a PCE was
/// reported as no audio; a disabled track (silent in players) as audio; of two enabled tracks the
/// one with the higher bit rate, where players play the first; a clip whose audio does not decode,
/// which Chromium refuses whole, went into the bundle without a word, as did AC-3, which it plays
/// silent.
@Suite struct AudioTracksTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// A 1 s, 180x320 test card with `audio` (ffmpeg input and output options for the audio).
    func clip(_ name: String, audio: [String]) throws -> String {
        let path = folder.path(name)
        try HostileFiles.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=1"] + audio + [
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
            ])
        return path
    }

    /// `inspect --json`'s `audio` for `path`.
    func inspectedAudio(_ path: String) throws -> [String: Any]? {
        let result = try TestEnvironment.storyreel(["inspect", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let clips = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return try #require(clips?.first)["audio"] as? [String: Any]
    }

    /// ffprobe's audio streams of `path`: channels and default disposition.
    func ffprobeAudio(_ path: String) throws -> [(channels: Int, isDefault: Bool)] {
        let probe = try TestEnvironment.ffprobe(path)
        let streams = try #require(probe["streams"] as? [[String: Any]])
        return streams.filter { $0["codec_type"] as? String == "audio" }.map {
            (
                $0["channels"] as? Int ?? 0,
                (($0["disposition"] as? [String: Any])?["default"] as? Int) == 1
            )
        }
    }

    /// Renders a story of `clips` (copied in, in order) at 180x320.
    func render(_ clips: [String]) throws -> (ProcessResult, Manifest?) {
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories + "/cam", withIntermediateDirectories: true)
        for (index, clip) in clips.enumerated() {
            try FileManager.default.copyItem(
                atPath: clip, toPath: "\(stories)/cam/\(index + 1)-\((clip as NSString).lastPathComponent)")
        }
        let reel = folder.path("reel")
        let result = try TestEnvironment.storyreel(["render", stories, "-o", reel, "--size", "180x320"])
        let manifest = try? Manifest(jsonData: Data(contentsOf: URL(fileURLWithPath: reel + "/manifest.json")))
        return (result, manifest)
    }

    @Test func aacWithItsLayoutInAPCEHasItsChannels() throws {
        let quad = try clip(
            "quad.mp4", audio: ["-f", "lavfi", "-i", "sine=d=1", "-af", "aformat=channel_layouts=quad", "-c:a", "aac"])
        #expect(try ffprobeAudio(quad).map(\.channels) == [4])
        let audio = try #require(try inspectedAudio(quad), "reported as no audio")
        #expect(audio["channels"] as? Int == 4)
        #expect(audio["sampleRate"] as? Int == 44100)
        let (result, manifest) = try render([quad])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(manifest?.stories.first?.items.first?.hasAudio == true)
    }

    /// From a QA pass: a clip cut with `ffmpeg -ss 1.5 -c copy` (an edit list starting its audio
    /// later, the packets before marked discarded) lost its layout, `mono` in ffprobe: the 8
    /// packets decoded gave no frame.
    @Test func aCutClipsAudioLayoutIsReadPastItsDiscardedPackets() throws {
        let whole = folder.path("whole.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=3", "-f", "lavfi", "-i", "sine=d=3", "-c:v", "libx264",
            "-preset", "ultrafast", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", whole,
        ])
        let cut = folder.path("cut.mp4")
        try HostileFiles.ffmpeg(["-ss", "1.5", "-i", whole, "-c", "copy", cut])
        let probed = try TestEnvironment.ffprobe(cut)["streams"] as? [[String: Any]]
        let layout = probed?.first { $0["codec_type"] as? String == "audio" }?["channel_layout"] as? String
        #expect(layout == "mono")
        let audio = try #require(try inspectedAudio(cut))
        #expect(audio["channelLayout"] as? String == layout, "\(audio)")
    }

    @Test func aDisabledTrackIsNoAudioAndOfTwoEnabledOnesTheFirstIsReported() throws {
        let both = try clip(
            "two.mp4",
            audio: [
                "-f", "lavfi", "-i", "sine=d=1:sample_rate=48000", "-f", "lavfi", "-i", "sine=d=1:sample_rate=44100",
                "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:a:0", "aac", "-ac:a:0", "1", "-b:a:0", "64k",
                "-c:a:1", "ac3", "-ac:a:1", "2", "-b:a:1", "384k", "-disposition:a:0", "default",
                "-disposition:a:1", "default",
            ])
        #expect(try ffprobeAudio(both).map(\.isDefault) == [true, true])
        let first = try #require(try inspectedAudio(both))
        #expect(first["codec"] as? String == "aac" && first["channels"] as? Int == 1, "\(first)")
        // The other track is counted, and the block says so (an inspect QA pass: a second track
        // was nowhere in it), with the layout and the language.
        #expect(first["trackCount"] as? Int == 2 && first["channelLayout"] as? String == "mono", "\(first)")
        let tagged = folder.path("tagged.mp4")
        try HostileFiles.ffmpeg([
            "-i", both, "-map", "0", "-c", "copy", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
            tagged,
        ])
        let block = try TestEnvironment.storyreel(["inspect", tagged])
        #expect(
            block.stdout.contains(
                "  audio         aac, mp4a.40.2, 48000 Hz, 1 channel (mono), eng; the first enabled of 2 audio tracks\n"
            ),
            "\(block.stdout)")
        // The audio track's header with its flags cleared: not enabled (ffprobe: not default).
        var bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: try clip("plain.mp4", audio: ["-f", "lavfi", "-i", "sine=d=1"]))))
        let tkhd = Array("tkhd".utf8)
        let headers = (0..<(bytes.count - 4)).filter { Array(bytes[$0..<$0 + 4]) == tkhd }
        try #require(headers.count == 2)
        bytes.replaceSubrange(headers[1] + 5..<headers[1] + 8, with: [0, 0, 0])
        let disabled = try folder.write("disabled.mp4", Data(bytes))
        #expect(try ffprobeAudio(disabled).map(\.isDefault) == [false])
        #expect(try inspectedAudio(disabled) == nil)
        let (result, manifest) = try render([disabled])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(manifest?.stories.first?.items.first?.hasAudio == false)
    }

    @Test func audioThatDoesNotDecodeIsRejectedAndAudioFewBrowsersPlayIsNamed() throws {
        let good = try clip("good.mp4", audio: ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac"])
        // Every audio sample overwritten with bytes that do not decode (a fixed pattern).
        let packets = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "a", "-show_entries", "packet=pos,size", "-of", "csv=p=0", good])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        for line in packets.stdout.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Int($0) }
            guard fields.count == 2 else { continue }
            for offset in fields[1]..<fields[1] + fields[0] { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 131) }
        }
        let damaged = try folder.write("damaged.mp4", Data(bytes))
        let decoding = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-i", damaged, "-map", "0:a", "-f", "null", "-"])
        #expect(decoding.stderr.contains("Error while decoding"), "ffmpeg decodes it: \(decoding.stderr)")
        let stories = folder.path("uploads")
        let ingest = try TestEnvironment.storyreel(["ingest", damaged, "--story", "cam", "--into", stories, "--create"])
        #expect(ingest.status == 65)
        #expect(ingest.stderr.contains("rejected: the audio (aac) does not decode ("), "\(ingest.stderr)")
        #expect(ingest.stderr.contains("players stop at it"))

        let ac3 = try clip("ac3.mp4", audio: ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "ac3"])
        // `ingest --json` gives an ingested clip's warning too (a scripting QA pass: stderr only).
        let ingestAC3 = try TestEnvironment.storyreel([
            "ingest", ac3, "--story", "other", "--into", folder.path("json-uploads"), "--create", "--json",
        ])
        #expect(ingestAC3.status == 0, "\(ingestAC3.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(ingestAC3.stdout.utf8)) as? [String: Any])
        let entry = try #require((object["clips"] as? [[String: Any]])?.first)
        let warned = ingestAC3.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: warning: ") }
            .map { String($0.dropFirst("storyreel: warning: ".count)) }
        #expect(warned.count == 1 && entry["warnings"] as? [String] == warned, "\(entry) \(ingestAC3.stderr)")
        let (result, manifest) = try render([good, damaged, ac3])
        #expect(result.status == 65, "the damaged clip is skipped: \(result.stderr)")
        #expect(manifest?.stories.first?.items.count == 2, "the good clip and the AC-3 one play")
        #expect(manifest?.skipped.map(\.path) == ["cam/2-damaged.mp4"], "\(manifest?.skipped ?? [])")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: warning: ") }
        #expect(
            warnings == [
                "storyreel: warning: cam/3-ac3.mp4: its audio, AC-3 (ac3), does not play in Chrome or Firefox "
                    + "(they play AAC, MP3, Opus and FLAC): re-encode it (ffmpeg -i IN -c:v copy -c:a aac OUT)"
            ], "\(warnings)")
    }

    /// The audio's RFC 6381 codecs string, which the player page asks `canPlayType` about (a
    /// clip of AC-3 sound played silent in Chromium under a "Mute" button): `inspect` gives it,
    /// each item carries it as `audioCodecs`, and `validate` holds it to the clip. PCM and MP2
    /// (in a MOV) have none, as browsers do not answer for their strings alike.
    @Test func theAudiosCodecsStringIsReportedCarriedAndValidated() throws {
        let cases: [(name: String, audio: [String], codecs: String?)] = [
            ("aac.mp4", ["-c:a", "aac"], "mp4a.40.2"),
            ("ac3.mp4", ["-c:a", "ac3"], "ac-3"),
            ("eac3.mp4", ["-c:a", "eac3"], "ec-3"),
            ("opus.mp4", ["-c:a", "libopus"], "opus"),
            ("flac.mp4", ["-c:a", "flac", "-strict", "-2"], "flac"),
            ("mp3.mp4", ["-c:a", "libmp3lame"], "mp4a.6B"),
            ("mp3-22k.mp4", ["-c:a", "libmp3lame", "-ar", "22050"], "mp4a.69"),
            ("alac.mov", ["-c:a", "alac"], "alac"),
            ("pcm.mov", ["-c:a", "pcm_s16le"], nil),
            // In MP4, MP2 and MP3 share one object type, which FFmpeg reads as MP3 (as ffprobe does).
            ("mp2.mov", ["-c:a", "mp2"], nil),
        ]
        var clips: [String] = []
        for (name, audio, codecs) in cases {
            let path = try clip(name, audio: ["-f", "lavfi", "-i", "sine=d=1"] + audio)
            clips.append(path)
            let reported = try #require(try inspectedAudio(path), "\(name): no audio")
            #expect(reported["codecs"] as? String == codecs, "\(name): \(reported)")
        }
        // ffprobe's profile for the AAC clip is the object type the string gives (LC, 2).
        let probe = try TestEnvironment.ffprobe(clips[0])
        let aac = (probe["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "audio" }
        #expect(aac?["profile"] as? String == "LC", "\(aac ?? [:])")
        let plain = try TestEnvironment.storyreel(["inspect", clips[1]])
        #expect(plain.stdout.contains("  audio         ac3, ac-3, 44100 Hz, 1 channel (mono)\n"), "\(plain.stdout)")

        let (result, manifest) = try render(clips)
        #expect(result.status == 0, "\(result.stderr)")
        let items = manifest?.stories.first?.items ?? []
        #expect(items.map(\.audioCodecs) == cases.map(\.codecs), "\(items.map(\.audioCodecs))")
        let reel = folder.path("reel")
        let valid = try TestEnvironment.storyreel(["validate", reel])
        #expect(valid.status == 0, "\(valid.stderr)")
        // A tampered string (the page would offer AC-3's sound as Opus) and one given for PCM.
        let manifestPath = reel + "/manifest.json"
        var text = try String(contentsOfFile: manifestPath, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"audioCodecs\": \"ac-3\"", with: "\"audioCodecs\": \"opus\"")
        text = text.replacingOccurrences(
            of: "\"hasAudio\": true,\n          \"poster\": \"posters/",
            with: "\"hasAudio\": true,\n          \"audioCodecs\": \"ipcm\",\n          \"poster\": \"posters/")
        try text.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let tampered = try TestEnvironment.storyreel(["validate", reel])
        #expect(tampered.status == 65, "\(tampered.stderr)")
        #expect(
            tampered.stderr.contains(
                "stories[0].items[1].audioCodecs: is 'opus', but clips/"), "\(tampered.stderr)")
        #expect(tampered.stderr.contains("has codecs ac-3"), "\(tampered.stderr)")
        #expect(
            tampered.stderr.contains("stories[0].items[8].audioCodecs: is 'ipcm', but clips/")
                && tampered.stderr.contains("has pcm_s16le audio"), "\(tampered.stderr)")
    }

    /// From a QA pass of unusual clips: FFmpeg's own AAC encoder, asked for HE-AAC, writes a
    /// header naming object types its decoder does not implement. The decoder will not open, so
    /// the audio does not decode at all (ffprobe and the ffmpeg CLI cannot open it), and the
    /// clip went into bundles as good audio: inspect gave no warning, render and ingest took it.
    @Test func audioWhoseDecoderWillNotOpenIsAudioThatDoesNotDecode() throws {
        let heAAC = try clip(
            "he-aac.mp4", audio: ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "-profile:a", "aac_he"])
        let probe = try TestEnvironment.run("ffprobe", ["-show_streams", heAAC])
        #expect(probe.status != 0 && probe.stderr.contains("Could not open codec"), "ffprobe opens it: \(probe.stderr)")
        let decoding = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-i", heAAC, "-map", "0:a", "-f", "null", "-"])
        #expect(decoding.status != 0, "the ffmpeg CLI decodes it: \(decoding.stderr)")

        let inspect = try TestEnvironment.storyreel(["inspect", "--json", heAAC])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let clips = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [[String: Any]]
        let warnings = try #require(clips?.first)["warnings"] as? [String] ?? []
        #expect(
            warnings.count == 1
                && warnings[0].hasPrefix("the audio (aac) does not decode (cannot open the aac decoder: ")
                && warnings[0].hasSuffix(
                    "): players stop at it; re-encode it (ffmpeg -i IN -c:v copy -c:a aac OUT) or leave it out (-an)"),
            "\(warnings)")

        let ingest = try TestEnvironment.storyreel([
            "ingest", heAAC, "--story", "cam", "--into", folder.path("uploads"), "--create",
        ])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("rejected: the audio (aac) does not decode (cannot open the aac decoder: "))
        let good = try clip("good.mp4", audio: ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac"])
        let (result, manifest) = try render([good, heAAC])
        #expect(result.status == 65, "the HE-AAC clip is skipped: \(result.stderr)")
        #expect(manifest?.stories.first?.items.count == 1, "the good clip plays")
        #expect(manifest?.skipped.map(\.path) == ["cam/2-he-aac.mp4"], "\(manifest?.skipped ?? [])")
    }
}
