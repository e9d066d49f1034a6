import Foundation

/// Pixel checks against a trusted peer: pictures decoded by the ffmpeg CLI, compared by PSNR.
public enum PixelComparison {
    /// PSNR in dB between two packed RGBA pictures of the same size, over R, G and B (alpha is
    /// ignored); infinity when they are identical.
    public static func psnr(_ first: [UInt8], _ second: [UInt8]) -> Double {
        precondition(first.count == second.count && first.count % 4 == 0, "pictures differ in size")
        // Integer sums through buffer pointers: the tests are a debug build, where the indexed
        // Double loop took seconds for a few dozen comparisons (the same sums, exactly).
        let squaredError = first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                var total = 0
                var index = 0
                while index < a.count {
                    let red = Int(a[index]) &- Int(b[index])
                    let green = Int(a[index + 1]) &- Int(b[index + 1])
                    let blue = Int(a[index + 2]) &- Int(b[index + 2])
                    total &+= red &* red &+ green &* green &+ blue &* blue
                    index &+= 4
                }
                return total
            }
        }
        guard squaredError > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (Double(squaredError) / Double(first.count / 4 * 3)))
    }

    /// PSNR in dB of the BT.709 luma (0.2126 R + 0.7152 G + 0.0722 B) of two packed RGBA pictures:
    /// the fair measure for a picture that went through 4:2:0 video, whose halved chroma alone
    /// costs saturated, sharp-edged content a few dB of RGB PSNR.
    public static func lumaPSNR(_ first: [UInt8], _ second: [UInt8]) -> Double {
        precondition(first.count == second.count && first.count % 4 == 0, "pictures differ in size")
        func luma(_ pixels: UnsafeBufferPointer<UInt8>, _ index: Int) -> Double {
            0.2126 * Double(pixels[index]) + 0.7152 * Double(pixels[index + 1]) + 0.0722 * Double(pixels[index + 2])
        }
        // Through buffer pointers, as `psnr` (the same sums, in the same order).
        let squaredError = first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                var total = 0.0
                var index = 0
                while index < a.count {
                    let difference = luma(a, index) - luma(b, index)
                    total += difference * difference
                    index += 4
                }
                return total
            }
        }
        guard squaredError > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squaredError / Double(first.count / 4)))
    }

    /// A packed RGBA picture reduced to the mean of each `block` × `block` square (alpha 255):
    /// what is left of a picture once pixel-level detail (codec noise, half-pixel resampling) is
    /// set aside, so a comparison sees the picture itself, where it is and how it is framed.
    public static func blockMeans(_ rgba: [UInt8], width: Int, height: Int, block: Int) -> [UInt8] {
        let (columns, rows) = (width / block, height / block)
        var reduced = [UInt8](repeating: 255, count: columns * rows * 4)
        for row in 0..<rows {
            for column in 0..<columns {
                for channel in 0..<3 {
                    var total = 0
                    for y in (row * block)..<(row * block + block) {
                        for x in (column * block)..<(column * block + block) {
                            total += Int(rgba[(y * width + x) * 4 + channel])
                        }
                    }
                    let mean = (Double(total) / Double(block * block)).rounded()
                    reduced[(row * columns + column) * 4 + channel] = UInt8(mean)
                }
            }
        }
        return reduced
    }

    /// libswscale flags matching the media layer's ``Scaler`` (bicubic, accurate rounding, full
    /// chroma interpolation), for a reference decoded exactly the way storyreel converts.
    public static let mediaLayerScaling = ["-sws_flags", FFmpegReference.scalingFlags]

    /// Every frame of the picture or clip at `path`, decoded by the ffmpeg CLI to packed RGBA
    /// (colour tags honoured, as a player would), `width` × `height` bytes × 4 each. `options`
    /// go before the output (by default ``mediaLayerScaling``).
    public static func ffmpegFrames(
        _ path: String, width: Int, height: Int, input: [String] = [], options: [String] = mediaLayerScaling
    ) throws
        -> [[UInt8]]
    {
        let folder = try TemporaryFolder()
        let raw = folder.path("frames.rgba")
        let result = try TestEnvironment.run(
            "ffmpeg",
            ["-v", "error", "-y"] + input + ["-i", path] + options + ["-f", "rawvideo", "-pix_fmt", "rgba", raw])
        guard result.status == 0 else { throw TestFailure("ffmpeg could not decode \(path): \(result.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let frameBytes = width * height * 4
        guard frameBytes > 0, bytes.count % frameBytes == 0 else {
            throw TestFailure("\(path) did not decode to whole \(width)x\(height) frames (\(bytes.count) bytes)")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).map { Array(bytes[$0..<$0 + frameBytes]) }
    }

    /// The one picture of the image at `path`, decoded by the ffmpeg CLI to packed RGBA.
    /// `input` goes before `-i` (`-ss 0.5`: a seek there keeps the frames before it out of the
    /// filters, which an output `-ss` scales and drops, 5 s for a 6000-wide fill).
    public static func ffmpegImage(
        _ path: String, width: Int, height: Int, input: [String] = [], options: [String] = []
    ) throws -> [UInt8] {
        let frames = try ffmpegFrames(path, width: width, height: height, input: input, options: options)
        guard let first = frames.first else { throw TestFailure("\(path) has no picture") }
        return first
    }
}
