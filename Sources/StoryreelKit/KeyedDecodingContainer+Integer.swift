extension KeyedDecodingContainer {
    /// The integer at `key`, read as a number and checked, so that a fraction (`360.5`) or an
    /// out-of-range value fails with this key's path: Foundation's own `Int` decoding reports
    /// such a number as invalid JSON, with no path. A whole number is read as an `Int` first, so
    /// that one beyond 2^53 keeps its exact value.
    func decodeInteger(forKey key: Key) throws -> Int {
        if let integer = try? decode(Int.self, forKey: key) { return integer }
        let number = try decode(Double.self, forKey: key)
        guard number == number.rounded(), let integer = Int(exactly: number) else {
            throw DecodingError.typeMismatch(
                Int.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "got \(number)"))
        }
        return integer
    }
}
