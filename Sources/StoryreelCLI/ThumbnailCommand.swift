import Foundation
import StoryMedia
import StoryPipeline

/// `storyreel thumbnail CLIP... (-o OUT | --out-dir DIR)`: writes a poster image per clip, the
/// smart pick or the frame at a time, upright, tone-mapped to SDR, as JPEG, PNG or WebP.
public enum ThumbnailCommand: Command {
    public static let name = "thumbnail"
    public static let abstract = "Write a poster image per clip: a smart pick, or the frame at a time."
    public static let usage =
        "thumbnail CLIP... (-o OUT | --out-dir DIR) [--at SECONDS|PERCENT%] [--width N] [--height N]"
        + " [--format jpeg|png|webp] [--quality Q] [--timeout SECONDS] [--jobs N]"
    public static let options: [OptionSpec] = [
        .value("out", short: "o", "OUT", "Write the one CLIP's poster to OUT; the format follows its extension."),
        .value("out-dir", "DIR", "Write a poster per CLIP into DIR (created if missing), named CLIP-NAME.EXT."),
        .value(
            "at", "TIME", "The frame at TIME seconds (1.5) or share of the clip (50%), not the smart pick.",
            range: .secondsOrPercent(upTo: 1_000_000)),
        .value(
            "width", "N", "Scale to N pixels wide (the height keeps the aspect ratio, rounded to even).",
            range: .wholeNumber(2...8192)),
        .value(
            "height", "N", "Scale to N pixels high; with --width, fill N exactly and crop the overflow.",
            range: .wholeNumber(2...8192)),
        .value("format", "FORMAT", "jpeg, png or webp (default: from OUT's extension, else jpeg)."),
        .value(
            "quality", "Q", "Quality, 100 best (default \(ImageEncoder.defaultQuality)).",
            range: .wholeNumber(1...100)),
        .value("timeout", "SECONDS", "Give up on a clip after this long (default 30).", range: .seconds),
        .value("jobs", short: "j", "N", "Clips processed at once (default: all cores).", range: .jobs),
    ]
    public static let examples = [
        "storyreel thumbnail IMG_0001.MOV -o poster.jpg          # the smart pick, full size",
        "storyreel thumbnail clips/*.mov --out-dir posters --width 360",
        "storyreel thumbnail IMG_0001.MOV -o first.png --at 0    # the first frame, lossless",
        "storyreel thumbnail IMG_0001.MOV -o mid.webp --at 50% --width 540 --height 960",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        let clips = arguments.positionals
        guard !clips.isEmpty else { throw UsageError("thumbnail needs at least one CLIP") }
        let out = arguments.string("out")
        let outDirectory = arguments.string("out-dir")
        switch (out, outDirectory) {
        case (nil, nil): throw UsageError("thumbnail needs -o OUT (for one clip) or --out-dir DIR")
        case (.some, .some): throw UsageError("give -o or --out-dir, not both")
        case (.some, nil) where clips.count != 1:
            throw UsageError("-o takes exactly one CLIP, got \(clips.count); use --out-dir DIR for several")
        default: break
        }
        let format = try imageFormat(arguments, out: out)
        let quality = try arguments.int("quality") ?? ImageEncoder.defaultQuality
        let size = try frameSize(arguments)
        let choice = try frameChoice(arguments)
        let timeout = try arguments.double("timeout") ?? 30
        let jobs = try arguments.int("jobs") ?? Parallel.coreCount

        let outputs: [String]
        if let outDirectory {
            outputs = PosterJob.outputPaths(for: clips, in: outDirectory, fileExtension: format.fileExtension)
            try InputProtection.check(
                outputs.map { InputProtection.Output(label: "--out-dir's poster '\($0)'", path: $0) }, against: clips)
            do {
                try PosterJob.createFolder(outDirectory)
            } catch let error as MediaError {
                console.error(error.description)
                return ExitCode(for: error)
            }
        } else {
            outputs = [out!]
            try InputProtection.check([InputProtection.Output(label: "-o '\(out!)'", path: out!)], against: clips)
        }
        // Clips already run in parallel: more decoder threads per clip would only compete.
        let decoderThreads = min(jobs, clips.count) > 1 ? 1 : 0
        let results: [Result<PosterResult, MediaError>] = Parallel.map(clips.count, jobs: jobs) { index in
            var job = PosterJob(clip: clips[index], output: outputs[index])
            (job.choice, job.size, job.format, job.quality) = (choice, size, format, quality)
            (job.timeout, job.decoderThreads) = (timeout, decoderThreads)
            return Result { try job.run() }.mapError { error in
                (error as? MediaError) ?? MediaError(.ioFailure, path: clips[index], "\(error)")
            }
        }

        var exitCode = ExitCode.success
        for (clip, result) in zip(clips, results) {
            switch result {
            case .success(let written):
                console.output(written.output)
                if let requested = written.clampedRequest {
                    let shown = written.frameTime.map { String(format: " (%.3f s)", $0) } ?? ""
                    console.note(
                        "\(clip): \(String(format: "%.3f", requested)) s is after the last frame; used the last frame"
                            + shown)
                }
            case .failure(let error):
                console.error(error.description)
                if exitCode == .success { exitCode = ExitCode(for: error) }
            }
        }
        return exitCode
    }

    /// `--format`, else the extension of `-o` (none: JPEG), else JPEG.
    static func imageFormat(_ arguments: ParsedArguments, out: String?) throws -> ImageFormat {
        if let name = try arguments.choice("format", of: ["jpeg", "jpg", "png", "webp"]) {
            return ImageFormat(pathExtension: name)!
        }
        guard let out else { return .jpeg }
        let fileExtension = (out as NSString).pathExtension
        if fileExtension.isEmpty { return .jpeg }
        guard let format = ImageFormat(pathExtension: fileExtension) else {
            throw UsageError(
                "cannot tell the image format from '.\(fileExtension)'; use .jpg, .png or .webp, or --format")
        }
        return format
    }

    /// `--width` and `--height`: one keeps the aspect ratio, both fill and crop.
    static func frameSize(_ arguments: ParsedArguments) throws -> FrameSize {
        let width = try arguments.int("width")
        let height = try arguments.int("height")
        switch (width, height) {
        case (let width?, let height?): return .fill(width: width, height: height)
        case (let width?, nil): return .width(width)
        case (nil, let height?): return .height(height)
        case (nil, nil): return .original
        }
    }

    /// `--at SECONDS` or `--at PERCENT%`; the smart pick without it.
    static func frameChoice(_ arguments: ParsedArguments) throws -> PosterChoice {
        guard let time = try arguments.secondsOrPercent("at") else { return .smart }
        return time.isPercent ? .percent(time.value) : .seconds(time.value)
    }
}
