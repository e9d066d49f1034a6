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
        // Blocks of 8 columns by 8 rows are transposed eight bytes at a time; what is left over
        // (the padding rows, the last rows and columns of a plane whose sides are not multiples
        // of 8) is laid out a pixel at a time, with the same bytes.
        let blockColumns = width >= 9 ? (width - 1) / 8 * 8 : 0
        let blockRows = height / 8 * 8
        for x in stride(from: 0, to: blockColumns, by: 8) {
            for y in stride(from: 0, to: blockRows, by: 8) {
                layOutBlock(plane: plane, rowBytes: rowBytes, x: x, y: y)
            }
        }
        layOutPixels(plane: plane, rowBytes: rowBytes, columns: 0..<blockColumns, paddedRows: 0..<1)
        layOutPixels(
            plane: plane, rowBytes: rowBytes, columns: 0..<blockColumns, paddedRows: (blockRows + 1)..<(height + 2))
        layOutPixels(plane: plane, rowBytes: rowBytes, columns: blockColumns..<width, paddedRows: 0..<(height + 2))
    }

    /// Lays out columns `x ..< x + 8` of rows `y ..< y + 8` (padded rows `y + 1 ...`), where
    /// column `x + 8` is in the plane: each row's 8 bytes are one load, the 8 x 8 block is
    /// transposed in registers, and each column's bytes are then interleaved with the next
    /// column's into the 16 bytes of its pairs.
    @inline(__always)
    private func layOutBlock(plane: UnsafeRawPointer, rowBytes: Int, x: Int, y: Int) {
        var rows = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var next = UInt64(0)
        withUnsafeMutableBytes(of: &rows) { rows in
            for row in 0..<8 {
                let source = plane + (y + row) * rowBytes + x
                rows.storeBytes(
                    of: UInt64(littleEndian: source.loadUnaligned(as: UInt64.self)), toByteOffset: row * 8,
                    as: UInt64.self)
                next |= UInt64(source.load(fromByteOffset: 8, as: UInt8.self)) << (row * 8)
            }
        }
        // Byte j of row i goes to byte i of column j: swap 1-, 2- and 4-byte elements across
        // the diagonal.
        Self.swapElements(&rows.0, &rows.1, shift: 8, mask: 0x00FF_00FF_00FF_00FF)
        Self.swapElements(&rows.2, &rows.3, shift: 8, mask: 0x00FF_00FF_00FF_00FF)
        Self.swapElements(&rows.4, &rows.5, shift: 8, mask: 0x00FF_00FF_00FF_00FF)
        Self.swapElements(&rows.6, &rows.7, shift: 8, mask: 0x00FF_00FF_00FF_00FF)
        Self.swapElements(&rows.0, &rows.2, shift: 16, mask: 0x0000_FFFF_0000_FFFF)
        Self.swapElements(&rows.1, &rows.3, shift: 16, mask: 0x0000_FFFF_0000_FFFF)
        Self.swapElements(&rows.4, &rows.6, shift: 16, mask: 0x0000_FFFF_0000_FFFF)
        Self.swapElements(&rows.5, &rows.7, shift: 16, mask: 0x0000_FFFF_0000_FFFF)
        Self.swapElements(&rows.0, &rows.4, shift: 32, mask: 0x0000_0000_FFFF_FFFF)
        Self.swapElements(&rows.1, &rows.5, shift: 32, mask: 0x0000_0000_FFFF_FFFF)
        Self.swapElements(&rows.2, &rows.6, shift: 32, mask: 0x0000_0000_FFFF_FFFF)
        Self.swapElements(&rows.3, &rows.7, shift: 32, mask: 0x0000_0000_FFFF_FFFF)
        let column = bytes + x * columnBytes + (y + 1) * 2
        storePairs(at: column, left: rows.0, right: rows.1)
        storePairs(at: column + columnBytes, left: rows.1, right: rows.2)
        storePairs(at: column + 2 * columnBytes, left: rows.2, right: rows.3)
        storePairs(at: column + 3 * columnBytes, left: rows.3, right: rows.4)
        storePairs(at: column + 4 * columnBytes, left: rows.4, right: rows.5)
        storePairs(at: column + 5 * columnBytes, left: rows.5, right: rows.6)
        storePairs(at: column + 6 * columnBytes, left: rows.6, right: rows.7)
        storePairs(at: column + 7 * columnBytes, left: rows.7, right: next)
    }

    /// Stores 8 rows of one column's pairs at `target`: `left` holds the column's 8 bytes,
    /// `right` the next column's.
    @inline(__always)
    private func storePairs(at target: UnsafeMutableRawPointer, left: UInt64, right: UInt64) {
        target.storeBytes(
            of: (Self.spread(UInt32(truncatingIfNeeded: left)) | Self.spread(UInt32(truncatingIfNeeded: right)) << 8)
                .littleEndian, as: UInt64.self)
        (target + 8).storeBytes(
            of: (Self.spread(UInt32(truncatingIfNeeded: left >> 32))
                | Self.spread(UInt32(truncatingIfNeeded: right >> 32)) << 8).littleEndian, as: UInt64.self)
    }

    /// One step of the 8 x 8 byte transpose: the elements `shift` bits wide that `mask` selects
    /// in `second` trade places with those above them in `first`.
    @inline(__always)
    private static func swapElements(_ first: inout UInt64, _ second: inout UInt64, shift: UInt64, mask: UInt64) {
        let swapped = ((first >> shift) ^ second) & mask
        second ^= swapped
        first ^= swapped << shift
    }

    /// The 4 bytes of `value` in the even bytes of the result, zeros between.
    @inline(__always)
    private static func spread(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        return (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
    }

    /// Lays out `columns` of `paddedRows` a pixel at a time.
    private func layOutPixels(plane: UnsafeRawPointer, rowBytes: Int, columns: Range<Int>, paddedRows: Range<Int>) {
        for paddedRow in paddedRows {
            let source = plane + min(max(paddedRow - 1, 0), height - 1) * rowBytes
            for x in columns {
                let pair =
                    UInt16(source.load(fromByteOffset: x, as: UInt8.self))
                    | UInt16(source.load(fromByteOffset: min(x + 1, width - 1), as: UInt8.self)) << 8
                bytes.storeBytes(of: pair.littleEndian, toByteOffset: x * columnBytes + paddedRow * 2, as: UInt16.self)
            }
        }
    }

    deinit { bytes.deallocate() }
}
