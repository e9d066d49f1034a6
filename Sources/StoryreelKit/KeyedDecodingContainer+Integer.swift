extension KeyedDecodingContainer {
    /// The integer at `key`, read as a number and checked, so that a fraction (`360.5`) or an
    /// out-of-range value fails with this key's path: Foundation's own `Int` decoding reports
    /// such a number as invalid JSON, with no path. A whole number is read as an `Int` first, so
    /// that one beyond 2^53 keeps its exact value; one that is not an `Int` is read as a
    /// `Double`, and refused beyond 2^53, where the `Double` is no longer the number written
    /// (`-9223372036854775809` was read as `Int.min`, a number the file does not hold). A whole
    /// number within `Int`'s range, `Int.min` and `Int.max` included, is read as written: the
    /// rules `validate` checks (a size above 0, a rotation of a right angle) are not checked here,
    /// so an app that multiplies or negates such a value checks it first.
    func decodeInteger(forKey key: Key) throws -> Int {
        if let integer = try? decode(Int.self, forKey: key) { return integer }
        let path = codingPath + [key]
        let number: Double
        do {
            number = try decode(Double.self, forKey: key)
        } catch DecodingError.typeMismatch(_, let context) {
            // Not a number at all ("540", true): an integer was expected, not any number.
            throw DecodingError.typeMismatch(Int.self, context)
        } catch DecodingError.valueNotFound(_, let context) {
            // `null`: likewise an integer was expected (a QA pass: it was "expected a number,
            // got null", where "540" gets "expected an integer").
            throw DecodingError.valueNotFound(Int.self, context)
        }
        guard number == number.rounded() else {
            throw DecodingError.typeMismatch(
                Int.self, DecodingError.Context(codingPath: path, debugDescription: "got \(number)"))
        }
        guard number.magnitude < 0x1p53, let integer = Int(exactly: number) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path, debugDescription: "\(number) is out of range for an integer"))
        }
        return integer
    }
}
