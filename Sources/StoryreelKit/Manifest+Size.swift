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

        /// Decodes the value; integers are read through ``KeyedDecodingContainer/decodeInteger(forKey:)``
        /// so a fraction is reported at its path.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = try container.decodeInteger(forKey: .width)
            height = try container.decodeInteger(forKey: .height)
        }
    }
}
