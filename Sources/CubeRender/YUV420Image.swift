/// An 8-bit yuv420p picture stored as three tightly packed, row-major planes: luma at full size,
/// the two chroma planes at half width and half height; the faces ``CubeYUVRenderer`` draws
/// from. The renderer does not interpret the values beyond this: background and shading darken
/// towards limited-range black (luma 16, chroma 128), the levels of the encoder's BT.709
/// limited-range pictures.
public struct YUV420Image: Sendable, Equatable {
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

    /// Wraps existing planes.
    ///
    /// - Throws: `CubeRenderError` when a dimension is not positive and even, or a plane has the wrong size.
    public init(width: Int, height: Int, luma: [UInt8], blueChroma: [UInt8], redChroma: [UInt8]) throws {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw CubeRenderError("yuv420p picture size \(width)x\(height) must be positive and even")
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, luma.count == area, blueChroma.count == area / 4, redChroma.count == area / 4 else {
            throw CubeRenderError(
                "yuv420p picture \(width)x\(height) needs planes of \(width)*\(height) and 2 x "
                    + "\(width / 2)*\(height / 2) bytes but got \(luma.count), \(blueChroma.count) and \(redChroma.count)"
            )
        }
        self.width = width
        self.height = height
        self.luma = luma
        self.blueChroma = blueChroma
        self.redChroma = redChroma
    }
}
