extension Manifest {
    /// An input the render left out, and why.
    public struct SkippedEntry: Codable, Sendable, Hashable, Identifiable {
        /// Its `path`: a render skips an input once, for SwiftUI's `ForEach(manifest.skipped)`.
        public var id: String { path }

        /// The input, relative to the stories input.
        public var path: String
        /// The story it belonged to; nil (JSON `null`) when none.
        public var story: String?
        /// Why it was left out.
        public var reason: String

        /// An entry of the given parts.
        public init(path: String, story: String?, reason: String) {
            self.path = path
            self.story = story
            self.reason = reason
        }

        private enum CodingKeys: String, CodingKey {
            case path, story, reason
        }

        /// Decodes the value; `story` must be there, `null` when there is none.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decode(String.self, forKey: .path)
            story = try container.decodeNullable(String.self, forKey: .story)
            reason = try container.decode(String.self, forKey: .reason)
        }

        /// Writes every key, a missing story as `null`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(story, forKey: .story)
            try container.encode(reason, forKey: .reason)
        }
    }
}
