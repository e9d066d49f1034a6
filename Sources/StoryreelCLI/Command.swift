/// A storyreel subcommand: its help and its run function. The CLI stays thin: parse, call the
/// library, print, return an exit code.
public protocol Command {
    /// The subcommand's name, e.g. `inspect`.
    static var name: String { get }
    /// One line saying what it does.
    static var abstract: String { get }
    /// The usage line after `storyreel`, e.g. `inspect CLIP... [--json]`.
    static var usage: String { get }
    /// Options it accepts: its typed declarations, in the order help lists them.
    static var options: [any OptionDeclaration] { get }
    /// Names users guess for its options, as typed, each with the long names of the options
    /// that do their work (the first one it takes is offered): `ingest --handle` → `story`. An
    /// unknown option is looked up here before ffmpeg's names (``ArgumentParser/familiarNames``),
    /// so a name another command takes for something else points to this command's option.
    static var familiarNames: [String: [String]] { get }
    /// A paragraph `--help` shows after the options, or nil: what holds for several of them (a
    /// bundle keeps the settings given, so the defaults shown are a new bundle's).
    static var optionsNote: String? { get }
    /// Example invocations with a comment each, for `--help`. Each works as written from the
    /// project folder, on `samples/` (a test runs them).
    static var examples: [String] { get }
    /// Runs the command; throws ``UsageError`` for bad usage.
    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode
}

extension Command {
    /// No names of its own: ffmpeg's and the other commands' options are suggested.
    public static var familiarNames: [String: [String]] { [:] }

    /// Nothing to say after the options.
    public static var optionsNote: String? { nil }

    /// The usage line's required part with `[options]` for the rest, e.g. `cube FROM TO [options]`:
    /// what a usage error's one line shows.
    static var synopsis: String {
        guard let optional = usage.range(of: " [") else { return usage }
        return usage[..<optional.lowerBound] + " [options]"
    }

    /// The full `--help` text, USAGE, OPTIONS (and ``optionsNote``), EXAMPLES, each paragraph on
    /// one line.
    static var helpText: String { helpText(HelpLayout(columns: nil)) }

    /// The full `--help` text laid out by `layout`: wrapped to a terminal's width, or not.
    static func helpText(_ layout: HelpLayout) -> String {
        let rows = (options.map(\.spec) + [Flag.help.spec]).map { (term: $0.synopsis, description: $0.helpLine) }
        let usagePrefix = "USAGE: storyreel "
        // Arguments wrap under the command's first argument, or by 4 where that leaves too little.
        let underArguments = usagePrefix.count + name.count + 1
        let usageIndent = (layout.width ?? .max) - underArguments < HelpLayout.narrowestDescription ? 4 : underArguments
        var lines = layout.lines("OVERVIEW: ", abstract, indent: 2) + [""]
        lines += layout.lines(usagePrefix, usage, indent: usageIndent, keepingBracketsWhole: true)
        lines += ["", "OPTIONS:"] + layout.table(rows)
        if let optionsNote { lines += [""] + layout.lines("  ", optionsNote, indent: 2) }
        lines += ["", "EXAMPLES:"] + examples.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
