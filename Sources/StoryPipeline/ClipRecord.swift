import StoryMedia

/// What the bundle needs to know of one clip: its content hash and the metadata the manifest
/// lists. Cached by path, size, mtime and inode, so an unchanged clip is neither re-hashed nor
/// re-probed.
public struct ClipRecord: Sendable, Equatable, Codable {
    /// SHA-256 of the file's contents, hex.
    public var sha256: String
    /// Seconds (the container's duration after edit lists).
    public var duration: Double
    /// Display width, after rotation.
    public var width: Int
    /// Display height, after rotation.
    public var height: Int
    /// Clockwise degrees to turn upright.
    public var rotation: Int
    /// Average frame rate.
    public var frameRate: Double
    /// FFmpeg's codec name.
    public var codec: String
    /// The RFC 6381 codecs string, for a player's `canPlayType`.
    public var codecs: String
    /// `hlg`, `pq`, `dolbyVision` or `none`.
    public var hdr: String
    /// True when the clip has an audio stream.
    public var hasAudio: Bool
    /// The average bit rate in bits per second for the transitions' peak rule
    /// (``TransitionBitrate/clipBitRate(_:)``: the video stream's), 0 when unknown.
    public var bitRate: Int
    /// Dolby Vision's profile and base-layer compatibility (`8.4`), nil without Dolby Vision
    /// (and in records cached before it was kept).
    public var dolbyVisionProfile: Double?
    /// FFmpeg's codec name of the audio players play (``ClipInfo/audio``), nil without audio
    /// (and in records cached before it was kept).
    public var audioCodec: String?
    /// The RFC 6381 codecs string of that audio (``ClipInfo/Audio/codecs``), for a player's
    /// `canPlayType`: nil without audio, for a codec whose string browsers do not answer alike,
    /// and in records cached before it was kept.
    public var audioCodecs: String?

    /// The first 16 hex digits of the hash: the item's id.
    public var id: String { String(sha256.prefix(16)) }

    /// True when every value is one a probe of a playable clip gives and the manifest's schema
    /// takes: a record read back from a file (the stat cache) is used only then. A QA pass edited
    /// the cache: a width of 0 or a rotation of 45 went into a manifest `validate` refused, after
    /// a render that exited 0, and a duration of 1e308 summed to infinity, which no JSON number
    /// writes (70 on every run until the cache was deleted).
    public var isWellFormed: Bool {
        let sides = 1...PixelBudget.maximumSide
        // FFmpeg's names and the codecs strings storyreel builds are printable ASCII (a re-check:
        // a right-to-left override in a cached codecs string reached the manifest and the warnings).
        let isText = { (text: String) in
            !text.isEmpty && text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        }
        return ManifestSchemaChecker.isSHA256(sha256) && duration > 0 && duration <= Self.longestDuration
            && sides.contains(width) && sides.contains(height)
            && [0, 90, 180, 270].contains(rotation) && frameRate >= 0 && frameRate <= Double(Int32.max)
            && isText(codec) && isText(codecs) && ["none", "hlg", "pq", "dolbyVision"].contains(hdr) && bitRate >= 0
            && dolbyVisionProfile.map { $0 >= 0 && $0 < 1000 } ?? true && audioCodec.map(isText) ?? true
            && audioCodecs.map(isText) ?? true
    }

    /// The longest duration FFmpeg gives, in seconds: its durations are 64-bit counts of
    /// microseconds (`AV_TIME_BASE`).
    static let longestDuration = Double(Int64.max) / 1_000_000

    /// Makes a record from a probe, or throws when the clip cannot be played as a story item:
    /// the probe warned (a truncated upload), it has no video, or no duration. `render` skips
    /// such a clip and `ingest` rejects it, for the same reason.
    public init(sha256: String, info: ClipInfo, path: String) throws {
        let (video, duration) = try ClipRecord.playable(info, path: path)
        self.sha256 = sha256
        self.duration = duration
        width = video.displayWidth
        height = video.displayHeight
        rotation = video.rotation
        frameRate = video.frameRate ?? 0
        codec = video.codec
        codecs = video.codecs
        hdr = video.hdr
        hasAudio = info.audio != nil
        bitRate = TransitionBitrate.clipBitRate(info) ?? 0
        dolbyVisionProfile = video.dolbyVisionProfile
        audioCodec = info.audio?.codec
        audioCodecs = info.audio?.codecs
    }

    /// Why few players could play the clip, or nil: its codec or profile is outside what phones
    /// and browsers decode (8-bit H.264 up to High, HEVC, VP9, AV1), as a ProRes or Motion JPEG
    /// upload from a camera is. `render` and `ingest` warn; the clip is still used, and the
    /// player page shows its stills in its place where it cannot play it.
    /// A Dolby Vision stream without a base layer other players can show (profile 5, whose base
    /// layer is IPTPQc2) is one too, and its pictures come out in the wrong colours; and so is
    /// audio Chrome and Firefox do not play (``audioFewBrowsersPlay``), whose clip plays silent.
    public var playbackConcern: String? {
        Self.playbackConcern(
            codec: codec, codecs: codecs, dolbyVisionProfile: dolbyVisionProfile, audioCodec: audioCodec)
    }

    /// Audio that browsers other than Safari do not play in MP4, by FFmpeg codec name, with the
    /// name a person knows it by: Chromium played AC-3, E-AC-3 and ALAC clips silent (their
    /// sound button unmuted nothing) and stopped at MP2 (a QA pass). AAC, MP3, Opus, FLAC and PCM
    /// play; a codec this FFmpeg build does not know is not named.
    static let audioFewBrowsersPlay = [
        "ac3": "AC-3", "eac3": "E-AC-3", "alac": "ALAC", "mp1": "MP1", "mp2": "MP2", "dts": "DTS",
        "truehd": "TrueHD", "amr_nb": "AMR-NB", "amr_wb": "AMR-WB",
    ]

