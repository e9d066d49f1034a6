/// The largest picture storyreel decodes, scales or encodes: at most 8192 pixels per side and
/// 8192 × 8192 pixels in all (256 MiB as RGBA).
///
/// Sizes come from a file's header (a clip's codec parameters, a PNG's `IHDR`, a JPEG's frame
/// header) and are checked against the budget before anything is decoded, so a small file that
/// claims a huge picture (a 0.8 MB PNG of 16000 × 16000) is refused with `.invalidMedia`
/// instead of taking gigabytes. Decoders also get the budget as `max_pixels`, a second line of
/// defence for a bitstream that disagrees with its container.
public enum PixelBudget {
    /// The longest side, in pixels (also the cube renderer's canvas limit).
    public static let maximumSide = 8192
    /// The most pixels in one picture.
    public static let maximumPixels = 8192 * 8192

    /// True when a `width` × `height` picture is within the budget (and not empty).
    public static func allows(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else { return false }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maximumPixels
    }

    /// Throws `.invalidMedia` about `path` when a `width` × `height` picture is empty or over the
    /// budget. `what` names the picture in the reason, e.g. "the picture" or "the video".
    public static func check(width: Int, height: Int, path: String?, what: String = "the picture") throws {
        guard width > 0, height > 0 else {
            throw MediaError(.invalidMedia, path: path, "\(what) has no size (\(width)x\(height))")
        }
        guard allows(width: width, height: height) else {
            throw MediaError(.invalidMedia, path: path, "\(what) is \(width)x\(height), \(overLimit)")
        }
    }

    /// "over the limit of …": the budget in words, for error lines.
    static var overLimit: String {
        "over storyreel's limit of \(maximumSide) pixels per side and \(maximumSide)x\(maximumSide) pixels in all"
    }
}
