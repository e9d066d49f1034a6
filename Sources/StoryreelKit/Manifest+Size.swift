extension Manifest {
    /// A width and a height in pixels.
    public struct Size: Codable, Sendable, Equatable {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int

        /// A size of `width` by `height` pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }
}
