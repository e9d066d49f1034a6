import CFFmpeg

/// PNG and JPEG stills, decoded with libavcodec to upright, full-range RGBA.
///
/// A still is opened as an ``InputFile`` of the ``ContainerFamily/stillImage`` family (its own
/// demuxer whitelist, `file` protocol only), so a clip path and a still path never share a
/// demuxer. EXIF orientation is not applied.
public enum StillImage {
    /// File extensions (lowercased) taken to name a still rather than a clip.
    public static let pathExtensions: Set<String> = ["png", "jpg", "jpeg"]

    /// True when `path` ends in `.png`, `.jpg` or `.jpeg` (any case).
    public static func isStillPath(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return pathExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// Decodes the still at `path` at `size` (``FrameSize/fill(width:height:)`` scales to cover
    /// and crops the overflow evenly; a still already of that size is only converted). Gives up
    /// after `timeout` seconds. Throws a ``MediaError`` naming the path and the reason.
    public static func load(path: String, size: FrameSize = .original, timeout: Double? = nil) throws
        -> RGBAImageBuffer
    {
        guard size.isValid else { throw MediaError(.unsupported, path: path, "invalid picture size \(size)") }
        let file = try InputFile(path: path, timeout: timeout, family: .stillImage)
        guard let stream = file.bestStream(.video) else {
            throw MediaError(.noVideoStream, path: path, "no picture in the file")
        }
        let reader = try VideoFrameReader(stream: stream, threads: 1)
        let frame = try Frame()
        guard try reader.next(into: frame), frame.width > 0, frame.height > 0 else {
            throw MediaError(.invalidMedia, path: path, "no decodable picture in the file")
        }
        let (scaledWidth, scaledHeight) = size.scaledSize(displayWidth: frame.width, displayHeight: frame.height)
        let (width, height) = size.outputSize(displayWidth: frame.width, displayHeight: frame.height)
        let scaled = try Scaler(for: frame, width: scaledWidth, height: scaledHeight).scaleToRGBA(frame)
        return scaled.centreCropped(width: width, height: height)
    }
}
