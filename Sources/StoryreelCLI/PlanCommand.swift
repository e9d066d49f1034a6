import StoryMedia
import StoryPipeline

/// `storyreel plan INPUT... [--json]`: the work units a render of each INPUT would run, with
/// their content keys, for any job runner.
public enum PlanCommand: Command {
    public static let name = "plan"
    public static let abstract =
        "List the work units a render would run (clips, posters, stills, transitions) and their content keys."
    public static let usage =
        "plan INPUT... [--json] [--shard K/N] [--bundle OUT] [render's settings options] [--copy|--link|--reference] "
        + "[--timeout SECONDS] [--jobs N]"

    static let json = Flag("json", "Print the units as JSON: an object for one INPUT, an array for several.")
    static let shard = Option<(index: Int, count: Int)?>.ranged(
        "shard", "K/N", "List only the units of part K of N, as render --shard K/N would run them.",
        range: .shard(upTo: 1024)
    ) { $0.shard($1) }
    static let bundle = Option.folderPath(
        "bundle", "OUT",
        "Plan with the settings saved in bundle OUT, as render -o OUT would; each unit says done or to do.")
    static let copy = Flag("copy", "Plan clips copied into the bundle (the default).")
    static let link = Flag("link", "Plan clips hard-linked into the bundle.")
    static let reference = Flag("reference", "Plan no clip units: the manifest would point at the originals.")
    static let timeout = Option.number(
        "timeout", "SECONDS", "Per-clip deadline for probing and hashing.", default: 30, range: .seconds)
    static let jobs = Option.jobs("INPUTs planned at once, at most as many as the cores.")
    public static let options: [any OptionDeclaration] =
        [json, shard, bundle] + RenderCommand.settingsOptions + [copy, link, reference, timeout, jobs]
    /// The render's defaults help shows are a new bundle's (a QA pass), as in render's help.
    /// `-o OUT`, as render takes it: plan reads the bundle OUT as `--bundle` (a QA pass: it was
    /// pointed to the `-o` of thumbnail, cube and render).
    public static let familiarNames: [String: [String]] = [
        "-o": ["bundle"], "--output": ["bundle"], "--out": ["bundle"],
    ]
    public static let optionsNote: String? =
        "With --bundle OUT, the settings not given (--size through --no-player, and --copy, --link, --reference) "
        + "are the ones OUT kept from the runs that gave them; the defaults above are a new bundle's."
    public static let examples = [
        "storyreel plan samples/stories                # kind, output, input: one unit a line",
        "storyreel plan samples/stories --json | jq '.units[] | {kind, key, output}'",
        "storyreel plan samples/stories --json --shard 1/4 | jq '.units | length'",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let inputs = arguments.positionals
        guard !inputs.isEmpty else { throw UsageError("plan needs at least one INPUT") }
        let bundle = arguments[Self.bundle]
        let saved = bundle.map(BundleSettings.load(in:))
        // A refused --bundle prints the error object render prints (it printed nothing there: a QA pass).
        let options = try RenderCommand.printingFailureJSON(if: arguments[json], console: console) {
            if let bundle {
                // As render checks its INPUT before OUT: one missing INPUT is 66 whatever OUT is
                // (a QA pass: `plan nosuch --bundle a.mp4` said 73, a.mp4 is not a folder). Of
                // several INPUTs, a missing one fails alone, in the batch below.
                if inputs.count == 1 { try StoryInput.checkExists(inputs[0]) }
                // As render checks OUT: what it is first (a file is 73), then that it is outside
                // a stories folder INPUT (64), before it is described (a spec file's folder is
                // checked once the spec is read, below).
                let state = try BundleFolder.state(of: bundle)
                for input in inputs where FileStamp(path: input)?.isFolder == true {
                    try BundleFolder.checkOutside(output: bundle, inputRoot: input)
                    try BundleFolder.checkStoriesOutsideOwnFolders(output: bundle, stories: input)
                }
                // A typo in OUT would plan silently with the default settings, every unit to do.
                switch state {
                case .missing, .empty:
                    console.note(
                        "\(bundle): no bundle there yet; planned with the options given and the default settings, every "
                            + "unit to do")
                case .foreign:
                    console.warning(
                        "\(bundle): not a storyreel bundle; planned with the options given and the default settings")
                case .bundle:
                    // As render refuses it (a review: plan said nothing of a bundle render refuses).
                    try BundleGenerator.refuseNewer(bundle)
                    if let unreadable = saved?.unreadable { console.warning(unreadable) }
                }
            }
            // The settings read once, for the warning, the check and the plan.
            return try RenderCommand.renderOptions(arguments, saved: saved?.saved)
        }
        let settings = (saved?.saved ?? BundleSettings()).applying(options.settings)
        let batch = BatchRunner(inputs, jobs: arguments[jobs]) { _, input in
            let storyInput = try StoryInput.load(input)
            // As render refuses it (a QA pass: plan said what a render it refuses would do). A
            // folder INPUT is its own root, checked above; a spec's root is its folder.
            if let bundle, storyInput.root != input {
                try BundleFolder.checkOutside(output: bundle, inputRoot: storyInput.root)
            }
            return (
                storyInput.warnings,
                try BundlePlan.make(
                    input: storyInput, settings: settings, options: options, cache: nil, bundle: bundle)
            )
        }
        // Every INPUT is planned for the one bundle: its ledgers are read once.
        let target = bundle.map { (path: $0, ledger: BundleLedger(bundle: $0, shard: nil)) }
        for reason in target?.ledger.unreadable ?? [] { console.warning(reason) }
        if arguments[json] {
            // One object per INPUT, in argument order: one that failed is its error, as for inspect.
            let objects = zip(inputs, batch.results).map { input, result in
                let named = inputs.count > 1 ? input : nil
                switch result {
                case .success(let (_, plan)):
                    return planJSON(plan, input: named, bundle: target)
                case .failure(let error):
                    let failure = RenderCommand.failureJSON(error)
                    guard let named, case .object(let fields) = failure else { return failure }
                    return .object([("input", .string(named))] + fields)
                }
            }
            if inputs.count == 1 {
                // A failure is one line, as every command's `{"error", "exitCode"}` is (a CLI QA
                // pass: this one was pretty-printed, the others not); a plan is pretty-printed.
                let failed = (try? batch.results.first?.get()) == nil
                if let object = objects.first { console.output(object.serialized(pretty: !failed)) }
            } else {
                console.output(JSONValue.array(objects).serialized())
            }
        } else {
            for (index, (input, plan)) in zip(inputs, batch.results.map { try? $0.get().1 }).enumerated() {
                // Several INPUTs: each one's units under a `==> INPUT <==` line, as head and tail
                // name their files (a scripting QA pass: nothing told them apart).
                if inputs.count > 1 {
                    if index > 0 { console.output("") }
                    console.output("==> \(Console.escaped(input)) <==")
                }
                guard let plan else { continue }
                for unit in plan.shardUnits {
                    // Tab-separated: each field is escaped, so a tab in a name cannot add a column.
                    var fields = [unit.kind.rawValue, unit.output, unit.title].map(Console.escaped)
                    // With --bundle, what a render would redo, as --json's `done` says (a QA note:
                    // only the JSON told).
                    if let target {
                        fields.append(plan.isDone(unit, in: target.path, ledger: target.ledger) ? "done" : "to do")
                    }
                    console.output(fields.joined(separator: "\t"))
                }
            }
        }
        // Each INPUT's lines in argument order, and the first INPUT that failed or skipped
        // something decides the exit code, as for inspect.
        var exitCode = ExitCode.success
        for (input, result) in zip(inputs, batch.results) {
            let inputCode: ExitCode
            switch result {
            case .failure(let error):
                console.error("\(error)")
                inputCode = ExitCode(for: error)
            case .success(let (warnings, plan)):
                // Several INPUTs: each line names its INPUT first (an error names its own path).
                let from = inputs.count > 1 ? "\(input): " : ""
                for warning in warnings { console.warning(from + warning) }
                for entry in plan.skipped { console.error("\(from)\(entry.path): skipped: \(entry.reason)") }
                // As for render: nothing that plays is no input (66), not a clip skipped (65).
                if plan.nothingPlays {
                    console.error(
                        from + plan.nothingPlaysReason(skippedAny: !plan.skipped.isEmpty)
                            + plan.storiesFolderHint(input: input))
                    inputCode = .noInput
                } else {
                    inputCode = plan.skipped.isEmpty ? .success : .dataError
                }
            }
            if exitCode == .success { exitCode = inputCode }
        }
        return exitCode
    }

