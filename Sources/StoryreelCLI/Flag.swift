/// A typed key for an option that takes no value, e.g. `--json`. A command declares it once,
/// lists it in its options, and reads it with `arguments[flag]`:
///
/// ```swift
/// static let noPlayer = Flag("no-player", "Write no player page.")
/// ```
public struct Flag: OptionDeclaration {
    public let spec: OptionSpec

    /// A flag `--name` (and `-short`), with one line of help.
    public init(_ name: String, short: Character? = nil, _ help: String) {
        spec = OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    /// `--help`, which every command takes.
    static let help = Flag("help", short: "h", "Show this help.")
}
