extension JSONValue: Decodable {
    /// A key of any name, for reading objects whose keys are not known in advance.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads any JSON value: an integer that fits an `Int` (including one written `2.0`) as
    /// ``int(_:)``, any other number as ``number(_:)``, `true`/`false` never as numbers. An
    /// object's members come sorted by key, since decoders do not keep their order.
    ///
    /// The kinds are tried in the order a manifest mostly holds them (strings, then numbers,
    /// then containers): every kind tried and failed costs a thrown `DecodingError` with its
    /// coding path, which made a 60 MB manifest take minutes when containers came first.
    package init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int.self) {
            self = .int(int)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(
                try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                    (key.stringValue, try object.decode(JSONValue.self, forKey: key))
                })
        } else {
            var array = try decoder.unkeyedContainer()
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        }
    }
}
