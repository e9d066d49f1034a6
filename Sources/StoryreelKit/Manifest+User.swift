extension Manifest {
    /// The user a story belongs to.
    public struct User: Codable, Sendable, Equatable {
        /// The user's handle (the story's id).
        public var handle: String
        /// The name shown above the story.
        public var displayName: String
        /// The avatar image, relative to the manifest; nil (JSON `null`) when there is none.
        public var avatar: String?

        /// A user of the given parts.
        public init(handle: String, displayName: String, avatar: String?) {
            self.handle = handle
            self.displayName = displayName
            self.avatar = avatar
        }

        private enum CodingKeys: String, CodingKey {
            case handle, displayName, avatar
        }

        /// Decodes the value; `avatar` must be there, `null` when there is none.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            handle = try container.decode(String.self, forKey: .handle)
            displayName = try container.decode(String.self, forKey: .displayName)
            avatar = try container.decodeNullable(String.self, forKey: .avatar)
        }

        /// Writes every key, a missing avatar as `null`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(handle, forKey: .handle)
            try container.encode(displayName, forKey: .displayName)
            try container.encode(avatar, forKey: .avatar)
        }
    }
}
