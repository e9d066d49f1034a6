extension RGBAImageBuffer {
    /// The middle `width` × `height` of the picture (the overflow split evenly, an odd pixel
    /// going to the right or bottom), or the picture itself when it already has that size.
    public func centreCropped(width: Int, height: Int) -> RGBAImageBuffer {
        precondition(
            (1...self.width).contains(width) && (1...self.height).contains(height), "crop outside the picture")
        guard width != self.width || height != self.height else { return self }
        let left = (self.width - width) / 2
        let top = (self.height - height) / 2
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
