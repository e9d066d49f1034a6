/// One 8-bit plane of a face, laid out for `CubePlaneJob`: transposed, so a screen column walks
/// contiguous memory, and paired, so one 4-byte load gives all four bilinear taps.
///
/// Column `x` holds `height + 2` padded rows (row 0 repeated, rows 0..<height, row height-1
/// repeated) of 2 bytes each: the plane's pixel in column `x` and in column `x + 1` (column
/// `width - 1` again for the last column, whose right neighbour is always weighted 0). The 4
/// bytes at padded row `r` are then `[left(r), right(r), left(r + 1), right(r + 1)]`. Slack after
/// the last column keeps every load inside the allocation.
///
/// `@unchecked Sendable` is sound because the bytes are written only in `init` and freed only in
/// `deinit`; renders only read them.
final class CubePlaneFace: @unchecked Sendable {
    /// The plane's width in pixels.
    let width: Int
    /// The plane's height in pixels.
    let height: Int
    /// Bytes per padded column: `(height + 2) * 2`.
    let columnBytes: Int
    /// The first byte of column 0.
    let bytes: UnsafeMutableRawPointer

    /// Bytes of slack after the last column.
    private static let slackBytes = 16

    /// Lays out the `width` x `height` plane whose rows start `rowBytes` apart at `plane`.
    init(plane: UnsafeRawPointer, width: Int, height: Int, rowBytes: Int) {
        self.width = width
        self.height = height
        self.columnBytes = (height + 2) * 2
        let byteCount = width * columnBytes + Self.slackBytes
        bytes = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        (bytes + width * columnBytes).initializeMemory(as: UInt8.self, repeating: 0, count: Self.slackBytes)
        let tile = 64
        for tileY in stride(from: -1, to: height + 1, by: tile) {
            let rowEnd = min(tileY + tile, height + 1)
            for tileX in stride(from: 0, to: width, by: tile) {
                let columnEnd = min(tileX + tile, width)
                for y in tileY..<rowEnd {
                    let source = plane + min(max(y, 0), height - 1) * rowBytes
                    let paddedRowOffset = (y + 1) * 2
                    for x in tileX..<columnEnd {
                        let pair =
                            UInt16(source.load(fromByteOffset: x, as: UInt8.self))
                            | UInt16(source.load(fromByteOffset: min(x + 1, width - 1), as: UInt8.self)) << 8
                        bytes.storeBytes(
                            of: pair.littleEndian, toByteOffset: x * columnBytes + paddedRowOffset, as: UInt16.self)
                    }
                }
            }
        }
    }

    deinit { bytes.deallocate() }
}
