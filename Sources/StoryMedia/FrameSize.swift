/// The size a picture leaves the media layer at, relative to its upright display size.
public enum FrameSize: Sendable, Equatable {
    /// The display size (after rotation and sample aspect ratio).
    case original
    /// This width; the height keeps the aspect ratio, rounded to even like ffmpeg's `scale=W:-2`.
    case width(Int)
    /// This height; the width keeps the aspect ratio, rounded to even like ffmpeg's `scale=-2:H`.
    case height(Int)
    /// Exactly this size: scaled to cover it, then the overflow is cropped evenly on both sides.
    case fill(width: Int, height: Int)

    /// The final width and height for a picture displayed at `width` × `height`.
    public func outputSize(displayWidth width: Int, displayHeight height: Int) -> (width: Int, height: Int) {
        switch self {
        case .original:
            return (width, height)
        case .width(let target):
            return (target, FrameSize.evenRescale(target, numerator: height, denominator: width))
        case .height(let target):
            return (FrameSize.evenRescale(target, numerator: width, denominator: height), target)
        case .fill(let targetWidth, let targetHeight):
            return (targetWidth, targetHeight)
        }
    }

    /// The size to scale a `width` × `height` picture to before cropping: the picture itself
    /// for every case but ``fill(width:height:)``, for which it is the smallest size of the same
    /// aspect ratio that covers the target.
    public func scaledSize(displayWidth width: Int, displayHeight height: Int) -> (width: Int, height: Int) {
        guard case .fill(let targetWidth, let targetHeight) = self else {
            return outputSize(displayWidth: width, displayHeight: height)
        }
        guard width > 0, height > 0 else { return (targetWidth, targetHeight) }
        let factor = max(Double(targetWidth) / Double(width), Double(targetHeight) / Double(height))
        return (
            max(targetWidth, Int(saturating: (Double(width) * factor).rounded())),
            max(targetHeight, Int(saturating: (Double(height) * factor).rounded()))
        )
    }

    /// True when every requested side is at least 1 pixel.
    public var isValid: Bool {
        switch self {
        case .original: return true
        case .width(let side), .height(let side): return side > 0
        case .fill(let width, let height): return width > 0 && height > 0
        }
    }

    /// `value × numerator / denominator`, rounded to the nearest even number (at least 2), as
    /// libavfilter's scale filter does for `-2`: `av_rescale(value, numerator, 2 × denominator) × 2`.
    /// Never traps: a zero denominator or a result past `Int`'s range is held at the largest even
    /// `Int` (and then refused by the ``PixelBudget``).
    static func evenRescale(_ value: Int, numerator: Int, denominator: Int) -> Int {
        let halves = (Double(value) * Double(numerator) / (2 * Double(denominator))).rounded(.toNearestOrAwayFromZero)
        let (even, overflow) = Int(saturating: halves).multipliedReportingOverflow(by: 2)
        return overflow ? Int.max - 1 : max(2, even)
    }
}
