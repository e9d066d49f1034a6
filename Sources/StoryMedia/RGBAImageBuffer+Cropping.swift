extension RGBAImageBuffer {
    /// The middle `width` × `height` of the picture (the overflow split evenly, an odd pixel
    /// going to the right or bottom), or the picture itself when it already has that size.
    public func centreCropped(width: Int, height: Int) -> RGBAImageBuffer {
        cropped(left: (self.width - width) / 2, top: (self.height - height) / 2, width: width, height: height)
    }

    /// The `width` × `height` part whose top-left pixel is (`left`, `top`), or the picture itself
    /// when that is all of it.
    public func cropped(left: Int, top: Int, width: Int, height: Int) -> RGBAImageBuffer {
        precondition(
            left >= 0 && top >= 0 && (1...self.width - left).contains(width)
                && (1...self.height - top).contains(height),
            "crop outside the picture")
        guard width != self.width || height != self.height else { return self }
        var cropped = [UInt8](repeating: 0, count: width * height * 4)
        cropped.withUnsafeMutableBytes { destination in
            pixels.withUnsafeBytes { source in
                for row in 0..<height {
                    let sourceOffset = ((top + row) * self.width + left) * 4
                    destination.baseAddress!.advanced(by: row * width * 4)
                        .copyMemory(from: source.baseAddress! + sourceOffset, byteCount: width * 4)
                }
            }
        }
        return RGBAImageBuffer(width: width, height: height, pixels: cropped)
    }
}