    /// Why the audio `audioCodec` would not play in most browsers, or nil.
    static func audioConcern(_ audioCodec: String?) -> String? {
        guard let audioCodec, let name = audioFewBrowsersPlay[audioCodec] else { return nil }
        return "its audio, \(name) (\(audioCodec)), does not play in Chrome or Firefox (they play AAC, MP3, Opus "
            + "and FLAC): re-encode it (ffmpeg -i IN -c:v copy -c:a aac OUT)"
    }

    /// ``playbackConcern`` for a video stream of FFmpeg codec `codec`, RFC 6381 `codecs` and
    /// Dolby Vision profile `dolbyVisionProfile` (``ClipInfo/Video/dolbyVisionProfile``), with
    /// audio of codec `audioCodec` (the video's concern first).
    static func playbackConcern(
        codec: String, codecs: String, dolbyVisionProfile: Double? = nil, audioCodec: String? = nil
    ) -> String? {
        videoConcern(codec: codec, codecs: codecs, dolbyVisionProfile: dolbyVisionProfile)
            ?? audioConcern(audioCodec)
    }

    /// ``playbackConcern`` for the video alone.
    private static func videoConcern(codec: String, codecs: String, dolbyVisionProfile: Double?) -> String? {
        // A profile with no compatibility id after its point (5, not 8.4) has no base layer an
        // HDR10, HLG or SDR player shows (a QA pass: profile 5 was used without a word).
        if let profile = dolbyVisionProfile, profile.rounded(.down) == profile, profile < 1000 {
            return
                "Dolby Vision profile \(Int(profile)) (\(codecs)) has no base layer other players can show: it plays "
                + "in Dolby Vision players only (Apple's), and its poster, stills and transition faces come out in the "
                + "wrong colours; transcode it to HDR10, HLG or SDR for playback"
        }
        let fields = codecs.split(separator: ".").map(String.init)
        // A Dolby Vision sample entry (`dvh1.08.06`): players that do not play Dolby Vision do
        // not read the track at all; under hvc1 or avc1 (the iPhone's way) they play its base layer.
        if let entry = fields.first, CodecsString.dolbyVisionSampleEntries.contains(entry) {
            let tag = entry.hasPrefix("dvh") ? "hvc1" : "avc1"
            return "Dolby Vision under its own sample entry (\(codecs)) plays in Dolby Vision players only (Apple's): "
                + "remux it (ffmpeg -i IN -c copy -tag:v \(tag) OUT), and other players show its base layer"
        }
        let profile = fields.count > 1 ? fields[1] : ""
        let name: String
        switch codec {
        case "hevc":
            // Apple's players (AVFoundation, Safari) play HEVC in MP4 only under the hvc1 tag,
            // which ffmpeg does not write unless asked (its default is hev1).
            if fields.first == "hev1" {
                return "HEVC tagged hev1 (\(codecs)) does not play in Apple's players (AVFoundation, Safari), which "
                    + "need hvc1: remux it (ffmpeg -i IN -c copy -tag:v hvc1 OUT); the player page shows its stills "
                    + "where it cannot play it"
            }
            // hvc1.P…: 1 Main, 2 Main 10 play widely; 4 (range extensions: 4:2:2, 4:4:4) does not.
            guard !["1", "2"].contains(profile), !profile.isEmpty else { return nil }
            name = "HEVC " + (profile == "4" ? "range extensions" : "profile \(profile)")
        case "vp9":
            // vp09.PP…: profiles 0 and 2 are 4:2:0; 1 and 3 (4:2:2, 4:4:4) play in few players.
            guard ["01", "03"].contains(profile) else { return nil }
            name = "VP9 profile \(profile.suffix(1))"
        case "av1":
            // av01.P…: 0 Main plays widely; 1 High (4:4:4) and 2 Professional do not.
            guard ["1", "2"].contains(profile) else { return nil }
            name = "AV1 " + (profile == "1" ? "High" : "Professional")
        case "h264":
            // avc1.PPCCLL: profile_idc 66, 77, 88 and 100 (Baseline … High) play everywhere.
            guard let idc = Int(profile.prefix(2), radix: 16), idc > 100 else { return nil }
            name = "H.264 " + ([110: "High 10", 122: "High 4:2:2", 244: "High 4:4:4"][idc] ?? "profile \(idc)")
        default:
            name = ["prores": "ProRes", "mjpeg": "Motion JPEG", "mpeg4": "MPEG-4 Part 2"][codec] ?? codec
        }
        return "\(name) (\(codecs)) plays in few players (phones and browsers play 8-bit H.264, HEVC, VP9 and "
            + "AV1 in 4:2:0): transcode it for playback; the player page shows its stills where it cannot play it"
    }

    /// The video stream and duration of a clip that can be played as a story item, or throws
    /// when it cannot: the probe warned (a truncated upload), it has no video, or no duration.
    static func playable(_ info: ClipInfo, path: String) throws -> (video: ClipInfo.Video, duration: Double) {
        if let warning = info.warnings.first { throw MediaError(.invalidMedia, path: path, warning) }
        guard let video = info.video else {
            // Audio alone (a voice memo, a song with its cover picture) says so: "no video
            // stream" sent support to ffprobe (a QA pass).
            throw MediaError(.noVideoStream, path: path, "no video stream" + (info.audio != nil ? " (audio only)" : ""))
        }
        guard let duration = info.duration, duration > 0 else {
            throw MediaError(.invalidMedia, path: path, "no duration")
        }
        return (video, duration)
    }
}
