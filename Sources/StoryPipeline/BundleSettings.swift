import Foundation
import StoryMedia

/// The settings a bundle is rendered with: the canvas, the transitions' timing and encoding,
/// how clips get into it, and whether it gets the player page.
/// They are kept in `.storyreel/settings.json`, so a later `render` (or `ingest --render`) that
/// does not give them renders with the same ones instead of re-keying the bundle to the defaults.
public struct BundleSettings: Equatable, Sendable {
    /// The canvas transitions and stills are made at.
    public enum Canvas: Equatable, Sendable, CustomStringConvertible {
        /// The largest display size among the items that play, fitted within 1080×1920.
        case automatic
        /// A fixed size (even sides).
        case fixed(width: Int, height: Int)

        public var description: String {
            switch self {
            case .automatic: return "auto"
            case .fixed(let width, let height): return "\(width)x\(height)"
            }
        }
    }

    /// The most a transition's average bit rate may be.
    public enum Peak: Equatable, Sendable, CustomStringConvertible {
        /// Twice the higher average bit rate of the two clips it joins, at least a floor that
        /// grows with the canvas (``TransitionBitrate``).
        case rule
        /// A fixed cap in bits per second.
        case fixed(Int)

        public var description: String {
            switch self {
            case .rule: return "auto"
            case .fixed(let bitsPerSecond): return "\(bitsPerSecond)"
            }
        }
    }

    /// What was given on a command line: nil for a setting that was not.
    public struct Overrides: Equatable, Sendable {
        /// `--size`.
        public var canvas: Canvas?
        /// `--fps`.
        public var fps: Double?
        /// `--transition-duration`.
        public var transitionDuration: Double?
        /// `--both-directions` / `--forward-only`.
        public var bothDirections: Bool?
        /// `--crf`.
        public var crf: Int?
        /// `--codec`.
        public var codec: VideoEncoder.Codec?
        /// `--max-bitrate`.
        public var peak: Peak?
        /// `--player` / `--no-player`.
        public var player: Bool?
        /// `--copy` / `--link` / `--reference`.
        public var clips: RenderOptions.ClipMode?

        /// Nothing given.
        public init() {}
    }

    /// The canvas; automatic by default.
    public var canvas = Canvas.automatic
    /// Transition frames per second.
    public var fps = 30.0
    /// Transition length in seconds.
    public var transitionDuration = 0.5
    /// Also render backward transitions.
    public var bothDirections = false
    /// The transitions' constant rate factor.
    public var crf = 23
    /// The transitions' codec.
    public var codec = VideoEncoder.Codec.h264
    /// The transitions' peak bit rate.
    public var peak = Peak.rule
    /// Write the player page, `index.html`, beside the manifest.
    public var player = true
    /// How clips get into the bundle: copied, linked, or referenced where they are.
    public var clips = RenderOptions.ClipMode.copy

    /// The defaults: automatic canvas, 0.5 s at 30 fps, forward only, H.264 at CRF 23, the peak
    /// rule, the player page, clips copied.
    public init() {}

    /// The largest canvas the automatic choice gives.
    public static let largestAutomaticCanvas = (width: 1080, height: 1920)

    // MARK: - What each setting takes, given as an option or read from the saved file

    /// The highest transition frame rate (frames per second, more than 0).
    public static let highestFrameRate = 240.0
    /// The longest transition (seconds, more than 0).
    public static let longestTransition = 10.0
    /// The frames a transition may have, `round(duration × fps)`.
    public static let transitionFrames = 1...1000
    /// The transitions' constant rate factors.
    public static let rateFactors = 1...51
    /// A fixed canvas's sides, in pixels (each even).
    public static let canvasSides = 2...8192
    /// A fixed peak, in bits per second.
    public static let peakBitRates = 100_000...200_000_000

