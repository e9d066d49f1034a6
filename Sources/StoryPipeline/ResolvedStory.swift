/// A story whose clips have been hashed and probed: what the plan and the manifest are built from.
public struct ResolvedStory: Sendable {
    /// One playable clip of the story.
    public struct Item: Sendable {
        /// The clip, relative to the input root.
        public var path: String
        /// The clip, absolute.
        public var absolutePath: String
        /// Its hash and metadata.
        public var record: ClipRecord
    }

    /// The story as found in the input.
    public var source: StorySource
    /// Its playable clips, in play order.
    public var items: [Item]
    /// The avatar's absolute path and content hash, when it has one.
    public var avatar: (path: String, sha256: String)?

    /// The story's id: its handle.
    public var id: String { source.handle }
}
