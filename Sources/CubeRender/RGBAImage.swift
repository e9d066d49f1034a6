/// An 8-bit RGBA image stored row-major and tightly packed: the pixel at (x, y) starts at byte
/// `(y * width + x) * 4` and holds red, green, blue and alpha in that order.
public struct RGBAImage: Sendable, Equatable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The pixel bytes, `width * height * 4` of them, RGBA per pixel, rows top to bottom.
    public let pixels: [UInt8]

    /// Wraps existing RGBA bytes.
    ///
    /// - Throws: `CubeRenderError` when a dimension is not positive or `pixels.count != width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0 else {
            throw CubeRenderError("image size \(width)x\(height) must be positive")
        }
        let (area, areaOverflow) = width.multipliedReportingOverflow(by: height)
        let (byteCount, bytesOverflow) = area.multipliedReportingOverflow(by: 4)
        guard !areaOverflow, !bytesOverflow, pixels.count == byteCount else {
            throw CubeRenderError(
                "image \(width)x\(height) needs \(width)*\(height)*4 bytes but got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates an opaque image of one solid colour (alpha 255).
    ///
    /// - Precondition: `width` and `height` are positive.
    public init(width: Int, height: Int, filledWith red: UInt8, _ green: UInt8, _ blue: UInt8) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for index in stride(from: 0, to: bytes.count, by: 4) {
            bytes[index] = red
            bytes[index + 1] = green
            bytes[index + 2] = blue
        }
        self.pixels = bytes
    }

    /// Returns the RGBA bytes of the pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }
}