    /// These settings with every given override applied.
    public func applying(_ overrides: Overrides) -> BundleSettings {
        var result = self
        if let canvas = overrides.canvas { result.canvas = canvas }
        if let fps = overrides.fps { result.fps = fps }
        if let duration = overrides.transitionDuration { result.transitionDuration = duration }
        if let both = overrides.bothDirections { result.bothDirections = both }
        if let crf = overrides.crf { result.crf = crf }
        if let codec = overrides.codec { result.codec = codec }
        if let peak = overrides.peak { result.peak = peak }
        if let player = overrides.player { result.player = player }
        if let clips = overrides.clips { result.clips = clips }
        return result
    }

    /// What differs from `earlier`, for a person: `["crf 23 → 20", "size auto → 720x1280"]`.
    public func changes(from earlier: BundleSettings) -> [String] {
        zip(earlier.fields, fields).compactMap { old, new in
            old.value == new.value ? nil : "\(new.name) \(old.value) → \(new.value)"
        }
    }

    /// The settings as named text values, in a fixed order: what is saved and compared.
    private var fields: [(name: String, value: String)] {
        [
            ("size", canvas.description), ("fps", JSONValue.format(fps)),
            ("transition-duration", JSONValue.format(transitionDuration)),
            ("both-directions", bothDirections ? "yes" : "no"), ("crf", "\(crf)"), ("codec", codec.rawValue),
            ("max-bitrate", peak.description), ("player", player ? "yes" : "no"), ("clips", clips.rawValue),
        ]
    }

