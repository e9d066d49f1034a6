/// One user's story as found in the input: who it is, and its clips in play order.
public struct StorySource: Sendable, Equatable {
    /// The handle (the folder name), also the story's id.
    public var handle: String
    /// The name shown to viewers (default: the handle).
    public var displayName: String
    /// True when the viewer has seen it: read stories play after unread ones.
    public var isRead: Bool
    /// An explicit position, from `story.json`'s `order`; stories without one follow.
    public var order: Double?
    /// The avatar image, relative to the input root, or nil.
    public var avatar: String?
    /// The clips in play order, relative to the input root.
    public var clips: [String]

    /// Makes a story.
    public init(
        handle: String, displayName: String, isRead: Bool = false, order: Double? = nil, avatar: String? = nil,
        clips: [String]
    ) {
        self.handle = handle
        self.displayName = displayName
        self.isRead = isRead
        self.order = order
        self.avatar = avatar
        self.clips = clips
    }
}
