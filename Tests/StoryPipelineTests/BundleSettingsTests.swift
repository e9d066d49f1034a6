import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The bundle settings: the automatic canvas, overrides, what changed, and the saved file.
@Suite struct BundleSettingsTests {
    /// Display sizes, then the automatic canvas they give.
    static let canvasCases: [([(Int, Int)], Int, Int)] = [
        ([(540, 960), (540, 960)], 540, 960),
        ([(540, 960), (720, 1280)], 720, 1280),  // the largest by area
        // Of the shape most items have (a QA pass: one landscape or square upload among
        // portrait stories made the canvas a landscape strip or a square).
        ([(540, 960), (720, 1280), (1080, 1080)], 720, 1280),
        ([(540, 960), (540, 960), (1920, 1080)], 540, 960),
        ([(1920, 1080), (1280, 720), (720, 1280)], 1080, 606),  // mostly landscape
        ([(1080, 1080), (1080, 1080), (720, 1280)], 1080, 1080),  // mostly square
        ([(540, 960), (1920, 1080)], 540, 960),  // a tie: portrait, as stories are
        ([(1080, 1080), (1920, 1080)], 1080, 1080),  // a tie without portrait: square
        ([(1440, 2560)], 1080, 1920),  // fitted within 1080×1920
        ([(2160, 3840), (540, 960)], 1080, 1920),
        ([(1920, 1080)], 1080, 606),  // landscape: 607.5 rounded down to even
        ([(541, 961)], 540, 960),  // odd sides rounded down to even
        // Screen recordings (a QA pass): the side that binds is the box's, not 1918 or 884.
        ([(1170, 2532)], 886, 1920), ([(1284, 2778)], 886, 1920), ([(1125, 2436)], 886, 1920),
        ([(1080, 2340)], 886, 1920), ([(1080, 2400)], 864, 1920), ([(2532, 1170)], 1080, 498),
        ([], 1080, 1920),
        // Of those, the aspect most items have, within 1.5% (a QA pass: one taller upload set
        // the canvas, and every 9:16 clip was cropped to it); a tie goes to the one nearest 9:16.
        ([(1080, 1920), (1080, 1920), (1080, 1920), (1080, 2400)], 1080, 1920),
        ([(1080, 1920), (1080, 1920), (600, 3600)], 1080, 1920),
        ([(540, 960), (1170, 2532)], 540, 960),
        ([(1170, 2532), (1080, 2400), (720, 1280)], 720, 1280),
        ([(1079, 1919), (1080, 1920), (540, 960)], 1080, 1920),
        ([(1080, 2400), (1080, 2400), (1080, 1920)], 864, 1920),
        ([(1920, 1080), (1440, 1080), (1280, 720)], 1080, 606),
        ([(1440, 1080), (1440, 1080), (1920, 1080)], 1080, 810),
    ]

    @Test(arguments: canvasCases)
    func automaticCanvasIsTheLargestItemOfTheCommonestShapeAndAspectFittedWithin1080x1920(
        sizes: [(Int, Int)], width: Int, height: Int
    ) {
        let canvas = BundleSettings().canvasSize(forDisplaySizes: sizes.map { (width: $0.0, height: $0.1) })
        #expect(canvas == (width, height))
    }

    @Test func aFixedCanvasIsKept() {
        var settings = BundleSettings()
        settings.canvas = .fixed(width: 720, height: 1280)
        #expect(settings.canvasSize(forDisplaySizes: [(width: 540, height: 960)]) == (720, 1280))
    }

    @Test func overridesApplyAndChangesAreNamed() {
        var overrides = BundleSettings.Overrides()
        overrides.crf = 20
        overrides.canvas = .fixed(width: 720, height: 1280)
        overrides.peak = .fixed(3_000_000)
        let saved = BundleSettings()
        let changed = saved.applying(overrides)
        #expect(changed.crf == 20 && changed.fps == saved.fps)
        #expect(changed.changes(from: saved) == ["size auto → 720x1280", "crf 23 → 20", "max-bitrate auto → 3000000"])
        #expect(saved.applying(BundleSettings.Overrides()) == saved)
    }

    @Test func settingsRoundTripThroughTheBundleAndBadFilesAreIgnored() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path(".storyreel"), withIntermediateDirectories: true)
        #expect(BundleSettings.saved(in: folder.url.path) == nil)
        var settings = BundleSettings()
        settings.canvas = .fixed(width: 720, height: 1280)
        settings.fps = 24
        settings.transitionDuration = 0.75
        settings.bothDirections = true
        settings.crf = 19
        settings.codec = .hevc
        settings.peak = .fixed(5_000_000)
        try settings.save(in: folder.url.path, over: nil)
        #expect(BundleSettings.saved(in: folder.url.path) == settings)
        for broken in ["{\"crf\": \"99\"}", "{\"colour\": \"red\"}", "not json", "{\"size\": \"3x4\"}"] {
            try Data(broken.utf8).write(to: URL(fileURLWithPath: BundleSettings.file(in: folder.url.path)))
            #expect(BundleSettings.saved(in: folder.url.path) == nil, "\(broken)")
        }
    }
}
