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
        /// The bundle outputs it plays from.
        public var outputs: ItemOutputs
    }

    /// The bundle files one item needs, relative to the bundle. Items with the same content
    /// share them.
    public struct ItemOutputs: Sendable, Equatable {
        /// The clip's copy or link in `clips/`, or nil with `--reference`.
        public var clip: String?
        /// The poster in `posters/`.
        public var poster: String
        /// The thumbnail in `thumbs/`.
        public var thumbnail: String
        /// The still of the first displayed frame in `stills/`, fitted to the canvas.
        public var firstFrame: String
        /// The still of the last displayed frame in `stills/`, fitted to the canvas.
        public var lastFrame: String

        /// Every file, in a fixed order.
        public var all: [String] { [clip, poster, thumbnail, firstFrame, lastFrame].compactMap { $0 } }
    }

    /// The story as found in the input.
    public var source: StorySource
    /// Its playable clips, in play order.
    public var items: [Item]
    /// The avatar's absolute path and content hash, when it has one.
    public var avatar: (path: String, sha256: String)?
    /// The avatar's output in `avatars/`, when it has one.
    public var avatarOutput: String?

    /// The story's id: its handle.
    public var id: String { source.handle }
}
