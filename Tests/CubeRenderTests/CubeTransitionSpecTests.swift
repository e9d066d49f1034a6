import CubeRender
import Testing

/// Frame count, frame timing and easing.
struct CubeTransitionSpecTests {
    @Test("defaults are spec v1")
    func defaults() {
        let spec = CubeTransitionSpec(width: 1080, height: 1920)
        #expect(spec.duration == 0.5)
        #expect(spec.fps == 30)
        #expect(spec.easing == .smooth)
        #expect(spec.perspective == 2.667)
        #expect(spec.shade == 0.3)
        #expect(spec.direction == .forward)
        #expect(spec.frameCount == 15)
    }

    @Test(
        "frame count is round(duration * fps)",
        arguments: [
            (0.5, 30.0, 15), (1.0, 24.0, 24), (0.51, 30.0, 15), (0.49, 30.0, 15), (0.1, 25.0, 3), (0.02, 30.0, 1),
            (0.01, 30.0, 0), (0.7, 30.0, 21),
        ])
    func frameCount(duration: Double, fps: Double, expected: Int) {
        #expect(CubeTransitionSpec(width: 2, height: 2, duration: duration, fps: fps).frameCount == expected)
    }

    @Test("frame k sits at t = (k + 1) / (N + 1)")
    func normalizedTime() {
        let spec = CubeTransitionSpec(width: 2, height: 2, duration: 0.5, fps: 30)
        #expect(spec.normalizedTime(ofFrame: 0) == 1.0 / 16)
        #expect(spec.normalizedTime(ofFrame: 7) == 0.5)
        #expect(spec.normalizedTime(ofFrame: 14) == 15.0 / 16)
        let linear = CubeTransitionSpec(width: 2, height: 2, easing: .linear)
        #expect(linear.progress(ofFrame: 0) == 1.0 / 16)
        #expect(linear.progress(ofFrame: 3) == 4.0 / 16)
        let smooth = CubeTransitionSpec(width: 2, height: 2)
        let t = 1.0 / 16
        #expect(smooth.progress(ofFrame: 0) == t * t * (3 - 2 * t))
        #expect(smooth.progress(ofFrame: 7) == 0.5)
    }

    @Test("backward progress runs the forward progress in reverse")
    func backwardProgress() {
        let forward = CubeTransitionSpec(width: 2, height: 2, duration: 0.4, fps: 30)
        var backward = forward
        backward.direction = .backward
        #expect(forward.frameCount == 12)
        for k in 0..<12 {
            #expect(backward.progress(ofFrame: k) == forward.progress(ofFrame: 11 - k))
            #expect(backward.normalizedTime(ofFrame: k) == forward.normalizedTime(ofFrame: k))
        }
        #expect(backward.progress(ofFrame: 0) > 0.9)
    }

    @Test("smooth easing is smoothstep, linear is the identity")
    func easingValues() {
        #expect(CubeEasing.smooth.progress(at: 0) == 0)
        #expect(CubeEasing.smooth.progress(at: 1) == 1)
        #expect(CubeEasing.smooth.progress(at: 0.5) == 0.5)
        #expect(CubeEasing.smooth.progress(at: 0.25) == 0.15625)
        #expect(CubeEasing.smooth.progress(at: 0.75) == 0.84375)
        #expect(CubeEasing.smooth.progress(at: 0.1) == 0.1 * 0.1 * (3 - 0.2))
        for t in [0.0, 0.1, 0.25, 0.5, 0.9, 1.0] {
            #expect(CubeEasing.linear.progress(at: t) == t)
        }
        #expect(CubeEasing(rawValue: "smooth") == .smooth)
        #expect(CubeEasing(rawValue: "linear") == .linear)
        #expect(CubeDirection(rawValue: "backward") == .backward)
        #expect(CubeEasing.allCases.count == 2 && CubeDirection.allCases.count == 2)
    }
}
