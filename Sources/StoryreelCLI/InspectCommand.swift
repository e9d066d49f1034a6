import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel inspect CLIP... [--json] [--timeout SECONDS] [--quiet]`: probes clips in parallel and
/// prints their metadata, as a readable block per clip or as a JSON array.
public enum InspectCommand: Command {
    public static let name = "inspect"
    public static let abstract = "Report a clip's container, video, audio and tags (human-readable or JSON)."
    public static let usage = "inspect CLIP... [--json] [--timeout SECONDS] [--jobs N] [--quiet]"

    static let json = Flag("json", "Print a JSON array, one object per clip, in argument order.")
    static let timeout = Option.number(
        "timeout", "SECONDS", "Give up on a clip after this long.", default: 30, range: .seconds)
    static let jobs = Option.jobs("Clips probed at once, at most as many as the cores.")
    /// A script reading `--json` has every warning there; stderr's copies were noise in its log
    /// (a QA pass: `-q` was in three commands of seven).
    static let quiet = Flag(
        "quiet", short: "q", "Print only errors on stderr (the block and the JSON still hold each clip's warnings).")
    public static let options: [any OptionDeclaration] = [json, timeout, jobs, quiet]
    public static let examples = [
        "storyreel inspect samples/iphone-hevc-hdr.mov      # a readable summary",
        "storyreel inspect --json samples/stories/*/*.[Mm][Oo][Vv] | jq '.[].video.rotation'   # globs match case on Linux",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let paths = arguments.positionals
        guard !paths.isEmpty else { throw UsageError("inspect needs at least one CLIP") }
        var console = console
        console.quiet = arguments[quiet]
        let timeout = arguments[Self.timeout]
        let batch = BatchRunner(paths, jobs: arguments[jobs]) { _, path in
            try ClipProbe.inspect(path: path, timeout: timeout)
        }
        batch.reportFailures(to: console)
        if arguments[json] {
            let array = zip(paths, batch.results).map { path, result in
                switch result {
                case .success(let info): return info.json
                case .failure(let error):
                    return ClipInfo.failureJSON(
                        path: path, message: MediaError.reason(of: error),
                        exitCode: Int(ExitCode(for: error).rawValue))
                }
            }
            console.output(JSONValue.array(array).serialized())
        } else {
            let blocks = batch.results.compactMap { try? $0.get() }.map(ClipInfoReport.text)
            if !blocks.isEmpty { console.output(blocks.joined(separator: "\n")) }
        }
        for case .success(let info) in batch.results {
            for warning in info.warnings { console.warning("\(info.path): \(warning)") }
        }
        return batch.exitCode
    }
}
