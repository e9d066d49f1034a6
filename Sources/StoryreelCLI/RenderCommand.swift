import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel render INPUT -o OUT`: a stories folder or spec in, a bundle with a manifest out.
public enum RenderCommand: Command {
    public static let name = "render"
    public static let abstract = "Render a stories folder (or JSON spec) into a bundle with manifest.json."
    public static let usage =
        "render INPUT -o OUT [--jobs N] [--shard K/N] [--size WxH|auto] [--fps 30] [--transition-duration 0.5] "
        + "[--both-directions|--forward-only] [--crf 23] [--codec h264|hevc] [--max-bitrate BITS|auto] "
        + "[--player|--no-player] [--copy|--link|--reference] [--prune] [--force] [--timeout S] [--lock-timeout S] [--quiet] [--json]"
    public static let options: [OptionSpec] =
        [
            .value("out", short: "o", "OUT", "The bundle folder (created when missing)."),
            .value("jobs", short: "j", "N", "Work units at once (default: all cores).", range: .jobs),
            .value(
                "shard", "K/N", "Render only part K of N of the work; write no manifest.", range: .shard(upTo: 1024)),
        ] + settingsOptions + [
            .flag("copy", "Copy clips into clips/ (default)."),
            .flag("link", "Hard-link clips into clips/, copying across file systems."),
            .flag("reference", "Point the manifest at the original clips by relative path."),
            .flag("prune", "Remove outputs storyreel wrote that nothing references any more."),
            .flag("force", "Render into a folder that holds other files too (storyreel touches only its own)."),
            .value("timeout", "SECONDS", "Per-clip deadline (default 30).", range: .seconds),
            .value(
                "lock-timeout", "SECONDS", "Wait this long for another render's lock (default 60), then exit 75.",
                range: .number(from: 0, to: 86_400)),
            .flag("quiet", short: "q", "Print only errors."),
            .flag("json", "Print only a JSON summary on stdout."),
        ]
    public static let examples = [
        "storyreel render samples/stories -o build/reel",
        "storyreel render samples/stories -o build/reel --crf 20     # kept: later renders use CRF 20 too",
        "storyreel render stories.json -o reel --both-directions --size 720x1280",
        "storyreel render stories -o reel --shard 2/3     # one CI machine's part",
    ]

    /// The bundle settings, saved in `.storyreel/settings.json`: a later run without them keeps
    /// them (shared by `render`, `plan` and `ingest --render`).
    static let settingsOptions: [OptionSpec] = [
        .value(
            "size", "WxH|auto",
            "Canvas of transitions and stills (default auto: the largest item, fitted in 1080x1920).",
            range: OptionRange.canvas.orAutomatic),
        .value(
            "fps", "FPS", "Transition frame rate (default 30); round(duration × fps) frames, 1 to 1000.",
            range: .framesPerSecond),
        .value("transition-duration", "SECONDS", "Transition length (default 0.5).", range: .transitionSeconds),
        .flag("both-directions", "Also render backward transitions."),
        .flag("forward-only", "Render forward transitions only (the default)."),
        .value(
            "crf", "N", "Transitions' constant rate factor, lower is better (default 23).", range: .wholeNumber(0...51)),
        .value("codec", "h264|hevc", "Transitions' codec (default h264)."),
        .value(
            "max-bitrate", "BITS|auto",
            "Transitions' peak bit rate (default auto: 2 × the higher of the clips joined, at least a floor).",
            range: OptionRange.peakBitRate.orAutomatic),
        .flag("no-player", "Write no player page (index.html); remove the one storyreel wrote."),
        .flag("player", "Write the player page, index.html (the default)."),
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        guard arguments.positionals.count == 1 else { throw UsageError("render needs exactly one INPUT") }
        guard let output = arguments.string("out") else { throw UsageError("render needs -o OUT") }
        var options = try renderOptions(arguments, bundle: output)
        options.prune = arguments.flag("prune")
        options.force = arguments.flag("force")
        options.lockTimeout = try arguments.double("lock-timeout") ?? 60
        var console = console
        console.quiet = arguments.flag("quiet")
        let waiting = waitingNote(output, console: console)
        console.quiet = console.quiet || arguments.flag("json")
        let bar = ProgressBar(console: console)
        let summary = try BundleRenderer(input: arguments.positionals[0], output: output, options: options)
            .run(waiting: waiting) { bar.update($0) }
        report(summary, console: console, json: arguments.flag("json"))
        return summary.skipped.isEmpty ? .success : .dataError
    }

    /// The options shared by `render`, `plan` and `ingest --render`; the settings given are
    /// checked together with those saved in `bundle` (when given), before any work.
    static func renderOptions(_ arguments: ParsedArguments, bundle: String?) throws -> RenderOptions {
        var options = RenderOptions()
        options.settings = try settingsOverrides(arguments)
        let settings = (bundle.flatMap(BundleSettings.saved(in:)) ?? BundleSettings()).applying(options.settings)
        try OptionRange.checkTransitionFrames(
            duration: settings.transitionDuration, fps: settings.fps, durationOption: "transition-duration")
        let modes = ["copy", "link", "reference"].filter { arguments.flag($0) }
        guard modes.count <= 1 else { throw UsageError("choose one of --copy, --link, --reference") }
        options.clipMode = modes.first.flatMap(RenderOptions.ClipMode.init(rawValue:)) ?? .copy
        options.jobs = try arguments.int("jobs") ?? options.jobs
        options.timeout = try arguments.double("timeout") ?? options.timeout
        if let shard = try arguments.shard("shard") { options.shard = .init(index: shard.index, count: shard.count) }
        return options
    }

    /// The settings given on the command line.
    static func settingsOverrides(_ arguments: ParsedArguments) throws -> BundleSettings.Overrides {
        var overrides = BundleSettings.Overrides()
        if arguments.isAutomatic("size") {
            overrides.canvas = .automatic
        } else if let size = try arguments.size("size") {
            overrides.canvas = .fixed(width: size.width, height: size.height)
        }
        overrides.fps = try arguments.double("fps")
        overrides.transitionDuration = try arguments.double("transition-duration")
        switch (arguments.flag("both-directions"), arguments.flag("forward-only")) {
        case (true, true): throw UsageError("give --both-directions or --forward-only, not both")
        case (true, false): overrides.bothDirections = true
        case (false, true): overrides.bothDirections = false
        case (false, false): break
        }
        switch (arguments.flag("player"), arguments.flag("no-player")) {
        case (true, true): throw UsageError("give --player or --no-player, not both")
        case (true, false): overrides.player = true
        case (false, true): overrides.player = false
        case (false, false): break
        }
        overrides.crf = try arguments.int("crf")
        if let codec = try arguments.choice("codec", of: VideoEncoder.Codec.allCases.map(\.rawValue)) {
            overrides.codec = VideoEncoder.Codec(rawValue: codec)
        }
        if arguments.isAutomatic("max-bitrate") {
            overrides.peak = .rule
        } else if let bits = try arguments.bitRate("max-bitrate") {
            overrides.peak = .fixed(bits)
        }
        return overrides
    }

    /// The one line printed when another run holds the lock on `folder`: on stderr even with
    /// `--json`, silenced only by `--quiet`.
    static func waitingNote(_ folder: String, console: Console) -> @Sendable (Int32?) -> Void {
        { holder in
            let pid = holder.map { " (held by pid \($0))" } ?? ""
            console.status("storyreel: waiting for the lock on \(folder)\(pid)…\n")
        }
    }

    /// Prints the skipped entries and the summary line (or the JSON summary).
    static func report(_ summary: RenderSummary, console: Console, json: Bool) {
        if !summary.settingsChanges.isEmpty {
            console.note("settings changed: \(summary.settingsChanges.joined(separator: ", ")) (kept for later runs)")
        }
        for note in summary.notes { console.note(note) }
        for entry in summary.skipped {
            console.error("\(entry.path): skipped: \(entry.reason)")
        }
        if json {
            console.output(summary.json.serialized(pretty: false))
            return
        }
        var line = String(
            format: "rendered %d, cached %d, skipped %d in %.1f s", summary.rendered, summary.cached,
            summary.skipped.count, summary.seconds)
        if summary.pruned > 0 { line += ", pruned \(summary.pruned)" }
        line += summary.manifestPath.map { "; manifest: \($0)" } ?? " (shard: no manifest)"
        console.note(line)
    }
}
