import StoryPipeline

/// The values a numeric option accepts, declared once in its ``OptionSpec``. The parser checks
/// every value of the option against it before the command runs (so before any work and before
/// any file or folder is created), `--help` shows it, and the typed accessors of
/// ``ParsedArguments`` convert through it.
public struct OptionRange: Sendable, Equatable, CustomStringConvertible {
    /// The shapes of value storyreel's options take.
    enum Kind: Sendable, Equatable {
        /// A finite number from `lower` (excluded when `lowerIsOpen`) to `upper` (included).
        case number(lower: Double, lowerIsOpen: Bool, upper: Double)
        /// A whole number in the range.
        case wholeNumber(ClosedRange<Int>)
        /// `WIDTHxHEIGHT`, both sides even and in the range.
        case evenSize(ClosedRange<Int>)
        /// Seconds from 0 to `maximumSeconds` (`1.5`, or `[HH:]MM:SS[.fraction]`), or a percentage
        /// from 0% to 100%.
        case secondsOrPercent(maximumSeconds: Double)
        /// `K/N` with 1 ≤ K ≤ N ≤ `maximumCount`.
        case shard(maximumCount: Int)
        /// Bits per second in the range, written `4500000`, `4500k` or `4.5M`.
        case bitRate(ClosedRange<Int>)
    }

    /// True when the option also takes `auto`, meaning "storyreel chooses" (the typed accessors
    /// read it as ``OrAutomatic/automatic``).
    let allowsAutomatic: Bool

    init(kind: Kind, allowsAutomatic: Bool = false) {
        self.kind = kind
        self.allowsAutomatic = allowsAutomatic
    }

    /// The same range, also taking `auto`.
    public var orAutomatic: OptionRange { OptionRange(kind: kind, allowsAutomatic: true) }

    /// True when `text` is `auto`, in any case (a QA pass: `--max-bitrate AUTO` was refused).
    static func isAutomatic(_ text: String) -> Bool { text.lowercased() == "auto" }

    /// What the option accepts.
    let kind: Kind

    /// A deadline or a length in seconds (`--timeout`, `--max-duration`): more than 0, at most a day.
    public static let seconds = number(above: 0, upTo: 86_400)
    /// Work done at once (`--jobs`): 1 to 1024.
    public static let jobs = wholeNumber(1...1024)
    /// A transition's frame rate (`--fps`): more than 0, at most 240.
    public static let framesPerSecond = number(above: 0, upTo: BundleSettings.highestFrameRate)
    /// A transition's length in seconds (`--duration`, `--transition-duration`): more than 0, at most 10.
    public static let transitionSeconds = number(above: 0, upTo: BundleSettings.longestTransition)
    /// A canvas (`--size`): even sides from 2 to 8192.
    public static let canvas = evenSize(BundleSettings.canvasSides)
    /// A transition's peak bit rate (`--max-bitrate`): 100 kb/s to 200 Mb/s.
    public static let peakBitRate = OptionRange(kind: .bitRate(BundleSettings.peakBitRates))
    /// The frames a transition may have, `round(duration × fps)`: checked with both options.
    public static let transitionFrames = BundleSettings.transitionFrames

    /// Throws unless a transition of `duration` seconds at `fps` has ``transitionFrames`` frames;
    /// `durationOption` names the duration's option in the error.
    static func checkTransitionFrames(duration: Double, fps: Double, durationOption: String) throws {
        let frames = (duration * fps).rounded()
        let (lowest, highest) = (transitionFrames.lowerBound, transitionFrames.upperBound)
        guard frames >= Double(lowest), frames <= Double(highest) else {
            let product = "round(\(format(duration)) × \(format(fps))) = \(format(frames))"
            throw UsageError("--\(durationOption) × --fps must make \(lowest) to \(highest) frames, got \(product)")
        }
    }

    /// A finite number from `lower` to `upper`, both included.
    public static func number(from lower: Double, to upper: Double) -> OptionRange {
        OptionRange(kind: .number(lower: lower, lowerIsOpen: false, upper: upper))
    }

