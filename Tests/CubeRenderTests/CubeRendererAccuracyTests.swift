import CubeRender
import Testing

/// The fast renderer against the float reference, on textured faces, across sizes, perspectives and progress.
struct CubeRendererAccuracyTests {
    static let sizes: [(width: Int, height: Int)] = [(64, 96), (120, 200), (270, 480)]
    static let progressValues: [Double] = [0.05, 0.3, 0.5, 0.77, 0.95]

    @Test("fast renderer matches the float reference", arguments: sizes, [1.5, 2.667, 5.0])
    func matchesReference(size: (width: Int, height: Int), perspective: Double) throws {
        let spec = CubeTransitionSpec(width: size.width, height: size.height, perspective: perspective)
        let from = TestFaces.textured(width: size.width, height: size.height, seed: 1)
        let to = TestFaces.textured(width: size.width, height: size.height, seed: 2)
        let renderer = try CubeRenderer(from: from, to: to, spec: spec)
        let reference = ReferenceCubeRenderer(from: from, to: to, spec: spec)
        for p in Self.progressValues {
            let comparison = ImageComparison(
                renderer.renderImage(progress: p), reference.render(progress: p),
                tolerance: 2)
            #expect(
                comparison.fractionWithinTolerance >= 0.995,
                "p \(p): only \(comparison.fractionWithinTolerance) of pixels within 2 levels")
            #expect(comparison.psnr >= 40, "p \(p): PSNR \(comparison.psnr) dB")
        }
    }

    @Test("whole transitions match the reference, both directions and easings")
    func framesMatchReference() throws {
        let from = TestFaces.textured(width: 96, height: 160, seed: 3)
        let to = TestFaces.textured(width: 96, height: 160, seed: 4)
        for direction in CubeDirection.allCases {
            for easing in CubeEasing.allCases {
                let spec = CubeTransitionSpec(
                    width: 96, height: 160, duration: 0.2, fps: 30, easing: easing,
                    direction: direction)
                let renderer = try CubeRenderer(from: from, to: to, spec: spec)
                let reference = ReferenceCubeRenderer(from: from, to: to, spec: spec)
                #expect(renderer.frameCount == 6)
                for frame in 0..<renderer.frameCount {
                    let comparison = ImageComparison(
                        renderer.renderImage(frame: frame),
                        reference.render(frame: frame), tolerance: 2)
                    #expect(comparison.fractionWithinTolerance >= 0.995, "\(direction) \(easing) frame \(frame)")
                    #expect(comparison.psnr >= 40, "\(direction) \(easing) frame \(frame)")
                }
            }
        }
    }

    @Test("translucent faces keep an unshaded, interpolated alpha")
    func alphaIsInterpolatedNotShaded() throws {
        let from = TestFaces.textured(width: 80, height: 120, seed: 5, alphaVaries: true)
        let to = TestFaces.textured(width: 80, height: 120, seed: 6, alphaVaries: true)
        let spec = CubeTransitionSpec(width: 80, height: 120, shade: 1)
        let renderer = try CubeRenderer(from: from, to: to, spec: spec)
        let reference = ReferenceCubeRenderer(from: from, to: to, spec: spec)
        for p in [0.2, 0.6] {
            let comparison = ImageComparison(
                renderer.renderImage(progress: p), reference.render(progress: p),
                tolerance: 2)
            #expect(comparison.fractionWithinTolerance >= 0.995)
            #expect(comparison.psnr >= 40)
        }
    }

    @Test("the worst error stays small")
    func maximumErrorIsBounded() throws {
        let from = TestFaces.textured(width: 120, height: 200, seed: 7)
        let to = TestFaces.textured(width: 120, height: 200, seed: 8)
        let spec = CubeTransitionSpec(width: 120, height: 200)
        let renderer = try CubeRenderer(from: from, to: to, spec: spec)
        let reference = ReferenceCubeRenderer(from: from, to: to, spec: spec)
        for p in Self.progressValues {
            let comparison = ImageComparison(
                renderer.renderImage(progress: p), reference.render(progress: p),
                tolerance: 1)
            #expect(comparison.fractionWithinTolerance >= 0.98, "p \(p): \(comparison.fractionWithinTolerance)")
            #expect(comparison.maximumDifference <= 4, "p \(p): max difference \(comparison.maximumDifference)")
        }
    }
}
