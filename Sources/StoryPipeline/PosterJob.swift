import Foundation
import StoryMedia

/// `storyreel thumbnail`'s work for one clip: decode the chosen frame, encode it, write it
/// atomically.
public struct PosterJob: Sendable {
    /// The clip.
    public var clip: String
    /// Where the poster goes.
    public var output: String
    /// Which frame.
    public var choice = PosterChoice.smart
    /// The poster's size.
    public var size = FrameSize.original
    /// The image format.
    public var format = ImageFormat.jpeg
    /// 1...100, 100 best.
    public var quality = ImageEncoder.defaultQuality
    /// Per-clip deadline in seconds.
    public var timeout = 30.0
    /// Decoder threads (0: automatic; 1 when clips already run in parallel).
    public var decoderThreads = 0
    /// How many posters are made at once beside this one, itself included: the address-space
    /// check counts them all (a re-check: `--jobs 2` at 8192x8192 passed a check made for one,
    /// and the process stopped at an allocation).
    public var concurrentJobs = 1

    /// A job writing `clip`'s poster to `output`.
    public init(clip: String, output: String) {
        self.clip = clip
        self.output = output
    }

    /// Decodes, encodes and atomically writes the poster. Every error names a file: the clip
    /// for reading and decoding, the output for encoding and writing.
    public func run() throws -> PosterResult {
        let (data, result) = try encoded()
        try AtomicFile.write(data, to: output)
        return result
    }

    /// Decodes and encodes the poster without writing it (for `-o -`, standard output).
    public func encoded() throws -> (data: Data, result: PosterResult) {
        let source = try ClipFrameSource(path: clip, timeout: timeout, threads: decoderThreads)
        source.settlesAtDeadline = true
        // Under an address-space limit too low for the poster's pictures, the process stopped
        // at an allocation (a QA pass: 8192x8192 under `ulimit -v 700000`, exit 134).
        let shape = size.outputSize(displayWidth: source.displayWidth, displayHeight: source.displayHeight)
        // The budget is on what is decoded (checked as the clip opens) and on what is written,
        // not on the display size: a 640x360 clip of 13:1 pixels, shown at 8320x360, has a
        // 1080x46 poster at --width 1080 (a QA pass found it refused), and none at its own size.
        // Refused before any decoding, with what to do.
        guard PixelBudget.allows(width: shape.width, height: shape.height) else {
            let sized = size == .original ? " (its display size)" : ""
            throw MediaError(
                .invalidMedia, path: clip,
                "the poster would be \(shape.width)x\(shape.height)\(sized), \(PixelBudget.overLimit); "
                    + "give \(size == .original ? "" : "a smaller ")--width or --height")
        }
        try AddressSpace.checkRoom(
            width: shape.width, height: shape.height,
            bytesPerPixel: AddressSpace.posterBytesPerPixel(jpeg: format == .jpeg),
            fixedBytes: AddressSpace.posterFixedBytes, jobs: concurrentJobs, for: output,
            making: "the \(shape.width)x\(shape.height) poster")
        let image: RGBAImageBuffer
        var clampedRequest: Double?
        switch choice {
        case .smart:
            image = try source.posterFrame(size: size)
        case .seconds(let seconds):
            image = try source.frame(at: seconds, size: size)
            if source.lastRequestWasClamped { clampedRequest = seconds }
        case .percent(let percent):
            image = try source.frame(atShareOfVideo: percent / 100, size: size)
        }
        let data = try MediaError.naming(output) { try ImageEncoder.encode(image, format: format, quality: quality) }
        var result = PosterResult(
            output: output, clampedRequest: clampedRequest, frameTime: source.lastFrameTime,
            truncationWarnings: source.truncationWarnings)
        result.pickStoppedAfter = choice == .smart ? source.lastPickStoppedAfter : nil
        result.foundOnlyBlankFrames =
            choice == .smart && source.lastPickFoundNothingBetter && result.pickStoppedAfter == nil
        result.mayShowDamage = source.lastFrameMayShowDamage
        result.orientationWarnings = source.orientationWarnings
        return (data, result)
    }

    /// `<clip name without extension>.<ext>` in `folder` for each clip, with `-2`, `-3` … added
    /// to a name already taken by an earlier clip (argument order), or by a file in `folder`
    /// whose name is the same but for its Unicode form (`é` as one code point or as `e` and an
    /// accent: two files, which Swift's strings, and so the record of posters, take for one).
    /// A name too long for the file system has its stem cut at a character boundary and marked
    /// with `~` and 8 hex digits of the whole name's SHA-256, keeping the suffix and extension:
    /// two long names cut to one stem (`d…dX`, `d…dY`) stay two posters, in one call or two (a
    /// re-check: the second call's poster replaced the first's).
    public static func outputPaths(for clips: [String], in folder: String, fileExtension: String) -> [String] {
        let present = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let limit = FileNameLength.limit(
            in: FileStamp(path: folder)?.isFolder == true ? folder : folder.containingFolder)
        var taken = Set<String>()
        return clips.map { clip in
            let base = ((clip as NSString).lastPathComponent as NSString).deletingPathExtension
            func named(_ suffix: String) -> String {
                let tail = "\(suffix).\(fileExtension)"
                guard base.utf8.count + tail.utf8.count > limit else { return base + tail }
                let mark = "~" + ((try? ContentHasher.sha256(of: base))?.prefix(8) ?? "")
                return FileNameLength.prefix(of: base, fittingIn: limit - mark.utf8.count - tail.utf8.count) + mark
                    + tail
            }
            var name = named("")
            var suffix = 2
            while taken.contains(name) || present.contains(where: { $0 == name && !$0.utf8.elementsEqual(name.utf8) }) {
                name = named("-\(suffix)")
                suffix += 1
            }
            taken.insert(name)
            return (folder as NSString).appendingPathComponent(name)
        }
    }
}
