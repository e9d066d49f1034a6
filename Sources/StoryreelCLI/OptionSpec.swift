/// One option a command accepts, e.g. `--timeout SECONDS` or `--json`.
public struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `timeout`.
    public let name: String
    /// A one-letter short name without the dash, e.g. `o`, or nil.
    public let short: Character?
    /// The value's placeholder in help, e.g. `SECONDS`; nil for a flag that takes no value.
    public let valueName: String?
    /// One line of help.
    public let help: String
    /// The values a numeric option accepts, or nil for a flag or a non-numeric value. The parser
    /// checks every value against it, and help shows it.
    public let range: OptionRange?

    /// A flag that takes no value.
    public static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, range: nil)
    }

    /// An option that takes a value; a numeric one declares the values it accepts in `range`.
    public static func value(
        _ name: String, short: Character? = nil, _ valueName: String, _ help: String, range: OptionRange? = nil
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, range: range)
    }

    /// How the option appears in help, e.g. `-o, --out OUT`.
    var synopsis: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }

    /// The help line, with the accepted values when the option declares them.
    var helpLine: String {
        guard let range else { return help }
        return help + " Must be \(range)."
    }
}
