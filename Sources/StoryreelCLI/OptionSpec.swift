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

    /// A flag that takes no value.
    public static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    /// An option that takes a value.
    public static func value(_ name: String, short: Character? = nil, _ valueName: String, _ help: String)
        -> OptionSpec
    {
        OptionSpec(name: name, short: short, valueName: valueName, help: help)
    }

    /// How the option appears in help, e.g. `-o, --out OUT`.
    var synopsis: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }
}
