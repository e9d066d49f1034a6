import Dispatch

/// Renders the frames of a cube transition straight into yuv420p planes, the encoder's own
/// pictures, so no frame is converted from RGB: luma from the faces' luma, each chroma plane from
/// the faces' half-size chroma with the geometry of a half-size canvas.
///
/// The geometry, easing, timing and shading are those of ``CubeRenderer``; only the sample type
/// differs. Background is limited-range black (luma 16, chroma 128), and shading scales each
/// value's distance from it, which is what darkening the RGB picture does to its BT.709 yuv. The
/// faces are laid out once in `init` (see `CubePlaneFace`); a render then allocates nothing.
///
/// `CubeYUVRenderer` is `@unchecked Sendable`, and that is safe: every stored property is a `let`,
/// and the faces' memory is written only in `init` and freed only in `deinit`, so concurrent
/// `render` calls only read shared state and each writes only into its caller's planes.
public final class CubeYUVRenderer: @unchecked Sendable {
    /// The transition being rendered.
    public let spec: CubeTransitionSpec
    /// How many chunks (and at most how many cores) each frame is split into.
    public let threads: Int
    /// The number of frames, `spec.frameCount`.
    public let frameCount: Int

    /// The outgoing and incoming faces (forward geometry) of each plane: luma, blue and red chroma.
    let planes: [(outgoing: CubePlaneFace, incoming: CubePlaneFace)]

    /// Prepares a renderer for the transition from `from` to `to`.
    ///
    /// - Parameters:
    ///   - from: The face shown before the transition; exactly `spec.width` x `spec.height`.
    ///   - to: The face shown after the transition; exactly `spec.width` x `spec.height`.
    ///   - spec: The transition parameters; validated here.
    ///   - threads: How many chunks each frame is split into with `DispatchQueue.concurrentPerform`;
    ///     1 renders on the calling thread.
    /// - Throws: `CubeRenderError` for an invalid spec, a face of the wrong size, or `threads < 1`.
    public init(from: YUV420Image, to: YUV420Image, spec: CubeTransitionSpec, threads: Int = 1) throws {
        try spec.validateRenderer(
            fromSize: (from.width, from.height), toSize: (to.width, to.height), threads: threads)
        self.spec = spec
        self.threads = threads
        self.frameCount = spec.frameCount
        let (outgoing, incoming) = spec.direction == .forward ? (from, to) : (to, from)
        let faces = UnsafeMutableBufferPointer<CubePlaneFace?>.allocate(capacity: 6)
        faces.initialize(repeating: nil)
        defer {
            // The slots hold references: release them before the memory goes.
            _ = faces.deinitialize()
            faces.deallocate()
        }
        let box = FaceSlots(faces)
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            let face = index % 2 == 0 ? outgoing : incoming
            let plane = index / 2
            let (width, height) = plane == 0 ? (face.width, face.height) : (face.width / 2, face.height / 2)
            let bytes = plane == 0 ? face.luma : plane == 1 ? face.blueChroma : face.redChroma
            box.slots[index] = bytes.withUnsafeBytes { bytes in
                CubePlaneFace(plane: bytes.baseAddress!, width: width, height: height, rowBytes: width)
            }
        }
        planes = (0..<3).map { (faces[2 * $0]!, faces[2 * $0 + 1]!) }
    }

    /// Six slots for the laid-out faces, each written by one iteration of `init`'s
    /// `concurrentPerform` and read once it has returned; no two iterations touch the same slot.
    private struct FaceSlots: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<CubePlaneFace?>
        init(_ slots: UnsafeMutableBufferPointer<CubePlaneFace?>) { self.slots = slots }
    }

    /// Renders output frame `k` (direction applied) into `planes`, allocating nothing.
    ///
    /// - Precondition: `0 <= k < frameCount`; the planes hold `spec.width` x `spec.height` luma and
    ///   half that chroma at their strides.
    public func render(frame k: Int, into planes: YUV420Planes) {
        precondition(k >= 0 && k < frameCount, "cube frame \(k) is outside 0..<\(frameCount)")
        render(progress: spec.progress(ofFrame: k), into: planes)
    }

    /// Renders the forward-geometry frame at progress `p` into `planes`, as
    /// ``CubeRenderer/render(progress:into:)`` does into RGBA.
    ///
    /// - Precondition: `0 <= p <= 1`; the strides are at least the planes' widths.
    public func render(progress p: Double, into output: YUV420Planes) {
        precondition(p >= 0 && p <= 1, "cube progress \(p) is outside 0...1")
        precondition(
            output.lumaStride >= spec.width && output.blueChromaStride >= spec.width / 2
                && output.redChromaStride >= spec.width / 2,
            "yuv420p strides \(output.lumaStride), \(output.blueChromaStride), \(output.redChromaStride) "
                + "are too small for width \(spec.width)")
        let luma = CubeFrameGeometry(
            width: spec.width, height: spec.height, perspective: spec.perspective, progress: p)
        let chroma = CubeFrameGeometry(
            width: spec.width / 2, height: spec.height / 2, perspective: spec.perspective, progress: p)
        let job = { (plane: Int, target: UnsafeMutableRawPointer, rowBytes: Int) in
            CubePlaneJob(
                geometry: plane == 0 ? luma : chroma, shade: self.spec.shade,
                outgoingFace: self.planes[plane].outgoing, incomingFace: self.planes[plane].incoming,
                neutral: plane == 0 ? 16 : 128, output: target, rowBytes: rowBytes)
        }
        let jobs = (
            job(0, output.luma, output.lumaStride), job(1, output.blueChroma, output.blueChromaStride),
            job(2, output.redChroma, output.redChromaStride)
        )
        let chunkCount = threads
        if chunkCount == 1 {
            jobs.0.renderChunk(0, of: 1)
            jobs.1.renderChunk(0, of: 1)
            jobs.2.renderChunk(0, of: 1)
        } else {
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                jobs.0.renderChunk(chunk, of: chunkCount)
                jobs.1.renderChunk(chunk, of: chunkCount)
                jobs.2.renderChunk(chunk, of: chunkCount)
            }
        }
    }
}
