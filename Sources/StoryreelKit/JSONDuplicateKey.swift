import Foundation

/// A key written twice in one JSON object (`{"src": "a.mov", "src": "b.mov"}`), which JSON
/// allows and readers settle differently: Foundation's decoders keep the first value, a
/// browser's `JSON.parse` the last. A manifest with one means two things to two readers, so
/// ``Manifest/init(jsonData:)`` and `validate` refuse it.
public struct JSONDuplicateKey: Sendable, Equatable {
    /// The JSON path of the repeated member: `stories[0].items[1].src`.
    public var path: String

    /// The first key repeated within its object in `data`, or nil when there is none. `data`
    /// should be JSON (checked before); other bytes give nil or a path, never a fault.
    public static func first(in data: Data) -> JSONDuplicateKey? {
        data.withUnsafeBytes { buffer in first(in: buffer.bindMemory(to: UInt8.self)) }
    }

    /// Where the scan is: inside an object (the keys seen, the current one, and whether a key
    /// comes next) or an array (the current index).
    private enum Level {
        case object(keys: Set<String>, key: String?, expectingKey: Bool)
        case array(index: Int)
    }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> JSONDuplicateKey? {
        var levels: [Level] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                levels.append(.object(keys: [], key: nil, expectingKey: true))
            case UInt8(ascii: "["):
                levels.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = levels.popLast()
            case UInt8(ascii: ","):
                switch levels.last {
                case .object(let keys, let key, _):
                    levels[levels.count - 1] = .object(keys: keys, key: key, expectingKey: true)
                case .array(let position): levels[levels.count - 1] = .array(index: position + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                // The string runs to the next quote that no backslash escapes.
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if case .object(var keys, _, true) = levels.last {
                    let key = decodedString(bytes[(index + 1)..<min(end, bytes.count)])
                    let isNew = keys.insert(key).inserted
                    levels[levels.count - 1] = .object(keys: keys, key: key, expectingKey: false)
                    if !isNew { return JSONDuplicateKey(path: path(of: levels)) }
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A string's text from its bytes between the quotes: as they are, or with their escapes
    /// (`\u0073rc` is `src`) read by JSONSerialization when there are any.
    private static func decodedString(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        let quoted = Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])
        return (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed)) as? String
            ?? String(decoding: raw, as: UTF8.self)
    }

    /// `stories[0].items[1].src` for the levels' keys and indices.
    private static func path(of levels: [Level]) -> String {
        var path = ""
        for level in levels {
            switch level {
            case .object(_, let key, _): path += path.isEmpty ? (key ?? "") : ".\(key ?? "")"
            case .array(let position): path += "[\(position)]"
            }
        }
        return path
    }
}
