import CFFmpeg

/// PNG and JPEG stills, decoded with libavcodec to upright, full-range RGBA.
///
/// A still is opened as an ``InputFile`` of the ``ContainerFamily/stillImage`` family (its own
/// demuxer whitelist, `file` protocol only), so a clip path and a still path never share a
/// demuxer. EXIF orientation is applied, so a phone photo taken upright comes out upright, as in
/// a browser: a JPEG's comes as the frame's display matrix (libavcodec's mjpeg decoder reads its
/// APP1 segment), a PNG's from its `eXIf` chunk (``StillImageHeader``, since FFmpeg 5.1's png
/// decoder ignores it).
///
/// Only a regular file of at most ``maximumFileSize`` bytes is read (a FIFO or `/dev/zero`
/// behind the path is refused at once), and its header must declare a picture within the
/// ``PixelBudget``: both are checked before anything is decoded.
public enum StillImage {
    /// The largest still read, in bytes (20 MB): avatars and cube faces are photos, not posters
    /// for a billboard.
    public static let maximumFileSize: UInt64 = 20_000_000

    /// File extensions (lowercased) taken to name a still rather than a clip.
    public static let pathExtensions: Set<String> = ["png", "jpg", "jpeg"]

    /// True when `path` ends in `.png`, `.jpg` or `.jpeg` (any case).
    public static func isStillPath(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return pathExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// Decodes the still at `path` at `size` (``FrameSize/fill(width:height:)`` scales to cover
    /// and crops the overflow evenly; a still already of that size is only converted). Gives up
    /// after `timeout` seconds. Throws a ``MediaError`` naming the path and the reason:
    /// `.unreadableInput` for anything but a regular file, `.invalidMedia` for a file over
    /// ``maximumFileSize`` or a picture (declared, decoded or scaled) over the ``PixelBudget``.
    public static func load(path: String, size: FrameSize = .original, timeout: Double? = nil) throws
        -> RGBAImageBuffer
    {
        try MediaError.naming(path) { try decode(path: path, size: size, timeout: timeout) }
    }

    private static func decode(path: String, size: FrameSize, timeout: Double?) throws -> RGBAImageBuffer {
        guard size.isValid else { throw MediaError(.unsupported, path: path, "invalid picture size \(size)") }
        let file = try InputFile(path: path, timeout: timeout, family: .stillImage)
        guard let stream = file.bestStream(.video) else {
            throw MediaError(.noVideoStream, path: path, "no picture in the file")
        }
        // Strict: a still cut short (an interrupted upload) is refused rather than drawn as its
        // first rows over a flat fill.
        let reader = try VideoFrameReader(stream: stream, threads: 1, strict: true)
        let frame = try Frame()
        guard try reader.next(into: frame), frame.width > 0, frame.height > 0 else {
            throw MediaError(.invalidMedia, path: path, "no decodable picture in the file")
        }
        try PixelBudget.check(width: frame.width, height: frame.height, path: path, what: "the decoded picture")
        // The EXIF orientation as browsers read it (``ContainerFamily/Opening/exifOrientation``),
        // not the display matrix libavcodec's mjpeg decoder makes of it: turn it upright. Sizes
        // are the upright picture's; scaling happens before the turn, and a fill's crop before
        // the scale.
        let transform =
            file.exifOrientation?.displayMatrix.map {
                DisplayTransform(matrix: $0, orientation: DisplayOrientation(matrix: $0))
            } ?? .identity
        let display = transform.displaySize(width: frame.width, height: frame.height)
        let plan = try frame.scalingPlan(
            for: size, pixelAspect: 1, transform: transform, displayWidth: display.width, displayHeight: display.height,
            path: path)
        let scaled =
            frame.pixelFormat.hasAlpha
            ? try overBlackThenScaled(plan.source, width: plan.width, height: plan.height)
            : try Scaler(for: plan.source, width: plan.width, height: plan.height).scaleToRGBA(plan.source)
        return transform.apply(to: plan.keep(of: scaled))
    }

    /// `source`, a picture with alpha, drawn over black at its own size and then scaled to
    /// `width` × `height`. Drawn over black after scaling, the colour stored under transparent
    /// pixels was filtered into the visible ones beside them: a transparent red next to opaque
    /// green gave an orange-brown fringe 8 pixels wide on a cube face scaled 10× (a QA pass of
    /// stills), where browsers and ffmpeg's `premultiply` show none.
    private static func overBlackThenScaled(_ source: Frame, width: Int, height: Int) throws -> RGBAImageBuffer {
        var whole = try Scaler(for: source, width: source.width, height: source.height).scaleToRGBA(source)
        drawOverBlack(&whole)
        guard whole.width != width || whole.height != height else { return whole }
        let resizer = try RGBAResizer(
            sourceWidth: whole.width, sourceHeight: whole.height, width: width, height: height)
        return try whole.pixels.withUnsafeBufferPointer { try resizer.resize($0) }
    }

    /// Draws `image`'s transparent and translucent pixels over black, as the cube's background
    /// is black and a JPEG (an avatar, a poster) holds no alpha: the colour a PNG stores under a
    /// transparent pixel, often red or white, showed through (a QA pass).
    static func drawOverBlack(_ image: inout RGBAImageBuffer) {
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in stride(from: 0, to: pixels.count - 3, by: 4) where pixels[index + 3] != 255 {
                let alpha = Int(pixels[index + 3])
                for channel in 0..<3 {
                    pixels[index + channel] = UInt8((Int(pixels[index + channel]) * alpha + 127) / 255)
                }
                pixels[index + 3] = 255
            }
        }
    }
}
