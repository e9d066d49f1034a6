import Foundation
import Testing

@testable import CubeRender

/// The planar renderer against the float reference, plane by plane: luma at full size and each
/// chroma plane at half size, with limited-range black (16, 128) as background and shading target.
///
/// The reference renders RGBA with black background and shading towards 0, and is linear in the
/// face, so a plane whose neutral value is `n` is rendered as `n + render(face - n)`: luma goes in
/// the red channel as `Y - 16`; chroma's part above 128 goes in green and its part below in blue.
struct CubeYUVRendererTests {
    /// A textured yuv420p face: luma in 16...235 and chroma in 16...240 on both sides of 128.
    static func face(width: Int, height: Int, seed: UInt32) -> YUV420Image {
        let texture = TestFaces.textured(width: width, height: height, seed: seed)
        let luma: [UInt8] = (0..<width * height).map { (index: Int) -> UInt8 in
            let red = Int(texture.pixels[index * 4])
            return UInt8(16 + red * 219 / 255)
        }
        let chroma = { (channel: Int) -> [UInt8] in
            (0..<width / 2 * height / 2).map { (index: Int) -> UInt8 in
                let x: Int = index % (width / 2) * 2
                let y: Int = index / (width / 2) * 2
                let value = Int(texture.pixels[(y * width + x) * 4 + channel])
                return UInt8(16 + value * 224 / 255)
            }
        }
        return try! YUV420Image(
            width: width, height: height, luma: luma, blueChroma: chroma(1), redChroma: chroma(2))
    }

