import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// A clip's first and last frames as the clip writer's encoder takes them: the decoded planes
/// byte for byte (what the ffmpeg CLI decodes, as raw yuv420p) when the frame already is that
/// picture, else exactly the RGBA picture converted as the writer converts one.
@Suite struct FramePlanesTests {
    /// `portrait-h264.mp4` and `edit-list.mp4` are yuv420p, BT.709, limited range, upright.
    static let portrait = TestEnvironment.sample("portrait-h264.mp4")
    static let editList = TestEnvironment.sample("edit-list.mp4")

    /// The frames the ffmpeg CLI decodes with `input` options before `-i` and `filters`, as
    /// raw yuv420p pictures of `width` x `height`, nothing scaled.
    static func ffmpegPlanes(
        _ clip: String, input: [String] = [], output: [String] = [], filters: String? = nil, width: Int, height: Int
    ) throws -> [PlanarPictureBytes] {
        let folder = try TemporaryFolder()
        let raw = folder.path("frames.yuv")
        let result = try TestEnvironment.run(
            "ffmpeg",
            ["-v", "error", "-y"] + input + ["-i", clip] + output + (filters.map { ["-vf", $0] } ?? [])
                + ["-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        guard result.status == 0 else { throw TestFailure("ffmpeg could not decode \(clip): \(result.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let (lumaBytes, chromaBytes) = (width * height, width / 2 * height / 2)
        let frameBytes = lumaBytes + 2 * chromaBytes
        guard bytes.count % frameBytes == 0, !bytes.isEmpty else {
            throw TestFailure("\(clip): \(bytes.count) bytes are not whole \(width)x\(height) frames")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).map { start in
            PlanarPictureBytes(
                luma: Array(bytes[start..<start + lumaBytes]),
                blueChroma: Array(bytes[start + lumaBytes..<start + lumaBytes + chromaBytes]),
                redChroma: Array(bytes[start + lumaBytes + chromaBytes..<start + frameBytes]))
        }
    }

    /// The three planes of one picture; a difference is told as a count of bytes, not as them.
    struct PlanarPictureBytes: Equatable, CustomStringConvertible {
        var luma: [UInt8]
        var blueChroma: [UInt8]
        var redChroma: [UInt8]

        init(luma: [UInt8], blueChroma: [UInt8], redChroma: [UInt8]) {
            (self.luma, self.blueChroma, self.redChroma) = (luma, blueChroma, redChroma)
        }

        init(_ picture: PlanarPicture) {
            (luma, blueChroma, redChroma) = (picture.luma, picture.blueChroma, picture.redChroma)
        }

        var description: String {
            "planes of \(luma.count), \(blueChroma.count) and \(redChroma.count) bytes (luma sum \(luma.reduce(0) { $0 + Int($1) }))"
        }
    }

    @Test func theLastFrameAtItsOwnSizeIsTheDecodedPlanes() throws {
        let planes = try ClipFrameSource(path: Self.portrait).lastFramePlanes(size: .fill(width: 720, height: 1280))
        #expect(planes.width == 720 && planes.height == 1280)
        let reference = try #require(
            try Self.ffmpegPlanes(Self.portrait, input: ["-sseof", "-1"], width: 720, height: 1280).last)
        #expect(PlanarPictureBytes(planes) == reference)
    }

    @Test func theFirstFrameIsTheDecodedPlanesAfterTheEditList() throws {
        let planes = try ClipFrameSource(path: Self.editList).firstFramePlanes(size: .fill(width: 540, height: 960))
        let reference = try #require(
            try Self.ffmpegPlanes(Self.editList, output: ["-frames:v", "1"], width: 540, height: 960).first)
        #expect(PlanarPictureBytes(planes) == reference)
    }

    @Test func aFillThatOnlyCropsCopiesThePlanesItKeeps() throws {
        let planes = try ClipFrameSource(path: Self.portrait).lastFramePlanes(size: .fill(width: 720, height: 1200))
        #expect(planes.width == 720 && planes.height == 1200)
        let reference = try #require(
            try Self.ffmpegPlanes(
                Self.portrait, input: ["-sseof", "-1"], filters: "crop=720:1200:0:40", width: 720, height: 1200
            ).last)
        #expect(PlanarPictureBytes(planes) == reference)
    }

    /// Scaled, turned upright or in other colours, the frame is the RGBA picture converted.
    @Test(arguments: ["scaled", "untagged", "rotated", "full range"])
    func anyOtherFrameIsTheRGBAPictureConverted(kind: String) throws {
        let folder = try TemporaryFolder()
        var clip = Self.portrait
        var (width, height) = (360, 640)
        if kind != "scaled" {
            let colours: [String] =
                switch kind {
                case "untagged":
                    ["-vf", "scale=180:320", "-color_primaries", "2", "-color_trc", "2", "-colorspace", "2"]
                case "rotated": ["-vf", "scale=180:320", "-colorspace", "bt709", "-color_range", "tv"]
                // yuv420p at full range (H.264 and HEVC decode to yuvj420p, VP9 does not).
                default:
                    [
                        "-vf", "scale=180:320:out_range=pc,format=yuv420p", "-colorspace", "bt709", "-color_range",
                        "pc",
                        "-c:v", "libvpx-vp9", "-deadline", "realtime",
                    ]
                }
            clip = folder.path("clip.mp4")
            let made = try TestEnvironment.run(
                "ffmpeg",
                ["-v", "error", "-i", Self.portrait, "-frames:v", "10", "-an"] + colours
                    + (kind == "full range" ? [] : ["-c:v", "libx264", "-pix_fmt", "yuv420p"]) + [clip])
            #expect(made.status == 0, "\(made.stderr)")
            (width, height) = (180, 320)
            if kind == "rotated" {
                // The display matrix of a phone held upright (ffmpeg 5.1 writes it on a stream copy).
                let turned = folder.path("turned.mp4")
                let copied = try TestEnvironment.run(
                    "ffmpeg", ["-v", "error", "-i", clip, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned])
                #expect(copied.status == 0, "\(copied.stderr)")
                clip = turned
                (width, height) = (320, 180)
            }
        }
        let source = try ClipFrameSource(path: clip)
        let size = FrameSize.fill(width: width, height: height)
        let planes = try source.lastFramePlanes(size: size)
        let converted = try VideoClipWriter.yuv420Planes(of: try source.lastFrame(size: size))
        #expect(PlanarPictureBytes(planes) == PlanarPictureBytes(converted))
        #expect(planes.width == width && planes.height == height)
    }
}
