import StoryMedia
import StoryPipeline

/// The storyreel command line: picks the subcommand, parses its options, runs it, and maps
/// every error to a one-line message and a sysexits code.
public enum Storyreel {
    /// The version printed by `--version` and written into manifests.
    public static let version = BundlePlan.toolVersion

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
    public static func main(_ arguments: [String]) -> Int32 {
        FFmpegLog.silence()
        let console = Console()
        guard let first = arguments.first else {
            console.error("no command given")
            console.output(overview)
            return ExitCode.usage.rawValue
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.output(command.helpText)
            } else {
                console.output(overview)
            }
            return 0
        case "--version":
            console.output("storyreel \(version)")
            return 0
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let names = commands.map(\.name)
            let closest = names.min {
                ArgumentParser(options: []).editDistance($0, first)
                    < ArgumentParser(options: []).editDistance($1, first)
            }
            let hint = closest.map { "; did you mean '\($0)'?" } ?? ""
            console.error("unknown command '\(first)'\(hint)")
            console.note("run 'storyreel --help' for the list of commands")
            return ExitCode.usage.rawValue
        }
        do {
            let parsed = try ArgumentParser(options: command.options).parse(Array(arguments.dropFirst()))
            if parsed.flag("help") {
                console.output(command.helpText)
                return 0
            }
            return try command.run(parsed, console).rawValue
        } catch let error as UsageError {
            console.error(error.message)
            console.note("run 'storyreel \(command.name) --help' for usage")
            return ExitCode.usage.rawValue
        } catch {
            console.error("\(error)")
            return ExitCode(for: error).rawValue
        }
    }

    static var overview: String {
        let width = commands.map(\.name.count).max() ?? 0
        let lines = commands.map {
            "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.abstract
        }
        return """
            OVERVIEW: storyreel \(version): pre-renders story videos: inspect, posters, cube transitions, bundles.

            USAGE: storyreel <command> [options]

            COMMANDS:
            \(lines.joined(separator: "\n"))

            Run 'storyreel <command> --help' for a command's options and examples.
            """
    }
}
