/// A picture as the clip writer's encoder takes it: 8-bit yuv420p, BT.709, limited range, in
/// three tightly packed, row-major planes (luma at full size, blue then red chroma at half width
/// and half height); what a renderer drawing with ``VideoClipWriter/append(drawing:)`` starts
/// from.
public struct PlanarPicture: Sendable, Equatable {
    /// The width in pixels; even.
    public let width: Int
    /// The height in pixels; even.
    public let height: Int
    /// `width * height` luma bytes, rows top to bottom.
    public let luma: [UInt8]
    /// `width / 2 * height / 2` blue-difference chroma bytes (Cb).
    public let blueChroma: [UInt8]
    /// `width / 2 * height / 2` red-difference chroma bytes (Cr).
    public let redChroma: [UInt8]

    /// The `width` x `height` part of yuv420p `frame` from (`left`, `top`), both even, its
    /// planes' bytes copied row by row, nothing converted.
    init(copying frame: Frame, left: Int = 0, top: Int = 0, width: Int, height: Int) {
        self.width = width
        self.height = height
        let planes = (0..<3).map { index in
            let (base, stride) = frame.plane(index)
            let shift = index == 0 ? 0 : 1
            let (planeWidth, planeHeight) = (width >> shift, height >> shift)
            let start = base + (top >> shift) * stride + (left >> shift)
            return [UInt8](unsafeUninitializedCapacity: planeWidth * planeHeight) { buffer, count in
                for row in 0..<planeHeight {
                    UnsafeMutableRawPointer(buffer.baseAddress! + row * planeWidth).copyMemory(
                        from: start + row * stride, byteCount: planeWidth)
                }
                count = planeWidth * planeHeight
            }
        }
        (luma, blueChroma, redChroma) = (planes[0], planes[1], planes[2])
    }
}
