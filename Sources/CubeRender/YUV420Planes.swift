/// Where the renderer writes a yuv420p frame: the first byte and the stride (bytes from one row to
/// the next) of each plane, in memory the caller owns, such as an encoder's picture. Luma is
/// `width` x `height`; each chroma plane is `width / 2` x `height / 2`.
public struct YUV420Planes {
    /// The first luma byte.
    public var luma: UnsafeMutableRawPointer
    /// Bytes per luma row; at least the width.
    public var lumaStride: Int
    /// The first blue-difference chroma byte.
    public var blueChroma: UnsafeMutableRawPointer
    /// Bytes per blue-difference chroma row; at least half the width.
    public var blueChromaStride: Int
    /// The first red-difference chroma byte.
    public var redChroma: UnsafeMutableRawPointer
    /// Bytes per red-difference chroma row; at least half the width.
    public var redChromaStride: Int

    /// The planes given.
    public init(
        luma: UnsafeMutableRawPointer, lumaStride: Int, blueChroma: UnsafeMutableRawPointer, blueChromaStride: Int,
        redChroma: UnsafeMutableRawPointer, redChromaStride: Int
    ) {
        self.luma = luma
        self.lumaStride = lumaStride
        self.blueChroma = blueChroma
        self.blueChromaStride = blueChromaStride
        self.redChroma = redChroma
        self.redChromaStride = redChromaStride
    }
}
