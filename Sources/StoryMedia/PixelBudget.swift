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

    /// Throws `.invalidMedia` about `path` when a picture scaled on the way to one within the
    /// budget is empty or more than a quarter over it (per side and in all): the margin a fill
    /// keeps around the part that shows, for the scaler's filter, may take an 8192 × 8192 fill
    /// a little over the budget (8192 × 8374 for a portrait clip).
    public static func checkIntermediate(width: Int, height: Int, path: String?, what: String) throws {
        guard allowsIntermediate(width: width, height: height) else {
            throw MediaError(.invalidMedia, path: path, "\(what) is \(width)x\(height), \(overLimit)")
        }
    }

    /// True when a `width` × `height` picture scaled on the way to one within the budget is not
    /// empty and at most a quarter over the budget, per side and in all.
    public static func allowsIntermediate(width: Int, height: Int) -> Bool {
        let side = maximumSide + maximumSide / 4
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return width > 0 && height > 0 && width <= side && height <= side && !overflow
            && pixels <= maximumPixels / 4 * 5
    }

    /// "over the limit of …": the budget in words, for error lines.
    public static var overLimit: String {
        "over storyreel's limit of \(maximumSide) pixels per side and \(maximumSide)x\(maximumSide) pixels in all"
    }
}
