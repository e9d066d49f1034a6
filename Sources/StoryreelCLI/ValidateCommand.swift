import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel validate MANIFEST|BUNDLE [--root DIR] [--timeout SECONDS] [--json]`: one line per
/// problem, each with its JSON path; exit 65 when there are any. `--json` also prints
/// `{"manifest", "valid", "problems"}` on stdout (or `{"error", "exitCode"}` when the manifest
/// cannot be read at all), as `render --json` prints its summary.
public enum ValidateCommand: Command {
    public static let name = "validate"
    public static let abstract = "Check a bundle's manifest against the schema, its files and its clips' hashes."
    public static let usage = "validate MANIFEST|BUNDLE [--root DIR] [--timeout SECONDS] [--json]"
    static let root = Option.folderPath(
        "root", "DIR", "Referenced files may be anywhere inside DIR (default: the bundle), for --reference.")
    static let timeout = Option.number(
        "timeout", "SECONDS", "Give up on a clip's hash after this long.", default: 30, range: .seconds)
    static let json = Flag(
        "json", "Also print {\"manifest\", \"valid\", \"problems\"} on stdout (problems stay on stderr).")
    public static let options: [any OptionDeclaration] = [root, timeout, json]
    public static let examples = [
        "storyreel validate build/reel/manifest.json   # after: storyreel render samples/stories -o build/reel",
        "storyreel validate build/reel                 # the same: BUNDLE/manifest.json",
        "storyreel validate reel --root .              # a bundle rendered with --reference: its clips are outside",
        "storyreel validate build/reel --json | jq -r '.problems[]'",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError("validate needs exactly one MANIFEST or BUNDLE")
        }
        let timeout = arguments[timeout]
        let json = arguments[json]
        var path = arguments.positionals[0]
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            path = (path as NSString).appendingPathComponent("manifest.json")
        }
        // A manifest in its bundle, as render takes it: a symbolic link is not followed, given
        // as BUNDLE or as the file (a QA pass: one leading out of a downloaded bundle had
        // validate print a file's values, a token, in its problems; to /proc/self/mem it exited
        // 74), and its files would be looked for beside the link.
        let problems = try RenderCommand.printingFailureJSON(if: json, console: console) {
            if FileStamp(path: path, followingLinks: false)?.isSymbolicLink == true {
                throw MediaError(
                    .missingInput, path: path, "is a symbolic link, not a manifest in its bundle; give its target")
            }
            return try ManifestValidator.problems(inManifestAt: path, root: arguments[root], timeout: timeout)
        }
        for problem in problems { console.error("\(path): \(problem)") }
        if json {
            let summary = JSONValue.object([
                ("manifest", .string(path)), ("valid", .bool(problems.isEmpty)),
                ("problems", .array(problems.map { .string($0) })),
            ])
            console.output(summary.serialized(pretty: false))
        } else if problems.isEmpty {
            console.line("\(path): valid")
        }
        return problems.isEmpty ? .success : .dataError
    }
}
