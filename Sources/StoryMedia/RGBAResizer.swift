import CFFmpeg

/// Resizes packed RGBA pictures of one size to another with libswscale (bicubic), reusing one
/// ``Scaler`` for every picture, e.g. the tiles of a filmstrip.
public final class RGBAResizer {
    /// Source width in pixels.
    public let sourceWidth: Int
    /// Source height in pixels.
    public let sourceHeight: Int
    /// Destination width in pixels.
    public var width: Int { scaler.destinationWidth }
    /// Destination height in pixels.
    public var height: Int { scaler.destinationHeight }

    private let scaler: Scaler
    private let source: Frame

    /// A resizer from `sourceWidth` × `sourceHeight` to `width` × `height`.
    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        scaler = try Scaler(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, sourceFormat: AV_PIX_FMT_RGBA, width: width,
            height: height, destinationFormat: AV_PIX_FMT_RGBA)
        source = try Frame()
    }

    /// Resizes `pixels` (sourceWidth × sourceHeight packed RGBA) into a new picture.
    public func resize(_ pixels: UnsafeBufferPointer<UInt8>) throws -> RGBAImageBuffer {
        try source.borrow(rgba: pixels, width: sourceWidth, height: sourceHeight)
        defer { source.unref() }
        return try scaler.scaleToRGBA(source)
    }
}
