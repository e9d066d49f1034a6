/// What `storyreel inspect` reports about a clip: container, video, audio and tags, read from
/// the container header and index without decoding the whole clip.
public struct ClipInfo: Sendable, Equatable {
    /// The video stream's details.
    public struct Video: Sendable, Equatable {
        /// FFmpeg's codec name, e.g. `h264` or `hevc`.
        public var codec: String
        /// The RFC 6381 codecs string, e.g. `avc1.64001f` or `hvc1.2.4.L120.90`.
        public var codecs: String
        /// The codec profile, e.g. `High` or `Main 10`.
        public var profile: String?
        /// The container's codec tag, e.g. `avc1` or `hvc1`.
        public var codecTag: String
        /// Coded width in pixels.
        public var width: Int
        /// Coded height in pixels.
        public var height: Int
        /// Clockwise degrees to turn the picture upright (0, 90, 180, 270).
        public var rotation: Int
        /// True when the display matrix also mirrors the picture.
        public var mirrored: Bool
        /// Width as displayed, after rotation and sample aspect ratio.
        public var displayWidth: Int
        /// Height as displayed, after rotation.
        public var displayHeight: Int
        /// FFmpeg's average frame rate (ffprobe's `avg_frame_rate`).
        public var frameRate: Double?
        /// True when the frame durations in the index are not all equal.
        public var variableFrameRate: Bool
        /// Frames a viewer sees: index entries not flagged as discarded by an edit list.
        public var frameCount: Int
        /// The pixel format, e.g. `yuv420p10le`.
        public var pixelFormat: String?
        /// Bits per colour component.
        public var bitDepth: Int?
        /// FFmpeg's name of the colour transfer, or nil when unspecified.
        public var colorTransfer: String?
        /// FFmpeg's name of the colour primaries, or nil when unspecified.
        public var colorPrimaries: String?
        /// FFmpeg's name of the matrix coefficients (ffprobe's `color_space`), or nil when
        /// unspecified.
        public var colorSpace: String?
        /// `tv` (limited) or `pc` (full range), or nil when unspecified.
        public var colorRange: String?
        /// `hlg`, `pq`, `dolbyVision` or `none`.
        public var hdr: String
        /// Dolby Vision profile and compatibility, e.g. 8.4, or nil.
        public var dolbyVisionProfile: Double?
        /// HDR10's mastering display and content light levels, from the container or the
        /// bitstream's SEI, or nil when the clip gives none.
        public var lightMetadata: HDRLightMetadata?
        /// Seconds of the video stream, or nil when unknown.
        public var duration: Double?
        /// The video stream's average bit rate in bits per second, as the container gives it, or nil
        /// when it says nothing. Unlike ``ClipInfo/bitRate`` it leaves out audio and the container.
        public var bitRate: Int?
    }

    /// The audio stream's details.
    public struct Audio: Sendable, Equatable {
        /// FFmpeg's codec name, e.g. `aac`.
        public var codec: String
        /// The RFC 6381 codecs string (`mp4a.40.2`, `ac-3`, `opus`), for a player's
        /// `canPlayType`; nil for a codec whose string browsers do not answer alike (PCM, MP2).
        public var codecs: String?
        /// Samples per second.
        public var sampleRate: Int
        /// Number of channels.
        public var channels: Int
        /// The channel layout's name (`stereo`, `5.1(side)`), or nil when the track names none.
        public var channelLayout: String?
        /// The track's language (`eng`), or nil when it says none.
        public var language: String?
        /// The audio tracks in the file, this one included, enabled or not.
        public var trackCount: Int
    }

    /// The path as given.
    public var path: String
    /// `mov` when the major brand is `qt  `, otherwise `mp4`.
    public var container: String
    /// The container's major brand, e.g. `qt  ` or `isom`.
    public var majorBrand: String?
    /// Seconds, the container's duration after edit lists (ffprobe's `format.duration`).
    public var duration: Double?
    /// File size in bytes.
    public var size: UInt64
    /// Overall bit rate in bits per second.
    public var bitRate: Int?
    /// The container's `creation_time`, ISO 8601.
    public var creationTime: String?
    /// The video stream, or nil when there is none.
    public var video: Video?
    /// The audio stream, or nil when there is none.
    public var audio: Audio?
    /// The container's metadata tags.
    public var tags: [String: String]
    /// Things a person should know, e.g. a truncated upload.
    public var warnings: [String]
}
