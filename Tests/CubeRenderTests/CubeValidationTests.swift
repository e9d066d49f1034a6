import CubeRender
import Testing

/// Invalid specs, faces, thread counts and pixel buffers are rejected with a readable error.
struct CubeValidationTests {
    /// Runs `validate()` on `spec` and returns the message it threw, or nil.
    static func validationMessage(_ spec: CubeTransitionSpec) -> String? {
        do {
            try spec.validate()
            return nil
        } catch let error as CubeRenderError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("a valid spec passes")
    func validSpecPasses() throws {
        try CubeTransitionSpec(width: 1080, height: 1920).validate()
        try CubeTransitionSpec(width: 8192, height: 2, duration: 0.02, fps: 50, perspective: 0.1, shade: 0).validate()
        try CubeTransitionSpec(width: 2, height: 8192, shade: 1).validate()
    }

    @Test(
        "bad sizes are rejected",
        arguments: [
            (0, 100, "positive"), (100, 0, "positive"), (-2, 100, "positive"), (101, 100, "even"), (100, 3, "even"),
            (8194, 100, "maximum"), (100, 9000, "maximum"),
        ])
    func badSizes(width: Int, height: Int, phrase: String) {
        let message = Self.validationMessage(CubeTransitionSpec(width: width, height: height))
        #expect(message?.contains(phrase) == true, "\(width)x\(height): \(message ?? "accepted")")
    }

    @Test("bad timing, perspective and shade are rejected")
    func badParameters() {
        let cases: [(CubeTransitionSpec, String)] = [
            (CubeTransitionSpec(width: 64, height: 64, duration: 0), "duration"),
            (CubeTransitionSpec(width: 64, height: 64, duration: -1), "duration"),
            (CubeTransitionSpec(width: 64, height: 64, duration: .infinity), "duration"),
            (CubeTransitionSpec(width: 64, height: 64, fps: .nan), "fps"),
            (CubeTransitionSpec(width: 64, height: 64, fps: 0), "fps"),
            (CubeTransitionSpec(width: 64, height: 64, perspective: 0), "perspective"),
            (CubeTransitionSpec(width: 64, height: 64, perspective: -2.667), "perspective"),
            (CubeTransitionSpec(width: 64, height: 64, perspective: .infinity), "perspective"),
            (CubeTransitionSpec(width: 64, height: 64, perspective: 1e-12), "perspective"),
            (CubeTransitionSpec(width: 64, height: 64, perspective: 0.09), "perspective"),
            (CubeTransitionSpec(width: 64, height: 64, perspective: 1e9), "perspective"),
            (CubeTransitionSpec(width: 64, height: 64, shade: -0.1), "shade"),
            (CubeTransitionSpec(width: 64, height: 64, shade: 1.5), "shade"),
            (CubeTransitionSpec(width: 64, height: 64, shade: .nan), "shade"),
            (CubeTransitionSpec(width: 64, height: 64, duration: 0.01, fps: 30), "no frames"),
            (CubeTransitionSpec(width: 64, height: 64, duration: 1e6, fps: 60), "exceeds"),
        ]
        for (spec, phrase) in cases {
            let message = Self.validationMessage(spec)
            #expect(message?.contains(phrase) == true, "\(spec): \(message ?? "accepted")")
        }
    }

    @Test("the extreme perspectives a spec accepts render every frame without trapping")
    func extremePerspectivesRender() throws {
        for perspective in [
            CubeTransitionSpec.perspectiveRange.lowerBound, CubeTransitionSpec.perspectiveRange.upperBound,
        ] {
            let spec = CubeTransitionSpec(width: 64, height: 96, perspective: perspective)
            let renderer = try CubeRenderer(
                from: TestFaces.textured(width: 64, height: 96, seed: 1),
                to: TestFaces.textured(width: 64, height: 96, seed: 2), spec: spec)
            for frame in 0..<renderer.frameCount {
                #expect(renderer.renderImage(frame: frame).pixels.count == 64 * 96 * 4)
            }
        }
    }

    @Test("the renderer validates its spec, faces and thread count")
    func rendererRejectsBadInput() {
        let face = RGBAImage(width: 64, height: 96, filledWith: 1, 2, 3)
        let spec = CubeTransitionSpec(width: 64, height: 96)
        #expect(throws: CubeRenderError.self) {
            try CubeRenderer(from: face, to: face, spec: CubeTransitionSpec(width: 63, height: 96))
        }
        let wrongSize = RGBAImage(width: 64, height: 94, filledWith: 1, 2, 3)
        #expect(throws: CubeRenderError.self) { try CubeRenderer(from: face, to: wrongSize, spec: spec) }
        #expect(throws: CubeRenderError.self) { try CubeRenderer(from: wrongSize, to: face, spec: spec) }
        #expect(throws: CubeRenderError.self) { try CubeRenderer(from: face, to: face, spec: spec, threads: 0) }
        do {
            _ = try CubeRenderer(from: face, to: wrongSize, spec: spec)
        } catch {
            #expect("\(error)".contains("64x94"))
        }
    }

    @Test("an image's byte count must match its size")
    func imageValidation() throws {
        #expect(throws: CubeRenderError.self) {
            try RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: CubeRenderError.self) { try RGBAImage(width: 0, height: 2, pixels: []) }
        let image = try RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(image.pixel(x: 1, y: 0) == (5, 6, 7, 8))
        let filled = RGBAImage(width: 3, height: 2, filledWith: 10, 20, 30)
        #expect(filled.pixels.count == 24)
        #expect(filled.pixel(x: 2, y: 1) == (10, 20, 30, 255))
    }
}