    /// `{"units": […], "skipped": […]}`, with `"input"` first when several INPUTs were given.
    /// With the bundle and its ledger (`--bundle`), each unit also says whether it is `done`:
    /// its output is in the bundle as a render takes it (``BundlePlan/isDone(_:in:ledger:)``),
    /// so a render would not make it again.
    static func planJSON(
        _ plan: BundlePlan, input: String?, bundle: (path: String, ledger: BundleLedger)? = nil
    ) -> JSONValue {
        let units = JSONValue.array(
            plan.shardUnits.map { unit in
                var fields: [(String, JSONValue)] = [
                    ("kind", .string(unit.kind.rawValue)), ("key", .string(unit.key)), ("output", .string(unit.output)),
                    ("story", .string(unit.story)), ("input", .string(unit.sourceLabel)),
                ]
                if let transition = unit.transition {
                    fields += [("from", .string(transition.fromStory)), ("to", .string(transition.toStory))]
                }
                if let bundle {
                    fields.append(("done", .bool(plan.isDone(unit, in: bundle.path, ledger: bundle.ledger))))
                }
                return .object(fields)
            })
        let skipped = JSONValue.array(plan.skipped.map(\.json))
        return .object(
            (input.map { [("input", JSONValue.string($0))] } ?? []) + [("units", units), ("skipped", skipped)])
    }
}
