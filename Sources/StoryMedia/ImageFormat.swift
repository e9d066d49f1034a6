/// The still-image formats storyreel writes posters and thumbnails in.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// Baseline JPEG (FFmpeg's `mjpeg` encoder), full-range BT.601 YCbCr 4:2:0, as JFIF expects.
    case jpeg
    /// Lossless PNG, 8-bit RGB.
    case png
    /// Lossy WebP through libwebp.
    case webp

    /// The format a file name extension stands for (`jpg`, `jpeg`, `png`, `webp`, any case), or
    /// nil for anything else.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The usual file name extension, without the dot: `jpg`, `png` or `webp`.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .webp: return "webp"
        }
    }
}