    /// The canvas for items whose display sizes are `sizes`: a fixed canvas as it is; the
    /// automatic one is the largest (by area) of the items of the shape most of them have
    /// (portrait, square or landscape; a tie goes to portrait, then square) and, of those, of
    /// the aspect most of them have (within 1.5%; a tie goes to the one nearest 9:16, 1:1 or 16:9
    /// for the shape), fitted within 1080×1920 keeping its aspect, with sides rounded down to
    /// even. 1080×1920 when there is none.
    public func canvasSize(forDisplaySizes sizes: [(width: Int, height: Int)]) -> (width: Int, height: Int) {
        if case .fixed(let width, let height) = canvas { return (width, height) }
        let (boxWidth, boxHeight) = Self.largestAutomaticCanvas
        // One landscape upload among portrait stories made a 1080x606 canvas, and every portrait
        // story was cropped to a strip a third of its height (a QA pass): the shape is the most
        // items', as a stories player's frame is.
        let valid = sizes.filter { $0.width > 0 && $0.height > 0 }
        func shape(_ size: (width: Int, height: Int)) -> Int {  // 0 portrait, 1 square, 2 landscape
            size.width < size.height ? 0 : size.width == size.height ? 1 : 2
        }
        var counts = [0, 0, 0]
        for size in valid { counts[shape(size)] += 1 }
        let most = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }
        let positive = Self.commonestAspect(
            of: valid.filter { shape($0) == most }, standard: [9.0 / 16.0, 1, 16.0 / 9.0][most ?? 0])
        guard
            let largest = positive.max(by: {
                $0.width.multipliedReportingOverflow(by: $0.height).partialValue
                    < $1.width.multipliedReportingOverflow(by: $1.height).partialValue
            })
        else { return Self.largestAutomaticCanvas }
        // In integers, so the side that binds is the box's exactly: 1170x2532 at a scale of
        // 1920/2532 in floating point came to 1919.99… and was rounded down to 1918.
        let (width, height) = (largest.width, largest.height)
        func even(_ side: Int) -> Int { max(2, side / 2 * 2) }
        if width <= boxWidth, height <= boxHeight { return (even(width), even(height)) }
        let across = width.multipliedReportingOverflow(by: boxHeight)
        let down = height.multipliedReportingOverflow(by: boxWidth)
        guard !across.overflow, !down.overflow else { return Self.largestAutomaticCanvas }
        if across.partialValue >= down.partialValue {  // the width binds
            return (boxWidth, even(down.partialValue / width))
        }
        return (even(across.partialValue / height), boxHeight)
    }

    /// The sizes of `sizes` whose aspect (width / height) is within 1.5% of the aspect most of
    /// them are within 1.5% of; of equally common aspects, the one nearest `standard`. One
    /// 1080x2400 upload among 1080x1920 stories made an 864x1920 canvas, and a 600x3600 capture a
    /// 320x1920 one, cropping every camera clip to a strip (a QA pass).
    static func commonestAspect(of sizes: [(width: Int, height: Int)], standard: Double) -> [(width: Int, height: Int)]
    {
        let tolerance = log(1.015)
        func logAspect(_ size: (width: Int, height: Int)) -> Double { log(Double(size.width) / Double(size.height)) }
        let sorted = sizes.map(logAspect).sorted()
        var best: (aspect: Double, count: Int)?
        var (low, high) = (0, 0)
        for aspect in sorted {
            while sorted[low] < aspect - tolerance { low += 1 }
            while high < sorted.count, sorted[high] <= aspect + tolerance { high += 1 }
            let count = high - low
            if let current = best,
                count < current.count
                    || (count == current.count && abs(aspect - log(standard)) >= abs(current.aspect - log(standard)))
            {
                continue
            }
            best = (aspect, count)
        }
        guard let best else { return [] }
        return sizes.filter { abs(logAspect($0) - best.aspect) <= tolerance }
    }

    // MARK: - Saved in the bundle

    /// The settings' file name in `.storyreel/`.
    static let fileName = "settings.json"

    /// Where a bundle keeps its settings.
    public static func file(in bundle: String) -> String {
        BundlePaths.join(bundle, "\(BundlePaths.privateFolder)/\(fileName)")
    }

    /// The settings saved in `bundle`, or nil when there are none (or they cannot be read: see
    /// ``load(in:)``).
    public static func saved(in bundle: String) -> BundleSettings? {
        load(in: bundle).saved
    }

    /// The settings saved in `bundle` (nil when there are none or they cannot be read), read
    /// once, and why they cannot be read, for a warning. A run then renders with the defaults and
    /// the options given, and says so: a damaged file silently re-keyed a bundle kept at
    /// `--crf 20` to 23 (a QA pass).
    public static func load(in bundle: String) -> (saved: BundleSettings?, unreadable: String?) {
        do {
            return (try read(in: bundle), nil)
        } catch {
            return (
                nil, "\(file(in: bundle)): \(MediaError.reason(of: error)); the defaults and the options given are used"
            )
        }
    }

    /// The settings in `bundle`'s file; nil when there is none; throws when it cannot be read,
    /// and when it is missing from a bundle that has a manifest (copied without `.storyreel/`,
    /// checked into git without it): such a bundle was re-rendered at the default canvas in
    /// silence (a QA pass).
    private static func read(in bundle: String) throws -> BundleSettings? {
        let path = file(in: bundle)
        var status = stat()
        if lstat(path, &status) != 0 {
            let code = errno
            // `.storyreel/` that cannot be searched read as no settings at all (a QA pass).
            guard code == ENOENT || code == ENOTDIR else {
                throw MediaError(.unreadableInput, path: path, SystemErrorText.describe(code))
            }
            if FileStamp(path: BundlePaths.join(bundle, BundlePaths.manifest)) != nil {
                throw MediaError(
                    .missingInput, path: path, "missing, though the bundle has a manifest (copied without .storyreel/?)"
                )
            }
            return nil
        }
        let data = try RegularFile.contents(of: path, maxSize: 1 << 20)
        // Fragments allowed: `null` or `"x"` is valid JSON, just not settings (a QA pass: "not valid JSON").
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else {
            throw MediaError(
                .invalidMedia, path: path, JSONParseFailure.notValidJSON(data))
        }
        guard let object = parsed as? [String: String] else {
            throw MediaError(.invalidMedia, path: path, "not a JSON object of strings")
        }
        // As in story.json and a spec: readers settle a key given twice differently.
        if let duplicate = JSONDuplicateKey.first(in: data) {
            throw MediaError(.invalidMedia, path: path, "\"\(duplicate.path.prefix(40))\" is given twice")
        }
        var settings = BundleSettings()
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard settings.set(name, value) else {
                let shown = { (text: String) in text.count > 40 ? text.prefix(40) + "…" : text }
                throw MediaError(.invalidMedia, path: path, "\"\(shown(name))\": \"\(shown(value))\" is not understood")
            }
        }
        // Each value may pass while together they do not (a hand-edited file): every later run
        // failed with 64 on options it was never given (a QA pass).
        let frames = (settings.transitionDuration * settings.fps).rounded()
        guard frames >= Double(transitionFrames.lowerBound), frames <= Double(transitionFrames.upperBound) else {
            throw MediaError(
                .invalidMedia, path: path,
                "transition-duration × fps makes \(JSONValue.format(frames)) frames, not \(transitionFrames.lowerBound) "
                    + "to \(transitionFrames.upperBound)")
        }
        if settings.codec == .hevc, case .fixed(let width, let height) = settings.canvas,
            let problem = CubeTransitionJob.hevcCanvasProblem(width: width, height: height)
        {
            throw MediaError(.invalidMedia, path: path, problem)
        }
        return settings
    }

    /// Saves these settings in `bundle`, atomically, unless they are `saved`: what
    /// ``saved(in:)`` read from it.
    public func save(in bundle: String, over saved: BundleSettings?) throws {
        guard saved != self else { return }
        let value = JSONValue.object(fields.map { ($0.name, JSONValue.string($0.value)) })
        try AtomicFile.write(Data((value.serialized() + "\n").utf8), to: BundleSettings.file(in: bundle))
    }

    /// Sets the field `name` from its saved text; false when either is not understood. A value
    /// is taken only where its option would take it: a hand-edited `"crf": "0"` failed every
    /// transition, `"fps": "1e308"` ended the process, `"player": "maybe"` removed the page (a
    /// QA pass).
    private mutating func set(_ name: String, _ value: String) -> Bool {
        /// A number more than 0 and at most `highest`.
        func positive(_ text: String, upTo highest: Double) -> Double? {
            guard let number = DecimalText.number(text), number > 0, number <= highest else { return nil }
            return number
        }
        /// `yes` or `no`.
        func yesOrNo(_ text: String) -> Bool? { text == "yes" ? true : text == "no" ? false : nil }
        switch name {
        case "size":
            if value == "auto" {
                canvas = .automatic
                return true
            }
            let sides = value.split(separator: "x", omittingEmptySubsequences: false).compactMap {
                DecimalText.wholeNumber($0)
            }
            guard sides.count == 2, sides.allSatisfy({ Self.canvasSides.contains($0) && $0 % 2 == 0 }) else {
                return false
            }
            canvas = .fixed(width: sides[0], height: sides[1])
        case "fps":
            guard let number = positive(value, upTo: Self.highestFrameRate) else { return false }
            fps = number
        case "transition-duration":
            guard let number = positive(value, upTo: Self.longestTransition) else { return false }
            transitionDuration = number
        case "both-directions":
            guard let both = yesOrNo(value) else { return false }
            bothDirections = both
        case "player":
            guard let page = yesOrNo(value) else { return false }
            player = page
        case "clips":
            guard let mode = RenderOptions.ClipMode(rawValue: value) else { return false }
            clips = mode
        case "crf":
            guard let number = DecimalText.wholeNumber(value), Self.rateFactors.contains(number) else { return false }
            crf = number
        case "codec":
            guard let named = VideoEncoder.Codec(rawValue: value) else { return false }
            codec = named
        case "max-bitrate":
            if value == "auto" {
                peak = .rule
                return true
            }
            // Written as the option takes it (`4.5M`); storyreel saves whole bits per second.
            guard let number = DecimalText.bitRate(value), Self.peakBitRates.contains(number) else { return false }
            peak = .fixed(number)
        default:
            return false
        }
        return true
    }
}
