import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryMedia

/// Pictures leave the media layer upright: the iPhone sample (stored 1280×720, rotation 90)
/// comes out 720×1280 the right way up and not mirrored, and every turn/mirror a display matrix
/// can hold maps pixels as libavutil/display.h defines it.
@Suite struct OrientationTests {
    static let iphone = TestEnvironment.sample("iphone-hevc-hdr.mov")

    /// Mean RGB of a rectangle of a packed RGBA picture.
    static func meanColour(_ image: RGBAImageBuffer, x: Range<Int>, y: Range<Int>) -> (Double, Double, Double) {
        var sums = (0.0, 0.0, 0.0)
        for row in y {
            for column in x {
                let index = (row * image.width + column) * 4
                sums.0 += Double(image.pixels[index])
                sums.1 += Double(image.pixels[index + 1])
                sums.2 += Double(image.pixels[index + 2])
            }
        }
        let count = Double(x.count * y.count)
        return (sums.0 / count, sums.1 / count, sums.2 / count)
    }

    @Test func iphoneClipIsPortraitAndMatchesFFmpegsAutoRotation() throws {
        let source = try ClipFrameSource(path: Self.iphone)
        #expect(source.displayWidth == 720 && source.displayHeight == 1280)
        let image = try source.frame(at: 0, size: .original)
        #expect(image.width == 720 && image.height == 1280)
        let small = try source.frame(at: 0, size: .width(360))
        let reference = try FFmpegReference.frame(
            Self.iphone, at: 0, width: 360, height: 640, filters: FFmpegReference.toneMapChain)
        #expect(PixelComparison.psnr(small.pixels, reference) >= 23)
    }

    @Test func iphoneClipIsTheRightWayUpAndNotMirrored() throws {
        // testsrc2's colour bars run left to right in the stored picture, red first, with the
        // dark timecode box in the top-left corner. Turned 90° clockwise, the bars run top to
        // bottom, red on top, and the box sits in the top-right corner.
        let image = try ClipFrameSource(path: Self.iphone).frame(at: 0, size: .width(360))
        let top = Self.meanColour(image, x: 0..<300, y: 60..<90)
        #expect(top.0 > 150 && top.1 < 60 && top.2 < 60, "red band on top: \(top)")
        let bottom = Self.meanColour(image, x: 0..<150, y: 580..<630)
        #expect(bottom.0 < 60 && bottom.1 > 150 && bottom.2 > 150, "cyan band at the bottom: \(bottom)")
        let topRight = Self.meanColour(image, x: 345..<355, y: 5..<40)
        let topLeft = Self.meanColour(image, x: 5..<15, y: 5..<40)
        #expect(topRight.0 < 120, "dark timecode box at the top right: \(topRight)")
        #expect(topLeft.0 > 150, "no box at the top left: \(topLeft)")
    }

    /// The obviously-correct mapping: each stored pixel centre goes through
    /// p' = a·p + c·q, q' = b·p + d·q, then the result is moved into the positive quadrant.
    static func referenceApply(_ transform: DisplayTransform, to image: RGBAImageBuffer) -> RGBAImageBuffer {
        let (width, height) = transform.displaySize(width: image.width, height: image.height)
        var output = [UInt8](repeating: 0, count: width * height * 4)
        let corners = [(0.5, 0.5), (Double(image.width) - 0.5, Double(image.height) - 0.5)].map { p, q in
            (Double(transform.a) * p + Double(transform.c) * q, Double(transform.b) * p + Double(transform.d) * q)
        }
        let left = min(corners[0].0, corners[1].0)
        let top = min(corners[0].1, corners[1].1)
        for q in 0..<image.height {
            for p in 0..<image.width {
                let x = Double(transform.a) * (Double(p) + 0.5) + Double(transform.c) * (Double(q) + 0.5) - left
                let y = Double(transform.b) * (Double(p) + 0.5) + Double(transform.d) * (Double(q) + 0.5) - top
                let destination = (Int(y.rounded()) * width + Int(x.rounded())) * 4
                let source = (q * image.width + p) * 4
                for channel in 0..<4 { output[destination + channel] = image.pixels[source + channel] }
            }
        }
        return RGBAImageBuffer(width: width, height: height, pixels: output)
    }

    /// Every signed permutation: the four turns, each also mirrored.
    static let transforms: [DisplayTransform] = [
        (1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
        (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0),
    ].map { DisplayTransform(a: $0.0, b: $0.1, c: $0.2, d: $0.3) }

    @Test(arguments: transforms)
    func fastTransformMatchesTheMatrixDefinition(transform: DisplayTransform) {
        let (width, height) = (5, 3)
        let pixels = (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let image = RGBAImageBuffer(width: width, height: height, pixels: pixels)
        #expect(transform.apply(to: image) == Self.referenceApply(transform, to: image))
    }

    /// What `inspect` reports for a display matrix, `rotation` and `mirrored`, is the matrix:
    /// mirrored left to right first (when `mirrored`), then turned `rotation` degrees clockwise.
    /// The old code read the angle off a mirroring matrix as it was: a plain left-to-right mirror
    /// was reported as turned 180°, an upside-down flip as not turned, a transpose as 90°.
    @Test(arguments: transforms)
    func rotationAndMirroredDescribeTheMatrix(transform: DisplayTransform) {
        let matrix: [Int32] = [
            Int32(transform.a) << 16, Int32(transform.b) << 16, 0, Int32(transform.c) << 16, Int32(transform.d) << 16,
            0,
            0, 0, 1 << 30,
        ]
        let orientation = DisplayOrientation(matrix: matrix)
        let (width, height) = (5, 3)
        let pixels = (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let image = RGBAImageBuffer(width: width, height: height, pixels: pixels)
        let mirroredFirst =
            orientation.mirrored ? DisplayTransform(a: -1, b: 0, c: 0, d: 1).apply(to: image) : image
        #expect(
            DisplayTransform(rotation: orientation.rotation).apply(to: mirroredFirst) == transform.apply(to: image),
            "reported \(orientation.rotation)° \(orientation.mirrored ? "mirrored" : "")")
    }

    @Test func iphoneMatrixTurnsClockwise() throws {
        // The sample's matrix (0, 1, −1, 0): the stored top-left pixel ends at the top right.
        let transform = DisplayTransform(
            matrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30],
            orientation: DisplayOrientation(rotation: 90, mirrored: false))
        #expect(transform == DisplayTransform(rotation: 90))
        let image = RGBAImageBuffer(width: 2, height: 1, pixels: [1, 1, 1, 1, 2, 2, 2, 2])
        let turned = transform.apply(to: image)
        #expect(turned.width == 1 && turned.height == 2)
        #expect(turned.pixels == [1, 1, 1, 1, 2, 2, 2, 2], "left→right becomes top→bottom")
        let mirrored = DisplayTransform(
            matrix: [-65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30],
            orientation: DisplayOrientation(rotation: 180, mirrored: true))
        #expect(mirrored.apply(to: image).pixels == [2, 2, 2, 2, 1, 1, 1, 1], "a horizontal flip stays one")
    }
}

extension DisplayTransform: CustomTestStringConvertible {
    public var testDescription: String { "(\(a), \(b), \(c), \(d))" }
}
