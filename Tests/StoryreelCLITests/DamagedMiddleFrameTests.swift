import Foundation
import StoryreelTestSupport
import Testing

/// A clip with one damaged picture in its middle decodes around it, and one whose keyframe table
/// names none of its samples decodes from its start, as the ffmpeg CLI does. From a fuzzing pass: a PNG-in-MOV clip whose third picture zlib could not inflate failed with
/// "cannot decode: Generic error in an external library" (`AVERROR_EXTERNAL`, where other
/// decoders say `AVERROR_INVALIDDATA`, which was skipped): `ingest`, which decodes the first
/// frame, took it (0), and the render it ran skipped it, its poster and stills all failed.
@Suite struct DamagedMiddleFrameTests {
    let folder: TemporaryFolder
    let damaged: String

    /// A 1 s PNG clip at 10 fps with 64 bytes in the middle of its third picture's compressed
    /// data overwritten with 0xFF, which zlib refuses.
    init() throws {
        folder = try TemporaryFolder()
        let clip = folder.path("png.mov")
        try HostileFiles.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=10:d=1", "-c:v", "png", clip])
        let packets = try TestEnvironment.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size", "-of", "csv=p=0", clip])
        let third = try #require(packets.stdout.split(separator: "\n").dropFirst(2).first)
        let fields = third.split(separator: ",").compactMap { Int($0) }
        try #require(fields.count == 2)
        let (size, position) = (fields[0], fields[1])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let middle = position + size / 2
        bytes.replaceSubrange(middle..<(middle + 64), with: Data(repeating: 0xFF, count: 64))
        damaged = try folder.write("upload.mov", bytes)
        let check = try TestEnvironment.run("ffmpeg", ["-v", "error", "-i", damaged, "-f", "null", "-"])
        #expect(check.stderr.contains("Generic error in an external library"), "the damage this test is about")
    }

    @Test func ingestTakesItAndItsRenderPlaysIt() throws {
        let stories = folder.path("stories")
        let bundle = folder.path("reel")
        let ingest = try TestEnvironment.storyreel([
            "ingest", damaged, "--story", "ana", "--into", stories, "--create", "--render", bundle,
            "--size", "180x320", "--json",
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(bundle)/manifest.json"))) as? [String: Any]
        #expect((manifest?["skipped"] as? [Any])?.isEmpty == true, "\(manifest?["skipped"] ?? "")")
        let played = manifest?["stories"] as? [[String: Any]]
        #expect((played?.first?["items"] as? [Any])?.count == 1)
    }

    @Test func aPosterAtTheDamagedPictureTakesTheNextOne() throws {
        let poster = folder.path("at.png")
        let result = try TestEnvironment.storyreel(["thumbnail", damaged, "--at", "0.2", "-o", poster])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = folder.path("next.png")
        try HostileFiles.ffmpeg(["-ss", "0.3", "-i", damaged, "-frames:v", "1", reference])
        let psnr = PixelComparison.psnr(
            try PixelComparison.ffmpegImage(poster, width: 320, height: 240),
            try PixelComparison.ffmpegImage(reference, width: 320, height: 240))
        #expect(psnr > 40, "the frame after the damaged one: \(psnr) dB")
    }

    /// From a fuzzing pass: `black-intro.mp4` with its sync-sample table's first entry (sample 1)
    /// set to 127, past its 90 samples, so FFmpeg marks no keyframe, was refused by `thumbnail`,
    /// `ingest` and `render` with "cannot seek: Operation not permitted", where the ffmpeg CLI
    /// decodes it whole. It decodes from its first sample: the same pictures as the clip intact.
    @Test func aClipWhoseKeyframeTableNamesNoSampleDecodesFromItsStart() throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("black-intro.mp4")))
        let table = try #require(bytes.range(of: Data("stss".utf8))).lowerBound
        bytes.replaceSubrange((table + 12)..<(table + 16), with: [0, 0, 0, 127])
        let clip = try folder.write("stss.mp4", bytes)
        for at in ["1.5", "0"] {
            let damagedPoster = folder.path("damaged-\(at).png")
            let intactPoster = folder.path("intact-\(at).png")
            let result = try TestEnvironment.storyreel(["thumbnail", clip, "--at", at, "-o", damagedPoster])
            #expect(result.status == 0, "\(result.stderr)")
            let intact = try TestEnvironment.storyreel([
                "thumbnail", TestEnvironment.sample("black-intro.mp4"), "--at", at, "-o", intactPoster,
            ])
            #expect(intact.status == 0, "\(intact.stderr)")
            let psnr = PixelComparison.psnr(
                try PixelComparison.ffmpegImage(damagedPoster, width: 180, height: 320),
                try PixelComparison.ffmpegImage(intactPoster, width: 180, height: 320))
            #expect(psnr > 60, "--at \(at): the intact clip's picture, \(psnr) dB")
        }
        let smart = try TestEnvironment.storyreel(["thumbnail", clip, "-o", folder.path("smart.jpg")])
        #expect(smart.status == 0, "\(smart.stderr)")
    }
}
