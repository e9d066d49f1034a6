import Foundation

/// A JSON value whose objects keep their keys in the order they were written, so storyreel's
/// JSON output (inspect, manifests, summaries) is stable byte for byte.
package enum JSONValue: Sendable, Equatable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, written without a fraction.
    case int(Int)
    /// A number, written as the shortest text that reads back as the same Double.
    case number(Double)
    /// A string, escaped as JSON requires.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose members keep the order they are given in.
    case object([(String, JSONValue)])

    /// True when both are the same value, objects with the same keys in the same order.
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// A string, or null for nil.
    package static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// A number, or null for nil or a non-finite value.
    package static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }
    /// An integer, or null for nil.
    package static func int(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }

    /// The value as JSON text; `pretty` indents by two spaces, one key per line.
    package func serialized(pretty: Bool = true) -> String {
        var output = ""
        write(into: &output, indent: pretty ? 0 : nil)
        return output
    }

    private func write(into output: inout String, indent: Int?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .number(let value): output += JSONValue.format(value)
        case .string(let value): JSONValue.quote(value, into: &output)
        case .array(let values):
            writeContainer(values.map { (nil, $0) }, open: "[", close: "]", into: &output, indent: indent)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", into: &output, indent: indent)
        }
    }

    private func writeContainer(
        _ members: [(String?, JSONValue)], open: String, close: String, into output: inout String, indent: Int?
    ) {
        output += open
        guard !members.isEmpty else {
            output += close
            return
        }
        let inner = indent.map { $0 + 2 }
        for (position, (key, value)) in members.enumerated() {
            if position > 0 { output += "," }
            if let inner { output += "\n" + String(repeating: " ", count: inner) }
            if let key {
                JSONValue.quote(key, into: &output)
                output += indent == nil ? ":" : ": "
            }
            value.write(into: &output, indent: inner)
        }
        if let indent { output += "\n" + String(repeating: " ", count: indent) }
        output += close
    }

    /// Shortest text that reads back as the same Double; integers without a fraction.
    package static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func quote(_ string: String, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    output += String(format: "\\u%04x", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
