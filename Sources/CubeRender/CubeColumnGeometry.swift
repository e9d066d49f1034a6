/// Where one screen column of a cube frame samples its face.
///
/// The faces turn about a vertical axis, so depth is constant down a screen column: the source column `u`,
/// the angle and the vertical scale are per-column constants, and the source row is linear in the screen row:
/// `v(y) = firstSourceRow + (y - firstRow) * sourceRowStep`.
struct CubeColumnGeometry {
    /// True when the column shows the outgoing face (left of the hinge), false for the incoming face.
    let showsOutgoingFace: Bool
    /// The horizontal source position `u` in [0, width] (pixel `i` has its centre at `i + 0.5`).
    let sourceX: Double
    /// `sin(angle)` of the face this column shows, used for shading.
    let sineOfAngle: Double
    /// The first screen row that lies on the face.
    let firstRow: Int
    /// One past the last screen row that lies on the face (`endRow > firstRow`).
    let endRow: Int
    /// The source row `v` at the centre of `firstRow`.
    let firstSourceRow: Double
    /// How far `v` advances per screen row: `1 / s = (D + d * sin(angle)) / D`.
    let sourceRowStep: Double
}
