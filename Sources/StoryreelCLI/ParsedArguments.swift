/// The result of parsing a command line: positional arguments and option values, with typed
/// accessors that turn a malformed value into a ``UsageError`` naming the option.
public struct ParsedArguments: Sendable {
    /// Arguments that are not options, in order (including everything after `--`).
    public var positionals: [String] = []
    /// Option values by long name, in the order given (an option may repeat).
    public var values: [String: [String]] = [:]

    /// True when the flag `name` was given.
    public func flag(_ name: String) -> Bool { values[name] != nil }

    /// The last value of option `name`, or nil when it was not given.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// The last value of `name` as a finite number.
    public func double(_ name: String) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("--\(name) expects a number, got '\(text)'")
        }
        return value
    }

    /// The last value of `name` as a positive finite number.
    public func positiveDouble(_ name: String) throws -> Double? {
        guard let value = try double(name) else { return nil }
        guard value > 0 else { throw UsageError("--\(name) must be a positive number, got '\(string(name)!)'") }
        return value
    }

    /// The last value of `name` as an integer within `range`.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "--\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The last value of `name`, which must be one of `choices`.
    public func choice(_ name: String, of choices: [String]) throws -> String? {
        guard let text = string(name) else { return nil }
        guard choices.contains(text) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }

    /// The last value of `name` as `WIDTHxHEIGHT`, both even and from 2 to 8192.
    public func size(_ name: String) throws -> (width: Int, height: Int)? {
        guard let text = string(name) else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw UsageError("--\(name) expects WIDTHxHEIGHT, e.g. 1080x1920, got '\(text)'")
        }
        guard (2...8192).contains(width), (2...8192).contains(height), width % 2 == 0, height % 2 == 0 else {
            throw UsageError("--\(name) needs even sides from 2 to 8192, got '\(text)'")
        }
        return (width, height)
    }
}
