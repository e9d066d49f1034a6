/// The per-frame kernel of `CubeYUVRenderer` for one 8-bit plane: renders its screen columns
/// from the plane's two faces into the caller's plane.
///
/// Each screen column gets a `CubePlaneSampler`; columns are drawn four at a time over the rows
/// all four show, so every output row gets one 4-byte store; the few rows where the four differ,
/// and background rows, are drawn column by column. A chroma plane is drawn from the faces'
/// half-size chroma with the geometry of a half-size canvas: the projection scales with the
/// canvas, so each chroma sample lands in the middle of the four luma samples it stands for, as
/// libswscale sites 4:2:0 chroma. (Sampling full-size chroma there instead measured worse: the
/// faces' chroma was no longer low-passed before it was subsampled.)
///
/// `@unchecked Sendable` is sound because a job is immutable and used only for the duration of one
/// `DispatchQueue.concurrentPerform` inside `CubeYUVRenderer.render`: the faces are only read;
/// chunk `c` writes only its own column blocks, disjoint from every other chunk's; the renderer,
/// which owns the faces, outlives the call, and the output belongs to the caller for that call.
struct CubePlaneJob: @unchecked Sendable {
    /// The projection of this frame at the plane's size.
    let geometry: CubeFrameGeometry
    /// The shading strength `S`.
    let shade: Double
    /// The outgoing face's plane.
    let outgoingFace: CubePlaneFace
    /// The incoming face's plane.
    let incomingFace: CubePlaneFace
    /// The background value, which shading darkens towards: 16 for luma, 128 for chroma.
    let neutral: UInt8
    /// The first byte of the output plane.
    let output: UnsafeMutableRawPointer
    /// Bytes from one output row to the next.
    let rowBytes: Int

    /// Screen columns per block handed out to chunks: one 64-byte cache line of output.
    static let columnsPerBlock = 64

    /// The output plane's width in pixels.
    private var width: Int { Int(geometry.width) }
    /// The output plane's height in pixels.
    private var height: Int { geometry.rowCount }

    /// Renders chunk `chunk` of `chunkCount`: 64-column blocks `chunk`, `chunk + chunkCount`, ...
    func renderChunk(_ chunk: Int, of chunkCount: Int) {
        let blockCount = (width + Self.columnsPerBlock - 1) / Self.columnsPerBlock
        var block = chunk
        while block < blockCount {
            let lower = block * Self.columnsPerBlock
            let upper = min(lower + Self.columnsPerBlock, width)
            var x = lower
            while x + 4 <= upper {
                renderColumnQuad(x)
                x += 4
            }
            while x < upper {
                finishColumn(sampler(ofColumn: x), outside: height..<height, top: output + x)
                x += 1
            }
            block += chunkCount
        }
    }

    /// The sampler of screen column `x`.
    @inline(__always)
    private func sampler(ofColumn x: Int) -> CubePlaneSampler {
        guard let column = geometry.column(x) else { return .background(face: UnsafeRawPointer(outgoingFace.bytes)) }
        return CubePlaneSampler(
            column: column, face: column.showsOutgoingFace ? outgoingFace : incomingFace,
            shade: shade, neutral: neutral)
    }

