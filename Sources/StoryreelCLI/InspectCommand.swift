import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel inspect CLIP... [--json] [--timeout SECONDS]`: probes clips in parallel and
/// prints their metadata, as a readable block per clip or as a JSON array.
public enum InspectCommand: Command {
    public static let name = "inspect"
    public static let abstract = "Report a clip's container, video, audio and tags (human-readable or JSON)."
    public static let usage = "inspect CLIP... [--json] [--timeout SECONDS] [--jobs N]"
    public static let options: [OptionSpec] = [
        .flag("json", "Print a JSON array, one object per clip, in argument order."),
        .value("timeout", "SECONDS", "Give up on a clip after this long (default 30).", range: .seconds),
        .value("jobs", short: "j", "N", "Clips probed at once (default: all cores).", range: .jobs),
    ]
    public static let examples = [
        "storyreel inspect IMG_0001.MOV                # a readable summary",
        "storyreel inspect --json clips/*.mov | jq '.[].video.rotation'",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let paths = arguments.positionals
        guard !paths.isEmpty else { throw UsageError("inspect needs at least one CLIP") }
        let timeout = try arguments.double("timeout") ?? 30
        let jobs = try arguments.int("jobs") ?? Parallel.coreCount
        let results: [Result<ClipInfo, MediaError>] = Parallel.map(paths.count, jobs: jobs) { index in
            Result { try ClipProbe.inspect(path: paths[index], timeout: timeout) }.mapError { error in
                (error as? MediaError) ?? MediaError(.ioFailure, path: paths[index], "\(error)")
            }
        }
        var exitCode = ExitCode.success
        for result in results {
            if case .failure(let error) = result {
                console.error(error.description)
                if exitCode == .success { exitCode = ExitCode(for: error) }
            }
        }
        if arguments.flag("json") {
            let array = zip(paths, results).map { path, result in
                switch result {
                case .success(let info): return info.json
                case .failure(let error): return ClipInfo.failureJSON(path: path, message: error.reason)
                }
            }
            console.output(JSONValue.array(array).serialized())
        } else {
            let blocks = results.compactMap { try? $0.get() }.map(ClipInfoReport.text)
            if !blocks.isEmpty { console.output(blocks.joined(separator: "\n")) }
        }
        for case .success(let info) in results {
            for warning in info.warnings { console.warning("\(info.path): \(warning)") }
        }
        return exitCode
    }
}