    /// A finite number more than `lower` and at most `upper`.
    public static func number(above lower: Double, upTo upper: Double) -> OptionRange {
        OptionRange(kind: .number(lower: lower, lowerIsOpen: true, upper: upper))
    }

    /// A whole number in `range`.
    public static func wholeNumber(_ range: ClosedRange<Int>) -> OptionRange {
        OptionRange(kind: .wholeNumber(range))
    }

    /// `WIDTHxHEIGHT` with even sides in `sides`.
    public static func evenSize(_ sides: ClosedRange<Int>) -> OptionRange { OptionRange(kind: .evenSize(sides)) }

    /// Seconds (`1.5`, `1:30`, `00:01:30.5`) from 0 to `maximumSeconds`, or a percentage (`50%`)
    /// from 0% to 100%.
    public static func secondsOrPercent(upTo maximumSeconds: Double) -> OptionRange {
        OptionRange(kind: .secondsOrPercent(maximumSeconds: maximumSeconds))
    }

    /// `K/N`, part K of N, with 1 ≤ K ≤ N ≤ `maximumCount`.
    public static func shard(upTo maximumCount: Int) -> OptionRange {
        OptionRange(kind: .shard(maximumCount: maximumCount))
    }

    /// What the option accepts, for a person: "a number more than 0 and at most 240". Help shows
    /// it as "Must be …", an error as "--fps must be …, got '1e10'".
    public var description: String {
        allowsAutomatic ? "\(bounds) or auto" : bounds
    }

    /// What the option accepts besides `auto`.
    private var bounds: String {
        switch kind {
        case .number(let lower, true, let upper):
            return "a number more than \(Self.format(lower)) and at most \(Self.format(upper))"
        case .number(let lower, false, let upper):
            return "a number from \(Self.format(lower)) to \(Self.format(upper))"
        case .wholeNumber(let range):
            return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .evenSize(let sides):
            return "WIDTHxHEIGHT with even sides from \(sides.lowerBound) to \(sides.upperBound)"
        case .secondsOrPercent(let maximumSeconds):
            return "seconds from 0 to \(Self.format(maximumSeconds)), as 1.5 or [HH:]MM:SS[.fraction], "
                + "or a percentage from 0% to 100%"
        case .shard(let maximumCount):
            return "K/N with 1 ≤ K ≤ N ≤ \(maximumCount)"
        case .bitRate(let range):
            return
                "bits per second from \(Self.formatBitRate(range.lowerBound)) to \(Self.formatBitRate(range.upperBound))"
                + " (e.g. 4500000, 4500k or 4.5M)"
        }
    }

    /// True when `text` is a value this range accepts.
    func accepts(_ text: String) -> Bool {
        if allowsAutomatic && Self.isAutomatic(text) { return true }
        switch kind {
        case .number: return number(text) != nil
        case .wholeNumber: return wholeNumber(text) != nil
        case .evenSize: return size(text) != nil
        case .secondsOrPercent: return secondsOrPercent(text) != nil
        case .shard: return shard(text) != nil
        case .bitRate: return bitRate(text) != nil
        }
    }

    /// The value `text` was likely meant as, for a refusal's "did you mean": without a leading
    /// `+` (no option takes a sign), or a bit rate's `m` as `M` (`4m`, which ffmpeg reads as
    /// millibits); nil when neither is accepted.
    func suggestion(for text: String) -> String? {
        var unsigned = text
        var candidates = [String]()
        if unsigned.hasPrefix("+") {
            unsigned.removeFirst()
            candidates.append(unsigned)
        }
        if case .bitRate = kind, unsigned.hasSuffix("m") { candidates.append(unsigned.dropLast() + "M") }
        return candidates.first(where: accepts)
    }

    /// `text` as a number in the range, or nil (also for NaN and infinities, which fail every bound).
    func number(_ text: String) -> Double? {
        guard let value = DecimalText.number(text), value.isFinite else { return nil }
        switch kind {
        case .number(let lower, let lowerIsOpen, let upper):
            let aboveLower = lowerIsOpen ? value > lower : value >= lower
            return aboveLower && value <= upper ? value : nil
        case .wholeNumber, .evenSize, .secondsOrPercent, .shard, .bitRate:
            return nil
        }
    }

