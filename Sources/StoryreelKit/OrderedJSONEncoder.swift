/// Encodes an `Encodable` value to a ``JSONValue`` whose objects keep their keys in the order
/// `encode(to:)` writes them (for synthesized conformances: the order of the coding keys), so
/// the same value always gives the same bytes. Integers stay integers; a non-finite number is
/// written as `null`.
enum OrderedJSONEncoder {
    /// The ordered JSON value of `value`.
    static func value<T: Encodable>(of value: T) throws -> JSONValue {
        try box(value, at: []).resolved()
    }

    /// One value being encoded: a scalar, or an object or array filled in by its containers.
    final class Node {
        var scalar: JSONValue?
        var members: [(String, Node)]?
        var elements: [Node]?

        init(_ scalar: JSONValue? = nil) { self.scalar = scalar }

        /// The finished value; a value that wrote nothing is `null`.
        func resolved() -> JSONValue {
            if let members { return .object(members.map { ($0.0, $0.1.resolved()) }) }
            if let elements { return .array(elements.map { $0.resolved() }) }
            return scalar ?? .null
        }

        /// Sets member `key`, in place when it was written before.
        func set(_ key: String, _ node: Node) {
            if let index = members?.firstIndex(where: { $0.0 == key }) {
                members?[index].1 = node
            } else {
                members = (members ?? []) + [(key, node)]
            }
        }
    }

    /// `value`, or a ``ManifestError`` naming `path` when it is NaN or infinite, which JSON has
    /// no number for: written as `null`, it made a manifest that its own reader refuses (a QA
    /// pass). Foundation's `JSONEncoder` throws an `EncodingError`, whose `localizedDescription`
    /// ("The data isn't in the correct format") named neither the value nor its path (a QA pass
    /// of the library): this one is the line an app shows.
    static func finite(_ value: Double, at path: [CodingKey]) throws -> Double {
        guard value.isFinite else {
            throw ManifestError(
                path: ManifestError.path(path), "\(value) is not a JSON number (JSON has none for NaN or an infinity)")
        }
        return value
    }

    /// A node for `value`: scalars directly, anything else through its own `encode(to:)`.
    static func box<T: Encodable>(_ value: T, at path: [CodingKey]) throws -> Node {
        switch value {
        case let bool as Bool: return Node(.bool(bool))
        case let string as String: return Node(.string(string))
        case let double as Double: return Node(.number(try finite(double, at: path)))
        case let int as Int: return Node(.int(int))
        // Every other integer and float type here too: their own `encode(to:)` would hand them
        // straight back to this container.
        case let integer as any BinaryInteger:
            if let int = Int(exactly: integer) { return Node(.int(int)) }
            return Node(JSONValue.number(Double(integer)))
        case let float as any BinaryFloatingPoint: return Node(.number(try finite(Double(float), at: path)))
        default:
            let node = Node()
            try value.encode(to: TreeEncoder(node: node, codingPath: path))
            return node
        }
    }

    /// The `Encoder` handed to `encode(to:)`: its containers write into one node.
    struct TreeEncoder: Encoder {
        let node: Node
        let codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [] }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> UnkeyedEncodingContainer {
            if node.elements == nil { node.elements = [] }
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> SingleValueEncodingContainer {
            SingleContainer(node: node, codingPath: codingPath)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, Node(.null)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.set(key.stringValue, try box(value, at: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = Node()
            node.set(key.stringValue, child)
            return TreeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            let child = Node()
            node.set(key.stringValue, child)
            return TreeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> Encoder {
            let child = Node()
            node.set(key.stringValue, child)
            return TreeEncoder(node: child, codingPath: codingPath + [key])
        }
    }

    /// An array element's place in a coding path, so an error names `stories[2].duration`.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { String(intValue ?? 0) }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [CodingKey]
        var count: Int { node.elements?.count ?? 0 }
        /// The coding path of the element appended next.
        private var nextPath: [CodingKey] { codingPath + [IndexKey(count)] }

        mutating func encodeNil() throws { node.elements?.append(Node(.null)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            // Boxed first: reading the count while appending to the elements is an access conflict.
            let boxed = try box(value, at: nextPath)
            node.elements?.append(boxed)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let path = nextPath
            let child = Node()
            node.elements?.append(child)
            return TreeEncoder(node: child, codingPath: path).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            let path = nextPath
            let child = Node()
            node.elements?.append(child)
            return TreeEncoder(node: child, codingPath: path).unkeyedContainer()
        }

        mutating func superEncoder() -> Encoder {
            let path = nextPath
            let child = Node()
            node.elements?.append(child)
            return TreeEncoder(node: child, codingPath: path)
        }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [CodingKey]

        mutating func encodeNil() throws { node.scalar = .null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let boxed = try box(value, at: codingPath)
            node.scalar = boxed.scalar
            node.members = boxed.members
            node.elements = boxed.elements
        }
    }
}
