/// The result of parsing a command line: positional arguments and option values, with typed
/// accessors that turn a malformed or out-of-range value into a ``UsageError`` naming the option.
public struct ParsedArguments: Sendable {
    /// Arguments that are not options, in order (including everything after `--`).
    public var positionals: [String] = []
    /// Option values by long name, in the order given (an option may repeat).
    public var values: [String: [String]] = [:]
    /// The values each numeric option accepts, by long name, from its ``OptionSpec``.
    public var ranges: [String: OptionRange] = [:]

    /// True when the flag `name` was given.
    public func flag(_ name: String) -> Bool { values[name] != nil }

    /// The last value of option `name`, or nil when it was not given.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// Throws when `text`, a value of `name`, is outside the range `name` declares (if any).
    func check(_ text: String, of name: String) throws {
        guard let range = ranges[name], !range.accepts(text) else { return }
        throw Self.outOfRange(name, text, range)
    }

    /// `--fps must be a number more than 0 and at most 240, got '1e10'`.
    private static func outOfRange(_ name: String, _ text: String, _ range: OptionRange) -> UsageError {
        UsageError("--\(name) must be \(range), got '\(text)'")
    }

    /// The last value of `name` as a finite number, within its declared range if it has one.
    public func double(_ name: String) throws -> Double? {
        guard let text = string(name) else { return nil }
        if let range = ranges[name] {
            guard let value = range.number(text) else { throw Self.outOfRange(name, text, range) }
            return value
        }
        guard let value = Double(text), value.isFinite else {
            throw UsageError("--\(name) expects a number, got '\(text)'")
        }
        return value
    }

    /// The last value of `name` as a whole number, within its declared range if it has one.
    public func int(_ name: String) throws -> Int? {
        guard let text = string(name) else { return nil }
        if let range = ranges[name] {
            guard let value = range.wholeNumber(text) else { throw Self.outOfRange(name, text, range) }
            return value
        }
        guard let value = Int(text) else { throw UsageError("--\(name) expects a whole number, got '\(text)'") }
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

    /// The last value of `name` as `WIDTHxHEIGHT`, with the even sides its range declares.
    public func size(_ name: String) throws -> (width: Int, height: Int)? {
        try converted(name) { $0.size }
    }

    /// The last value of `name` as seconds (`1.5`) or a percentage (`50%`), within its range.
    public func secondsOrPercent(_ name: String) throws -> (value: Double, isPercent: Bool)? {
        try converted(name) { $0.secondsOrPercent }
    }

    /// The last value of `name` as bits per second (`4500000`, `4500k`, `4.5M`), within its range.
    public func bitRate(_ name: String) throws -> Int? {
        try converted(name) { $0.bitRate }
    }

    /// True when the last value of `name` is `auto` (for an option whose range allows it).
    public func isAutomatic(_ name: String) -> Bool { string(name) == "auto" }

    /// The last value of `name` as `K/N`, within its range.
    public func shard(_ name: String) throws -> (index: Int, count: Int)? {
        try converted(name) { $0.shard }
    }

    /// The last value of `name` read by `conversion` of the range it declares, or nil when the
    /// option was not given; a value the conversion refuses is a usage error.
    private func converted<Value>(_ name: String, _ conversion: (OptionRange) -> (String) -> Value?) throws
        -> Value?
    {
        guard let text = string(name) else { return nil }
        let range = try declaredRange(name)
        guard let value = conversion(range)(text) else { throw Self.outOfRange(name, text, range) }
        return value
    }

    /// The range `name` declares; an option read as a size, a time or a shard must declare one.
    private func declaredRange(_ name: String) throws -> OptionRange {
        guard let range = ranges[name] else { throw UsageError("--\(name) declares no range of values") }
        return range
    }
}
