/// What one picture's scale does, from ``Frame/scalingPlan(for:pixelAspect:transform:displayWidth:displayHeight:)``:
/// scale `source` to `width` × `height` (stored orientation), then keep the `keepWidth` ×
/// `keepHeight` part at (`keepLeft`, `keepTop`).
struct ScalingPlan {
    /// The picture to scale: the decoded frame, or a reference to the part of it a fill shows.
    let source: Frame
    /// Width to scale to.
    let width: Int
    /// Height to scale to.
    let height: Int
    /// First column kept.
    let keepLeft: Int
    /// First row kept.
    let keepTop: Int
    /// Columns kept.
    let keepWidth: Int
    /// Rows kept.
    let keepHeight: Int

    /// `image`, the scaled picture, cut to the part kept.
    func keep(of image: RGBAImageBuffer) -> RGBAImageBuffer {
        image.cropped(left: keepLeft, top: keepTop, width: keepWidth, height: keepHeight)
    }
}
