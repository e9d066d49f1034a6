import Foundation
import Testing

@testable import StoryMedia

/// The writer's RGBA → yuv420p conversion gives BT.709 limited-range values: luma per pixel and
/// chroma as the average of each 2×2 block, within one level of the exact formula, in the SIMD
/// body, the scalar tail (widths that are not a multiple of 8) and across threaded bands.
@Suite struct YUV420ConverterTests {
    /// A picture of pseudo-random pixels with full-range extremes in it.
    static func picture(width: Int, height: Int) -> [UInt8] {
        var state: UInt32 = 12345
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in pixels.indices where index % 4 != 3 {
            state = state &* 1_664_525 &+ 1_013_904_223
            pixels[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        pixels.replaceSubrange(0..<8, with: [0, 0, 0, 255, 255, 255, 255, 255])
        return pixels
    }

    /// The exact BT.709 limited-range values of one RGB triple.
    static func exact(_ red: Double, _ green: Double, _ blue: Double) -> (luma: Double, cb: Double, cr: Double) {
        let luma = 0.2126 * red + 0.7152 * green + 0.0722 * blue
        return (
            16 + 219 / 255 * luma, 128 + 224 / 255 * (blue - luma) / 1.8556, 128 + 224 / 255 * (red - luma) / 1.5748
        )
    }

    @Test(arguments: [(38, 20, 1), (64, 8, 1), (1080, 512, 2), (6, 2, 1)])
    func planesMatchTheBT709Formula(width: Int, height: Int, threads: Int) {
        let pixels = Self.picture(width: width, height: height)
        let converter = YUV420Converter(width: width, height: height, threads: threads)
        #expect(converter.bands == (height >= 256 ? threads : 1))
        // Strides wider than the rows, as libavutil allocates them.
        let lumaStride = width + 32
        let chromaStride = width / 2 + 16
        var luma = [UInt8](repeating: 0, count: lumaStride * height)
        var cb = [UInt8](repeating: 0, count: chromaStride * height / 2)
        var cr = [UInt8](repeating: 0, count: chromaStride * height / 2)
        pixels.withUnsafeBufferPointer { rgba in
            converter.convert(
                rgba: rgba, luma: &luma, lumaStride: lumaStride, blueDifference: &cb, blueStride: chromaStride,
                redDifference: &cr, redStride: chromaStride)
        }
        func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let offset = (y * width + x) * 4
            return (Double(pixels[offset]), Double(pixels[offset + 1]), Double(pixels[offset + 2]))
        }
        var worst = (luma: 0.0, chroma: 0.0)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                worst.luma = max(worst.luma, abs(Double(luma[y * lumaStride + x]) - Self.exact(r, g, b).luma))
            }
        }
        for y in 0..<(height / 2) {
            for x in 0..<(width / 2) {
                let block = [
                    rgb(2 * x, 2 * y), rgb(2 * x + 1, 2 * y), rgb(2 * x, 2 * y + 1), rgb(2 * x + 1, 2 * y + 1),
                ]
                let mean = block.reduce((0.0, 0.0, 0.0)) { ($0.0 + $1.0 / 4, $0.1 + $1.1 / 4, $0.2 + $1.2 / 4) }
                let expected = Self.exact(mean.0, mean.1, mean.2)
                worst.chroma = max(
                    worst.chroma, abs(Double(cb[y * chromaStride + x]) - expected.cb),
                    abs(Double(cr[y * chromaStride + x]) - expected.cr))
            }
        }
        #expect(worst.luma <= 0.51)
        #expect(worst.chroma <= 0.51)
        // Black and white land on the limited range's ends.
        #expect(luma[0] == 16 && luma[1] == 235)
    }
}
