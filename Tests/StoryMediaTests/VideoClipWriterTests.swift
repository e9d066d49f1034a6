import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// The encode loop writes clips that ffprobe and the ffmpeg CLI read back as asked: codec,
/// profile, colour tags, frame count and rate, and the pictures themselves.
@Suite struct VideoClipWriterTests {
    let folder: TemporaryFolder
    init() throws {
        FFmpegLog.silence()  // x264's statistics would fill the test log
        folder = try TemporaryFolder()
    }

    /// A smooth moving colour ramp: frame `index` of a `width` × `height` clip.
    static func rampFrame(_ index: Int, width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(x * 200 / max(1, width - 1) + index * 3)
                pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = UInt8((x + y) * 150 / (width + height) + index * 4)
            }
        }
        return pixels
    }

    func writeClip(
        _ path: String, codec: VideoEncoder.Codec, frames: Int, width: Int = 128, height: Int = 96,
        picture: (Int) -> [UInt8] = { rampFrame($0, width: 128, height: 96) }
    ) throws -> [[UInt8]] {
        let writer = try VideoClipWriter(
            path: path, settings: VideoEncoder.Settings(codec: codec, width: width, height: height, fps: 30, crf: 12))
        var written: [[UInt8]] = []
        for index in 0..<frames {
            let pixels = picture(index)
            try pixels.withUnsafeBufferPointer { try writer.append(rgba: $0) }
            written.append(pixels)
        }
        try writer.finish()
        return written
    }

    @Test func h264ClipIsHighProfileBT709AndConstantRate() throws {
        let path = folder.path("ramp.mp4")
        _ = try writeClip(path, codec: .h264, frames: 17)
        let stream = try TestEnvironment.ffprobeVideoStream(path)
        #expect(stream["codec_name"] as? String == "h264")
        #expect(stream["profile"] as? String == "High")
        #expect(stream["codec_tag_string"] as? String == "avc1")
        #expect(stream["pix_fmt"] as? String == "yuv420p")
        #expect(stream["width"] as? Int == 128)
        #expect(stream["height"] as? Int == 96)
        #expect(stream["nb_read_frames"] as? String == "17")
        #expect(stream["avg_frame_rate"] as? String == "30/1")
        #expect(stream["r_frame_rate"] as? String == "30/1")
        #expect(stream["color_range"] as? String == "tv")
        #expect(stream["color_space"] as? String == "bt709")
        #expect(stream["color_transfer"] as? String == "bt709")
        #expect(stream["color_primaries"] as? String == "bt709")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["ramp.mp4"])
    }

    @Test func moovComesBeforeMdatForFastStart() throws {
        let path = folder.path("fast.mp4")
        _ = try writeClip(path, codec: .h264, frames: 3)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let text = String(decoding: bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x2E }, as: UTF8.self)
        let moov = try #require(text.range(of: "moov"))
        let mdat = try #require(text.range(of: "mdat"))
        #expect(moov.lowerBound < mdat.lowerBound)
    }

    @Test func decodedPicturesMatchWhatWasWritten() throws {
        let path = folder.path("pixels.mp4")
        let written = try writeClip(path, codec: .h264, frames: 6)
        let decoded = try PixelComparison.ffmpegFrames(path, width: 128, height: 96)
        #expect(decoded.count == written.count)
        for (original, roundTrip) in zip(written, decoded) {
            #expect(PixelComparison.psnr(original, roundTrip) >= 30)
        }
    }

    @Test func coloursSurviveTheBT709RoundTrip() throws {
        let colours: [(UInt8, UInt8, UInt8)] = [(200, 100, 50), (16, 200, 240), (255, 255, 255), (0, 0, 0)]
        let path = folder.path("solid.mp4")
        _ = try writeClip(path, codec: .h264, frames: colours.count) { index in
            let (red, green, blue) = colours[index]
            return Array((0..<(128 * 96)).map { _ in [red, green, blue, 255] }.joined())
        }
        let decoded = try PixelComparison.ffmpegFrames(path, width: 128, height: 96)
        for (colour, picture) in zip(colours, decoded) {
            let centre = (48 * 128 + 64) * 4
            let expected = [colour.0, colour.1, colour.2]
            for channel in 0..<3 {
                let difference = abs(Int(picture[centre + channel]) - Int(expected[channel]))
                #expect(difference <= 3, "\(expected) decoded as \(Array(picture[centre..<centre + 3]))")
            }
        }
    }

    @Test func hevcClipIsTaggedHvc1() throws {
        let path = folder.path("ramp-hevc.mp4")
        _ = try writeClip(path, codec: .hevc, frames: 5)
        let stream = try TestEnvironment.ffprobeVideoStream(path)
        #expect(stream["codec_name"] as? String == "hevc")
        #expect(stream["codec_tag_string"] as? String == "hvc1")
        #expect(stream["nb_read_frames"] as? String == "5")
        #expect(stream["color_transfer"] as? String == "bt709")
    }

    @Test func abandonedWriterLeavesNoFile() throws {
        let path = folder.path("abandoned.mp4")
        do {
            let writer = try VideoClipWriter(
                path: path, settings: VideoEncoder.Settings(width: 64, height: 64, fps: 30))
            let pixels = Self.rampFrame(0, width: 64, height: 64)
            try pixels.withUnsafeBufferPointer { try writer.append(rgba: $0) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func missingFolderCannotBeCreated() throws {
        let path = folder.path("no/such/folder/out.mp4")
        #expect {
            _ = try VideoClipWriter(path: path, settings: VideoEncoder.Settings(width: 64, height: 64, fps: 30))
        } throws: { ($0 as? MediaError)?.kind == .cannotCreateOutput }
    }
}
