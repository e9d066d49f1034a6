/// The turn and mirror that bring a stored picture upright, read straight from the display
/// matrix so that every combination of 90° turns and mirroring comes out right.
///
/// The display matrix maps a stored pixel (p, q) to a displayed one: p' = a·p + c·q + x,
/// q' = b·p + d·q + y (see libavutil/display.h), in picture coordinates (y down). Rounded to the
/// nearest quarter turn, (a, b, c, d) is a signed permutation: each is −1, 0 or 1. Its inverse is
/// its transpose, which gives, for each displayed pixel, the stored pixel to copy.
struct DisplayTransform: Equatable, Sendable {
    /// The rounded matrix entries, each −1, 0 or 1.
    let a: Int
    let b: Int
    let c: Int
    let d: Int

    /// No change.
    static let identity = DisplayTransform(a: 1, b: 0, c: 0, d: 1)

    init(a: Int, b: Int, c: Int, d: Int) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    /// The transform for a stream's display matrix (nil: none). Whether the sides swap follows
    /// `orientation`, which `inspect` reports, so sizes always agree with it; the signs come from
    /// the matrix itself, which also carries mirroring.
    init(matrix: [Int32]?, orientation: DisplayOrientation) {
        guard let matrix, matrix.count >= 5 else {
            self = .identity
            return
        }
        func sign(_ value: Int32) -> Int { value > 0 ? 1 : (value < 0 ? -1 : 0) }
        let fallback = DisplayTransform(rotation: orientation.rotation)
        if orientation.swapsDimensions {
            let b = sign(matrix[1])
            let c = sign(matrix[3])
            self = b == 0 || c == 0 ? fallback : DisplayTransform(a: 0, b: b, c: c, d: 0)
        } else {
            let a = sign(matrix[0])
            let d = sign(matrix[4])
            self = a == 0 || d == 0 ? fallback : DisplayTransform(a: a, b: 0, c: 0, d: d)
        }
    }

    /// A pure clockwise turn by 0, 90, 180 or 270 degrees.
    init(rotation: Int) {
        switch ((rotation % 360) + 360) % 360 {
        case 90: self.init(a: 0, b: 1, c: -1, d: 0)
        case 180: self.init(a: -1, b: 0, c: 0, d: -1)
        case 270: self.init(a: 0, b: -1, c: 1, d: 0)
        default: self.init(a: 1, b: 0, c: 0, d: 1)
        }
    }

    /// True when the stored width becomes the displayed height.
    var swapsDimensions: Bool { a == 0 }

    /// True when nothing changes.
    var isIdentity: Bool { self == .identity }

    /// The displayed size of a stored `width` × `height` picture.
    func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// The stored size that displays as `width` × `height`.
    func storedSize(displayWidth width: Int, displayHeight height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// `image` (stored orientation) turned and mirrored upright.
    ///
    /// Displayed pixel (X, Y) reads stored pixel p = a·X + b·Y + p0, q = c·X + d·Y + q0, the
    /// offsets putting both in range; in a packed buffer that is a base offset plus one step per
    /// column and one per row, so the loop is two additions per pixel.
    func apply(to image: RGBAImageBuffer) -> RGBAImageBuffer {
        guard !isIdentity else { return image }
        let (width, height) = displaySize(width: image.width, height: image.height)
        let storedWidth = image.width
        let p0 = -(min(a, 0) * (width - 1) + min(b, 0) * (height - 1))
        let q0 = -(min(c, 0) * (width - 1) + min(d, 0) * (height - 1))
        let base = q0 * storedWidth + p0
        let columnStep = a + c * storedWidth
        let rowStep = b + d * storedWidth
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        image.pixels.withUnsafeBytes { sourceBytes in
            pixels.withUnsafeMutableBytes { destinationBytes in
                let source = sourceBytes.bindMemory(to: UInt32.self)
                let destination = destinationBytes.bindMemory(to: UInt32.self)
                for row in 0..<height {
                    var sourceIndex = base + row * rowStep
                    let destinationRow = row * width
                    for column in 0..<width {
                        destination[destinationRow + column] = source[sourceIndex]
                        sourceIndex += columnStep
                    }
                }
            }
        }
        return RGBAImageBuffer(width: width, height: height, pixels: pixels)
    }
}
