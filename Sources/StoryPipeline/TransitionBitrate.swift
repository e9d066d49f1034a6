import StoryMedia

/// The peak rule for a transition's bit rate: a 0.5 s transition should cost a phone about what
/// the clips around it cost, and never less than a floor that keeps a cube turn watchable.
///
/// `peak = max(2 × the higher average bit rate of the two clips it joins, floor)`, where the floor
/// is 2 Mb/s at 720×1280 scaled by the canvas's pixels (4.5 Mb/s at 1080×1920, 1.125 Mb/s at
/// 540×960). Twice the clips' rate follows Apple's HLS ladder, whose peak is at most twice the
/// average; the floor keeps a transition between two nearly static clips from being starved. The
/// transition's encoder holds its average under the peak (``VideoEncoder/Settings/maxBitrate``).
public enum TransitionBitrate {
    /// The warning for a transition at `path` that the encoder could not bring under `peak`
    /// (bits per second) even at its smallest (CRF 51), where its whole file of `bytes` for
    /// `seconds` averages more: `cube` and `render` give it alike (a QA pass: `render
    /// --max-bitrate 100k` made transitions 5–7.6 times over it without a word). A lower `--fps`
    /// is advice too: 240 fps puts 120 frames in a 0.5 s turn (a later QA pass).
    public static func overPeakWarning(path: String, bytes: Int, seconds: Double, peak: Int) -> String {
        let rate = Int(saturating: (Double(bytes) * 8 / seconds).rounded())
        return "\(path): \(megabits(rate)) Mb/s against a peak of \(megabits(peak)) Mb/s: over it even at CRF 51, "
            + "the smallest the encoder makes; give a higher --max-bitrate, a lower --fps or a smaller --size"
    }

    /// `4.50` for 4500000 bits per second.
    public static func megabits(_ bitRate: Int) -> String { String(format: "%.2f", Double(bitRate) / 1e6) }

    /// The floor's bit rate at its reference canvas, bits per second.
    public static let floorBitRate = 2_000_000
    /// The floor's reference canvas, 720×1280 pixels.
    public static let floorCanvas = (width: 720, height: 1280)

    /// The floor for a `width` × `height` canvas: 2 Mb/s × pixels / (720 × 1280), rounded.
    public static func floor(width: Int, height: Int) -> Int {
        let pixels = Double(max(0, width)) * Double(max(0, height))
        let reference = Double(floorCanvas.width * floorCanvas.height)
        return Int(saturating: (Double(floorBitRate) * pixels / reference).rounded())
    }

    /// The most a transition between two clips may average on a `width` × `height` canvas, in bits
    /// per second: `max(2 × max(from, to), floor)`. `from` and `to` are the two clips' average bit
    /// rates (``clipBitRate(_:)``); nil for a clip whose rate is unknown, which then counts for
    /// nothing, so with both unknown the floor alone is the peak.
    public static func peak(width: Int, height: Int, from: Int?, to: Int?) -> Int {
        let higher = max(from ?? 0, to ?? 0, 0)
        let doubled = higher > Int.max / 2 ? Int.max : 2 * higher
        return max(doubled, floor(width: width, height: height))
    }

    /// A clip's average bit rate for the rule: its video stream's, when the container gives it,
    /// else the container's overall rate; nil when neither is known.
    ///
    /// The video stream's is the fair comparison: a transition has no audio, and the samples'
    /// audio is up to 40% of a clip's bytes (`ben_k/1.mp4`: 155 kb/s of video in 268 kb/s). The
    /// container's overall rate (audio and index included) only stands in when the stream's is
    /// unknown; it can only raise the peak, never lower it below what the video needs.
    public static func clipBitRate(_ info: ClipInfo) -> Int? {
        info.video?.bitRate ?? info.bitRate
    }
}
