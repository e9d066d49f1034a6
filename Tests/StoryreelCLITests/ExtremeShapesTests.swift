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
}
