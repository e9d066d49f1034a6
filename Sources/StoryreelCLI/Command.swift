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
    /// Example invocations with a comment each, for `--help`. Each works as written from the
    /// project folder, on `samples/` (a test runs them).
    static var examples: [String] { get }
    /// Runs the command; throws ``UsageError`` for bad usage.
    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode
}

extension Command {
    /// The usage line's required part with `[options]` for the rest, e.g. `cube FROM TO [options]`:
    /// what a usage error's one line shows.
    static var synopsis: String {
        guard let optional = usage.range(of: " [") else { return usage }
        return usage[..<optional.lowerBound] + " [options]"
    }

    /// The full `--help` text: USAGE, OPTIONS, EXAMPLES.
    static var helpText: String {
        let rows = (options.map(\.spec) + [Flag.help.spec]).map { ($0.synopsis, $0.helpLine) }
        let width = rows.map(\.0.count).max() ?? 0
        let optionLines = rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
        return """
            OVERVIEW: \(abstract)

            USAGE: storyreel \(usage)

            OPTIONS:
            \(optionLines.joined(separator: "\n"))

            EXAMPLES:
            \(examples.map { "  " + $0 }.joined(separator: "\n"))
            """
    }
}
