/// The result of parsing a command line: positional arguments and option values, read through
/// the typed keys the command declared (`arguments[Self.timeout]`). Every value was checked
/// when it was parsed, so reading one cannot fail.
public struct ParsedArguments: Sendable {
    /// Arguments that are not options, in order (including everything after `--`).
    public var positionals: [String] = []
    /// Option values by long name, in the order given (an option may repeat; the last wins).
    var values: [String: [String]] = [:]
    /// The long names of the options the command declared.
    var declared: Set<String> = []

    /// True when `flag` was given.
    public subscript(flag: Flag) -> Bool { text(of: flag.spec) != nil }

    /// The last value given for `option`, or its declared default.
    public subscript<Value>(option: Option<Value>) -> Value { given(option) ?? option.defaultValue() }

    /// The last value given for `option`, or nil when it was not given (a setting that only
    /// overrides what a bundle keeps).
    public func given<Value>(_ option: Option<Value>) -> Value? {
        guard let text = text(of: option.spec) else { return nil }
        guard let value = option.convert(text) else {
            preconditionFailure("--\(option.spec.name)'s value '\(text)' passed the parser but does not convert")
        }
        return value
    }

    /// True when the option `declaration` was given (flag or not).
    public func wasGiven(_ declaration: some OptionDeclaration) -> Bool { text(of: declaration.spec) != nil }

    /// The last text given for `spec`; reading an option the command did not declare is a
    /// programming error, caught here rather than read as "not given".
    private func text(of spec: OptionSpec) -> String? {
        precondition(declared.contains(spec.name), "--\(spec.name) is not an option of this command")
        return values[spec.name]?.last
    }
}
