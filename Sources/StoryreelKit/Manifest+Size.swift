extension Manifest {
    /// A width and a height in pixels.
    public struct Size: Codable, Sendable, Hashable {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int

        /// A size of `width` by `height` pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// Decodes the value; an integer is read as a number and checked, so a fraction, an
        /// out-of-range number or a `null` is reported at its path as not an integer.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = try container.decodeInteger(forKey: .width)
            height = try container.decodeInteger(forKey: .height)
        }
    }
}
