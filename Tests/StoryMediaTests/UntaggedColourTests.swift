import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// From a QA pass: an untagged clip was read with BT.601, the ffmpeg CLI's default, where
/// players read a high-definition one with BT.709 (Chromium at 540x960 and 1080x1920; Apple's
/// players for high definition): its stills and transition faces changed colour when its video
/// took over in the player. Now an untagged high-definition clip (at least 1280 wide or over 576
/// high, mpv's rule) is read with BT.709, a standard-definition one with BT.601, as before.
@Suite struct UntaggedColourTests {
    /// Colour bars (saturated, where the two matrices differ most), untagged, `size` WxH.
    static func bars(_ size: String, in folder: TemporaryFolder) throws -> String {
        let clip = folder.path("bars-\(size).mp4")
        try HostileFiles.ffmpeg(
            ["-f", "lavfi", "-i", "smptehdbars=s=\(size):r=30:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip])
        let tags = try TestEnvironment.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=color_space", "-of", "csv=p=0", clip])
        let space = tags.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(["", "unknown"].contains(space), "untagged: \(tags.stdout)")
        return clip
    }

    /// The clip's first frame as storyreel reads it, and its PSNR against the ffmpeg CLI's
    /// decode with the BT.709 matrix and with the BT.601 one.
    static func scores(_ clip: String, width: Int, height: Int) throws -> (bt709: Double, bt601: Double) {
        let frame = try ClipFrameSource(path: clip).firstFrame(size: .original)
        #expect(frame.width == width && frame.height == height)
        let exact = "flags=bicubic+accurate_rnd+full_chroma_int"
        let reference = { (matrix: String) in
            try FFmpegReference.frame(
                clip, at: 0, width: width, height: height,
                filters: "scale=in_color_matrix=\(matrix):in_range=tv:out_range=pc:\(exact),format=rgb24")
        }
        return (
            PixelComparison.psnr(frame.pixels, try reference("bt709")),
            PixelComparison.psnr(frame.pixels, try reference("bt601"))
        )
    }

    @Test func anUntaggedHighDefinitionClipIsReadWithBT709() throws {
        let folder = try TemporaryFolder()
        let clip = try Self.bars("540x960", in: folder)
        let (bt709, bt601) = try Self.scores(clip, width: 540, height: 960)
        #expect(bt709 >= 50, "BT.709: \(bt709) dB, BT.601: \(bt601) dB")
        #expect(bt601 < 35, "BT.601 differs: \(bt601) dB")
    }

    @Test func anUntaggedStandardDefinitionClipIsStillReadWithBT601() throws {
        let folder = try TemporaryFolder()
        let clip = try Self.bars("320x240", in: folder)
        let (bt709, bt601) = try Self.scores(clip, width: 320, height: 240)
        #expect(bt601 >= 50, "BT.601: \(bt601) dB, BT.709: \(bt709) dB")
        #expect(bt709 < 35, "BT.709 differs: \(bt709) dB")
    }
}
