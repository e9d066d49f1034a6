import CFFmpeg

extension Frame {
    /// Points this frame at caller-owned packed RGBA bytes (`width` × `height`, stride `width` × 4)
    /// without copying them, so a ``Scaler`` can read them.
    ///
    /// The frame holds a reference-counted buffer whose free function does nothing: the caller
    /// keeps `pixels` alive and calls ``unref()`` when done, before the memory goes away.
    /// Throws `.invalidMedia` for a size over the ``PixelBudget``.
    ///
    /// A picture narrower than ``narrowestBorrowedWidth`` is copied into a padded buffer of the
    /// frame's own instead: libswscale's vector input readers load 16 bytes at a time and ran
    /// past the end of 2 to 6 pixel wide pictures (valgrind, `cube --size 2x2`). So is a picture
    /// of an odd width: libswscale reads its pixels in pairs, and read 4 bytes past the end of
    /// the last row (valgrind, a poster of a clip 165 pixels wide). The copy's padding is zeroed,
    /// so what those reads see is the same every run.
    func borrow(rgba pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int) throws {
        try PixelBudget.check(width: width, height: height, path: nil)
        precondition(pixels.count >= width * height * 4, "RGBA buffer smaller than \(width)x\(height)")
        unref()
        if width < Self.narrowestBorrowedWidth || width % 2 != 0, let base = pixels.baseAddress {
            try allocate(width: width, height: height, format: AV_PIX_FMT_RGBA)
            pointer.pointee.color_range = AVCOL_RANGE_JPEG
            let (target, stride) = plane(0)
            for row in 0..<height {
                (target + row * stride).copyMemory(from: base + row * width * 4, byteCount: width * 4)
                (target + row * stride + width * 4).initializeMemory(
                    as: UInt8.self, repeating: 0, count: stride - width * 4)
            }
            return
        }
        guard let base = pixels.baseAddress,
            let buffer = av_buffer_create(
                UnsafeMutablePointer(mutating: base), pixels.count, { _, _ in }, nil, AV_BUFFER_FLAG_READONLY)
        else { throw MediaError(.ioFailure, "out of memory (frame buffer)") }
        pointer.pointee.buf.0 = buffer
        pointer.pointee.data.0 = buffer.pointee.data
        pointer.pointee.linesize.0 = Int32(clamping: width * 4)
        pointer.pointee.width = Int32(clamping: width)
        pointer.pointee.height = Int32(clamping: height)
        pointer.pointee.format = AV_PIX_FMT_RGBA.rawValue
        pointer.pointee.color_range = AVCOL_RANGE_JPEG
    }

    /// Pictures at least this wide (and of an even width) are borrowed in place; narrower ones
    /// are copied.
    static let narrowestBorrowedWidth = 16
}
