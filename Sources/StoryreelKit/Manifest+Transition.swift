extension Manifest {
    /// A cube transition clip joining two adjacent stories.
    public struct Transition: Codable, Sendable, Hashable, Identifiable {
        /// What tells a transition from the others of a manifest: the stories it joins and its
        /// direction (a valid manifest lists each join once).
        public struct ID: Hashable, Sendable {
            /// The story it leaves.
            public var from: String
            /// The story it arrives at.
            public var to: String
            /// Which way the cube turns.
            public var direction: Direction

            /// The id of the transition from `from` to `to`, turning `direction`.
            public init(from: String, to: String, direction: Direction) {
                self.from = from
                self.to = to
                self.direction = direction
            }
        }

        /// The stories it joins and its direction, for SwiftUI's `ForEach(manifest.transitions)`
        /// (a Kit consumer review: `Story` and `Item` were `Identifiable`, the transitions not).
        public var id: ID { ID(from: from, to: to, direction: direction) }

        /// Which way the cube turns.
        public enum Direction: String, Codable, Sendable {
            /// From story i to story i+1: the outgoing story's last frame turns into the next
            /// story's first frame.
            case forward
            /// From story i+1 back to story i: the first frames of both.
            case backward

            /// Reads `forward` or `backward`; anything else fails with what was expected.
            public init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                guard let direction = Direction(rawValue: text) else {
                    // Cut to 80 Unicode scalars: an app shows the line in an alert.
                    let shown = text.cut(toScalars: 80)
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "expected one of forward, backward, got '\(shown)'")
                }
                self = direction
            }
        }

        /// The story it leaves.
        public var from: String
        /// The story it arrives at.
        public var to: String
        /// Which way the cube turns.
        public var direction: Direction
        /// The clip, relative to the manifest.
        public var src: String
        /// Its frame count.
        public var frames: Int
        /// Frames per second.
        public var fps: Double
        /// Seconds: `frames / fps`.
        public var duration: Double
        /// Pixels across (the canvas).
        public var width: Int
        /// Pixels down (the canvas).
        public var height: Int
        /// The RFC 6381 codecs string of the clip (`avc1.640020`, `hvc1.1.6.L93.90`), for a
        /// player's `canPlayType` (an HEVC bundle's transitions may not play where its H.264
        /// items do); nil in manifests written before it was added.
        public var codecs: String?

        /// A transition of the given parts.
        public init(
            from: String, to: String, direction: Direction, src: String, frames: Int, fps: Double, duration: Double,
            width: Int, height: Int, codecs: String? = nil
        ) {
            self.from = from
            self.to = to
            self.direction = direction
            self.src = src
            self.frames = frames
            self.fps = fps
            self.duration = duration
            self.width = width
            self.height = height
            self.codecs = codecs
        }

        /// Decodes the value; an integer is read as a number and checked, so a fraction, an
        /// out-of-range number or a `null` is reported at its path as not an integer.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            from = try container.decode(String.self, forKey: .from)
            to = try container.decode(String.self, forKey: .to)
            direction = try container.decode(Direction.self, forKey: .direction)
            src = try container.decode(String.self, forKey: .src)
            frames = try container.decodeInteger(forKey: .frames)
            fps = try container.decode(Double.self, forKey: .fps)
            duration = try container.decode(Double.self, forKey: .duration)
            width = try container.decodeInteger(forKey: .width)
            height = try container.decodeInteger(forKey: .height)
            codecs = try container.decodeOmittable(String.self, forKey: .codecs)
        }
    }
}
