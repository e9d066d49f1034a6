import Foundation

/// A key written twice in one JSON object (`{"src": "a.mov", "src": "b.mov"}`), which JSON
/// allows and readers settle differently: Foundation's decoders keep the first value, a
/// browser's `JSON.parse` the last. A manifest with one means two things to two readers, so
/// ``Manifest/init(jsonData:)`` and `validate` refuse it.
package struct JSONDuplicateKey: Sendable, Equatable {
    /// The JSON path of the repeated member: `stories[0].items[1].src`.
    package var path: String

    /// The first key repeated within its object in `data`, or nil when there is none. `data`
    /// should be JSON (checked before); other bytes give nil or a path, never a fault.
    package static func first(in data: Data) -> JSONDuplicateKey? {
        JSONStructureScan(data).duplicateKeyPath.map { JSONDuplicateKey(path: $0) }
    }
}
