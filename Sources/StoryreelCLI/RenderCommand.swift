import CubeRender
import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel render INPUT -o OUT`: a stories folder or spec in, a bundle with a manifest out.
public enum RenderCommand: Command {
    public static let name = "render"
    public static let abstract = "Render a stories folder (or JSON spec) into a bundle with manifest.json."
    public static let usage =
        "render INPUT -o OUT [--jobs N] [--shard K/N] [--size WxH|auto] [--fps FPS] [--transition-duration SECONDS] "
        + "[--both-directions|--forward-only] [--crf N] [--codec h264|hevc] [--max-bitrate BITS|auto] "
        + "[--player|--no-player] [--copy|--link|--reference] [--prune] [--force] [--timeout SECONDS] "
        + "[--lock-timeout SECONDS] [--quiet] [--json]"
    static let output = Option.output("OUT", "The bundle folder (created when missing).")
    static let jobs = Option.jobs("Work units at once, at most as many as the cores.")
    static let shard = Option<(index: Int, count: Int)?>.ranged(
        "shard", "K/N", "Render only part K of N of the work; write no manifest.", range: .shard(upTo: 1024)
    ) { $0.shard($1) }
    static let copy = Flag("copy", "Copy clips into clips/ (the default).")
    static let link = Flag("link", "Hard-link clips into clips/, copying across file systems.")
    static let reference = Flag("reference", "Point the manifest at the original clips by relative path.")
    static let prune = Flag("prune", "Remove outputs storyreel wrote that nothing references any more.")
    static let force = Flag(
        "force", "Render into a folder that holds other files too (storyreel touches only its own).")
    static let timeout = Option.number(
        "timeout", "SECONDS",
        "Deadline of each step of a clip: reading it, its images, each transition into or out of it.",
        default: 30, range: .seconds)
    static let lockTimeout = Option.number(
        "lock-timeout", "SECONDS", "Wait this long for another render's lock, then exit 75.", default: 60,
        range: .number(from: 0, to: 86_400))
    // Warnings and notes go too, as under ingest's `--quiet` (a QA pass: the help said only
    // progress and summary).
    static let quiet = Flag("quiet", short: "q", "Print only errors (no progress, warnings, notes or summary).")
    static let json = Flag("json", "Print only a JSON summary on stdout.")
    public static let options: [any OptionDeclaration] =
        [output, jobs, shard] + settingsOptions + [
            copy, link, reference, prune, force, timeout, lockTimeout, quiet, json,
        ]
    /// The defaults help shows are a new bundle's: a bundle keeps the settings a run was given,
    /// and later runs use them (a QA pass: `--crf … Default: 23` read as what every run without
    /// `--crf` does).
    public static let optionsNote: String? =
        "Settings given (--size through --no-player, and --copy, --link, --reference) are kept in the bundle "
        + "(OUT/.storyreel/settings.json) and used by later runs until given again; the defaults above are a new "
        + "bundle's."
    public static let examples = [
        "storyreel render samples/stories -o build/reel                # what make demo runs",
        "storyreel render samples/stories -o build/reel --crf 20      # kept: later renders use CRF 20 too",
        "storyreel render samples/stories -o reel --both-directions --size 720x1280 --json",
        "storyreel render samples/stories -o shard2 --shard 2/3       # one CI machine's part",
    ]

    /// The defaults of a new bundle's settings.
    static let defaults = BundleSettings()
    static let size = Option<BundleSettings.Canvas>(
        "size", "WxH|auto", "Canvas of transitions and stills.",
        defaultText: "auto: the largest item of the commonest shape, fitted in 1080x1920",
        accepted: OptionRange.canvas.orAutomatic.description, range: OptionRange.canvas.orAutomatic,
        default: { defaults.canvas },
        convert: { text in
            OptionRange.isAutomatic(text)
                ? .automatic : OptionRange.canvas.size(text).map { .fixed(width: $0.width, height: $0.height) }
        })
    static let fps = Option.number(
        "fps", "FPS", "Transition frame rate; round(duration × fps) frames, 1 to 1000.", default: defaults.fps,
        range: .framesPerSecond)
    static let transitionDuration = Option.number(
        "transition-duration", "SECONDS", "Transition length.", default: defaults.transitionDuration,
        range: .transitionSeconds)
    static let bothDirections = Flag("both-directions", "Also render backward transitions.")
    static let forwardOnly = Flag("forward-only", "Render forward transitions only (the default).")
    // Worded for render and plan alike, which share them (a docs audit: plan's help said "Write").
    static let player = Flag("player", "The player page, index.html (the default).")
    static let noPlayer = Flag("no-player", "No player page (index.html); a render removes the one storyreel wrote.")
    static let crf = Option.wholeNumber(
        "crf", "N", "Transitions' constant rate factor, lower is better.", default: defaults.crf,
        range: .wholeNumber(BundleSettings.rateFactors))
    static let codec = Option.choice(
        "codec", "Transitions' codec.", default: defaults.codec, familiarValues: VideoEncoder.Codec.familiarNames)
    static let maxBitrate = Option<BundleSettings.Peak>(
        "max-bitrate", "BITS|auto", "Transitions' peak bit rate.",
        defaultText: "auto: 2 × the higher of the clips joined, at least a floor",
        accepted: OptionRange.peakBitRate.orAutomatic.description, range: OptionRange.peakBitRate.orAutomatic,
        default: { defaults.peak },
        convert: { text in
            OptionRange.isAutomatic(text) ? .rule : OptionRange.peakBitRate.bitRate(text).map { .fixed($0) }
        })

    /// The bundle settings, saved in `.storyreel/settings.json`: a later run without them keeps
    /// them (shared by `render`, `plan` and `ingest --render`).
    static let settingsOptions: [any OptionDeclaration] = [
        size, fps, transitionDuration, bothDirections, forwardOnly, crf, codec, maxBitrate, player, noPlayer,
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let positionals = arguments.positionals
        guard positionals.count == 1 else {
            // `render stories out`, as `cp` is written, is the slip to name.
            let slip =
                positionals.count == 2 && arguments[output] == nil
                ? "; did you mean -o '\(positionals[1].replacingOccurrences(of: "'", with: #"'\''"#))'?" : ""
            throw UsageError("render needs exactly one INPUT (got \(positionals.count)\(slip))")
        }
        guard let output = arguments[output] else { throw UsageError("render needs -o OUT") }
        try InputProtection.checkNameLengths([.init(label: "-o '\(output)'", path: output)])
        let saved = BundleSettings.saved(in: output)
        var options = try renderOptions(arguments, saved: saved)
        options.prune = arguments[prune]
        options.force = arguments[force]
        options.lockTimeout = arguments[lockTimeout]
        var console = console
        console.quiet = arguments[quiet]
        let levelWarning = warnAboutLevel(options, saved: saved, console: console)
        let waiting = console.lockWaitingNote(output)
        // `--json` silences the progress bar only: warnings and notes still go to stderr.
        var barConsole = console
        barConsole.quiet = console.quiet || arguments[json]
        let bar = ProgressBar(console: barConsole)
        var summary = try printingFailureJSON(if: arguments[json], console: console) {
            try BundleRenderer(input: arguments.positionals[0], output: output, options: options)
                .run(waiting: waiting) { bar.update($0) }
        }
        // Printed before the work, and in the JSON's warnings too (a review: it was missing).
        summary.warnings.insert(contentsOf: levelWarning.map { [$0] } ?? [], at: 0)
        report(summary, console: console, json: arguments[json], alreadyPrinted: levelWarning.map { [$0] } ?? [])
        return exitCode(of: summary)
    }

    /// 0 when nothing was skipped, 65 when some clips were (the rest was rendered: a batch takes
    /// that as done), 75 when one was skipped because it changed while it was read (the next run
    /// takes it), 66 when nothing plays (a CI step that accepts 65 must not pass a render of an
    /// empty mount, or of clips none of which could be read).
    static func exitCode(of summary: RenderSummary) -> ExitCode {
        if summary.nothingPlays { return .noInput }
        if summary.skipped.isEmpty { return .success }
        return summary.mustRunAgain ? .temporaryFailure : .dataError
    }

    /// Warns, before any work, when the canvas the bundle's settings (`saved`, with `options`
    /// applied) fix is over the largest H.264/HEVC level picture (`render`, `ingest --render`),
    /// and returns the warning, for the JSON summary's warnings.
    static func warnAboutLevel(_ options: RenderOptions, saved: BundleSettings?, console: Console) -> String? {
        guard case .fixed(let width, let height) = (saved ?? BundleSettings()).applying(options.settings).canvas,
            let warning = LevelLimit.warning(width: width, height: height)
        else { return nil }
        let line = "transitions: \(warning)"
        console.warning(line)
        return line
    }

    /// The options shared by `render`, `plan` and `ingest --render`; the settings given are
    /// checked together with the bundle's `saved` ones (when it has some), before any work.
    static func renderOptions(_ arguments: ParsedArguments, saved: BundleSettings?) throws -> RenderOptions {
        var options = RenderOptions()
        options.settings = try settingsOverrides(arguments)
        if arguments.declared.contains(copy.spec.name) {
            let modes: [(Flag, RenderOptions.ClipMode)] = [(copy, .copy), (link, .link), (reference, .reference)]
            let chosen = modes.filter { arguments[$0.0] }
            guard chosen.count <= 1 else { throw UsageError("choose one of --copy, --link, --reference") }
            options.settings.clips = chosen.first?.1
        }
        let settings = (saved ?? BundleSettings()).applying(options.settings)
        do {
            try OptionRange.checkTransitionFrames(
                duration: settings.transitionDuration, fps: settings.fps, durationOption: "transition-duration")
        } catch let error as UsageError {
            // A value the bundle kept is named as kept, not as if given (a QA pass).
            let kept = [
                options.settings.transitionDuration == nil
                    ? "--transition-duration \(OptionRange.format(settings.transitionDuration))" : nil,
                options.settings.fps == nil ? "--fps \(OptionRange.format(settings.fps))" : nil,
            ].compactMap { $0 }
            guard saved != nil, !kept.isEmpty else { throw error }
            throw UsageError(
                error.message + " (\(kept.joined(separator: " and ")) kept from the bundle's settings; give "
                    + (kept.count == 1 ? "it" : "them") + " to change)")
        }
        if settings.codec == .hevc, case .fixed(let width, let height) = settings.canvas {
            do {
                try CubeTransitionJob.checkHEVC(width: width, height: height)
            } catch let error as CubeRenderError {
                // A kept size or codec is named as kept, as above (a QA pass: `--codec hevc` on a
                // bundle kept at 14x14 was told "got 14x14", a size that run was not given).
                let kept = [
                    options.settings.canvas == nil ? "--size \(width)x\(height)" : nil,
                    options.settings.codec == nil ? "--codec hevc" : nil,
                ].compactMap { $0 }
                guard saved != nil, !kept.isEmpty else { throw UsageError(error.message) }
                throw UsageError(
                    error.message + " or give --size WxH (\(kept.joined(separator: " and ")) kept from the bundle's "
                        + "settings)")
            }
        }
        // How clips get in is a kept setting: a later render without the flag keeps the mode.
        options.clipMode = settings.clips
        if arguments.declared.contains(jobs.spec.name) { options.jobs = arguments[jobs] }
        options.timeout = arguments[timeout]
        if arguments.declared.contains(shard.spec.name), let shard = arguments[shard] {
            options.shard = .init(index: shard.index, count: shard.count)
        }
        return options
    }

    /// The settings given on the command line.
    static func settingsOverrides(_ arguments: ParsedArguments) throws -> BundleSettings.Overrides {
        var overrides = BundleSettings.Overrides()
        overrides.canvas = arguments.given(size)
        overrides.fps = arguments.given(fps)
        overrides.transitionDuration = arguments.given(transitionDuration)
        switch (arguments[bothDirections], arguments[forwardOnly]) {
        case (true, true): throw UsageError("give --both-directions or --forward-only, not both")
        case (true, false): overrides.bothDirections = true
        case (false, true): overrides.bothDirections = false
        case (false, false): break
        }
        switch (arguments[player], arguments[noPlayer]) {
        case (true, true): throw UsageError("give --player or --no-player, not both")
        case (true, false): overrides.player = true
        case (false, true): overrides.player = false
        case (false, false): break
        }
        overrides.crf = arguments.given(crf)
        overrides.codec = arguments.given(codec)
        overrides.peak = arguments.given(maxBitrate)
        return overrides
    }

    /// `body`'s value; when it throws, and `json` is set, prints ``failureJSON(_:)`` of the
    /// error on stdout first, so that a script reading stdout gets an object whatever happened
    /// (the line is on stderr too), but for a usage error (64), which prints only its line.
    static func printingFailureJSON<Value>(if json: Bool, console: Console, _ body: () throws -> Value) throws
        -> Value
    {
        do {
            return try body()
        } catch {
            if json, ExitCode(for: error) != .usage { console.output(failureJSON(error).serialized(pretty: false)) }
            throw error
        }
    }

    /// What `--json` prints when a run fails: `{"error": the stderr line's message, "exitCode": N}`.
    static func failureJSON(_ error: Error) -> JSONValue {
        failureJSON(message: "\(error)", exitCode: ExitCode(for: error))
    }

    /// The same for a failure that is a message and an exit code, not an `Error`.
    static func failureJSON(message: String, exitCode: ExitCode) -> JSONValue {
        .object([("error", .string(message)), ("exitCode", .int(Int(exitCode.rawValue)))])
    }

    /// Prints the warnings, notes and skipped entries (stderr), then the summary line, or with
    /// `json` the JSON summary; `summaryLine` false: neither (`ingest --json` prints the summary
    /// in its own object). Warnings in `alreadyPrinted` (said before the work, or by `ingest`
    /// as each clip went in) are not said again; the JSON keeps them.
    static func report(
        _ summary: RenderSummary, console: Console, json: Bool, summaryLine: Bool = true, alreadyPrinted: [String] = []
    ) {
        for warning in summary.warnings where !alreadyPrinted.contains(warning) { console.warning(warning) }
        for note in summary.allNotes { console.note(note) }
        for entry in summary.skipped {
            console.error("\(entry.path): skipped: \(entry.reason)")
        }
        // Last, as the run's outcome: an error, which its exit code (66) is (a QA pass: it was a
        // warning, above a summary line, and the run's only line that said why it failed).
        defer { if let line = summary.nothingPlaysLine { console.error(line) } }
        guard summaryLine else { return }
        if json {
            console.output(summary.json.serialized(pretty: false))
            return
        }
        var line = String(
            format: "rendered %d, cached %d, skipped %d in %.1f s", summary.rendered, summary.cached,
            summary.skipped.count, summary.seconds)
        if summary.pruned > 0 { line += ", pruned \(summary.pruned)" }
        line += summary.manifestPath.map { "; manifest: \($0)" } ?? (summary.isShard ? " (shard: no manifest)" : "")
        console.note(line)
    }
}
