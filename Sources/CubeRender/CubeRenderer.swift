import Dispatch
import Foundation

/// Renders the frames of a cube transition between two faces, fast.
///
/// All per-face work happens once in `init`: each face is transposed, so a screen column walks contiguous
/// memory, and padded with a copy of its first and last row (and a spare last column), so clamp-to-edge
/// sampling needs no branch. Rendering a frame then costs, per screen column, one division and a short setup
/// (depth is constant down a column because the faces turn about a vertical axis); per pixel, a fixed-point
/// step of the source row and a bilinear blend in 16-bit SIMD lanes with the shading folded into the weights.
/// Four adjacent columns are drawn together so each output row gets one 16-byte store. Results agree with the
/// float rule of the spec within one or two levels per channel.
///
/// `CubeRenderer` is `@unchecked Sendable`, and that is safe: every stored property is a `let`, and the memory
/// behind its pointers (the transposed faces and the weight table) is written only in `init` and freed only in
/// `deinit`, so concurrent `render` calls only read shared state and each writes only into its caller's buffer.
public final class CubeRenderer: @unchecked Sendable {
    /// The transition being rendered.
    public let spec: CubeTransitionSpec
    /// How many chunks (and at most how many cores) each frame is split into.
    public let threads: Int
    /// The number of frames, `spec.frameCount`.
    public let frameCount: Int

    private let width: Int
    private let height: Int
    /// Entries per padded, transposed face column: one copied row above, `height` rows, one copied row below.
    private let columnLength: Int
    /// The face that turns away in forward geometry (`from`, or `to` when the spec runs backward).
    private let outgoingFace: UnsafeMutableRawPointer
    /// The face that turns in in forward geometry (`to`, or `from` when the spec runs backward).
    private let incomingFace: UnsafeMutableRawPointer
    /// The vertical weight table shared by all frames (see `CubeColumnJob.verticalWeights`).
    private let verticalWeights: UnsafeMutableRawPointer

    /// Rows of slack after the last face column, so no read can run past the allocation.
    private static let slackRows = 8

    /// Prepares a renderer for the transition from `from` to `to`.
    ///
    /// - Parameters:
    ///   - from: The face shown before the transition; exactly `spec.width` x `spec.height`.
    ///   - to: The face shown after the transition; exactly `spec.width` x `spec.height`.
    ///   - spec: The transition parameters; validated here.
    ///   - threads: How many chunks each frame is split into with `DispatchQueue.concurrentPerform`; 1 renders on
    ///     the calling thread.
    /// - Throws: `CubeRenderError` for an invalid spec, a face of the wrong size, or `threads < 1`.
    public init(from: RGBAImage, to: RGBAImage, spec: CubeTransitionSpec, threads: Int = 1) throws {
        try spec.validateRenderer(
            fromSize: (from.width, from.height), toSize: (to.width, to.height), threads: threads)
        self.spec = spec
        self.threads = threads
        self.frameCount = spec.frameCount
        self.width = spec.width
        self.height = spec.height
        self.columnLength = spec.height + 2
        let (outgoing, incoming) = spec.direction == .forward ? (from, to) : (to, from)
        (self.outgoingFace, self.incomingFace) = Self.makeTransposedFaces(outgoing, incoming, threads: threads)
        self.verticalWeights = UnsafeMutableRawPointer.allocate(byteCount: 256 * 16, alignment: 64)
        for weight in 0..<256 {
            let lower = UInt16(weight * 256)
            let upper = UInt16.max - lower
            verticalWeights.storeBytes(
                of: SIMD8(upper, upper, upper, upper, lower, lower, lower, lower),
                toByteOffset: weight * 16,
                as: SIMD8<UInt16>.self)
        }
    }

    deinit {
        outgoingFace.deallocate()
        incomingFace.deallocate()
        verticalWeights.deallocate()
    }

    /// Renders output frame `k` (direction applied) as RGBA bytes into `output`, allocating nothing.
    ///
    /// - Precondition: `0 <= k < frameCount` and `output.count >= width * height * 4`.
    public func render(frame k: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(k >= 0 && k < frameCount, "cube frame \(k) is outside 0..<\(frameCount)")
        render(progress: spec.progress(ofFrame: k), into: output)
    }

