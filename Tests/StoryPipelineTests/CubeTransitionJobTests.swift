import CubeRender
import Foundation
import StoryMedia
import StoryPipeline
import StoryreelTestSupport
import Testing

/// The cube job's parameters, its filmstrip layout, and a failed run leaving nothing behind.
@Suite struct CubeTransitionJobTests {
    init() { FFmpegLog.silence() }  // x264's statistics would fill the test log

    @Test func facesAreStillsOrClipsByExtension() {
        #expect(CubeFaceSource(path: "a/IMG_0001.MOV") == .clip("a/IMG_0001.MOV"))
        #expect(CubeFaceSource(path: "face.JPG") == .still("face.JPG"))
        #expect(CubeFaceSource(path: "noextension") == .clip("noextension"))
    }

    @Test func frameCountRoundsDurationTimesFps() {
        var parameters = CubeTransitionJob.Parameters()
        #expect(CubeTransitionJob(from: "a.mov", to: "b.mov", parameters: parameters).frameCount == 15)
        parameters.duration = 0.25
        parameters.fps = 30
        #expect(CubeTransitionJob(from: "a.mov", to: "b.mov", parameters: parameters).frameCount == 8)
    }

    @Test func validationNamesTheBadParameter() throws {
        func check(_ change: (inout CubeTransitionJob.Parameters) -> Void) -> String? {
            var parameters = CubeTransitionJob.Parameters()
            change(&parameters)
            do {
                try CubeTransitionJob(from: "a.mov", to: "b.mov", parameters: parameters).validate()
                return nil
            } catch {
                return (error as? CubeRenderError)?.message ?? "\(error)"
            }
        }
        #expect(check { _ in } == nil)
        #expect(check { $0.width = 270 } != nil, "a width without a height")
        #expect(
            check {
                $0.width = 271
                $0.height = 480
            }?.contains("even") == true)
        #expect(check { $0.duration = 0.01 }?.contains("no frames") == true)
        #expect(check { $0.crf = 52 }?.contains("crf") == true)
        #expect(check { $0.threads = 0 } != nil)
    }

    @Test func filmstripShowsFiveEvenlySpacedFrames() throws {
        #expect(Filmstrip.frameIndices(frameCount: 15) == [0, 4, 7, 11, 14])
        #expect(Filmstrip.frameIndices(frameCount: 5) == [0, 1, 2, 3, 4])
        #expect(Filmstrip.frameIndices(frameCount: 1) == [0, 0, 0, 0, 0])
        let strip = try Filmstrip(frameCount: 3, frameWidth: 270, frameHeight: 486)
        #expect(strip.tileWidth == 133 && strip.width == 665 && strip.height == 240)
    }

    @Test func filmstripTilesAreTheFramesScaledDown() throws {
        let strip = try Filmstrip(frameCount: 5, frameWidth: 480, frameHeight: 480)
        for index in 0..<5 {
            let shade = UInt8(index * 60)
            let frame = [UInt8](repeating: shade, count: 480 * 480 * 4)
            try frame.withUnsafeBufferPointer { try strip.offer(frame: index, rgba: $0) }
        }
        let image = strip.image
        for tile in 0..<5 {
            let centre = (120 * image.width + tile * 240 + 120) * 4
            #expect(image.pixels[centre] == UInt8(tile * 60))
        }
    }

    @Test func failedRunLeavesNothingBehind() throws {
        let folder = try TemporaryFolder()
        let still = folder.path("face.png")
        let made = try TestEnvironment.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1", still])
        #expect(made.status == 0)
        var parameters = CubeTransitionJob.Parameters()
        parameters.duration = 0.2
        let job = CubeTransitionJob(from: still, to: still, parameters: parameters)
        let outputs = CubeTransitionJob.Outputs(
            videoPath: folder.path("cube.mp4"), framesDirectory: folder.path("a/b/frames"),
            filmstripPath: folder.path("missing/strip.png"))
        #expect { try job.run(writing: outputs) } throws: { ($0 as? MediaError)?.kind == .cannotCreateOutput }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["face.png"])
        let summary = try job.run(writing: CubeTransitionJob.Outputs(framesDirectory: folder.path("frames")))
        #expect(summary.width == 64 && summary.height == 64 && summary.frameCount == 6)
        #expect(summary.outputs.count == 6)
    }
}
