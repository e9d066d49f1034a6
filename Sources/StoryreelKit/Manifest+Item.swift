extension Manifest {
    /// One clip of a story, with the stills a player shows around it.
    public struct Item: Codable, Sendable, Hashable, Identifiable {
        /// The first 16 hex digits of the clip's SHA-256; the same content playing again gets
        /// `-2`, `-3` … in play order, so ids are unique in a manifest.
        public var id: String
        /// The clip, relative to the manifest.
        public var src: String
        /// SHA-256 of the clip's bytes, 64 lowercase hex digits.
        public var sha256: String
        /// Seconds.
        public var duration: Double
        /// Display width, after rotation.
        public var width: Int
        /// Display height, after rotation.
        public var height: Int
        /// Clockwise degrees (0, 90, 180 or 270) the stored picture is turned to stand upright.
        public var rotation: Int
        /// Average frames per second; 0 when unknown.
        public var frameRate: Double
        /// FFmpeg's name of the video codec (`h264`, `hevc` …).
        public var codec: String
        /// The RFC 6381 codecs string of the video stream (`avc1.64001f`, `hvc1.2.4.L120.B0`),
        /// for a player's `canPlayType`; nil in manifests written before it was added.
        public var codecs: String?
        /// The transfer function: `none`, `hlg`, `pq` or `dolbyVision`.
        public var hdr: String
        /// True when the clip has an audio stream.
        public var hasAudio: Bool
        /// The RFC 6381 codecs string of the audio players play (`mp4a.40.2`, `ac-3`, `opus`), for
        /// a player's `canPlayType`: a browser that cannot play it plays the clip silent. Nil
        /// without audio, for audio whose string browsers do not answer alike (PCM, MP2), and in
        /// manifests written before it was added.
        public var audioCodecs: String?
        /// A representative frame, relative to the manifest.
        public var poster: String
        /// A small version of the poster, relative to the manifest.
        public var thumbnail: String
        /// The first displayed frame, upright and filling the canvas: what a player shows under
        /// the video until it presents a frame; nil when the bundle has none.
        public var firstFrame: String?
        /// The last displayed frame, fitted like ``firstFrame``; nil when the bundle has none.
        public var lastFrame: String?

        /// An item of the given parts; the optional ones default to nil (a QA pass: previews and
        /// tests spelt out all 16), in the same order, so calls that give them still compile.
        public init(
            id: String, src: String, sha256: String, duration: Double, width: Int, height: Int, rotation: Int,
            frameRate: Double, codec: String, codecs: String? = nil, hdr: String, hasAudio: Bool,
            audioCodecs: String? = nil, poster: String, thumbnail: String, firstFrame: String? = nil,
            lastFrame: String? = nil
        ) {
            self.id = id
            self.src = src
            self.sha256 = sha256
            self.duration = duration
            self.width = width
            self.height = height
            self.rotation = rotation
            self.frameRate = frameRate
            self.codec = codec
            self.codecs = codecs
            self.hdr = hdr
            self.hasAudio = hasAudio
            self.audioCodecs = audioCodecs
            self.poster = poster
            self.thumbnail = thumbnail
            self.firstFrame = firstFrame
            self.lastFrame = lastFrame
        }

        /// Decodes the value; an integer is read as a number and checked, so a fraction, an
        /// out-of-range number or a `null` is reported at its path as not an integer.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            src = try container.decode(String.self, forKey: .src)
            sha256 = try container.decode(String.self, forKey: .sha256)
            duration = try container.decode(Double.self, forKey: .duration)
            width = try container.decodeInteger(forKey: .width)
            height = try container.decodeInteger(forKey: .height)
            rotation = try container.decodeInteger(forKey: .rotation)
            frameRate = try container.decode(Double.self, forKey: .frameRate)
            codec = try container.decode(String.self, forKey: .codec)
            codecs = try container.decodeOmittable(String.self, forKey: .codecs)
            hdr = try container.decode(String.self, forKey: .hdr)
            hasAudio = try container.decode(Bool.self, forKey: .hasAudio)
            audioCodecs = try container.decodeOmittable(String.self, forKey: .audioCodecs)
            poster = try container.decode(String.self, forKey: .poster)
            thumbnail = try container.decode(String.self, forKey: .thumbnail)
            firstFrame = try container.decodeOmittable(String.self, forKey: .firstFrame)
            lastFrame = try container.decodeOmittable(String.self, forKey: .lastFrame)
        }
    }
}
