/// The per-frame kernel of `CubeRenderer`: renders the screen columns of one frame into the output.
///
/// Each screen column gets a `CubeColumnSampler` (one division and a few multiplications); its face rows are
/// then a fixed-point walk down two adjacent columns of the transposed face. Columns are drawn four at a time
/// over the rows all four show, so every output row gets one 16-byte store instead of four scattered 4-byte
/// ones; the few rows where the four columns differ, and background rows, are drawn column by column.
/// Output memory is addressed through raw pointers, so the caller's byte buffer needs no particular alignment.
///
/// `@unchecked Sendable` is sound because a job is immutable and used only for the duration of one
/// `DispatchQueue.concurrentPerform` inside `CubeRenderer.render`: the faces and the weight table are only
/// read; chunk `c` writes only its own 16-column output blocks, disjoint from every other chunk's; and the
/// renderer, which owns faces and table, outlives the call. The output belongs to the caller for that call.
struct CubeColumnJob: @unchecked Sendable {
    /// The projection of this frame.
    let geometry: CubeFrameGeometry
    /// The shading strength `S`.
    let shade: Double
    /// The transposed outgoing face.
    let outgoingFace: UnsafeRawPointer
    /// The transposed incoming face.
    let incomingFace: UnsafeRawPointer
    /// Pixels per padded face column (`height + 2`).
    let columnLength: Int
    /// The canvas width in pixels.
    let width: Int
    /// The canvas height in pixels.
    let height: Int
    /// The first byte of the RGBA output, row-major with a stride of `width * 4` bytes.
    let output: UnsafeMutableRawPointer
    /// 256 vertical weight pairs, 16 bytes each: entry `w` holds `SIMD8<UInt16>`
    /// `[65535 - 256 * w] * 4 + [256 * w] * 4`, the upper and lower row weights in 0.16 fixed point.
    let verticalWeights: UnsafeRawPointer

    /// Screen columns per block handed out to chunks: one 64-byte cache line of RGBA output.
    static let columnsPerBlock = 16
    /// Opaque black in the output's RGBA byte order.
    private static let background = SIMD4<UInt8>(0, 0, 0, 255)

    /// Renders chunk `chunk` of `chunkCount`: 16-column blocks `chunk`, `chunk + chunkCount`, ... are
    /// interleaved so every chunk gets a fair mix of cheap background and face columns and no two chunks
    /// write to the same output cache line.
    func renderChunk(_ chunk: Int, of chunkCount: Int) {
        let blockCount = (width + Self.columnsPerBlock - 1) / Self.columnsPerBlock
        var block = chunk
        while block < blockCount {
            let lower = block * Self.columnsPerBlock
            let upper = min(lower + Self.columnsPerBlock, width)
            // Four columns at a time; when the width is not a multiple of 4 the last two go one by one.
            var x = lower
            while x + 4 <= upper {
                renderColumnQuad(x)
                x += 4
            }
            if x < upper {
                renderColumns(x..<upper)
            }
            block += chunkCount
        }
    }

    /// The sampler of screen column `x`.
    @inline(__always)
    private func sampler(ofColumn x: Int) -> CubeColumnSampler {
        guard let column = geometry.column(x) else { return .background(face: outgoingFace) }
        return CubeColumnSampler(
            column: column,
            face: column.showsOutgoingFace ? outgoingFace : incomingFace,
            columnLength: columnLength,
            width: width,
            shade: shade)
    }

    /// Renders screen columns `x..<x + 4` top to bottom.
    private func renderColumnQuad(_ x: Int) {
        let rowBytes = width * 4
        let top = output + x * 4
        let samplers = (
            sampler(ofColumn: x), sampler(ofColumn: x + 1), sampler(ofColumn: x + 2),
            sampler(ofColumn: x + 3)
        )
        let sharedStart = max(samplers.0.firstRow, samplers.1.firstRow, samplers.2.firstRow, samplers.3.firstRow)
        let sharedEnd = min(samplers.0.endRow, samplers.1.endRow, samplers.2.endRow, samplers.3.endRow)
        let shared = sharedStart < sharedEnd ? sharedStart..<sharedEnd : height..<height
        finishColumn(samplers.0, outside: shared, top: top, rowBytes: rowBytes)
        finishColumn(samplers.1, outside: shared, top: top + 4, rowBytes: rowBytes)
        finishColumn(samplers.2, outside: shared, top: top + 8, rowBytes: rowBytes)
        finishColumn(samplers.3, outside: shared, top: top + 12, rowBytes: rowBytes)
        guard !shared.isEmpty else { return }

        let columnBytes = columnLength * 4
        var positions = (
            samplers.0.position(atRow: sharedStart), samplers.1.position(atRow: sharedStart),
            samplers.2.position(atRow: sharedStart), samplers.3.position(atRow: sharedStart)
        )
        var destination = top + sharedStart * rowBytes
        for _ in shared {
            let first = Self.weightedTaps(
                samplers.0, at: positions.0, columnBytes: columnBytes,
                weights: verticalWeights)
            let second = Self.weightedTaps(
                samplers.1, at: positions.1, columnBytes: columnBytes,
                weights: verticalWeights)
            let third = Self.weightedTaps(
                samplers.2, at: positions.2, columnBytes: columnBytes,
                weights: verticalWeights)
            let fourth = Self.weightedTaps(
                samplers.3, at: positions.3, columnBytes: columnBytes,
                weights: verticalWeights)
            let firstPair =
                (SIMD8<UInt16>(lowHalf: first.lowHalf, highHalf: second.lowHalf)
                    &+ SIMD8<UInt16>(lowHalf: first.highHalf, highHalf: second.highHalf)) &>> 8
            let secondPair =
                (SIMD8<UInt16>(lowHalf: third.lowHalf, highHalf: fourth.lowHalf)
                    &+ SIMD8<UInt16>(lowHalf: third.highHalf, highHalf: fourth.highHalf)) &>> 8
            destination.storeBytes(of: Self.narrow(firstPair, secondPair), as: SIMD16<UInt8>.self)
            destination += rowBytes
            positions.0 &+= samplers.0.step
            positions.1 &+= samplers.1.step
            positions.2 &+= samplers.2.step
            positions.3 &+= samplers.3.step
        }
    }

