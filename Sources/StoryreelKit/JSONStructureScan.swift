import Foundation

/// One pass over JSON text for what Foundation's parser lets through but other readers settle
/// differently or refuse: a key given twice in one object (``JSONDuplicateKey``) and a comma
/// just before a closing `}` or `]` (``JSONSyntaxFault``). The text should be JSON (parsed
/// before); other bytes give nil paths or wrong ones, never a fault.
package struct JSONStructureScan {
    /// The JSON path of the first member whose key its object already had, or nil.
    package private(set) var duplicateKeyPath: String?
    /// The JSON path of the first object or array with a comma before its closing bracket
    /// (`""` for the top level), that bracket and its byte offset in the text; or nil.
    package private(set) var trailingComma: (path: String, closing: Character, offset: Int)?

    /// Where the scan is: inside an object (the current key, and whether a key comes next) or
    /// an array (the current index). The keys each open object has had are kept apart, in
    /// `keySets`, so that adding one changes its set in place: kept in the level, each key
    /// copied the whole set (a QA pass: an object of 80,000 keys took 20 s, 3 million hours).
    /// A set holds each key's UTF-8 bytes, not the `String`: `String` equality is canonical
    /// equivalence, which took `"café"` (U+00E9) and `"cafe\u0301"` for one key given twice,
    /// where `JSON.parse` and Python keep two, so no readers disagree (a QA pass).
    private enum Level {
        case object(key: String?, expectingKey: Bool)
        case array(index: Int)
    }

    /// Scans `data` until it has found both kinds of fault or reached the end.
    package init(_ data: Data) {
        data.withUnsafeBytes { buffer in scan(buffer.bindMemory(to: UInt8.self)) }
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        var levels: [Level] = []
        var keySets: [Set<[UInt8]>] = []
        var afterComma = false
        var index = 0
        while index < bytes.count, duplicateKeyPath == nil || trailingComma == nil {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
                continue
            case UInt8(ascii: "{"):
                levels.append(.object(key: nil, expectingKey: true))
                keySets.append([])
            case UInt8(ascii: "["):
                levels.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if afterComma, trailingComma == nil {
                    trailingComma = (Self.path(of: levels.dropLast()), Character(UnicodeScalar(byte)), index)
                }
                if case .object = levels.popLast(), !keySets.isEmpty { keySets.removeLast() }
            case UInt8(ascii: ","):
                switch levels.last {
                case .object(let key, _):
                    levels[levels.count - 1] = .object(key: key, expectingKey: true)
                case .array(let position): levels[levels.count - 1] = .array(index: position + 1)
                case nil: break
                }
                afterComma = true
                index += 1
                continue
            case UInt8(ascii: "\""):
                // The string runs to the next quote that no backslash escapes.
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if case .object(_, true) = levels.last, !keySets.isEmpty {
                    let key = Self.decodedString(bytes[(index + 1)..<min(end, bytes.count)])
                    let isNew = keySets[keySets.count - 1].insert(Array(key.utf8)).inserted
                    levels[levels.count - 1] = .object(key: key, expectingKey: false)
                    if !isNew, duplicateKeyPath == nil { duplicateKeyPath = Self.path(of: levels[...]) }
                }
                index = end
            default:
                break
            }
            afterComma = false
            index += 1
        }
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
    private static func path(of levels: ArraySlice<Level>) -> String {
        var path = ""
        for level in levels {
            switch level {
            case .object(let key, _):
                // Each key cut to 80 Unicode scalars (a QA pass: a 200 KB key given twice).
                let shown = key?.cut(toScalars: 80) ?? ""
                path += path.isEmpty ? shown : ".\(shown)"
            case .array(let position): path += "[\(position)]"
            }
        }
        return path
    }
}
