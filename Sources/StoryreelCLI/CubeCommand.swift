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
        "cube FROM TO [-o OUT.mp4] [--frames-dir DIR] [--filmstrip OUT.png] [--duration S] [--fps N] [--size WxH] "
        + "[--easing smooth|linear] [--perspective P] [--shade S] [--direction forward|backward] "
        + "[--codec h264|hevc] [--crf N] [--max-bitrate BITS|auto] [--timeout SECONDS] [--quiet]"
    public static let options: [OptionSpec] = [
        .value("output", short: "o", "OUT.mp4", "Write the transition as H.264 (or HEVC) MP4, CFR, +faststart."),
        .value("frames-dir", "DIR", "Write every frame as DIR/frame_0000.png … (created when missing)."),
        .value("filmstrip", "OUT.png", "Write 5 evenly spaced frames side by side, 240 px high."),
        .value("duration", "S", "Transition length in seconds (default 0.5).", range: .transitionSeconds),
        .value(
            "fps", "N", "Frames per second (default 30); round(duration × fps) frames, 1 to 1000.",
            range: .framesPerSecond),
        .value("size", "WxH", "Canvas size (default: FROM's display size, rounded down to even).", range: .canvas),
        .value("easing", "smooth|linear", "Progress curve: smooth t²(3−2t) (default) or linear."),
        .value(
            "perspective", "P", "Camera distance as a multiple of the width (default 2.667).",
            range: .number(from: 0.1, to: 100)),
        .value("shade", "S", "Darkening of a turned face (default 0.3).", range: .number(from: 0, to: 1)),
        .value("direction", "forward|backward", "backward plays forward(TO, FROM) in reverse (default forward)."),
        .value(
            "codec", "h264|hevc",
            "h264 (High, default) or hevc (tagged hvc1; 13-41% smaller at the same PSNR, 4-6x the CPU)."),
        .value(
            "crf", "N", "Constant rate factor on x264's scale, lower is better (default 23; HEVC encodes at N + 4).",
            range: .wholeNumber(0...51)),
        .value(
            "max-bitrate", "BITS|auto",
            "Most the clip's average bit rate may be (the whole file); the CRF is raised until it fits (default "
                + "auto: max(2 × the higher of FROM's and TO's video bit rates, 2M × canvas pixels / 720×1280) "
                + "when both are clips, else no peak).",
            range: OptionRange.peakBitRate.orAutomatic),
        .value("timeout", "SECONDS", "Give up on an input after this long (default 30).", range: .seconds),
        .flag("quiet", short: "q", "Print nothing but errors."),
    ]
    public static let examples = [
        "storyreel cube ana/IMG_0001.MOV ben/1.mp4 -o cube.mp4          # last frame of ana → first of ben",
        "storyreel cube a.mov b.mov --direction backward -o back.mp4    # the turn the other way",
        "storyreel cube a.png b.jpg --size 1080x1920 --frames-dir frames/ --filmstrip strip.png",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        var console = console
        console.quiet = arguments.flag("quiet")
        guard arguments.positionals.count == 2 else {
            throw UsageError("cube needs exactly two inputs, FROM and TO (got \(arguments.positionals.count))")
        }
        let outputs = CubeTransitionJob.Outputs(
            videoPath: arguments.string("output"), framesDirectory: arguments.string("frames-dir"),
            filmstripPath: arguments.string("filmstrip"))
        guard !outputs.isEmpty else {
            throw UsageError("cube needs an output: -o OUT.mp4, --frames-dir or --filmstrip")
        }
        var job = CubeTransitionJob(
            from: arguments.positionals[0], to: arguments.positionals[1], parameters: try parameters(arguments),
            timeout: try arguments.double("timeout") ?? 30)
        // Without --max-bitrate (or with auto), the peak rule between two clips.
        job.peakFromClips = true
        do {
            try job.validate()
        } catch let error as CubeRenderError {
            throw UsageError(error.message)
        }
        try InputProtection.check(plannedOutputs(outputs, frameCount: job.frameCount), against: arguments.positionals)
        let summary = try job.run(writing: outputs)
        var written = [outputs.videoPath, outputs.filmstripPath].compactMap { $0 }
        if let folder = outputs.framesDirectory { written.append("\(folder)/frame_*.png") }
        console.status(
            "storyreel: cube \(summary.width)x\(summary.height), \(summary.frameCount) frames -> "
                + written.joined(separator: ", ") + "\n")
        if let video = summary.video, let cap = summary.maxBitrate, let path = outputs.videoPath {
            // The whole file, as the peak counts it.
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? video.bytes
            let seconds = Double(summary.frameCount) / job.parameters.fps
            let rate = Int((Double(bytes) * 8 / seconds).rounded())
            let rates = "\(megabits(rate)) Mb/s against a peak of \(megabits(cap)) Mb/s"
            let passes = video.passes == 1 ? "1 pass" : "\(video.passes) passes"
            if video.fitsCap {
                let scale = job.parameters.codec == .hevc ? " on x265's scale" : ""
                console.note(
                    "\(outputs.videoPath ?? ""): \(rates), CRF \(rateFactor(video.rateFactor))\(scale), \(passes)")
            } else {
                console.warning(
                    "\(path): \(rates): over it even at CRF 51, the smallest the encoder "
                        + "makes; give a higher --max-bitrate or a smaller --size")
            }
        }
        return .success
    }

    /// `4.50` for 4500000 bits per second.
    private static func megabits(_ bitRate: Int) -> String { String(format: "%.2f", Double(bitRate) / 1e6) }

    /// `23` or `27.25`.
    private static func rateFactor(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    /// Every file `outputs` would write for a transition of `frameCount` frames.
    static func plannedOutputs(_ outputs: CubeTransitionJob.Outputs, frameCount: Int) -> [InputProtection.Output] {
        var planned: [InputProtection.Output] = []
        if let path = outputs.videoPath { planned.append(.init(label: "-o '\(path)'", path: path)) }
        if let path = outputs.filmstripPath { planned.append(.init(label: "--filmstrip '\(path)'", path: path)) }
        if let folder = outputs.framesDirectory, FileIdentity(path: folder) != nil {
            planned += (0..<frameCount).map { index in
                let path = CubeTransitionJob.framePath(in: folder, index: index)
                return .init(label: "--frames-dir's frame '\(path)'", path: path)
            }
        }
        return planned
    }

    /// The job's parameters from the command line; malformed values are usage errors.
    static func parameters(_ arguments: ParsedArguments) throws -> CubeTransitionJob.Parameters {
        var parameters = CubeTransitionJob.Parameters()
        if let size = try arguments.size("size") {
            parameters.width = size.width
            parameters.height = size.height
        }
        parameters.duration = try arguments.double("duration") ?? parameters.duration
        parameters.fps = try arguments.double("fps") ?? parameters.fps
        try OptionRange.checkTransitionFrames(
            duration: parameters.duration, fps: parameters.fps, durationOption: "duration")
        if let easing = try arguments.choice("easing", of: CubeEasing.allCases.map(\.rawValue)) {
            parameters.easing = CubeEasing(rawValue: easing)!
        }
        parameters.perspective = try arguments.double("perspective") ?? parameters.perspective
        parameters.shade = try arguments.double("shade") ?? parameters.shade
        if let direction = try arguments.choice("direction", of: CubeDirection.allCases.map(\.rawValue)) {
            parameters.direction = CubeDirection(rawValue: direction)!
        }
        if let codec = try arguments.choice("codec", of: VideoEncoder.Codec.allCases.map(\.rawValue)) {
            parameters.codec = VideoEncoder.Codec(rawValue: codec)!
        }
        parameters.crf = try arguments.int("crf") ?? parameters.crf
        if !arguments.isAutomatic("max-bitrate") {
            parameters.maxBitrate = try arguments.bitRate("max-bitrate")
        }
        return parameters
    }
}
