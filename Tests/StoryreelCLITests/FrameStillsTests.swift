import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// The first and last frame stills a player shows under a video so nothing flickers: exact,
/// upright, fitted to the canvas as the transitions' faces are, and joining the transitions.
@Suite struct FrameStillsTests {
    func items(_ manifest: Manifest) -> [Manifest.Item] {
        manifest.stories.flatMap(\.items)
    }

    /// The transition frames of `path`, decoded by the ffmpeg CLI.
    func frames(_ path: String) throws -> [[UInt8]] {
        try PixelComparison.ffmpegFrames(path, width: 360, height: 640)
    }

    @Test func stillsAreTheFirstAndLastFramesFilledToTheCanvas() throws {
        let fixture = try BundleFixture()
        // Pictures are compared here, so at twice the fixture's own canvas.
        let (result, _) = try fixture.render(into: "reel", ["--size", "360x640"])
        #expect(result.status == 0, "\(result.stderr)")
        let bundle = fixture.folder.path("reel")
        let manifest = try fixture.manifest("reel")
        #expect(items(manifest).count == 9)
        for item in items(manifest) {
            let first = try #require(item.firstFrame)
            let last = try #require(item.lastFrame)
            #expect(first.hasPrefix("stills/") && first.hasSuffix("-first.jpg"))
            #expect(last.hasPrefix("stills/") && last.hasSuffix("-last.jpg"))
            for still in [first, last] {
                let probe = try TestEnvironment.ffprobeVideoStream("\(bundle)/\(still)")
                #expect([probe["width"] as? Int, probe["height"] as? Int] == [360, 640], "\(still) fills the canvas")
            }
        }
        // The first frame of an SDR clip, as the ffmpeg CLI shows it, filled to the canvas.
        let clip = TestEnvironment.sample("stories/ana.lima/IMG_0001.MOV")
        let sha = try TestEnvironment.run("sha256sum", [clip]).stdout.prefix(64)
        let item = try #require(items(manifest).first { $0.sha256 == String(sha) })
        let still = try PixelComparison.ffmpegImage(
            "\(bundle)/\(try #require(item.firstFrame))", width: 360, height: 640)
        let reference = try FFmpegReference.frame(clip, at: 0, width: 360, height: 640)
        let psnr = PixelComparison.psnr(still, reference)
        #expect(psnr >= 30, "first-frame still vs ffmpeg's first frame: \(psnr) dB")
        let validate = try TestEnvironment.storyreel(["validate", bundle])
        #expect(validate.status == 0, "\(validate.stderr)")
    }

    /// The seam check. Frame 0 of a forward transition (t = 1/(N+1)) must be the outgoing item's
    /// lastFrame still and its last frame the incoming item's firstFrame still: a jump there means
    /// the wrong face or a different fit. The transition is 2 s (N = 60), so frame 0 has turned by
    /// 0.07° and its hinge moved 0.3 px: what differs is the face or its fit, not the motion. The
    /// pictures are compared as 4×4 block means, since the samples' pixel-level automaton noise
    /// is what x264 and JPEG lose first. The other story's still, compared the same way, must
    /// not pass: the check can fail.
    @Test func eachTransitionStartsAtTheOutgoingLastFrameAndEndsAtTheIncomingFirstFrame() throws {
        let fixture = try BundleFixture()
        let (result, _) = try fixture.render(into: "reel", ["--transition-duration", "2", "--size", "360x640"])
        #expect(result.status == 0, "\(result.stderr)")
        let bundle = fixture.folder.path("reel")
        let manifest = try fixture.manifest("reel")
        let stories = manifest.stories
        let transitions = manifest.transitions
        #expect(transitions.count == 3)
        func blocks(_ rgba: [UInt8]) -> [UInt8] { PixelComparison.blockMeans(rgba, width: 360, height: 640, block: 4) }
        for transition in transitions where transition.direction == .forward {
            let from = try #require(stories.first { $0.id == transition.from })
            let to = try #require(stories.first { $0.id == transition.to })
            let outgoing = try #require(from.items.last?.lastFrame)
            let incoming = try #require(to.items.first?.firstFrame)
            let decoded = try frames("\(bundle)/\(transition.src)")
            #expect(decoded.count == 60)
            let start = blocks(try PixelComparison.ffmpegImage("\(bundle)/\(outgoing)", width: 360, height: 640))
            let end = blocks(try PixelComparison.ffmpegImage("\(bundle)/\(incoming)", width: 360, height: 640))
            let first = blocks(try #require(decoded.first))
            let last = blocks(try #require(decoded.last))
            let (startPSNR, endPSNR) = (PixelComparison.psnr(first, start), PixelComparison.psnr(last, end))
            #expect(startPSNR >= 25, "\(transition.from) frame 0 vs its lastFrame still: \(startPSNR) dB")
            #expect(endPSNR >= 25, "\(transition.to) last frame vs its firstFrame still: \(endPSNR) dB")
            #expect(PixelComparison.psnr(first, end) < 15, "a wrong face does not pass")
        }
    }

    @Test func stillsAreIncrementalWorkUnits() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let stills = fixture.outputs("reel").filter { $0.hasPrefix("stills/") }
        #expect(stills.count == 18)
        try FileManager.default.removeItem(atPath: fixture.folder.path("reel/\(stills[0])"))
        let (again, summary) = try fixture.render(into: "reel")
        #expect(again.status == 0)
        #expect(summary["rendered"] as? Int == 1, "only the missing still")
        let plan = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--json", "--size", BundleFixture.canvasArgument,
        ])
        let units = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]
        let kinds = (units?["units"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.filter { $0 == "first-frame" }.count == 9 && kinds.filter { $0 == "last-frame" }.count == 9)
    }
}
