import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// JPEG, PNG and WebP files decode (with the ffmpeg CLI) to the picture that was encoded, with
/// the right colours, and quality trades size for fidelity.
@Suite struct ImageEncoderTests {
    /// A frame of real content: portrait-h264's frame at 1 s, 180×320.
    let picture: RGBAImageBuffer

    init() throws {
        FFmpegLog.silence()  // libwebp notes its colour conversion
        let path = TestEnvironment.sample("portrait-h264.mp4")
        picture = try ClipFrameSource(path: path).frame(at: 1, size: .width(180))
    }

    func decoded(_ data: Data, as name: String) throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let path = try folder.write(name, data)
        return try PixelComparison.ffmpegImage(path, width: 180, height: 320)
    }

    /// JPEG and WebP keep chroma at half size (4:2:0): on this frame's saturated edges that
    /// costs about 29–30 dB in RGB, the ffmpeg CLI's own `mjpeg -q:v 2` as much.
    @Test(arguments: [(ImageFormat.jpeg, 28.0), (.png, Double.infinity), (.webp, 28.0)])
    func encodedImageDecodesToThePicture(format: ImageFormat, minimumPSNR: Double) throws {
        let data = try ImageEncoder.encode(picture, format: format)
        let pixels = try decoded(data, as: "poster.\(format.fileExtension)")
        let psnr = PixelComparison.psnr(picture.pixels, pixels)
        #expect(psnr >= minimumPSNR, "\(format): \(psnr) dB")
    }

    @Test func jpegIsFullRangeBT601() throws {
        // Flat colours survive a JPEG round trip within a few codes only when the encoder writes
        // the full-range BT.601 YCbCr that every JPEG reader assumes.
        var pixels = [UInt8]()
        for colour: [UInt8] in [[0, 0, 0], [255, 255, 255], [200, 30, 40], [20, 180, 90]] {
            for _ in 0..<(16 * 64) { pixels += colour + [255] }
        }
        let stripes = RGBAImageBuffer(width: 16, height: 256, pixels: pixels)
        let data = try ImageEncoder.encode(stripes, format: .jpeg, quality: 100)
        let folder = try TemporaryFolder()
        let path = try folder.write("stripes.jpg", data)
        let decoded = try PixelComparison.ffmpegImage(path, width: 16, height: 256)
        for (band, row) in [8, 72, 136, 200].enumerated() {
            let index = (row * 16 + 8) * 4
            for channel in 0..<3 {
                let difference = abs(Int(decoded[index + channel]) - Int(pixels[index + channel]))
                #expect(difference <= 4, "band \(band) channel \(channel): \(decoded[index + channel])")
            }
        }
    }

    @Test(arguments: [ImageFormat.jpeg, .webp])
    func higherQualityIsLargerAndCloser(format: ImageFormat) throws {
        let low = try ImageEncoder.encode(picture, format: format, quality: 20)
        let high = try ImageEncoder.encode(picture, format: format, quality: 95)
        #expect(high.count > low.count)
        let name = "q.\(format.fileExtension)"
        #expect(
            PixelComparison.psnr(picture.pixels, try decoded(high, as: name))
                > PixelComparison.psnr(picture.pixels, try decoded(low, as: name)))
    }

    @Test func qualityOutOfRangeIsRefused() {
        #expect(throws: MediaError.self) { try ImageEncoder.encode(picture, format: .jpeg, quality: 0) }
        #expect(throws: MediaError.self) { try ImageEncoder.encode(picture, format: .webp, quality: 101) }
    }

    @Test func formatsComeFromExtensions() {
        #expect(ImageFormat(pathExtension: "JPG") == .jpeg)
        #expect(ImageFormat(pathExtension: "jpeg") == .jpeg)
        #expect(ImageFormat(pathExtension: "png") == .png)
        #expect(ImageFormat(pathExtension: "WebP") == .webp)
        #expect(ImageFormat(pathExtension: "gif") == nil)
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
    }
}
