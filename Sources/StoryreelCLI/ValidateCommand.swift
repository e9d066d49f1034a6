import StoryPipeline

/// `storyreel validate MANIFEST`: one line per problem, exit 65 when there are any.
public enum ValidateCommand: Command {
    public static let name = "validate"
    public static let abstract = "Check a bundle's manifest, its files and its clips' hashes."
    public static let usage = "validate MANIFEST"
    public static let options: [OptionSpec] = []
    public static let examples = ["storyreel validate build/reel/manifest.json"]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        guard arguments.positionals.count == 1 else { throw UsageError("validate needs exactly one MANIFEST") }
        let path = arguments.positionals[0]
        let problems = try ManifestValidator.problems(inManifestAt: path)
        for problem in problems { console.error("\(path): \(problem)") }
        if problems.isEmpty { console.output("\(path): valid") }
        return problems.isEmpty ? .success : .dataError
    }
}