    /// `text` as a whole number in the range, or nil.
    func wholeNumber(_ text: String) -> Int? {
        guard case .wholeNumber(let range) = kind, let value = DecimalText.wholeNumber(text), range.contains(value)
        else {
            return nil
        }
        return value
    }

    /// `text` as `WIDTHxHEIGHT` with even sides in the range, or nil.
    func size(_ text: String) -> (width: Int, height: Int)? {
        guard case .evenSize(let sides) = kind else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = DecimalText.wholeNumber(parts[0]),
            let height = DecimalText.wholeNumber(parts[1])
        else {
            return nil
        }
        guard sides.contains(width), sides.contains(height), width % 2 == 0, height % 2 == 0 else { return nil }
        return (width, height)
    }

    /// `text` as seconds (`1.5`, or `[HH:]MM:SS[.fraction]`) or, with a trailing `%`, a
    /// percentage in the range, or nil.
    func secondsOrPercent(_ text: String) -> (value: Double, isPercent: Bool)? {
        guard case .secondsOrPercent(let maximumSeconds) = kind else { return nil }
        let isPercent = text.hasSuffix("%")
        let number = isPercent ? String(text.dropLast()) : text
        guard let value = isPercent || !number.contains(":") ? DecimalText.number(number) : Self.clockSeconds(number),
            value.isFinite, value >= 0, value <= (isPercent ? 100 : maximumSeconds)
        else { return nil }
        return (value, isPercent)
    }

    /// `[HH:]MM:SS[.fraction]` as seconds (`1:30` is 90, `00:00:01.5` is 1.5), or nil: the
    /// duration syntax of ffmpeg's `-ss` (av_parse_time) and ffmpegthumbnailer's `-t`, which
    /// `thumbnail --at` refused (a QA pass). As there, a field after another has one or two
    /// digits and is below 60, and the first any number of digits; no sign. The seconds are read
    /// from the same decimal text a person would write for them (`90.1`), so the frame picked is
    /// the one that number picks.
    static func clockSeconds(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, let last = fields.last else { return nil }
        let secondsParts = last.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = secondsParts.count == 2 ? secondsParts[1] : nil
        if let fraction,
            !fraction.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        {
            return nil
        }
        let sixtieths = Array(fields.dropFirst().dropLast()) + [secondsParts[0]]
        // Past any range a caller checks, and small enough that the sum below cannot overflow.
        guard let first = DecimalText.wholeNumber(fields[0]), first <= 1_000_000_000 else { return nil }
        var whole = first
        for field in sixtieths {
            guard field.count <= 2, let value = DecimalText.wholeNumber(field), value < 60 else { return nil }
            whole = whole * 60 + value
        }
        // `1:30.`, a point with no digits after it, is 90, as ffmpeg reads it (a re-check).
        return Double("\(whole)" + (fraction.map { $0.isEmpty ? "" : ".\($0)" } ?? ""))
    }

    /// `text` as `K/N` in the range, or nil.
    func shard(_ text: String) -> (index: Int, count: Int)? {
        guard case .shard(let maximumCount) = kind else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = DecimalText.wholeNumber(parts[0]),
            let count = DecimalText.wholeNumber(parts[1])
        else { return nil }
        guard (1...maximumCount).contains(count), (1...count).contains(index) else { return nil }
        return (index, count)
    }

    /// `text` as bits per second in the range (`4500000`, `4500k`, `4.5M`), or nil.
    func bitRate(_ text: String) -> Int? {
        guard case .bitRate(let range) = kind, let bits = DecimalText.bitRate(text), range.contains(bits) else {
            return nil
        }
        return bits
    }

    /// Bits per second as people write them: `100k`, `4.5M`.
    private static func formatBitRate(_ bits: Int) -> String {
        bits >= 1_000_000 ? "\(format(Double(bits) / 1_000_000))M" : "\(format(Double(bits) / 1_000))k"
    }

    /// A bound as people write it: `86400`, not `86400.0`; `0.1` as it is.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
