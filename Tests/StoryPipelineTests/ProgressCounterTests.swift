import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The progress report weighs each unit by its cost, so the ETA after the transitions (which
/// run first) is not taken from a rate of expensive units: a QA pass saw "ETA 708 s" 3.6 s
/// before the end of a 1080x1920 HEVC render.
@Suite struct ProgressCounterTests {
    static func plan(_ edit: (inout BundleSettings) -> Void = { _ in }) throws -> BundlePlan {
        var settings = BundleSettings()
        edit(&settings)
        return try BundlePlan.make(
            input: try StoryInput.load(TestEnvironment.sample("stories")), settings: settings, options: RenderOptions(),
            cache: nil)
    }

    @Test func aTransitionWeighsAboutThirtyStillsAndFiveTimesThatInHEVC() throws {
        let units = try Self.plan().units
        let transition = try #require(units.first { $0.kind == .transition })
        let poster = try #require(units.first { $0.kind == .poster })
        let clip = try #require(units.first { $0.kind == .clip })
        #expect(transition.estimatedCost == 30, "15 frames, two stills a frame")
        #expect(poster.estimatedCost == 1)
        #expect(clip.estimatedCost < 1)
        let hevc = try #require(try Self.plan { $0.codec = .hevc }.units.first { $0.kind == .transition })
        #expect(hevc.estimatedCost == 150)
    }

    @Test func theWorkDoneAfterTheTransitionsIsMostOfTheRun() throws {
        let units = try Self.plan().units
        let counter = ProgressCounter(units: units)
        let start = counter.start()
        #expect(start.done == 0 && start.total == units.count && start.workDone == 0)
        // The transitions first, as a render starts them.
        let transitions = units.filter { $0.kind == .transition }
        var report = start
        for unit in transitions { report = counter.finish(unit) }
        #expect(report.done == transitions.count)
        #expect(report.workDone > 0.6, "\(report.workDone): 3 of 52 units, most of the work")
        for unit in units where unit.kind != .transition { report = counter.finish(unit) }
        #expect(report.done == units.count && report.workDone == 1)
        #expect(report.current.hasPrefix(units.last { $0.kind != .transition }.map(\.kind.rawValue) ?? "-"))
    }
}
