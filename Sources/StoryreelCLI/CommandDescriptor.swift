/// A subcommand as the dispatcher sees it: its name, help and run function, captured from a
/// ``Command`` type so the command table is a plain Sendable array.
struct CommandDescriptor: Sendable {
    let name: String
    let abstract: String
    /// ``Command/helpText(_:)``: laid out for a terminal, or not.
    let layOutHelp: @Sendable (HelpLayout) -> String
    /// ``Command/helpText``: each paragraph on one line.
    var helpText: String { layOutHelp(HelpLayout(columns: nil)) }
    let options: [OptionSpec]
    /// ``Command/familiarNames``, for an unknown option's hint.
    let familiarNames: [String: [String]]
    let usage: String
    /// ``Command/synopsis``: the usage line's required part, for a usage error.
    let synopsis: String
    let run: @Sendable (ParsedArguments, Console) throws -> ExitCode

    init<C: Command & SendableMetatype>(_ command: C.Type) {
        name = C.name
        abstract = C.abstract
        layOutHelp = { C.helpText($0) }
        options = C.options.map(\.spec)
        familiarNames = C.familiarNames
        usage = C.usage
        synopsis = C.synopsis
        run = { try C.run($0, console: $1) }
    }
}
