/// How the parser and `--help` see one option, e.g. `--timeout SECONDS` or `--json`. It is made
/// by a typed declaration (``Option`` or ``Flag``), never by hand: that declaration gives its
/// type, its default and the values it accepts, once.
public struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `timeout`.
    public let name: String
    /// A one-letter short name without the dash, e.g. `o`, or nil.
    public let short: Character?
    /// Other long names accepted for it but not shown in help, e.g. `out` for `output`.
    public let aliases: [String]
    /// The value's placeholder in help, e.g. `SECONDS`; nil for a flag that takes no value.
    public let valueName: String?
    /// One line of help, without the default and the accepted values (help adds them).
    public let help: String
    /// The default as help shows it, e.g. `30` or `all cores`; nil when there is none to show.
    public let defaultText: String?
    /// What a value must be, for help and errors, e.g. "a number more than 0 and at most 240".
    public let accepted: String?
    /// Checks one value at parse time: nil when it is good, else the error's message.
    let problem: @Sendable (String) -> String?

    init(
        name: String, short: Character? = nil, aliases: [String] = [], valueName: String?, help: String,
        defaultText: String? = nil, accepted: String? = nil,
        problem: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.name = name
        self.short = short
        self.aliases = aliases
        self.valueName = valueName
        self.help = help
        self.defaultText = defaultText
        self.accepted = accepted
        self.problem = problem
    }

    /// True when `longName` (without dashes) names this option.
    func isNamed(_ longName: String) -> Bool { longName == name || aliases.contains(longName) }

    /// Every way to type it, each with its dashes: `--output`, `--out`, `-o`.
    var spellings: [String] {
        let long = ([name] + aliases).map { "--" + $0 }
        return long + (short.map { ["-\($0)"] } ?? [])
    }

    /// How errors name the option, e.g. `-o/--output` or `--timeout`.
    var displayNames: String { Self.displayNames(name: name, short: short) }

    /// How errors name an option called `name` (and `short`), before its spec is made.
    static func displayNames(name: String, short: Character?) -> String {
        (short.map { "-\($0)/" } ?? "") + "--\(name)"
    }

    /// How the option appears in help, e.g. `-o, --output OUT`.
    var synopsis: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }

    /// The help line, with the default and the accepted values from the declaration.
    var helpLine: String {
        var line = help
        if let defaultText { line += " Default: \(defaultText)." }
        if let accepted { line += " Must be \(accepted)." }
        return line
    }
}
