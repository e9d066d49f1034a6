import CubeRender
import Foundation

/// How closely two images of the same size agree.
struct ImageComparison {
    /// The fraction of pixels whose every channel (RGBA) differs by at most `tolerance`.
    let fractionWithinTolerance: Double
    /// Peak signal-to-noise ratio over the RGB channels of all pixels, in dB (infinite when identical).
    let psnr: Double
    /// The largest difference of any channel of any pixel.
    let maximumDifference: Int

    /// The number of bytes in which `actual` and `expected` differ (0 when identical). Tests expect on this
    /// count rather than on image equality so a failure prints a number, not two pixel dumps.
    static func differingBytes(_ actual: RGBAImage, _ expected: RGBAImage) -> Int {
        differingBytes(actual.pixels, expected.pixels)
    }

    /// The number of positions in which two byte arrays differ, plus any difference in length.
    static func differingBytes(_ actual: [UInt8], _ expected: [UInt8]) -> Int {
        zip(actual, expected).reduce(abs(actual.count - expected.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// Compares `actual` with `expected`, counting pixels within `tolerance` levels on every channel.
    init(_ actual: RGBAImage, _ expected: RGBAImage, tolerance: Int) {
        precondition(actual.width == expected.width && actual.height == expected.height)
        var within = 0
        var squaredError = 0.0
        var maximum = 0
        let pixelCount = actual.width * actual.height
        for pixel in 0..<pixelCount {
            var pixelMaximum = 0
            for channel in 0..<4 {
                let index = pixel * 4 + channel
                let difference = abs(Int(actual.pixels[index]) - Int(expected.pixels[index]))
                pixelMaximum = max(pixelMaximum, difference)
                if channel < 3 {
                    squaredError += Double(difference * difference)
                }
            }
            if pixelMaximum <= tolerance {
                within += 1
            }
            maximum = max(maximum, pixelMaximum)
        }
        fractionWithinTolerance = Double(within) / Double(pixelCount)
        let meanSquaredError = squaredError / Double(pixelCount * 3)
        psnr = meanSquaredError == 0 ? .infinity : 10 * log10(255 * 255 / meanSquaredError)
        maximumDifference = maximum
    }
}
