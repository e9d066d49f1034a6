/// An upright, 8-bit, full-range RGBA picture in memory, tightly packed (stride = width × 4).
/// This is what the media layer hands out: decoded frames, posters, stills.
public struct RGBAImageBuffer: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// R, G, B, A bytes, row by row.
    public var pixels: [UInt8]

    /// Wraps `pixels`, which must hold exactly width × height × 4 bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA buffer size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
