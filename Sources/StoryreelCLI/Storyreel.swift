import StoryMedia
import StoryPipeline

/// The storyreel command line: picks the subcommand, parses its options, runs it, and maps
/// every error to a one-line message and a sysexits code.
public enum Storyreel {
    /// The tool's version, which the overview names and manifests' `generator` carries.
    public static let version = BundlePlan.toolVersion
    /// What `--version` (`-v`, `version`) prints: the version with the renderer's and the
    /// probe's (`storyreel 0.3.0 (renderer 11, probe 8)`).
    public static let versionLine = BundleGenerator.versionLine

    /// Every subcommand, in the order `--help` lists them.
    static let commands: [CommandDescriptor] = [
        CommandDescriptor(InspectCommand.self),
        CommandDescriptor(ThumbnailCommand.self),
        CommandDescriptor(CubeCommand.self),
        CommandDescriptor(RenderCommand.self),
        CommandDescriptor(IngestCommand.self),
        CommandDescriptor(PlanCommand.self),
        CommandDescriptor(ValidateCommand.self),
    ]

    /// Runs storyreel with `arguments` (without the program name) and returns the exit status.
    /// A usage error writes one line to stderr (the error, the command's synopsis and where its
    /// help is) and nothing to stdout. Output that cannot be written to stdout (a full disk behind
    /// `>`) makes the status 74, with an error line.
    /// It runs with at least 8 MB of stack whatever `ulimit -s` says (``ThreadStack``).
    public static func main(_ arguments: [String]) -> Int32 {
        ThreadStack.withRoom {
            Console.reserveStandardDescriptors()
            let status = run(arguments)
            // Output that could not be written is lost work for whoever reads it: the run failed.
            guard let failure = Console.outputFailure, status != ExitCode.ioError.rawValue else { return status }
            Console().error("cannot write to standard output: \(failure)")
            return ExitCode.ioError.rawValue
        }
    }

    private static func run(_ arguments: [String]) -> Int32 {
        AllocatorTuning.apply()
        FFmpegLog.silence()
        HugePages.disable()
        InterruptCleanup.ignoreWriteSignals()
        let console = Console()
        guard let first = arguments.first else {
            // One line, as every usage error: the commands, and where the overview is.
            console.error(
                "no command given; usage: storyreel <command> [options], where <command> is one of "
                    + commands.map(\.name).joined(separator: ", ") + " (see 'storyreel --help')")
            return ExitCode.usage.rawValue
        }
        switch first {
        case "--help", "-h", "help":
            guard arguments.count > 1 else {
                console.output(overview(.standardOutput))
                return 0
            }
            // `help render extra`: one command's help at a time, as `--version` takes no arguments
            // (the extra word was ignored).
            guard arguments.count == 2 else {
                console.error(
                    "\(first) takes one command, got '\(arguments[2])' after '\(arguments[1])'; usage: storyreel help <command>"
                )
                return ExitCode.usage.rawValue
            }
            // `help help`, `help --version`: the overview is their help (a QA pass: "unknown command
            // 'help'; did you mean 'help'?").
            if ["help", "--help", "-h", "version", "--version", "-v"].contains(arguments[1]) {
                console.output(overview(.standardOutput))
                return 0
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return unknownCommand(arguments[1], console: console)
            }
            console.output(command.layOutHelp(.standardOutput))
            return 0
        case "--version", "-v", "version":
            guard arguments.count == 1 else {
                console.error("\(first) takes no arguments, got '\(arguments[1])'; usage: storyreel --version")
                return ExitCode.usage.rawValue
            }
            console.output(versionLine)
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            return unknownCommand(first, console: console)
        }
        do {
            // Other commands' options as typed, their short names included (`inspect -o` is told
            // that `-o` is thumbnail's, cube's and render's), each with its dashes: a short name
            // is never offered as a long one (a QA pass: `render --zz` was pointed to `--j`). Hidden
            // aliases too: `inspect --out` was pointed to thumbnail's `--at` (a CLI QA pass).
            let others = commands.filter { $0.name != command.name }.map { other in
                (other.name, other.options.flatMap(\.spellings))
            }
            let parser = ArgumentParser(
                options: command.options, otherCommands: others, familiarNames: command.familiarNames)
            let parsed = try parser.parse(Array(arguments.dropFirst()))
            if parsed[Flag.help] {
                console.output(command.layOutHelp(.standardOutput))
                return 0
            }
            /// The system cannot give what every command needs: `message`, 71.
            func systemShortage(_ message: String) -> Int32 {
                console.error(message)
                // `render`, `ingest`, `plan` and `validate --json` print every failure but a
                // usage error as JSON on stdout too (a QA pass: this one printed nothing there;
                // `validate` was left out, a CLI QA pass); so does `inspect --json`, whose array of
                // clips is then this object (a scripting QA pass: an empty stdout read as an empty
                // result through `jq '.[]'`).
                if ["render", "ingest", "plan", "validate", "inspect"].contains(command.name),
                    parsed.values["json"] != nil
                {
                    console.output(
                        RenderCommand.failureJSON(message: message, exitCode: .osError).serialized(pretty: false))
                }
                return ExitCode.osError.rawValue
            }
            // Every command starts threads: short of them, libdispatch retried for ever (a hang).
            // Parsing starts none, so a usage error still comes first.
            if let failure = ThreadCapacity.probe(reserving: MediaLibraries.addressSpaceToReserve) {
                return systemShortage("\(ThreadCapacity.shortageReason) (\(SystemErrorText.describe(failure)))")
            }
            // From here on, Ctrl-C, SIGTERM, SIGHUP or SIGXCPU removes this run's temporary files
            // and the folders it made that are still empty, before the process dies of the
            // signal; a file-size limit is an I/O error (74).
            InterruptCleanup.install()
            // After install: libdispatch's threads start here, and inherit the signals it blocks.
            if let shortage = DescriptorLimit.prepare() { return systemShortage(shortage) }
            return try command.run(parsed, console).rawValue
        } catch let error as UsageError {
            console.error(
                error.showsUsage
                    ? "\(error.message); usage: storyreel \(command.synopsis) (see 'storyreel \(command.name) --help')"
                    : error.message)
            return ExitCode.usage.rawValue
        } catch {
            console.error("\(error)")
            return ExitCode(for: error).rawValue
        }
    }