    /// A plane as the reference renders it: RGBA with the plane's distance from `neutral` in red
    /// (above) and blue (below).
    static func referenceFace(_ plane: [UInt8], width: Int, height: Int, neutral: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for (index, value) in plane.enumerated() {
            pixels[index * 4] = UInt8(max(Int(value) - neutral, 0))
            pixels[index * 4 + 1] = 0
            pixels[index * 4 + 2] = UInt8(max(neutral - Int(value), 0))
        }
        return try! RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The plane a reference render of `referenceFace`s stands for.
    static func plane(of image: RGBAImage, neutral: Int) -> [UInt8] {
        (0..<image.width * image.height).map {
            UInt8(clamping: neutral + Int(image.pixels[$0 * 4]) - Int(image.pixels[$0 * 4 + 2]))
        }
    }

    /// The fraction of values within `tolerance` and the PSNR in dB.
    static func compare(_ actual: [UInt8], _ expected: [UInt8], tolerance: Int) -> (within: Double, psnr: Double) {
        var within = 0
        var squared = 0.0
        for (a, e) in zip(actual, expected) {
            let difference = abs(Int(a) - Int(e))
            if difference <= tolerance { within += 1 }
            squared += Double(difference * difference)
        }
        let mse = squared / Double(actual.count)
        return (Double(within) / Double(actual.count), mse == 0 ? .infinity : 10 * log10(255 * 255 / mse))
    }

    /// Renders `renderer`'s progress `p` into tightly packed planes, or its frame `frame` when given.
    static func render(
        _ renderer: CubeYUVRenderer, progress p: Double = 0, frame: Int? = nil, strides: (Int, Int) = (0, 0)
    ) -> (luma: [UInt8], blue: [UInt8], red: [UInt8]) {
        let (width, height) = (renderer.spec.width, renderer.spec.height)
        let lumaStride = width + strides.0
        let chromaStride = width / 2 + strides.1
        var luma = [UInt8](repeating: 1, count: lumaStride * height)
        var blue = [UInt8](repeating: 1, count: chromaStride * height / 2)
        var red = [UInt8](repeating: 1, count: chromaStride * height / 2)
        luma.withUnsafeMutableBytes { luma in
            blue.withUnsafeMutableBytes { blue in
                red.withUnsafeMutableBytes { red in
                    let planes = YUV420Planes(
                        luma: luma.baseAddress!, lumaStride: lumaStride, blueChroma: blue.baseAddress!,
                        blueChromaStride: chromaStride, redChroma: red.baseAddress!, redChromaStride: chromaStride)
                    if let frame {
                        renderer.render(frame: frame, into: planes)
                    } else {
                        renderer.render(progress: p, into: planes)
                    }
                }
            }
        }
        let packed = { (plane: [UInt8], stride: Int, width: Int) -> [UInt8] in
            stride == width ? plane : (0..<plane.count / stride).flatMap { plane[$0 * stride..<$0 * stride + width] }
        }
        return (
            packed(luma, lumaStride, width), packed(blue, chromaStride, width / 2), packed(red, chromaStride, width / 2)
        )
    }

    @Test("each plane matches the float reference", arguments: [(64, 96), (120, 200), (270, 480)], [0.0, 0.3])
    func matchesReference(size: (width: Int, height: Int), shade: Double) throws {
        let (width, height) = size
        let spec = CubeTransitionSpec(width: width, height: height, shade: shade)
        let from = Self.face(width: width, height: height, seed: 1)
        let to = Self.face(width: width, height: height, seed: 2)
        let renderer = try CubeYUVRenderer(from: from, to: to, spec: spec)
        let lumaReference = ReferenceCubeRenderer(
            from: Self.referenceFace(from.luma, width: width, height: height, neutral: 16),
            to: Self.referenceFace(to.luma, width: width, height: height, neutral: 16), spec: spec)
        var chromaSpec = spec
        (chromaSpec.width, chromaSpec.height) = (width / 2, height / 2)
        let chromaReferences = [(from.blueChroma, to.blueChroma), (from.redChroma, to.redChroma)].map {
            ReferenceCubeRenderer(
                from: Self.referenceFace($0.0, width: width / 2, height: height / 2, neutral: 128),
                to: Self.referenceFace($0.1, width: width / 2, height: height / 2, neutral: 128), spec: chromaSpec)
        }
        for p in [0.05, 0.3, 0.5, 0.77, 0.95] {
            let planes = Self.render(renderer, progress: p)
            let luma = Self.compare(
                planes.luma, Self.plane(of: lumaReference.render(progress: p), neutral: 16), tolerance: 2)
            #expect(luma.within >= 0.995 && luma.psnr >= 40, "luma at p \(p): \(luma)")
            for (name, actual, reference) in [
                ("blue", planes.blue, chromaReferences[0]), ("red", planes.red, chromaReferences[1]),
            ] {
                let chroma = Self.compare(
                    actual, Self.plane(of: reference.render(progress: p), neutral: 128), tolerance: 3)
                #expect(chroma.within >= 0.99 && chroma.psnr >= 38, "\(name) chroma at p \(p): \(chroma)")
            }
        }
    }

    @Test("frames follow the RGBA renderer in both directions")
    func framesFollowTheRGBARenderer() throws {
        let from = Self.face(width: 96, height: 160, seed: 3)
        let to = Self.face(width: 96, height: 160, seed: 4)
        for direction in CubeDirection.allCases {
            let spec = CubeTransitionSpec(
                width: 96, height: 160, duration: 0.2, fps: 30, shade: 0, direction: direction)
            let planar = try CubeYUVRenderer(from: from, to: to, spec: spec)
            let rgba = try CubeRenderer(
                from: Self.referenceFace(from.luma, width: 96, height: 160, neutral: 16),
                to: Self.referenceFace(to.luma, width: 96, height: 160, neutral: 16), spec: spec)
            #expect(planar.frameCount == 6)
            for frame in 0..<planar.frameCount {
                let luma = Self.compare(
                    Self.render(planar, frame: frame).luma,
                    Self.plane(of: rgba.renderImage(frame: frame), neutral: 16), tolerance: 2)
                #expect(luma.within >= 0.995 && luma.psnr >= 40, "\(direction) frame \(frame): \(luma)")
            }
        }
    }

    /// Every pixel as `CubePlaneSampler` alone draws it, column by column: the four-column loop
    /// and the single-column path (rows where four columns differ, a block's last columns)
    /// compute the same value, so a pixel does not depend on which of them draws it.
    @Test(
        "the four-column loop draws each pixel as the single-column sampler does",
        arguments: [(100, 160), (120, 200), (134, 96)], [0.0, 0.4])
    func quadsMatchSingleColumns(size: (width: Int, height: Int), shade: Double) throws {
        let (width, height) = size
        let face = { (seed: UInt32) in
            let luma = Self.face(width: width, height: height, seed: seed).luma
            return luma.withUnsafeBytes {
                CubePlaneFace(plane: $0.baseAddress!, width: width, height: height, rowBytes: width)
            }
        }
        let (outgoing, incoming) = (face(7), face(8))
        for p in [0.1, 0.45, 0.8] {
            let geometry = CubeFrameGeometry(width: width, height: height, perspective: 2.667, progress: p)
            var drawn = [UInt8](repeating: 1, count: width * height)
            drawn.withUnsafeMutableBytes { output in
                CubePlaneJob(
                    geometry: geometry, shade: shade, outgoingFace: outgoing, incomingFace: incoming, neutral: 16,
                    output: output.baseAddress!, rowBytes: width
                ).renderChunk(0, of: 1)
            }
            var expected = [UInt8](repeating: 16, count: width * height)
            for x in 0..<width {
                guard let column = geometry.column(x) else { continue }
                let sampler = CubePlaneSampler(
                    column: column, face: column.showsOutgoingFace ? outgoing : incoming, shade: shade, neutral: 16)
                for y in sampler.firstRow..<sampler.endRow {
                    expected[y * width + x] = UInt8(truncatingIfNeeded: sampler.sample(at: sampler.position(atRow: y)))
                }
            }
            let differing = zip(drawn, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(width)x\(height) shade \(shade) at p \(p): \(differing) pixels differ")
        }
    }

    @Test("threads and row strides change nothing; bytes past each row are left alone")
    func threadsAndStrides() throws {
        let spec = CubeTransitionSpec(width: 200, height: 120)
        let from = Self.face(width: 200, height: 120, seed: 5)
        let to = Self.face(width: 200, height: 120, seed: 6)
        let single = Self.render(try CubeYUVRenderer(from: from, to: to, spec: spec), progress: 0.4)
        let threaded = try CubeYUVRenderer(from: from, to: to, spec: spec, threads: 3)
        let strided = Self.render(threaded, progress: 0.4, strides: (24, 8))
        #expect(strided.luma == single.luma && strided.blue == single.blue && strided.red == single.red)
        var luma = [UInt8](repeating: 1, count: 224 * 120)
        var chroma = [UInt8](repeating: 1, count: 108 * 60)
        luma.withUnsafeMutableBytes { luma in
            chroma.withUnsafeMutableBytes { chroma in
                threaded.render(
                    progress: 0.4,
                    into: YUV420Planes(
                        luma: luma.baseAddress!, lumaStride: 224, blueChroma: chroma.baseAddress!,
                        blueChromaStride: 108, redChroma: chroma.baseAddress!, redChromaStride: 108))
            }
        }
        #expect((0..<120).allSatisfy { row in luma[row * 224 + 200..<row * 224 + 224].allSatisfy { $0 == 1 } })
    }

    @Test("a solid face renders flat, the background is limited-range black")
    func solidFacesAndBackground() throws {
        let grey = try YUV420Image(
            width: 64, height: 96, luma: Array(repeating: 180, count: 64 * 96),
            blueChroma: Array(repeating: 90, count: 32 * 48), redChroma: Array(repeating: 200, count: 32 * 48))
        let renderer = try CubeYUVRenderer(
            from: grey, to: grey, spec: CubeTransitionSpec(width: 64, height: 96, shade: 0))
        let planes = Self.render(renderer, progress: 0.5)
        // The corners at mid-turn are background; the middle column at the hinge is the face.
        #expect(planes.luma[0] == 16 && planes.blue[0] == 128 && planes.red[0] == 128)
        #expect(planes.luma[48 * 64 + 32] == 180 && planes.blue[24 * 32 + 16] == 90 && planes.red[24 * 32 + 16] == 200)
        // Anti-aliased edges blend the two, never leave their range.
        #expect(planes.luma.allSatisfy { (16...180).contains($0) })
        #expect(
            planes.blue.allSatisfy { (90...128).contains($0) } && planes.red.allSatisfy { (128...200).contains($0) })
    }

    /// From the colour QA pass: shading folded the neutral level in after the blend was rounded,
    /// so rounding twice turned a grey's chroma of 128 into 129 in every shaded frame (a magenta
    /// tint of 2–3 levels of green). A face of neutral chroma stays exactly neutral at every step
    /// of the turn, shaded or not, and so do the background and the edges between them.
    @Test("shading keeps a neutral grey's chroma exactly neutral", arguments: [0.3, 1.0])
    func shadingKeepsNeutralChroma(shade: Double) throws {
        let grey = try YUV420Image(
            width: 120, height: 200, luma: Array(repeating: 126, count: 120 * 200),
            blueChroma: Array(repeating: 128, count: 60 * 100), redChroma: Array(repeating: 128, count: 60 * 100))
        let renderer = try CubeYUVRenderer(
            from: grey, to: grey, spec: CubeTransitionSpec(width: 120, height: 200, shade: shade))
        for step in 1...15 {
            let planes = Self.render(renderer, progress: Double(step) / 16)
            let off = (planes.blue + planes.red).filter { $0 != 128 }
            #expect(off.isEmpty, "step \(step): \(off.count) chroma samples off 128, e.g. \(off.prefix(4))")
        }
    }

    @Test("a renderer's laid-out faces go when it goes")
    func facesAreReleased() throws {
        weak var luma: CubePlaneFace?
        weak var chroma: CubePlaneFace?
        do {
            let face = Self.face(width: 32, height: 48, seed: 7)
            let renderer = try CubeYUVRenderer(
                from: face, to: face, spec: CubeTransitionSpec(width: 32, height: 48), threads: 2)
            (luma, chroma) = (renderer.planes[0].outgoing, renderer.planes[2].incoming)
            #expect(luma != nil && chroma != nil)
        }
        #expect(luma == nil && chroma == nil)
    }

    @Test("bad faces are refused")
    func badFaces() {
        #expect(throws: CubeRenderError.self) {
            try YUV420Image(width: 3, height: 4, luma: Array(repeating: 0, count: 12), blueChroma: [], redChroma: [])
        }
        #expect(throws: CubeRenderError.self) {
            try YUV420Image(
                width: 4, height: 4, luma: Array(repeating: 0, count: 15), blueChroma: [0, 0, 0, 0],
                redChroma: [0, 0, 0, 0])
        }
        let small = Self.face(width: 32, height: 48, seed: 1)
        #expect(throws: CubeRenderError.self) {
            try CubeYUVRenderer(from: small, to: small, spec: CubeTransitionSpec(width: 64, height: 96))
        }
        #expect(throws: CubeRenderError.self) {
            try CubeYUVRenderer(from: small, to: small, spec: CubeTransitionSpec(width: 32, height: 48), threads: 0)
        }
    }
}
