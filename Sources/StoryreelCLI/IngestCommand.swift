import StoryMedia
import StoryPipeline

/// `storyreel ingest CLIP... --story HANDLE --into STORIES [--render OUT]`.
public enum IngestCommand: Command {
    public static let name = "ingest"
    public static let abstract = "Add new clips to a story folder safely, then optionally re-render the bundle."
    public static let usage =
        "ingest CLIP... --story HANDLE --into STORIES [--render OUT [render's settings options]] [--max-duration 60] "
        + "[--timeout S]"
    public static let options: [OptionSpec] =
        [
            .value("story", "HANDLE", "The story (user) to add the clips to; created when new."),
            .value("into", "STORIES", "The stories folder."),
            .value("render", "OUT", "Then run the incremental render of STORIES into OUT."),
            .value("max-duration", "SECONDS", "Reject clips longer than this (default 60).", range: .seconds),
            .value("timeout", "SECONDS", "Per-clip deadline (default 30).", range: .seconds),
            .flag("quiet", short: "q", "Print only errors."),
        ] + RenderCommand.settingsOptions
    public static let examples = [
        "storyreel ingest ~/uploads/IMG_1539.MOV --story ana.lima --into stories",
        "storyreel ingest new/*.mov --story ben_k --into stories --render build/reel",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("ingest needs at least one CLIP") }
        guard let handle = arguments.string("story") else { throw UsageError("ingest needs --story HANDLE") }
        guard let stories = arguments.string("into") else { throw UsageError("ingest needs --into STORIES") }
        if let problem = StoryHandle.problem(with: handle) { throw UsageError("--story '\(handle)': \(problem)") }
        let renderOptions = try arguments.string("render").map {
            try RenderCommand.renderOptions(arguments, bundle: $0)
        }
        if renderOptions == nil,
            let given = RenderCommand.settingsOptions.first(where: { arguments.values[$0.name] != nil })
        {
            throw UsageError("--\(given.name) is a setting of the render: give it with --render OUT")
        }
        var console = console
        console.quiet = arguments.flag("quiet")
        let ingester = ClipIngester(
            storiesFolder: stories, handle: handle, maxDuration: try arguments.double("max-duration") ?? 60,
            timeout: try arguments.double("timeout") ?? 30)
        let outcomes = try ingester.ingest(arguments.positionals)
        var exitCode = ExitCode.success
        for (clip, outcome) in zip(arguments.positionals, outcomes) {
            switch outcome {
            case .ingested(let name, let playsBefore):
                console.output("\(clip): ingested as \(handle)/\(name)")
                if !playsBefore.isEmpty {
                    console.warning(
                        "\(handle)/\(name) plays before \(playsBefore.joined(separator: ", ")): names that do not "
                            + "start with a number sort after numbered ones; number them to set the order")
                }
            case .alreadyPresent(let name): console.output("\(clip): already ingested as \(handle)/\(name)")
            case .rejected(let reason):
                console.error("\(clip): rejected: \(reason)")
                exitCode = .dataError
            }
        }
        if let output = arguments.string("render"), var options = renderOptions {
            options.timeout = try arguments.double("timeout") ?? options.timeout
            let summary = try BundleRenderer(input: stories, output: output, options: options)
                .run(waiting: RenderCommand.waitingNote(output, console: console))
            RenderCommand.report(summary, console: console, json: false)
            if !summary.skipped.isEmpty { exitCode = .dataError }
        }
        return exitCode
    }
}
