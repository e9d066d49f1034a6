/// The item ids a viewer has seen. `Codable`, so an app keeps it between launches (in
/// `UserDefaults` or a file) and hands it back to ``StoryNavigator/init(manifest:seen:openingAt:cutsOnly:marksSeenOnPresent:)``.
/// It encodes as `{"itemIDs": [...]}` with the ids sorted, so the same state gives the same bytes.
public struct SeenState: Codable, Sendable, Hashable {
    /// The ids of the items seen.
    public private(set) var itemIDs: Set<String>

    /// A state with `itemIDs` seen (none by default).
    public init(itemIDs: Set<String> = []) {
        self.itemIDs = itemIDs
    }

    /// True when item `id` has been seen.
    public func contains(_ id: String) -> Bool {
        itemIDs.contains(id)
    }

    /// Records item `id` as seen.
    public mutating func markSeen(_ id: String) {
        itemIDs.insert(id)
    }

    /// Forgets the items `manifest` no longer holds (stories that expired from the bundle), so
    /// a state an app saves after every session does not grow for ever (a consumer's review).
    /// Keep it when a viewer moves between bundles that share items: it forgets the others'.
    public mutating func forgetItems(notIn manifest: Manifest) {
        let current = Set(manifest.stories.lazy.flatMap(\.items).map(\.id))
        itemIDs.formIntersection(current)
    }

    /// True when every item of `story` has been seen, or the manifest marks it read.
    public func hasSeen(_ story: Manifest.Story) -> Bool {
        story.isRead || story.items.allSatisfy { itemIDs.contains($0.id) }
    }

    private enum CodingKeys: String, CodingKey {
        case itemIDs
    }

    /// Reads the ids.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        itemIDs = Set(try container.decode([String].self, forKey: .itemIDs))
    }

    /// Writes the ids, sorted.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(itemIDs.sorted(), forKey: .itemIDs)
    }
}
