/// The parameters of one cube transition ("Cube transition spec v1").
///
/// Frame `k` (0-based, `k < frameCount`) sits at normalised time `t = (k + 1) / (N + 1)` and turn
/// progress `p = easing.progress(at: t)`. The hinge is the vertical line `x = width * (1 - p)`; the outgoing
/// face turns about it by `90° * p`, the incoming face by `90° * (1 - p)`, seen from a perspective distance of
/// `perspective * width`. Turned faces are darkened by `1 - shade * sin(angle)`.
public struct CubeTransitionSpec: Sendable, Equatable {
    /// The largest accepted canvas width or height, in pixels.
    public static let maximumDimension = 8192
    /// The largest accepted frame count; far beyond any real transition, it keeps `frameCount` representable.
    public static let maximumFrameCount = 1_000_000

    /// The canvas width in pixels; must be even, positive and at most `maximumDimension`.
    public var width: Int
    /// The canvas height in pixels; must be even, positive and at most `maximumDimension`.
    public var height: Int
    /// The transition length in seconds.
    public var duration: Double
    /// The output frame rate in frames per second.
    public var fps: Double
    /// The easing curve from normalised time to turn progress.
    public var easing: CubeEasing
    /// The perspective distance as a multiple of the width (`D = perspective * width`).
    public var perspective: Double

    /// The perspectives a spec accepts: closer than a tenth of the width, the turned face's rows
    /// step through the source faster than the renderer's fixed-point arithmetic can hold.
    public static let perspectiveRange = 0.1...100.0
    /// The darkening strength in [0, 1]: RGB is multiplied by `1 - shade * sin(angle)`.
    public var shade: Double
    /// Whether the cube turns forward or backward.
    public var direction: CubeDirection

    /// Creates a spec; every parameter except the canvas size has the v1 default.
    public init(
        width: Int,
        height: Int,
        duration: Double = 0.5,
        fps: Double = 30,
        easing: CubeEasing = .smooth,
        perspective: Double = 2.667,
        shade: Double = 0.3,
        direction: CubeDirection = .forward
    ) {
        self.width = width
        self.height = height
        self.duration = duration
        self.fps = fps
        self.easing = easing
        self.perspective = perspective
        self.shade = shade
        self.direction = direction
    }

    /// The number of frames `N = round(duration * fps)` (halves round away from zero).
    ///
    /// Returns 0 when the product is not finite or not positive, and saturates just above
    /// `maximumFrameCount` for absurdly long transitions, so the value is always safe to use.
    public var frameCount: Int {
        let product = (duration * fps).rounded()
        guard product.isFinite, product > 0 else { return 0 }
        return Int(min(product, Double(Self.maximumFrameCount + 1)))
    }

    /// The normalised time `t = (k + 1) / (N + 1)` of frame `k`, in the forward sense and ignoring `direction`.
    public func normalizedTime(ofFrame k: Int) -> Double {
        Double(k + 1) / Double(frameCount + 1)
    }

    /// The forward turn progress `p` drawn as output frame `k`, taking `direction` into account.
    ///
    /// For `.forward` this is `easing.progress(at: t(k))`. For `.backward` it is the progress of forward frame
    /// `N - 1 - k`, i.e. `easing.progress(at: t(N - 1 - k))`; that forward frame is drawn with the faces
    /// swapped (the `to` face turning away, the `from` face turning in), which plays the turn in reverse.
    public func progress(ofFrame k: Int) -> Double {
        let forwardFrame = direction == .forward ? k : frameCount - 1 - k
        return easing.progress(at: normalizedTime(ofFrame: forwardFrame))
    }

    /// Checks every parameter.
    ///
    /// - Throws: `CubeRenderError` for a zero, negative, odd or over-`maximumDimension` size; a non-positive or
    ///   non-finite duration or fps; a perspective outside ``perspectiveRange``; a shade outside [0, 1]; or
    ///   fewer than one (or more than
    ///   `maximumFrameCount`) frames.
    public func validate() throws {
        for (name, value) in [("width", width), ("height", height)] {
            guard value > 0 else {
                throw CubeRenderError("cube \(name) \(value) must be positive")
            }
            guard value % 2 == 0 else {
                throw CubeRenderError("cube \(name) \(value) must be even")
            }
            guard value <= Self.maximumDimension else {
                throw CubeRenderError("cube \(name) \(value) exceeds the maximum of \(Self.maximumDimension)")
            }
        }
        for (name, value) in [("duration", duration), ("fps", fps), ("perspective", perspective)] {
            guard value.isFinite, value > 0 else {
                throw CubeRenderError("cube \(name) \(value) must be a finite number greater than zero")
            }
        }
        guard Self.perspectiveRange.contains(perspective) else {
            throw CubeRenderError(
                "cube perspective \(perspective) must be from \(Self.perspectiveRange.lowerBound) to "
                    + "\(Self.perspectiveRange.upperBound)")
        }
        guard shade.isFinite, shade >= 0, shade <= 1 else {
            throw CubeRenderError("cube shade \(shade) must be between 0 and 1")
        }
        let frames = frameCount
        guard frames >= 1 else {
            throw CubeRenderError(
                "cube transition of \(duration) s at \(fps) fps has no frames (round(duration * fps) < 1)")
        }
        guard frames <= Self.maximumFrameCount else {
            throw CubeRenderError(
                "cube transition of \(duration) s at \(fps) fps exceeds \(Self.maximumFrameCount) frames")
        }
    }

    /// Checks what a renderer is given: this spec, faces of `fromSize` and `toSize` (each must be
    /// the canvas size) and at least one thread.
    ///
    /// - Throws: `CubeRenderError` naming the first thing that is wrong.
    func validateRenderer(
        fromSize: (width: Int, height: Int), toSize: (width: Int, height: Int), threads: Int
    ) throws {
        try validate()
        for (name, face) in [("from", fromSize), ("to", toSize)] {
            guard face.width == width, face.height == height else {
                throw CubeRenderError(
                    "cube face '\(name)' is \(face.width)x\(face.height) but the canvas is \(width)x\(height)")
            }
        }
        guard threads >= 1 else {
            throw CubeRenderError("cube renderer needs at least one thread, got \(threads)")
        }
    }
}
