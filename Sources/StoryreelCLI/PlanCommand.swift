import StoryMedia
import StoryPipeline

/// `storyreel plan INPUT --json`: the work units with their keys, for any job runner.
public enum PlanCommand: Command {
    public static let name = "plan"
    public static let abstract = "List a render's work units and their content keys."
    public static let usage = "plan INPUT [--json] [--shard K/N] [--bundle OUT] [render's settings options]"
    public static let options: [OptionSpec] =
        RenderCommand.options.filter { !["out", "prune", "force", "quiet", "lock-timeout", "json"].contains($0.name) }
        + [
            .value("bundle", "OUT", "Plan with the settings saved in bundle OUT, as render -o OUT would."),
            .flag("json", "Print the units as JSON."),
        ]
    public static let examples = [
        "storyreel plan samples/stories --json | jq '.units | length'",
        "storyreel plan stories --json --shard 1/4",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        guard arguments.positionals.count == 1 else { throw UsageError("plan needs exactly one INPUT") }
        let bundle = arguments.string("bundle")
        let options = try RenderCommand.renderOptions(arguments, bundle: bundle)
        let input = try StoryInput.load(arguments.positionals[0])
        let settings = (bundle.flatMap(BundleSettings.saved(in:)) ?? BundleSettings()).applying(options.settings)
        let plan = try BundlePlan.make(input: input, settings: settings, options: options, cache: nil)
        let units = plan.shardUnits
        if arguments.flag("json") {
            let value = JSONValue.object([
                (
                    "units",
                    .array(
                        units.map { unit in
                            .object([
                                ("kind", .string(unit.kind.rawValue)), ("key", .string(unit.key)),
                                ("output", .string(unit.output)),
                                ("story", .string(unit.story)), ("input", .string(unit.sourceLabel)),
                            ])
                        })
                ),
                (
                    "skipped",
                    .array(plan.skipped.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })
                ),
            ])
            console.output(value.serialized())
        } else {
            for unit in units { console.output("\(unit.kind.rawValue)\t\(unit.output)\t\(unit.sourceLabel)") }
        }
        for entry in plan.skipped { console.error("\(entry.path): skipped: \(entry.reason)") }
        return plan.skipped.isEmpty ? .success : .dataError
    }
}