    /// Renders the screen columns `columns` one by one, top to bottom.
    private func renderColumns(_ columns: Range<Int>) {
        let rowBytes = width * 4
        for x in columns {
            finishColumn(sampler(ofColumn: x), outside: height..<height, top: output + x * 4, rowBytes: rowBytes)
        }
    }

    /// Draws every row of the column at `top` except `skipped`: background outside the sampler's face rows,
    /// the face inside them.
    @inline(__always)
    private func finishColumn(
        _ sampler: CubeColumnSampler, outside skipped: Range<Int>,
        top: UnsafeMutableRawPointer, rowBytes: Int
    ) {
        Self.fill(top, rows: 0..<sampler.firstRow, rowBytes: rowBytes)
        Self.fill(top, rows: sampler.endRow..<height, rowBytes: rowBytes)
        if skipped.isEmpty {
            resample(sampler, rows: sampler.firstRow..<sampler.endRow, top: top, rowBytes: rowBytes)
        } else {
            resample(
                sampler, rows: sampler.firstRow..<min(skipped.lowerBound, sampler.endRow), top: top,
                rowBytes: rowBytes)
            resample(
                sampler, rows: max(skipped.upperBound, sampler.firstRow)..<sampler.endRow, top: top,
                rowBytes: rowBytes)
        }
    }

    /// Renders `rows` (all on the face, possibly none) of the single column that starts at `top`.
    @inline(__always)
    private func resample(
        _ sampler: CubeColumnSampler, rows: Range<Int>, top: UnsafeMutableRawPointer,
        rowBytes: Int
    ) {
        guard !rows.isEmpty else { return }
        let columnBytes = columnLength * 4
        var position = sampler.position(atRow: rows.lowerBound)
        var destination = top + rows.lowerBound * rowBytes
        for _ in rows {
            let taps = Self.weightedTaps(sampler, at: position, columnBytes: columnBytes, weights: verticalWeights)
            let mixed = (taps.lowHalf &+ taps.highHalf) &>> 8
            destination.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: mixed), as: SIMD4<UInt8>.self)
            destination += rowBytes
            position &+= sampler.step
        }
    }

    /// Packs two vectors of 16-bit lanes holding 0...255 into one vector of bytes.
    ///
    /// This loop's speed rests on the compiler inlining `SIMD8`'s generic
    /// `init(truncatingIfNeeded:)` here and in ``weightedTaps(_:at:columnBytes:weights:)``. One more
    /// use of that initialiser elsewhere in this module stopped it: the loop ran 4.6 times slower
    /// (storyreel-bench RGBA 532 → 106 Mpixel/s). After adding one, check `make bench`'s RGBA
    /// render-only figure.
    @inline(__always)
    private static func narrow(_ low: SIMD8<UInt16>, _ high: SIMD8<UInt16>) -> SIMD16<UInt8> {
        SIMD16<UInt8>(lowHalf: SIMD8<UInt8>(truncatingIfNeeded: low), highHalf: SIMD8<UInt8>(truncatingIfNeeded: high))
    }

    /// The two vertical taps of one output pixel, weighted and still to be summed and shifted.
    ///
    /// Reads rows `floor` and `floor + 1` of both face columns at `position` (8 contiguous bytes each, as
    /// `[upper RGBA, lower RGBA]`), blends them horizontally with the column's 8-bit weights (shading folded in)
    /// into 8.8 fixed point plus 0.5 for the final rounding, then scales the upper and lower halves by the 0.16
    /// fixed-point vertical weights looked up in `weights` with a high-half multiply. The pixel is
    /// `(lowHalf + highHalf) >> 8`.
    @inline(__always)
    private static func weightedTaps(
        _ sampler: CubeColumnSampler, at position: Int, columnBytes: Int, weights: UnsafeRawPointer
    ) -> SIMD8<UInt16> {
        let tapOffset = (position &>> 32) &* 4
        let leftPair = SIMD8<UInt16>(
            truncatingIfNeeded: sampler.leftColumn.loadUnaligned(
                fromByteOffset: tapOffset, as: SIMD8<UInt8>.self))
        let rightPair = SIMD8<UInt16>(
            truncatingIfNeeded: sampler.leftColumn.loadUnaligned(
                fromByteOffset: tapOffset &+ columnBytes, as: SIMD8<UInt8>.self))
        let blended = leftPair &* sampler.leftWeights &+ rightPair &* sampler.rightWeights &+ 128
        let weightPair = weights.load(
            fromByteOffset: Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: position) &>> 24) &* 16,
            as: SIMD8<UInt16>.self)
        return SIMD8<UInt16>(
            truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: blended)
                &* SIMD8<UInt32>(truncatingIfNeeded: weightPair)) &>> 16)
    }

    /// Writes opaque black down one output column.
    @inline(__always)
    private static func fill(_ top: UnsafeMutableRawPointer, rows: Range<Int>, rowBytes: Int) {
        var pointer = top + rows.lowerBound * rowBytes
        for _ in rows {
            pointer.storeBytes(of: background, as: SIMD4<UInt8>.self)
            pointer += rowBytes
        }
    }
}