    /// `unknown command 'thumbnails'; did you mean 'thumbnail'?`, on stderr: 64.
    static func unknownCommand(_ name: String, console: Console) -> Int32 {
        let known = commands.map(\.name) + ["help", "version"]
        var message = "unknown command '\(name)'"
        // `storyreel --verison`: the overview's own options come first.
        if name.hasPrefix("-"), let closest = ArgumentParser.closest(to: name, among: ["--help", "--version"]) {
            message = "unknown option '\(name)'; did you mean '\(closest)'?"
        } else if let closest = ArgumentParser.closest(to: name, among: known) {
            message += "; did you mean '\(closest)'?"
        } else if name.hasPrefix("-") {
            let bare = String(name.drop { $0 == "-" })
            let takers = commands.filter { command in
                command.options.contains { $0.isNamed(bare) || (bare.count == 1 && $0.short == bare.first) }
            }.map(\.name)
            if !takers.isEmpty {
                // As the option is spelled: `-json` is `--json` (a QA pass: it said '-json' is an
                // option, and moved after the command it was a second usage error).
                let spelled = bare.count == 1 ? "-\(bare)" : "--\(bare)"
                message +=
                    "; options go after the command ('\(spelled)' is an option of \(takers.joined(separator: ", ")))"
            }
        }
        console.error(message + " (see 'storyreel --help' for the commands)")
        return ExitCode.usage.rawValue
    }

    /// `storyreel --help`: the commands and what each does, each paragraph on one line.
    static var overview: String { overview(HelpLayout(columns: nil)) }

    /// `storyreel --help` laid out by `layout`.
    static func overview(_ layout: HelpLayout) -> String {
        let rows = commands.map { (term: $0.name, description: $0.abstract) }
        let summary = "storyreel \(version): pre-renders story videos: inspect, posters, cube transitions, bundles."
        var lines = layout.lines("OVERVIEW: ", summary, indent: 2)
        lines += ["", "USAGE: storyreel <command> [options]", "", "COMMANDS:"] + layout.table(rows) + [""]
        // Every command's codes in one place, as a script's author looks for them (a QA pass:
        // they were in six sections of the README, and in no help).
        let codes =
            ExitCode.meanings.map { (term: "\($0.0.rawValue)", description: $0.1) }
            + [
                (
                    term: "130, 143, 129",
                    description: "interrupted (SIGINT, SIGTERM, SIGHUP): nothing half-written is left"
                )
            ]
        lines += ["EXIT CODES (sysexits):"] + layout.table(codes) + [""]
        lines += layout.lines("", "Run 'storyreel <command> --help' for a command's options and examples,", indent: 0)
        lines += layout.lines("", "and 'storyreel --version' (or -v, or version) for the version.", indent: 0)
        return lines.joined(separator: "\n")
    }
}
