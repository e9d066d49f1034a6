import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel thumbnail CLIP... (-o OUT | --out-dir DIR)`: writes a poster image per clip, the
/// smart pick or the frame at a time, upright, tone-mapped to SDR, as JPEG, PNG or WebP.
public enum ThumbnailCommand: Command {
    public static let name = "thumbnail"
    public static let abstract = "Write a poster image per clip: a smart pick, or the frame at a time."
    public static let usage =
        "thumbnail CLIP... (-o OUT | --out-dir DIR) [--at TIME|N%] [--width N] [--height N]"
        + " [--format jpeg|png|webp] [--quality Q] [--force] [--timeout SECONDS] [--jobs N] [--quiet]"

    static let output = Option.text(
        "output", short: "o", aliases: ["out"], "OUT",
        "Write the one CLIP's poster to OUT (- for standard output); the format follows its extension.")
    static let outDirectory = Option.outputPath(
        "out-dir", "DIR", "Write a poster per CLIP into DIR (created if missing), named CLIP-NAME.EXT.")
    static let at = Option<PosterChoice>(
        "at", "TIME|N%",
        "The first frame at or after TIME (1.5 or 1:30, as ffmpeg -ss takes it) or N% of the clip (50%), not the "
            + "smart pick.",
        defaultText: "the smart pick", accepted: secondsOrPercent.description, range: secondsOrPercent,
        default: { .smart },
        convert: { text in
            secondsOrPercent.secondsOrPercent(text).map { $0.isPercent ? .percent($0.value) : .seconds($0.value) }
        })
    static let secondsOrPercent = OptionRange.secondsOrPercent(upTo: 1_000_000)
    static let width = Option<Int?>.ranged(
        "width", "N", "Scale to N pixels wide (the height keeps the aspect ratio, rounded to even).",
        range: .wholeNumber(2...8192)
    ) { $0.wholeNumber($1) }
    static let height = Option<Int?>.ranged(
        "height", "N", "Scale to N pixels high; with --width, fill N exactly and crop the overflow.",
        range: .wholeNumber(2...8192)
    ) { $0.wholeNumber($1) }
    static let format = Option<ImageFormat?>(
        "format", "jpeg|png|webp", "The image format (any case, as OUT's extension is read).",
        defaultText: "from OUT's extension, else jpeg", accepted: "one of jpeg, jpg, png, webp", default: { nil },
        convert: { text -> ImageFormat?? in ImageFormat(pathExtension: text).map { .some($0) } })
    static let quality = Option.wholeNumber(
        "quality", "Q", "Quality, 100 best.", default: ImageEncoder.defaultQuality, range: .wholeNumber(1...100))
    static let timeout = Option.number(
        "timeout", "SECONDS", "Give up on a clip after this long; with --out-dir, on another run's lock too (exit 75).",
        default: 30, range: .seconds)
    static let jobs = Option.jobs("Clips processed at once, at most as many as the cores.")
    static let force = Flag("force", "Replace OUT even when it holds a file storyreel did not write.")
    static let quiet = Flag("quiet", short: "q", "Print only errors (no notes or warnings).")
    public static let options: [any OptionDeclaration] = [
        output, outDirectory, at, width, height, format, quality, force, timeout, jobs, quiet,
    ]
    public static let examples = [
        "storyreel thumbnail samples/portrait-h264.mp4 -o poster.jpg     # the smart pick, full size",
        "storyreel thumbnail samples/stories/ana.lima/*.MOV --out-dir posters --width 360   # globs match case",
        "storyreel thumbnail samples/black-intro.mp4 -o first.png --at 0  # the first frame, lossless",
        "storyreel thumbnail samples/portrait-h264.mp4 -o mid.webp --at 50% --width 540 --height 960",
        "storyreel thumbnail samples/portrait-h264.mp4 -o - --width 180 > thumb.jpg   # to standard output",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let clips = arguments.positionals
        guard !clips.isEmpty else { throw UsageError("thumbnail needs at least one CLIP") }
        var quietConsole = console
        quietConsole.quiet = arguments[quiet]
        let console = quietConsole
        let out = arguments[output]?.collapsingRepeatedSlashes
        if let out, let problem = Option.folderNameProblem(out, flagName: "-o") { throw UsageError(problem) }
        let outDirectory = arguments[Self.outDirectory]
        switch (out, outDirectory) {
        case (nil, nil): throw UsageError("thumbnail needs -o OUT (for one clip) or --out-dir DIR")
        case (.some, .some): throw UsageError("give -o or --out-dir, not both")
        case (.some, nil) where clips.count != 1:
            throw UsageError("-o takes exactly one CLIP, got \(clips.count); use --out-dir DIR for several")
        case (nil, .some) where arguments[force]:
            // It did nothing there: a poster folder replaces only the posters storyreel wrote (a QA pass).
            throw UsageError(
                "--force replaces an -o file only; --out-dir never replaces a file storyreel did not write there")
        default: break
        }
        let toStandardOutput = out == "-"
        // An image's bytes on a terminal are noise that can leave it in a strange state; curl
        // refuses the same (a scripting QA pass).
        if toStandardOutput, isatty(STDOUT_FILENO) == 1 {
            throw UsageError("-o -: standard output is a terminal; send the image to a file or a pipe (> poster.jpg)")
        }
        let format = try imageFormat(arguments, out: toStandardOutput ? nil : out)
        // --format wins over the name, as ffmpeg's codec option does, but a PNG named .jpg is
        // more often a slip than a wish, and some readers go by the name (a QA note).
        if arguments[Self.format] != nil, let out, !toStandardOutput,
            let named = ImageFormat(pathExtension: (out as NSString).pathExtension), named != format
        {
            let (said, written) = (named.rawValue.uppercased(), format.rawValue.uppercased())
            console.warning("-o '\(out)': its name says \(said); writing \(written) as --format asks")
        }
        let size = frameSize(arguments)
        let (choice, quality, timeout) = (arguments[at], arguments[Self.quality], arguments[Self.timeout])
        let jobs = arguments[Self.jobs]

        let outputs: [String]
        var created = CreatedOutputs()
        var posterFolder: PosterFolder?
        if let outDirectory {
            try InputProtection.checkNameLengths([.init(label: "--out-dir '\(outDirectory)'", path: outDirectory)])
            outputs = PosterJob.outputPaths(for: clips, in: outDirectory, fileExtension: format.fileExtension)
            try InputProtection.check(
                outputs.map { InputProtection.Output(label: "--out-dir's poster '\($0)'", path: $0) }, against: clips)
            do {
                let isNew = FileStamp(path: outDirectory, followingLinks: false) == nil
                try created.createFolder(outDirectory)
                posterFolder = try PosterFolder(
                    path: outDirectory, timeout: timeout, waiting: console.lockWaitingNote(outDirectory),
                    remake: { try created.createFolder(outDirectory) })
                if isNew { PosterFolder.removeLoneJournalOnInterrupt(in: outDirectory) }
            } catch {
                created.removeAll()
                console.error("\(error)")
                return ExitCode(for: error)
            }
        } else {
            outputs = [out!]
            if toStandardOutput {
                try InputProtection.checkStandardOutput(against: clips)
            } else {
                let output = InputProtection.Output(label: "-o '\(out!)'", path: out!)
                // `-o .png` wrote a JPEG named `.png` (a CLI QA pass), where cube refuses `-o .mp4`.
                try InputProtection.checkNamed(output, example: "poster") { ImageFormat(pathExtension: $0) != nil }
                try InputProtection.check([output], against: clips)
                try InputProtection.checkNameLengths([output])
                try OutputMark.checkReplaceable(out!, force: arguments[force])
                TemporaryFile.removeStale(besides: out!)
            }
        }
        // Clips already run in parallel: more decoder threads per clip would only compete.
        let decoderThreads = min(jobs, clips.count) > 1 ? 1 : 0
        // The posters made at once, which the address-space check counts together.
        let concurrentJobs = Parallel.workers(jobs: jobs, count: clips.count)
        // A poster name holding a file no run of storyreel wrote fails before any work.
        let refusals = outputs.map { posterFolder?.refusal(toReplace: $0) }
        // Each poster's line comes once it is written (and every one before it), as ingest's do:
        // a long batch that is killed has said which posters it wrote (a scripting QA pass: all
        // the lines came at the end, and none from a batch killed part-way).
        let report: @Sendable (Int, Result<PosterResult, any Error>) -> Void = { index, result in
            Self.report(result, of: clips[index], toStandardOutput: toStandardOutput, console: console)
        }
        let batch = BatchRunner(clips, jobs: jobs, reported: report) { [posterFolder] index, clip in
            if let refusal = refusals[index] { throw refusal }
            var job = PosterJob(clip: clip, output: outputs[index])
            (job.choice, job.size, job.format, job.quality) = (choice, size, format, quality)
            (job.timeout, job.decoderThreads) = (timeout, decoderThreads)
            job.concurrentJobs = concurrentJobs
            if let posterFolder {
                let (data, result) = try job.encoded()
                try posterFolder.write(data, to: outputs[index])
                return result
            }
            guard toStandardOutput else { return try job.run() }
            let (data, result) = try job.encoded()
            try console.outputData(data)
            return result
        }

        if let warning = posterFolder?.finish() { console.warning(warning) }
        if batch.results.allSatisfy({ (try? $0.get()) == nil }) {
            // Nothing was written: take away the folder this run made for it.
            created.removeAll()
        }
        return batch.exitCode
    }

    /// Reports `clip`'s poster: its path on stdout (not when the poster went there), its
    /// warnings and notes; or its error.
    static func report(
        _ result: Result<PosterResult, any Error>, of clip: String, toStandardOutput: Bool, console: Console
    ) {
        switch result {
        case .success(let written):
            if !toStandardOutput { console.line(written.output) }
            // As inspect warns (a truncated upload's poster was its frame 0 for --at 100%,
            // in silence: an error audit).
            for warning in written.truncationWarnings {
                console.warning("\(clip): \(warning); the poster is taken from what is left")
            }
            // As inspect warns (a QA pass: a 45° matrix's poster came out turned by 90°, in silence).
            for warning in written.orientationWarnings { console.warning("\(clip): \(warning)") }
            let shown = written.frameTime.map { String(format: " (%.3f s)", $0) } ?? ""
            if written.mayShowDamage {
                // As ffmpeg prints its decoder's errors (a cube QA pass: a zeroed keyframe's
                // damage went into a picture in silence).
                console.warning("\(clip): \(ClipFrameSource.damageWarning("the poster\(shown)"))")
            }
            if let looked = written.pickStoppedAfter {
                // As ffmpegthumbnailer gives a frame, where the clip failed (a QA pass).
                console.note(
                    "\(clip): the smart pick stopped at --timeout after looking at \(looked) frame"
                        + "\(looked == 1 ? "" : "s"); the poster is the best of them\(shown); raise --timeout, or choose "
                        + "one with --at")
            }
            if written.foundOnlyBlankFrames {
                // Said, where ffmpegthumbnailer gives no word (a QA pass: an all-black clip's
                // poster was written in silence).
                console.note(
                    "\(clip): every frame looked at is near-black, near-white or flat; the poster is the one "
                        + "with the most contrast\(shown); choose one with --at")
            }
            if let requested = written.clampedRequest {
                console.note(
                    "\(clip): \(String(format: "%.3f", requested)) s is after the last frame; used the last frame"
                        + shown)
            }
        case .failure(let error):
            // A failure writing the folder's record or journal is every clip's: each line
            // names its clip too (a scripting QA pass: on a full disk, one identical line per
            // clip, naming the journal).
            let shared =
                ((error as? MediaError)?.path).map {
                    [PosterFolder.recordName, PosterJournal.name].contains(($0 as NSString).lastPathComponent)
                } ?? false
            console.error(shared ? "\(error) (the poster of \(clip))" : "\(error)")
        }
    }

    /// `--format`, else the extension of `-o` (none: JPEG), else JPEG.
    static func imageFormat(_ arguments: ParsedArguments, out: String?) throws -> ImageFormat {
        if let chosen = arguments[format] { return chosen }
        guard let out else { return .jpeg }
        let fileExtension = (out as NSString).pathExtension
        if fileExtension.isEmpty { return .jpeg }
        guard let format = ImageFormat(pathExtension: fileExtension) else {
            throw UsageError(
                "-o '\(out)': cannot tell the image format from '.\(fileExtension)'; name it .jpg (or .jpeg), .png "
                    + "or .webp, or give --format")
        }
        return format
    }

    /// `--width` and `--height`: one keeps the aspect ratio, both fill and crop.
    static func frameSize(_ arguments: ParsedArguments) -> FrameSize {
        switch (arguments[width], arguments[height]) {
        case (let width?, let height?): return .fill(width: width, height: height)
        case (let width?, nil): return .width(width)
        case (nil, let height?): return .height(height)
        case (nil, nil): return .original
        }
    }
}
