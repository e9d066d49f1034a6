import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// `RGBAResizer`, which makes a bundle's thumbnails and shrunk posters from the pick.
@Suite struct RGBAResizerTests {
    /// A resized picture keeps its colours: libswscale scaled RGBA through a YUV of its own with
    /// BT.601 in and BT.709 out, so every thumbnail's colours shifted (28 dB against ffmpeg's
    /// scale of the same picture; a QA pass found it through PNG stills).
    @Test func aResizedPictureKeepsItsColours() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("card.png")
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path])
        try #require(made.status == 0, "\(made.stderr)")
        let original = try PixelComparison.ffmpegImage(path, width: 320, height: 240)
        let resized = try original.withUnsafeBufferPointer {
            try RGBAResizer(sourceWidth: 320, sourceHeight: 240, width: 180, height: 135).resize($0)
        }
        let reference = try PixelComparison.ffmpegImage(
            path, width: 180, height: 135, options: PixelComparison.mediaLayerScaling + ["-vf", "scale=180:135"])
        #expect(PixelComparison.psnr(resized.pixels, reference) >= 40)
    }
}
