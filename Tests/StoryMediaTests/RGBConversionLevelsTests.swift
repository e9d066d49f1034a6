import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// From the colour QA pass: frames converted to RGB (posters, stills, the faces of rotated clips'
/// transitions) came out up to 2 levels darker than players show them (libswscale 5.1's 4:2:0
/// to RGB with accurate rounding and no full chroma interpolation: grey 126 for 128, Y = 29 as
/// 13 for 15), so a still under a playing video flickered darker. Now every level of a limited-
/// range grey ramp converts to the exact value, as a player's float conversion gives it.
@Suite struct RGBConversionLevelsTests {
    @Test func everyLimitedRangeGreyLevelConvertsExactly() throws {
        let folder = try TemporaryFolder()
        let (width, height) = (256, 64)
        // Y from 16 to 235 across the picture, neutral chroma, losslessly encoded (QP 0).
        let ramp: [UInt8] = (0..<width).map { (column: Int) -> UInt8 in UInt8(16 + column * 219 / 255) }
        let luma = (0..<height).flatMap { _ in ramp }
        let chroma = [UInt8](repeating: 128, count: width * height / 4)
        let raw = try folder.write("ramp.yuv", Data(luma + chroma + chroma))
        let clip = folder.path("ramp.mp4")
        try HostileFiles.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-r", "30", "-i", raw, "-t", "1",
            "-c:v", "libx264", "-qp", "0", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
            "-color_range", "tv", clip,
        ])
        let frame = try ClipFrameSource(path: clip).firstFrame(size: .original)
        try #require(frame.width == width && frame.height == height)
        var worst = (column: 0, got: 0, exact: 0)
        for (column, y) in ramp.enumerated() {
            let exact: Int = Self.fullRange(ofLimited: y)
            for channel in 0..<3 {
                let got = Int(frame.pixels[((height / 2) * width + column) * 4 + channel])
                if abs(got - exact) > abs(worst.got - worst.exact) { worst = (column, got, exact) }
            }
        }
        #expect(worst.got == worst.exact, "column \(worst.column): \(worst.got) for \(worst.exact)")
    }

    /// From a colour QA pass: 8-bit grey (monochrome HEVC, FFV1) tagged limited range kept its
    /// levels (black 16, white 235) where 10-bit grey and 4:2:0 of the same levels were stretched
    /// to 0 and 255 (libswscale 5.1 reads 8-bit grey as full range whatever it is told). Grey
    /// tagged full range keeps its levels.
    @Test(arguments: ["tv", "pc"]) func eightBitGreyConvertsByItsRange(range: String) throws {
        let folder = try TemporaryFolder()
        let (width, height) = (256, 64)
        let ramp: [UInt8] = (0..<width).map { (column: Int) -> UInt8 in UInt8(16 + column * 219 / 255) }
        let raw = try folder.write("ramp.gray", Data((0..<height).flatMap { _ in ramp }))
        let clip = folder.path("ramp.mp4")
        try HostileFiles.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", "gray", "-s", "\(width)x\(height)", "-r", "30", "-i", raw, "-t", "0.2",
            "-c:v", "libx265", "-x265-params", "log-level=error:lossless=1", "-pix_fmt", "gray", "-color_range", range,
            "-tag:v", "hvc1", clip,
        ])
        let frame = try ClipFrameSource(path: clip).firstFrame(size: .original)
        try #require(frame.width == width && frame.height == height)
        var worst = (column: 0, got: 0, exact: 0)
        for (column, y) in ramp.enumerated() {
            let exact: Int = range == "pc" ? Int(y) : Self.fullRange(ofLimited: y)
            let got = Int(frame.pixels[((height / 2) * width + column) * 4])
            if abs(got - exact) > abs(worst.got - worst.exact) { worst = (column, got, exact) }
        }
        #expect(worst.got == worst.exact, "\(range): column \(worst.column): \(worst.got) for \(worst.exact)")
    }

    /// The full-range level of limited-range luma `y` (16...235 onto 0...255), rounded.
    static func fullRange(ofLimited y: UInt8) -> Int {
        let stretched: Double = Double(Int(y) - 16) * 255 / 219
        return Int(stretched.rounded())
    }
}
