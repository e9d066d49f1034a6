import CubeRender
import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel cube FROM TO [-o OUT.mp4] [--frames-dir DIR] [--filmstrip OUT.png] …`: renders the
/// 3D cube turn from one face to the next and writes it as a clip, PNG frames and/or a filmstrip.
public enum CubeCommand: Command {
    public static let name = "cube"
    public static let abstract = "Render a 3D cube transition between two clips or stills (MP4, PNG frames, filmstrip)."
    public static let usage =
        "cube FROM TO [-o OUT.mp4] [--frames-dir DIR] [--filmstrip OUT.png] [--duration S] [--fps FPS] [--size WxH] "
        + "[--easing smooth|linear] [--perspective P] [--shade S] [--direction forward|backward] "
        + "[--codec h264|hevc] [--crf N] [--max-bitrate BITS|auto] [--force] [--timeout SECONDS] [--quiet]"
    /// The defaults, from the job's own.
    static let defaults = CubeTransitionJob.Parameters()
    static let output = Option.output(
        "OUT.mp4", "Write the transition as H.264 (or HEVC) MP4, CFR, +faststart.", file: true)
    static let framesDirectory = Option.outputPath(
        "frames-dir", "DIR",
        "Write every frame as DIR/frame_0000.png … (created when missing; frames of an earlier run there are replaced)."
    )
    static let filmstrip = Option.outputPath(
        "filmstrip", "OUT.png", "Write 5 evenly spaced frames side by side, 240 px high.", file: true)
    static let duration = Option.number(
        "duration", "S", "Transition length in seconds.", default: defaults.duration, range: .transitionSeconds)
    static let fps = Option.number(
        "fps", "FPS", "Frames per second; round(duration × fps) frames, 1 to 1000.", default: defaults.fps,
        range: .framesPerSecond)
    static let size = Option<(width: Int, height: Int)?>.ranged(
        "size", "WxH", "Canvas size.", defaultText: "FROM's display size, rounded down to even", range: .canvas
    ) { $0.size($1) }
    static let easing = Option.choice("easing", "Progress curve: smooth t²(3−2t) or linear.", default: defaults.easing)
    static let perspective = Option.number(
        "perspective", "P", "Camera distance as a multiple of the width.", default: defaults.perspective,
        range: .number(from: 0.1, to: 100))
    static let shade = Option.number(
        "shade", "S", "Darkening of a turned face.", default: defaults.shade, range: .number(from: 0, to: 1))
    static let direction = Option.choice(
        "direction", "backward plays forward(TO, FROM) in reverse.", default: defaults.direction)
    static let codec = Option.choice(
        "codec", "h264 (High) or hevc (tagged hvc1; 13-40% smaller at the same PSNR, 5-6x the CPU).",
        default: defaults.codec, familiarValues: VideoEncoder.Codec.familiarNames)
    static let crf = Option.wholeNumber(
        "crf", "N", "Constant rate factor on x264's scale, lower is better (HEVC encodes at N + 4, at most 51).",
        default: defaults.crf, range: .wholeNumber(BundleSettings.rateFactors))
    static let maxBitrate = Option<OrAutomatic<Int>>.rangedOrAutomatic(
        "max-bitrate", "BITS|auto",
        "Most the clip's average bit rate may be (the whole file); the CRF is raised until it fits.",
        defaultText:
            "auto: max(2 × the higher of FROM's and TO's video bit rates, 2M × canvas pixels / 720×1280) when both "
            + "are clips, else no peak",
        range: .peakBitRate
    ) { $0.bitRate($1) }
    static let timeout = Option.number(
        "timeout", "SECONDS",
        "Give up on an input after this long; with --frames-dir, on another run's lock too (exit 75).", default: 30,
        range: .seconds)
    static let quiet = Flag("quiet", short: "q", "Print only errors (no notes or warnings).")
    static let force = Flag(
        "force", "Replace OUT.mp4 and the filmstrip even when they hold files storyreel did not write.")
    public static let options: [any OptionDeclaration] = [
        output, framesDirectory, filmstrip, duration, fps, size, easing, perspective, shade, direction, codec, crf,
        maxBitrate, force, timeout, quiet,
    ]
    /// What render calls the transition's length (a QA pass: `cube --transition-duration 1` was
    /// pointed to render, ingest and plan, where `--duration` does that here).
    public static let familiarNames: [String: [String]] = ["--transition-duration": ["duration"]]
    public static let examples = [
        "storyreel cube samples/stories/ana.lima/IMG_0002.MOV samples/stories/ben_k/1.mp4 -o cube.mp4  # ana → ben",
        "storyreel cube samples/stories/ben_k/1.mp4 samples/stories/chloe/morning.mp4 --direction backward -o back.mp4",
        "storyreel cube samples/stories/ana.lima/avatar.jpg samples/stories/ben_k/avatar.jpg --size 360x640 "
            + "--frames-dir frames --filmstrip strip.png",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        var console = console
        console.quiet = arguments[quiet]
        guard arguments.positionals.count == 2 else {
            throw UsageError("cube needs exactly two inputs, FROM and TO (got \(arguments.positionals.count))")
        }
        let outputs = CubeTransitionJob.Outputs(
            videoPath: arguments[output], framesDirectory: arguments[framesDirectory],
            filmstripPath: arguments[filmstrip])
        guard !outputs.isEmpty else {
            throw UsageError("cube needs an output: -o OUT.mp4, --frames-dir or --filmstrip")
        }
        var parameters = try parameters(arguments)
        if outputs.videoPath == nil {
            // The encoder's options without the clip they shape did nothing, in silence (a cube
            // QA pass).
            let encoderOptions: [any OptionDeclaration] = [codec, crf, maxBitrate]
            let unused = encoderOptions.filter { arguments.wasGiven($0) }.map { "--\($0.spec.name)" }
            if !unused.isEmpty {
                console.note(
                    "\(unused.joined(separator: ", ")) \(unused.count == 1 ? "shapes" : "shape") the -o clip's "
                        + "encoding; without -o \(unused.count == 1 ? "it does" : "they do") nothing")
            }
            // No clip is encoded: the codec's limits do not apply (a re-check: an HEVC canvas
            // x265 refuses was refused with --frames-dir alone, beside the note above).
            parameters.codec = .h264
        }
        var job = CubeTransitionJob(
            from: arguments.positionals[0], to: arguments.positionals[1], parameters: parameters,
            timeout: arguments[timeout])
        // Without --max-bitrate (or with auto), the peak rule between two clips.
        job.peakFromClips = true
        do {
            try job.validate()
        } catch let error as CubeRenderError {
            throw UsageError(error.message)
        }
        if outputs.filmstripPath != nil, let width = job.parameters.width, let height = job.parameters.height,
            let problem = Filmstrip.problem(frameWidth: width, frameHeight: height)
        {
            throw UsageError(problem)
        }
        // Before the frames folder is made to hold its lock: `-o x.mp4 --frames-dir x.mp4` made
        // the folder, then refused it as the clip's path (73; a QA pass), and a name too long for
        // the file system failed only once everything was encoded.
        try InputProtection.checkDistinct(namedOutputs(outputs))
        try InputProtection.checkNameLengths(namedOutputs(outputs))
        // Two runs into one --frames-dir take turns: its frames are listed, checked and replaced
        // under the folder's lock, held until the run has recorded them.
        var frameFolder = try outputs.framesDirectory.map {
            try CubeFrameFolder(
                locking: $0, lockTimeout: arguments[timeout], waiting: console.lockWaitingNote($0))
        }
        let summary: CubeTransitionJob.Summary
        do {
            let planned = plannedOutputs(outputs, frameCount: job.frameCount)
            try InputProtection.check(planned, against: arguments.positionals)
            try InputProtection.checkDistinct(planned)
            // What is written is what the name says: an MP4 or QuickTime clip, a PNG filmstrip.
            // `-o .mp4` is a name that is all extension (a QA pass: told to name it .mp4).
            for (option, path) in [("-o", outputs.videoPath), ("--filmstrip", outputs.filmstripPath)] {
                guard let path else { continue }
                try InputProtection.checkNamed(.init(label: "\(option) '\(path)'", path: path), example: "clip")
            }
            if let path = outputs.videoPath,
                !["mp4", "mov", "m4v"].contains((path as NSString).pathExtension.lowercased())
            {
                throw UsageError("-o '\(path)': cube writes an MP4 or QuickTime clip; name it .mp4, .m4v or .mov")
            }
            if let path = outputs.filmstripPath, (path as NSString).pathExtension.lowercased() != "png" {
                throw UsageError("--filmstrip '\(path)': the filmstrip is a PNG; name it .png")
            }
            if let folder = outputs.framesDirectory {
                try CubeFrameFolder.checkNoFrameNames(
                    ["-o": outputs.videoPath, "--filmstrip": outputs.filmstripPath], in: folder)
            }
            for path in [outputs.videoPath, outputs.filmstripPath].compactMap({ $0 }) {
                try OutputMark.checkReplaceable(path, force: arguments[force])
                TemporaryFile.removeStale(besides: path)
            }
            try frameFolder?.checkEarlierFrames()
            // The filmstrip is written last: a folder it cannot be written into (missing,
            // read-only) would fail the run after the frames replaced an earlier run's, and they
            // would be lost.
            if let path = outputs.filmstripPath {
                let folder = try FolderHandle.forWriting(path)
                try withExtendedLifetime(folder) {
                    // The probe's path leads through the folder's descriptor: removed while it is open.
                    let probe = try TemporaryFile.create(for: path, in: folder)
                    close(probe.descriptor)
                    TemporaryFile.remove(probe.path)
                }
            }
            // The record is written as the frames take their names, interrupts held off: first
            // with the earlier and the new frames (a failure then replaces nothing), then with
            // the new ones, so an interrupted run never leaves frames its record does not list.
            let folder = frameFolder
            summary = try job.run(
                writing: outputs, framesPlanned: { try folder?.recordPlannedRun(frameCount: $0) },
                framesPlaced: { folder?.recordRun(frameCount: $0) })
        } catch {
            // The folders this run made for --frames-dir go again while empty.
            frameFolder?.removeIfCreated()
            // FROM could not be read: TO is read too, so one run names both bad inputs, in
            // argument order, and exits on FROM's (a scripting QA pass: only FROM was named, and
            // a fix-and-retry took two rounds).
            // Only the inputs' own faults: a library that cannot be loaded fails both alike.
            let inputFaults: [MediaError.Kind] = [.missingInput, .unreadableInput, .invalidMedia, .noVideoStream]
            if let failure = error as? MediaError, failure.path == job.from.path, inputFaults.contains(failure.kind),
                let other = job.problemWithTo() as? MediaError, other.path == job.to.path,
                inputFaults.contains(other.kind)
            {
                console.error("\(failure)")
                console.error("\(other)")
                return ExitCode(for: failure)
            }
            throw error
        }
        var written = [outputs.videoPath, outputs.filmstripPath].compactMap { $0 }
        if let folder = outputs.framesDirectory {
            // Every trailing `/` goes: `DIR//` gave `DIR//frame_*.png` (a QA pass).
            written.append((String(folder.withoutTrailingSlashes) as NSString).appendingPathComponent("frame_*.png"))
        }
        // A note, as every other line on stderr is (a scripting QA pass: the one line with no
        // `storyreel: note:` prefix, which a log filter on the prefixes missed).
        console.note(
            "cube \(summary.width)x\(summary.height), \(summary.frameCount) "
                + (summary.frameCount == 1 ? "frame" : "frames") + " -> " + written.joined(separator: ", "))
        for warning in summary.warnings { console.warning(warning) }
        if summary.video != nil, let path = outputs.videoPath,
            let warning = LevelLimit.warning(width: summary.width, height: summary.height)
        {
            console.warning("\(Console.escaped(path)): \(warning)")
        }
        if let video = summary.video, let cap = summary.maxBitrate, let path = outputs.videoPath {
            // The whole file, as the peak counts it.
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? video.bytes
            let seconds = Double(summary.frameCount) / job.parameters.fps
            if video.fitsCap {
                let rate = Int(saturating: (Double(bytes) * 8 / seconds).rounded())
                let rates = "\(megabits(rate)) Mb/s against a peak of \(megabits(cap)) Mb/s"
                let passes = video.passes == 1 ? "1 pass" : "\(video.passes) passes"
                let scale = job.parameters.codec == .hevc ? " on x265's scale" : ""
                console.note(
                    "\(outputs.videoPath ?? ""): \(rates), CRF \(rateFactor(video.rateFactor))\(scale), \(passes)")
            } else {
                console.warning(
                    TransitionBitrate.overPeakWarning(path: path, bytes: bytes, seconds: seconds, peak: cap))
            }
        }
        return .success
    }

    /// `4.50` for 4500000 bits per second.
    private static func megabits(_ bitRate: Int) -> String { TransitionBitrate.megabits(bitRate) }

    /// `23` or `27.25`.
    private static func rateFactor(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    /// The outputs as the command line names them: the clip, the filmstrip, the frames folder.
    static func namedOutputs(_ outputs: CubeTransitionJob.Outputs) -> [InputProtection.Output] {
        [
            outputs.videoPath.map { InputProtection.Output(label: "-o '\($0)'", path: $0) },
            outputs.filmstripPath.map { InputProtection.Output(label: "--filmstrip '\($0)'", path: $0) },
            outputs.framesDirectory.map { InputProtection.Output(label: "--frames-dir '\($0)'", path: $0) },
        ].compactMap { $0 }
    }

    /// Every path `outputs` would write, replace or remove for a transition of `frameCount`
    /// frames: the named outputs and, with `--frames-dir`, its frames, its record and the earlier
    /// frames a shorter run removes (an input among them would be lost).
    static func plannedOutputs(_ outputs: CubeTransitionJob.Outputs, frameCount: Int) -> [InputProtection.Output] {
        var planned = namedOutputs(outputs)
        if let folder = outputs.framesDirectory {
            let names = CubeFrameFolder.names(frameCount: frameCount)
            let frames = names.map { (folder as NSString).appendingPathComponent($0) }
            planned += frames.map { .init(label: "--frames-dir's frame '\($0)'", path: $0) }
            let record = (folder as NSString).appendingPathComponent(CubeFrameFolder.recordName)
            planned.append(.init(label: "--frames-dir's record '\(record)'", path: record))
            let written = Set(names)
            for name in CubeFrameFolder.frameNames(in: folder) where !written.contains(name) {
                let path = (folder as NSString).appendingPathComponent(name)
                planned.append(
                    .init(label: "--frames-dir's earlier frame '\(path)' (a shorter run removes it)", path: path))
            }
        }
        return planned
    }

    /// The job's parameters from the command line.
    static func parameters(_ arguments: ParsedArguments) throws -> CubeTransitionJob.Parameters {
        var parameters = CubeTransitionJob.Parameters()
        if let size = arguments[size] { (parameters.width, parameters.height) = (size.width, size.height) }
        (parameters.duration, parameters.fps) = (arguments[duration], arguments[fps])
        try OptionRange.checkTransitionFrames(
            duration: parameters.duration, fps: parameters.fps, durationOption: "duration")
        (parameters.easing, parameters.direction, parameters.codec) =
            (arguments[easing], arguments[direction], arguments[codec])
        (parameters.perspective, parameters.shade) = (arguments[perspective], arguments[shade])
        parameters.crf = arguments[crf]
        if case .fixed(let bits) = arguments[maxBitrate] { parameters.maxBitrate = bits }
        return parameters
    }
}