    /// Renders screen columns `x..<x + 4` top to bottom.
    private func renderColumnQuad(_ x: Int) {
        let top = output + x
        let samplers = (
            sampler(ofColumn: x), sampler(ofColumn: x + 1), sampler(ofColumn: x + 2), sampler(ofColumn: x + 3)
        )
        let sharedStart = max(samplers.0.firstRow, samplers.1.firstRow, samplers.2.firstRow, samplers.3.firstRow)
        let sharedEnd = min(samplers.0.endRow, samplers.1.endRow, samplers.2.endRow, samplers.3.endRow)
        let shared = sharedStart < sharedEnd ? sharedStart..<sharedEnd : height..<height
        finishColumn(samplers.0, outside: shared, top: top)
        finishColumn(samplers.1, outside: shared, top: top + 1)
        finishColumn(samplers.2, outside: shared, top: top + 2)
        finishColumn(samplers.3, outside: shared, top: top + 3)
        guard !shared.isEmpty else { return }
        var positions = (
            samplers.0.position(atRow: sharedStart), samplers.1.position(atRow: sharedStart),
            samplers.2.position(atRow: sharedStart), samplers.3.position(atRow: sharedStart)
        )
        // Lanes [upper0, lower0, upper1, lower1, ...]: each column's weight twice.
        let leftWeights = SIMD8<UInt16>(
            UInt16(samplers.0.leftWeight), UInt16(samplers.0.leftWeight), UInt16(samplers.1.leftWeight),
            UInt16(samplers.1.leftWeight), UInt16(samplers.2.leftWeight), UInt16(samplers.2.leftWeight),
            UInt16(samplers.3.leftWeight), UInt16(samplers.3.leftWeight))
        let rightWeights = SIMD8<UInt16>(
            UInt16(samplers.0.rightWeight), UInt16(samplers.0.rightWeight), UInt16(samplers.1.rightWeight),
            UInt16(samplers.1.rightWeight), UInt16(samplers.2.rightWeight), UInt16(samplers.2.rightWeight),
            UInt16(samplers.3.rightWeight), UInt16(samplers.3.rightWeight))
        let rowBiases = SIMD8<UInt16>(
            UInt16(samplers.0.rowBias), UInt16(samplers.0.rowBias), UInt16(samplers.1.rowBias),
            UInt16(samplers.1.rowBias), UInt16(samplers.2.rowBias), UInt16(samplers.2.rowBias),
            UInt16(samplers.3.rowBias), UInt16(samplers.3.rowBias))
        var fractions = SIMD4<UInt32>(
            UInt32(truncatingIfNeeded: positions.0), UInt32(truncatingIfNeeded: positions.1),
            UInt32(truncatingIfNeeded: positions.2), UInt32(truncatingIfNeeded: positions.3))
        let fractionSteps = SIMD4<UInt32>(
            UInt32(truncatingIfNeeded: samplers.0.step), UInt32(truncatingIfNeeded: samplers.1.step),
            UInt32(truncatingIfNeeded: samplers.2.step), UInt32(truncatingIfNeeded: samplers.3.step))
        var destination = top + sharedStart * rowBytes
        for _ in shared {
            // Per column the bytes [left(r), right(r), left(r + 1), right(r + 1)]; as 16-bit lanes,
            // the low bytes are the left taps and the high bytes the right ones.
            let taps = unsafeBitCast(
                SIMD4<UInt32>(
                    samplers.0.column.loadUnaligned(fromByteOffset: (positions.0 &>> 32) &* 2, as: UInt32.self),
                    samplers.1.column.loadUnaligned(fromByteOffset: (positions.1 &>> 32) &* 2, as: UInt32.self),
                    samplers.2.column.loadUnaligned(fromByteOffset: (positions.2 &>> 32) &* 2, as: UInt32.self),
                    samplers.3.column.loadUnaligned(fromByteOffset: (positions.3 &>> 32) &* 2, as: UInt32.self)),
                to: SIMD8<UInt16>.self)
            // Blended across with the neutral share, rounded to 8 bits: [upper0, lower0, upper1, ...]
            // (at most 255 × 256 + 128: the sums fit 16-bit lanes).
            let rows = ((taps & 0xFF) &* leftWeights &+ (taps &>> 8) &* rightWeights &+ rowBiases) &>> 8
            // [256 - w, w] per column, w the 8-bit fraction of the row.
            let lowerWeights = fractions &>> 24
            let verticalWeights = unsafeBitCast((lowerWeights &<< 16) | (256 &- lowerWeights), to: SIMD8<UInt16>.self)
            let weighted = unsafeBitCast(rows &* verticalWeights, to: SIMD4<UInt32>.self)
            let values = ((weighted & 0xFFFF) &+ (weighted &>> 16) &+ 128) &>> 8
            destination.storeBytes(of: UInt8(truncatingIfNeeded: values[0]), as: UInt8.self)
            destination.storeBytes(of: UInt8(truncatingIfNeeded: values[1]), toByteOffset: 1, as: UInt8.self)
            destination.storeBytes(of: UInt8(truncatingIfNeeded: values[2]), toByteOffset: 2, as: UInt8.self)
            destination.storeBytes(of: UInt8(truncatingIfNeeded: values[3]), toByteOffset: 3, as: UInt8.self)
            destination += rowBytes
            positions.0 &+= samplers.0.step
            positions.1 &+= samplers.1.step
            positions.2 &+= samplers.2.step
            positions.3 &+= samplers.3.step
            fractions &+= fractionSteps
        }
    }

    /// Draws every row of the column at `top` except `skipped`: background outside the sampler's
    /// face rows, the face inside them.
    @inline(__always)
    private func finishColumn(_ sampler: CubePlaneSampler, outside skipped: Range<Int>, top: UnsafeMutableRawPointer) {
        fill(top, rows: 0..<sampler.firstRow)
        fill(top, rows: sampler.endRow..<height)
        if skipped.isEmpty {
            resample(sampler, rows: sampler.firstRow..<sampler.endRow, top: top)
        } else {
            resample(sampler, rows: sampler.firstRow..<min(skipped.lowerBound, sampler.endRow), top: top)
            resample(sampler, rows: max(skipped.upperBound, sampler.firstRow)..<sampler.endRow, top: top)
        }
    }

    /// Renders `rows` (all on the face, possibly none) of the single column that starts at `top`.
    @inline(__always)
    private func resample(_ sampler: CubePlaneSampler, rows: Range<Int>, top: UnsafeMutableRawPointer) {
        guard !rows.isEmpty else { return }
        var position = sampler.position(atRow: rows.lowerBound)
        var destination = top + rows.lowerBound * rowBytes
        for _ in rows {
            destination.storeBytes(of: UInt8(truncatingIfNeeded: sampler.sample(at: position)), as: UInt8.self)
            destination += rowBytes
            position &+= sampler.step
        }
    }

    /// Writes the background value down one output column.
    @inline(__always)
    private func fill(_ top: UnsafeMutableRawPointer, rows: Range<Int>) {
        var pointer = top + rows.lowerBound * rowBytes
        for _ in rows {
            pointer.storeBytes(of: neutral, as: UInt8.self)
            pointer += rowBytes
        }
    }
}
