import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// Valid clips of extreme shapes, which ffmpeg decodes, play in the bundle. From a QA pass: a
/// 16x1080 clip was skipped, its 180-wide thumbnail (180x12150) being over the side limit, and
/// its poster and stills with it; a 4096x4 clip was skipped, the smart pick's 64 x 64 measuring
/// copy being a stretch libswscale refuses.
@Suite struct ExtremeShapesTests {
    @Test func aVeryThinAndAVeryFlatClipPlay() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        for (user, size) in [("thin", "16x1080"), ("flat", "4096x4"), ("plain", "180x320")] {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(user)", withIntermediateDirectories: true)
            let made = try TestEnvironment.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=0.3", "-c:v",
                    "libx264", "-pix_fmt", "yuv420p", "\(stories)/\(user)/1.mp4",
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let out = folder.path("out")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", out, "--size", "180x320"])
        #expect(render.status == 0, "\(render.stderr)")
        let manifest = try Manifest(jsonData: Data(contentsOf: URL(fileURLWithPath: "\(out)/manifest.json")))
        #expect(manifest.skipped.isEmpty, "\(manifest.skipped)")
        #expect(manifest.stories.map(\.id).sorted() == ["flat", "plain", "thin"])
        let validate = try TestEnvironment.storyreel(["validate", out])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        // The thin clip's thumbnail is as tall as storyreel makes any picture, and narrower.
        let thin = try #require(manifest.stories.first { $0.id == "thin" }?.items.first)
        let thumbnail = try TestEnvironment.ffprobeVideoStream("\(out)/\(thin.thumbnail)")
        #expect(thumbnail["height"] as? Int == 8192, "\(thumbnail)")
    }

    /// From a QA pass: in a clip whose picture size changes part-way (two H.264 streams joined
    /// with `-c copy`), the poster and thumbnail took the size of the frame the smart pick chose
    /// (the later, larger content), where the manifest and `validate` go by the header's first
    /// size: render exited 0 and `validate` refused its bundle (65). They are the header's size now,
    /// a frame of another shape cropped evenly.
    @Test func aClipWhosePictureSizeChangesPartWayGetsImagesOfTheHeadersSize() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/resized", withIntermediateDirectories: true)
        // Black at the header's size for 1 s, then the content at another size (the same shape, then another).
        for (name, first) in [("1.mp4", "90x160"), ("2.mp4", "160x90")] {
            var joined = Data()
            for (index, source) in ["color=c=black:s=\(first):r=30:d=1", "testsrc2=s=180x320:r=30:d=1"].enumerated() {
                let stream = folder.path("\(name)-\(index).h264")
                try HostileFiles.ffmpeg([
                    "-f", "lavfi", "-i", source, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-f",
                    "h264", stream,
                ])
                joined.append(try Data(contentsOf: URL(fileURLWithPath: stream)))
            }
            let raw = try folder.write("\(name).h264", joined)
            try HostileFiles.ffmpeg(["-framerate", "30", "-i", raw, "-c", "copy", "\(stories)/resized/\(name)"])
        }
        let out = folder.path("out")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", out, "--size", "180x320"])
        #expect(render.status == 0, "\(render.stderr)")
        let validate = try TestEnvironment.storyreel(["validate", out])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let manifest = try Manifest(jsonData: Data(contentsOf: URL(fileURLWithPath: "\(out)/manifest.json")))
        let items = try #require(manifest.stories.first?.items)
        func size(_ path: String) throws -> [Int?] {
            let stream = try TestEnvironment.ffprobeVideoStream("\(out)/\(path)")
            return [stream["width"] as? Int, stream["height"] as? Int]
        }
        #expect(items.map { [$0.width, $0.height] } == [[90, 160], [160, 90]], "the headers' sizes")
        #expect(try items.map { try size($0.poster) } == [[90, 160], [160, 90]])
        #expect(try items.map { try size($0.thumbnail) } == [[180, 320], [180, 102]])
    }
}
