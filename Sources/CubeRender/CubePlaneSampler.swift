/// Everything the inner loop of `CubePlaneJob` needs to draw one screen column of one 8-bit plane.
struct CubePlaneSampler {
    /// The face column left of the sample position (paired layout, see `CubePlaneFace`).
    let column: UnsafeRawPointer
    /// The weight of the left column, shading folded in; with ``rightWeight`` at most 256.
    let leftWeight: UInt32
    /// The weight of the right column.
    let rightWeight: UInt32
    /// What the shading adds back of the neutral level (the weight the columns lack, times the
    /// neutral value), plus 0.5 for rounding, in 8.8 fixed point: added to the horizontal blend
    /// before it is rounded to 8 bits, so a flat face shaded towards its own level keeps it. (Added
    /// after, with another 0.5, it rounded twice: a neutral grey's chroma of 128 came out 129 in
    /// every shaded frame, a magenta tint; the colour QA pass.)
    let rowBias: UInt32
    /// The first screen row on the face.
    let firstRow: Int
    /// One past the last screen row on the face; equal to `firstRow` for an all-background column.
    let endRow: Int
    /// The padded source row `v + 0.5` at the centre of `firstRow`, in 32.32 fixed point, plus half
    /// a step of the 8-bit vertical weight, as in `CubeColumnSampler`.
    let startPosition: Int
    /// The advance of `startPosition` per screen row, in 32.32 fixed point.
    let step: Int

    /// A sampler for a column that is background from top to bottom.
    static func background(face: UnsafeRawPointer) -> CubePlaneSampler {
        CubePlaneSampler(
            column: face, leftWeight: 0, rightWeight: 0, rowBias: 0, firstRow: 0, endRow: 0, startPosition: 0, step: 0
        )
    }

    /// Builds the sampler of `column` on `face` (the size of the plane the geometry is for), with
    /// shading strength `shade` and shading target `neutral`.
    init(column: CubeColumnGeometry, face: CubePlaneFace, shade: Double, neutral: UInt8) {
        let (left, fraction) = CubeColumnSampler.horizontalTaps(of: column, width: face.width)
        let rowWalk = CubeColumnSampler.rowWalk(of: column)
        let shadeFactor = 1 - shade * column.sineOfAngle
        let total = UInt32((shadeFactor * 256).rounded())
        let right = UInt32((fraction * shadeFactor * 256).rounded())
        self.init(
            column: UnsafeRawPointer(face.bytes + left * face.columnBytes),
            leftWeight: total - right,
            rightWeight: right,
            rowBias: UInt32(neutral) * (256 - total) + 128,
            firstRow: column.firstRow,
            endRow: column.endRow,
            startPosition: rowWalk.start,
            step: rowWalk.step)
    }

    /// The memberwise initialiser.
    private init(
        column: UnsafeRawPointer, leftWeight: UInt32, rightWeight: UInt32, rowBias: UInt32,
        firstRow: Int, endRow: Int, startPosition: Int, step: Int
    ) {
        self.column = column
        self.leftWeight = leftWeight
        self.rightWeight = rightWeight
        self.rowBias = rowBias
        self.firstRow = firstRow
        self.endRow = endRow
        self.startPosition = startPosition
        self.step = step
    }

    /// The fixed-point source position of screen row `y` (which must lie in `firstRow..<endRow`).
    @inline(__always)
    func position(atRow y: Int) -> Int {
        startPosition &+ (y &- firstRow) &* step
    }

    /// The bilinear sample at fixed-point `position`: one 4-byte load gives the two rows of the
    /// left and right columns, blended horizontally with the column's weights and the shading's
    /// share of the neutral level and rounded to 8 bits, then vertically with the position's 8-bit
    /// fraction. The same arithmetic as
    /// `CubePlaneJob`'s four-column loop, so a pixel's value does not depend on which draws it.
    @inline(__always)
    func sample(at position: Int) -> UInt32 {
        let taps = UInt32(
            littleEndian: column.loadUnaligned(fromByteOffset: (position &>> 32) &* 2, as: UInt32.self))
        let lowerWeight = UInt32(truncatingIfNeeded: position &>> 24) & 255
        let upper = ((taps & 255) &* leftWeight &+ ((taps &>> 8) & 255) &* rightWeight &+ rowBias) &>> 8
        let lower = (((taps &>> 16) & 255) &* leftWeight &+ (taps &>> 24) &* rightWeight &+ rowBias) &>> 8
        return (upper &* (256 &- lowerWeight) &+ lower &* lowerWeight &+ 128) &>> 8
    }
}
