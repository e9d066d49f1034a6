extension Manifest {
    /// The user a story belongs to.
    public struct User: Codable, Sendable, Hashable, Identifiable {
        /// Its `handle`, the story's id.
        public var id: String { handle }

        /// The user's handle (the story's id).
        public var handle: String
        /// The name shown above the story.
        public var displayName: String
        /// The avatar image, relative to the manifest; nil (JSON `null`) when there is none.
        public var avatar: String?

        /// The longest display name a manifest holds, in Unicode scalars (JSON Schema's
        /// `maxLength` counts the same): `render` cuts a longer one, at a character's end.
        public static let displayNameLimit = 100

        /// The name to show for this user: ``displayName``, or ``handle`` where that is blank.
        /// `render` writes no blank display name; a manifest from elsewhere may hold one.
        public var shownName: String { Self.isBlank(displayName) ? handle : displayName }

        /// True when `name` shows nothing: every scalar is white space (U+0085 included) or a
        /// default-ignorable code point (U+200B, U+FEFF, the Hangul fillers U+3164, U+115F …),
        /// the rule `render`, this library and the player page share. From a QA pass: a name of
        /// one U+200B left an empty caption, and `render`, Swift and JavaScript's `trim()` each
        /// took a different set of characters for blank.
        public static func isBlank(_ name: String) -> Bool {
            name.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }
        }

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
