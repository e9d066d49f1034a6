/// Everything the inner loops need to draw one screen column of one frame, in integer and SIMD form.
///
/// The two face columns around `u` (the right one directly follows the left one in memory) are blended
/// horizontally with `leftWeights`/`rightWeights` (shading folded into the colour lanes, not the alpha lane);
/// the source row is stepped in 32.32 fixed point, in padded rows (padded row `r` holds source row `r - 1`),
/// starting at `startPosition` on screen row `firstRow`.
struct CubeColumnSampler {
    /// The padded, transposed face column left of `u` (at `floor(u - 0.5)`, clamped). The column right of it
    /// follows one column length later; at the right edge that is a spare column with weight 0.
    let leftColumn: UnsafeRawPointer
    /// Horizontal weights of the left column for two RGBA pixels; they sum with `rightWeights` to at most 256
    /// per lane.
    let leftWeights: SIMD8<UInt16>
    /// Horizontal weights of the right column.
    let rightWeights: SIMD8<UInt16>
    /// The first screen row on the face.
    let firstRow: Int
    /// One past the last screen row on the face; equal to `firstRow` for an all-background column.
    let endRow: Int
    /// The padded source row `v + 0.5` at the centre of `firstRow`, in 32.32 fixed point, plus half a step of
    /// the 8-bit vertical weight (2^23) so truncating to 8 bits rounds to the nearest 1/256 of a row.
    let startPosition: Int
    /// The advance of `startPosition` per screen row, in 32.32 fixed point.
    let step: Int

    /// The fixed-point source position of screen row `y` (which must lie in `firstRow..<endRow`).
    @inline(__always)
    func position(atRow y: Int) -> Int {
        startPosition &+ (y &- firstRow) &* step
    }

    /// 1.0 in 32.32 fixed point.
    private static let fixedOne = 4_294_967_296.0

    /// A sampler for a column that is background from top to bottom.
    static func background(face: UnsafeRawPointer) -> CubeColumnSampler {
        CubeColumnSampler(
            leftColumn: face, leftWeights: .zero, rightWeights: .zero,
            firstRow: 0, endRow: 0, startPosition: 0, step: 0)
    }

    /// Builds the sampler of `column` on `face` (transposed, `columnLength` pixels per column) for a canvas
    /// `width` pixels wide and shading strength `shade`.
    init(column: CubeColumnGeometry, face: UnsafeRawPointer, columnLength: Int, width: Int, shade: Double) {
        let (left, fraction) = Self.horizontalTaps(of: column, width: width)
        let rowWalk = Self.rowWalk(of: column)
        let shadeFactor = 1 - shade * column.sineOfAngle
        let alphaRight = UInt16((fraction * 256).rounded())
        let alphaLeft = 256 - alphaRight
        let colourRight = UInt16((fraction * shadeFactor * 256).rounded())
        let colourLeft = UInt16((shadeFactor * 256).rounded()) - colourRight
        let leftPair = SIMD8(
            colourLeft, colourLeft, colourLeft, alphaLeft, colourLeft, colourLeft, colourLeft, alphaLeft)
        let rightPair = SIMD8(
            colourRight, colourRight, colourRight, alphaRight, colourRight, colourRight, colourRight, alphaRight)
        self.init(
            leftColumn: face + left * columnLength * 4,
            leftWeights: leftPair,
            rightWeights: rightPair,
            firstRow: column.firstRow,
            endRow: column.endRow,
            startPosition: rowWalk.start,
            step: rowWalk.step)
    }

    /// The face column left of where `column` samples and the weight of the one right of it, on a
    /// face `width` pixels wide: the source position u clamped to [0.5, W - 0.5] (pixel i has its
    /// centre at i + 0.5). Shared by the RGBA and the planar samplers.
    @inline(__always)
    static func horizontalTaps(of column: CubeColumnGeometry, width: Int) -> (left: Int, fraction: Double) {
        let clampedX = min(max(column.sourceX, 0.5), Double(width) - 0.5) - 0.5
        let left = Int(clampedX)  // at most width - 1, where the fraction is 0
        return (left, clampedX - Double(left))
    }

    /// The fixed-point walk down `column`'s face rows: the padded source row `v + 0.5` at the
    /// centre of its first row in 32.32 fixed point, plus half a step of the 8-bit vertical weight
    /// (2^23) so truncating to 8 bits rounds to the nearest 1/256 of a row; and the advance per
    /// screen row. Shared by the RGBA and the planar samplers.
    @inline(__always)
    static func rowWalk(of column: CubeColumnGeometry) -> (start: Int, step: Int) {
        (
            fixedPoint((column.firstSourceRow + 0.5) * fixedOne, atLeast: 0) + (1 << 23),
            fixedPoint(column.sourceRowStep * fixedOne, atLeast: -fixedLimit)
        )
    }

    /// The largest magnitude a fixed-point position or step is given: 2^52, far beyond any row
    /// of a valid face (8192 × 2^32 ≈ 2^45) and far below where adding steps could overflow.
    static let fixedLimit = 1 << 52

    /// `value` rounded to a whole number between `lowest` and ``fixedLimit``; NaN gives `lowest`.
    /// A valid spec stays well inside; the clamp keeps a degenerate column from trapping.
    @inline(__always)
    static func fixedPoint(_ value: Double, atLeast lowest: Int) -> Int {
        let rounded = value.rounded()
        guard rounded >= Double(lowest) else { return lowest }
        return rounded < Double(fixedLimit) ? Int(rounded) : fixedLimit
    }

    /// The memberwise initialiser.
    private init(
        leftColumn: UnsafeRawPointer,
        leftWeights: SIMD8<UInt16>, rightWeights: SIMD8<UInt16>,
        firstRow: Int, endRow: Int, startPosition: Int, step: Int
    ) {
        self.leftColumn = leftColumn
        self.leftWeights = leftWeights
        self.rightWeights = rightWeights
        self.firstRow = firstRow
        self.endRow = endRow
        self.startPosition = startPosition
        self.step = step
    }
}