    /// Renders the forward-geometry frame at progress `p` as RGBA bytes into `output`, allocating nothing.
    ///
    /// The outgoing face (turning away about the hinge at `x = width * (1 - p)`) is `from` and the incoming face
    /// is `to` for a forward spec; for a backward spec they are swapped, exactly as `render(frame:into:)` uses
    /// them. Easing and frame timing are not applied.
    ///
    /// - Precondition: `0 <= p <= 1` and `output.count >= width * height * 4`.
    public func render(progress p: Double, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(p >= 0 && p <= 1, "cube progress \(p) is outside 0...1")
        precondition(
            output.count >= width * height * 4,
            "cube output buffer holds \(output.count) bytes, "
                + "needs \(width * height * 4)")
        guard let base = output.baseAddress else { return }
        let geometry = CubeFrameGeometry(width: width, height: height, perspective: spec.perspective, progress: p)
        let job = CubeColumnJob(
            geometry: geometry,
            shade: spec.shade,
            outgoingFace: UnsafeRawPointer(outgoingFace),
            incomingFace: UnsafeRawPointer(incomingFace),
            columnLength: columnLength,
            width: width,
            height: height,
            output: UnsafeMutableRawPointer(base),
            verticalWeights: UnsafeRawPointer(verticalWeights)
        )
        let chunkCount = threads
        if chunkCount == 1 {
            job.renderChunk(0, of: 1)
        } else {
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                job.renderChunk(chunk, of: chunkCount)
            }
        }
    }

    /// Renders output frame `k` into a newly allocated image (convenient, but allocates).
    ///
    /// - Precondition: `0 <= k < frameCount`.
    public func renderImage(frame k: Int) -> RGBAImage {
        precondition(k >= 0 && k < frameCount, "cube frame \(k) is outside 0..<\(frameCount)")
        return renderImage(progress: spec.progress(ofFrame: k))
    }

    /// Renders the forward-geometry frame at progress `p` into a newly allocated image (see
    /// `render(progress:into:)`).
    public func renderImage(progress p: Double) -> RGBAImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { render(progress: p, into: $0) }
        // The byte count matches by construction.
        return try! RGBAImage(width: width, height: height, pixels: bytes)
    }

    /// Allocates `byteCount` bytes for a face copy. On Linux the block is 2 MiB aligned and advised for
    /// transparent huge pages: first-touch page faults then cost a few milliseconds less per face, and the
    /// column walks need fewer TLB entries. Elsewhere, or if the advice is refused (the storyreel command turns
    /// huge pages off for its whole process, where libx264's sparse use of them cost more), it is a plain
    /// allocation.
    private static func allocateLarge(byteCount: Int) -> UnsafeMutableRawPointer {
        let hugePage = 2 << 20
        guard byteCount >= hugePage else {
            return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: hugePage)
        #if os(Linux)
            _ = madvise(buffer, byteCount, MADV_HUGEPAGE)
        #endif
        return buffer
    }

    /// Transposes both faces (see ``makeTransposedFace(_:)``), each on its own thread when
    /// `threads` allows two.
    private static func makeTransposedFaces(
        _ outgoing: RGBAImage, _ incoming: RGBAImage, threads: Int
    ) -> (UnsafeMutableRawPointer, UnsafeMutableRawPointer) {
        guard threads > 1 else { return (makeTransposedFace(outgoing), makeTransposedFace(incoming)) }
        let results = TransposedFaces()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.slots[index] = makeTransposedFace(index == 0 ? outgoing : incoming)
        }
        return (results.slots[0]!, results.slots[1]!)
    }

    /// Two slots for the transposed faces' addresses, each written by one thread of
    /// ``makeTransposedFaces(_:_:threads:)`` and read once both have finished (`concurrentPerform`
    /// returns only then); no two threads touch the same slot, so it is `@unchecked Sendable`.
    private final class TransposedFaces: @unchecked Sendable {
        let slots = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 2)

        init() { slots.initialize(repeating: nil, count: 2) }

        deinit { slots.deallocate() }
    }

    /// Writes the transpose of the row-major `width` x `height` RGBA image at `source` into columns of
    /// `columnBytes` bytes starting at `destination`, in 64 x 64 tiles of 4 x 4 SIMD blocks.
    private static func transpose(
        _ source: UnsafeRawPointer, width: Int, height: Int, into destination: UnsafeMutableRawPointer,
        columnBytes: Int
    ) {
        let rowBytes = width * 4
        let tile = 64
        for tileY in stride(from: 0, to: height, by: tile) {
            let rowEnd = min(tileY + tile, height)
            for tileX in stride(from: 0, to: width, by: tile) {
                let columnEnd = min(tileX + tile, width)
                var y = tileY
                while y + 4 <= rowEnd {
                    var x = tileX
                    while x + 4 <= columnEnd {
                        let block = source + y * rowBytes + x * 4
                        let row0 = block.loadUnaligned(as: SIMD4<UInt32>.self)
                        let row1 = block.loadUnaligned(fromByteOffset: rowBytes, as: SIMD4<UInt32>.self)
                        let row2 = block.loadUnaligned(fromByteOffset: 2 * rowBytes, as: SIMD4<UInt32>.self)
                        let row3 = block.loadUnaligned(fromByteOffset: 3 * rowBytes, as: SIMD4<UInt32>.self)
                        let target = destination + x * columnBytes + y * 4
                        target.storeBytes(of: SIMD4(row0[0], row1[0], row2[0], row3[0]), as: SIMD4<UInt32>.self)
                        target.storeBytes(
                            of: SIMD4(row0[1], row1[1], row2[1], row3[1]), toByteOffset: columnBytes,
                            as: SIMD4<UInt32>.self)
                        target.storeBytes(
                            of: SIMD4(row0[2], row1[2], row2[2], row3[2]),
                            toByteOffset: 2 * columnBytes, as: SIMD4<UInt32>.self)
                        target.storeBytes(
                            of: SIMD4(row0[3], row1[3], row2[3], row3[3]),
                            toByteOffset: 3 * columnBytes, as: SIMD4<UInt32>.self)
                        x += 4
                    }
                    for column in x..<columnEnd {
                        for row in y..<(y + 4) {
                            copyPixel(source, row: row, column: column, rowBytes: rowBytes, destination, columnBytes)
                        }
                    }
                    y += 4
                }
                for row in y..<rowEnd {
                    for column in tileX..<columnEnd {
                        copyPixel(source, row: row, column: column, rowBytes: rowBytes, destination, columnBytes)
                    }
                }
            }
        }
    }

    /// Copies one pixel from the row-major source to the column-major destination.
    @inline(__always)
    private static func copyPixel(
        _ source: UnsafeRawPointer, row: Int, column: Int, rowBytes: Int,
        _ destination: UnsafeMutableRawPointer, _ columnBytes: Int
    ) {
        let pixel = source.loadUnaligned(fromByteOffset: row * rowBytes + column * 4, as: UInt32.self)
        destination.storeBytes(of: pixel, toByteOffset: column * columnBytes + row * 4, as: UInt32.self)
    }

    /// Copies `face` into a new column-major buffer: column `x` holds `height + 2` RGBA pixels (row 0 repeated,
    /// rows 0..<height, row height-1 repeated). A spare copy of the last column follows (the "right neighbour"
    /// of the last column, always weighted 0), then slack.
    private static func makeTransposedFace(_ face: RGBAImage) -> UnsafeMutableRawPointer {
        let width = face.width
        let height = face.height
        let columnLength = height + 2
        let byteCount = ((width + 1) * columnLength + slackRows) * 4
        let buffer = allocateLarge(byteCount: byteCount)
        // Every pixel of the width + 1 columns is written below; only the slack needs clearing.
        (buffer + (width + 1) * columnLength * 4).initializeMemory(
            as: UInt8.self, repeating: 0, count: slackRows * 4)
        face.pixels.withUnsafeBytes { source in
            transpose(
                source.baseAddress!, width: width, height: height, into: buffer + 4,
                columnBytes: columnLength * 4)
            for x in 0..<width {
                let column = buffer + x * columnLength * 4
                column.storeBytes(of: column.load(fromByteOffset: 4, as: UInt32.self), as: UInt32.self)
                column.storeBytes(
                    of: column.load(fromByteOffset: height * 4, as: UInt32.self),
                    toByteOffset: (height + 1) * 4,
                    as: UInt32.self)
            }
            (buffer + width * columnLength * 4).copyMemory(
                from: buffer + (width - 1) * columnLength * 4, byteCount: columnLength * 4)
        }
        return buffer
    }
}
