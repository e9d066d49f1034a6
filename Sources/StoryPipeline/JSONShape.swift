import Foundation

/// How deep JSON text nests and about how many values it holds, counted in one pass over its
/// bytes outside strings, before any parser reads it: `validate` reads a manifest into a
/// generic JSON value, whose decoding costs about a microsecond a value and grows with the cube
/// of the nesting (a QA pass: 200 arrays nested 500 deep, 208 KB, took 255 s; 125 million
/// zeros, 250 MB, took 244 s and 8.2 GB).
struct JSONShape {
    /// The deepest nesting of arrays and objects seen (0 for a bare value).
    private(set) var depth = 0
    /// The opening brackets and commas seen, plus one: at least the values and members.
    private(set) var values = 1

    /// Counts `data` until the end, or until `depth` or `values` passes its limit.
    init(_ data: Data, depthLimit: Int, valueLimit: Int) {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var level = 0
            var index = 0
            let count = buffer.count
            while index < count, depth <= depthLimit, values <= valueLimit {
                switch buffer[index] {
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    level += 1
                    depth = max(depth, level)
                    values += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    level -= 1
                case UInt8(ascii: ","):
                    values += 1
                case UInt8(ascii: "\""):
                    // The string runs to the next quote that no backslash escapes.
                    index += 1
                    while index < count, buffer[index] != UInt8(ascii: "\"") {
                        index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                default:
                    break
                }
                index += 1
            }
        }
    }
}
