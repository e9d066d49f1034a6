extension Manifest {
    /// One user's story: their items, played in order.
    public struct Story: Codable, Sendable, Hashable, Identifiable {
        /// The story's id: its user's handle.
        public var id: String
        /// Who posted it.
        public var user: User
        /// True when the input marked the whole story as already seen.
        public var isRead: Bool
        /// The sum of its items' durations in seconds.
        public var duration: Double
        /// Its items in play order; never empty in a valid manifest.
        public var items: [Item]

        /// A story of the given parts.
        public init(id: String, user: User, isRead: Bool, duration: Double, items: [Item]) {
            self.id = id
            self.user = user
            self.isRead = isRead
            self.duration = duration
            self.items = items
        }
    }
}
