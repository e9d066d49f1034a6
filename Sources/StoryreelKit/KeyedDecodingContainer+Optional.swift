extension KeyedDecodingContainer {
    /// The string at an optional `key`: nil when the key is left out. A `null` there is refused,
    /// as the schema refuses it (an optional value is left out, never written as null), so an
    /// app reading the manifest and `storyreel validate` give the same verdict.
    func decodeOmittable(_ type: String.Type, forKey key: Key) throws -> String? {
        guard contains(key) else { return nil }
        return try decode(String.self, forKey: key)
    }

    /// The string at a nullable `key`: nil for `null`. The key itself must be there, as the
    /// schema requires (a user with no avatar says `"avatar": null`).
    func decodeNullable(_ type: String.Type, forKey key: Key) throws -> String? {
        guard contains(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value for \(key.stringValue)"))
        }
        return try decodeNil(forKey: key) ? nil : decode(String.self, forKey: key)
    }
}
