import Foundation

/// How deep JSON text nests and about how many values it holds, counted in one pass over its
/// bytes outside strings, before any parser reads it: `validate` reads a manifest into a
/// generic JSON value, whose decoding costs about a microsecond a value and grows with the cube
/// of the nesting (a QA pass: 200 arrays nested 500 deep, 208 KB, took 255 s; 125 million
/// zeros, 250 MB, took 244 s and 8.2 GB), and how long its longest number is (one of 150
/// million digits took 28 s and 1.1 GB to refuse).
package struct JSONShape: Sendable {
    /// The longest number any reader is given: a double's longest form is 24 characters
    /// (`-1.7976931348623157e+308`), and a manifest's or spec's numbers are shorter.
    package static let maximumNumberLength = 100

    /// The deepest nesting of arrays and objects seen (0 for a bare value).
    package private(set) var depth = 0
    /// The opening brackets and commas seen, plus one: at least the values and members.
    package private(set) var values = 1
    /// The longest run of characters that make up numbers (`0-9 + - . e E`) outside strings.
    package private(set) var longestNumber = 0

    /// Counts `data` until the end, or until `depth`, `values` or `longestNumber` passes its
    /// limit (``maximumNumberLength`` for numbers).
    package init(_ data: Data, depthLimit: Int, valueLimit: Int) {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var level = 0
            var index = 0
            var number = 0
            let count = buffer.count
            while index < count, depth <= depthLimit, values <= valueLimit,
                longestNumber <= JSONShape.maximumNumberLength
            {
                let byte = buffer[index]
                if JSONShape.isNumberCharacter(byte) {
                    number += 1
                    longestNumber = max(longestNumber, number)
                    index += 1
                    continue
                }
                number = 0
                switch byte {
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

    /// Why a reader does not parse text of this shape.
    package enum Problem: CustomStringConvertible, Sendable {
        /// It nests deeper than `limit` levels.
        case tooDeep(limit: Int)
        /// It holds a number longer than ``JSONShape/maximumNumberLength`` characters.
        case numberTooLong
        /// It holds more than `limit` values.
        case tooManyValues(limit: Int)

        /// The problem, for a line that names the file first: `nests more than 32 levels deep`.
        package var description: String {
            switch self {
            case .tooDeep(let limit): "nests more than \(limit) levels deep"
            case .numberTooLong: "holds a number longer than \(JSONShape.maximumNumberLength) characters"
            case .tooManyValues(let limit): "holds more than \(limit) JSON values"
            }
        }
    }

    /// The first problem `data` has within `depthLimit` levels and `valueLimit` values, or nil:
    /// counted in one pass, before it is parsed.
    package static func problem(in data: Data, depthLimit: Int, valueLimit: Int) -> Problem? {
        let shape = JSONShape(data, depthLimit: depthLimit, valueLimit: valueLimit)
        if shape.depth > depthLimit { return .tooDeep(limit: depthLimit) }
        if shape.longestNumber > maximumNumberLength { return .numberTooLong }
        return shape.values > valueLimit ? .tooManyValues(limit: valueLimit) : nil
    }

    /// `type` decoded from `data` by Foundation's `JSONDecoder`, or nil when `data` nests deeper
    /// than `depthLimit` levels, holds a number over ``maximumNumberLength`` characters, or does
    /// not decode. Foundation's parser stops the process on some text nested 513 deep (513 `[`
    /// and nothing after) instead of throwing (a QA pass: a poster record, a bundle's ledger or
    /// its stat cache of that text crashed `thumbnail` and `render`), so every file storyreel
    /// reads back is counted first.
    package static func decoded<Value: Decodable>(_ type: Value.Type, from data: Data, depthLimit: Int = 32)
        -> Value?
    {
        guard problem(in: data, depthLimit: depthLimit, valueLimit: .max) == nil else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// True for the bytes JSON numbers are written with.
    private static func isNumberCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }
}
