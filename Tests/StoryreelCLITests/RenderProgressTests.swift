import Foundation
import StoryPipeline
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// Off a terminal, `render` prints a progress line every 5 s or every tenth of the work, so a
/// CI log is not empty until the end; `--quiet` silences it; transitions are named by the two
/// stories they join.
@Suite struct RenderProgressTests {
    @Test func offATerminalRenderPrintsAProgressLineAtEachTenth() throws {
        let fixture = try BundleFixture()
        let result = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--size", BundleFixture.canvasArgument,
            "--jobs", "1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: progress: ") }
        // A line as the units start (a QA pass: a CI log stayed empty while the transitions ran).
        #expect(lines.first == "storyreel: progress: 0/52 (0%), started", "\(result.stderr)")
        lines.removeFirst()
        // 52 units, one at a time: the first unit, then each tenth (10% … 100%).
        #expect(lines.count >= 10 && lines.count <= 12, "\(result.stderr)")
        let pattern = #/storyreel: progress: (\d+)/(\d+) \((\d+)%\), \d+\.\d units/s, ETA \d+ s, last: .+/#
        var previous = 0
        for line in lines {
            let match = try #require(try pattern.wholeMatch(in: String(line)), "\(line)")
            let (done, total) = (Int(match.1)!, Int(match.2)!)
            #expect(done > previous && done <= total)
            #expect(Int(match.3)! == done * 100 / total)
            previous = done
        }
        #expect(lines.last?.hasPrefix("storyreel: progress: 52/52 (100%)") == true, "\(lines)")
        #expect(
            lines.allSatisfy { !$0.contains("last: transition ") || $0.contains(" → ") },
            "a transition is named FROM → TO")
        #expect(result.stderr.hasSuffix("manifest: \(fixture.folder.path("reel"))/manifest.json\n"))
    }

    /// From a QA pass: in a 40-column terminal the 80-character bar wrapped, and each redraw
    /// left the wrapped half on screen. It now fits the terminal, cutting what finished first.
    @Test func theBarFitsTheTerminal() {
        let progress = RenderProgress(
            done: 26, total: 52, current: "transition " + String(repeating: "a", count: 50) + " → ben_k")
        let wide = ProgressBar.barText(progress, elapsed: 2, columns: 200)
        #expect(wide.hasPrefix("[============            ] 26/52 13.0/s ETA 2s …"))
        #expect(wide.hasSuffix("a → ben_k") && wide.count == 27 + 19 + 1 + 40, "\(wide)")
        for columns in [20, 40, 60, 80] {
            let line = ProgressBar.barText(progress, elapsed: 2, columns: columns)
            #expect(line.count <= columns - 1, "\(columns): \(line)")
            #expect(line.contains("26/52"), "\(columns): \(line)")
        }
        #expect(ProgressBar.barText(progress, elapsed: 2, columns: 60).hasSuffix(" → ben_k"))
        #expect(ProgressBar.barText(progress, elapsed: 2, columns: 40) == "26/52 13.0/s ETA 2s")
        // The ETA follows the work done, not the units: 3 transitions of 52 units, 90% of it.
        let weighed = RenderProgress(done: 3, total: 52, current: "transition a → b", workDone: 0.9)
        #expect(ProgressBar.barText(weighed, elapsed: 9, columns: 40) == "3/52 0.3/s ETA 1s")
        // Wide characters take two columns each (a QA pass: a Japanese name overflowed 80 columns).
        let japanese = RenderProgress(done: 1, total: 2, current: "clip u/" + String(repeating: "日本語", count: 10))
        let line = ProgressBar.barText(japanese, elapsed: 1, columns: 80)
        #expect(ProgressBar.columns(of: line) <= 79, "\(line)")
        #expect(line.hasSuffix("日本語") && line.contains("…"))
        #expect(ProgressBar.columns(of: "a日é\u{301}") == 4)
    }

    @Test func quietSilencesTheProgress() throws {
        let fixture = try BundleFixture()
        let result = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--size", BundleFixture.canvasArgument,
            "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func theThrottleReportsEveryFiveSecondsOrEachTenthOffATerminal() {
        var log = ProgressThrottle(interactive: false)
        let steps: [(done: Int, now: Double, due: Bool)] = [
            (1, 0.1, false),  // not the first unit: a rate and an ETA from one unit mislead
            (2, 1, false), (3, 5.2, true),  // 5 s in
            (99, 6, false), (100, 6.5, true),  // a tenth
            (150, 7, false), (1000, 7.1, true),  // the end
        ]
        for step in steps {
            let due = log.isDue(done: step.done, total: 1000, now: step.now)
            #expect(due == step.due, "\(step)")
        }
        var bar = ProgressThrottle(interactive: true)
        let first = bar.isDue(done: 1, total: 10, now: 0)
        let soon = bar.isDue(done: 2, total: 10, now: 0.05)
        let later = bar.isDue(done: 3, total: 10, now: 0.2)
        #expect(first && !soon && later, "a terminal bar is redrawn at most 10 times a second")
    }

    @Test func planNamesATransitionByTheStoriesItJoins() throws {
        let result = try TestEnvironment.storyreel([
            "plan", TestEnvironment.sample("stories"), "--both-directions",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let transitions = result.stdout.split(separator: "\n").filter { $0.hasPrefix("transition\t") }
            .map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        #expect(
            Set(transitions) == [
                "ana.lima → ben_k", "ben_k → chloe", "chloe → dev-ops", "ben_k → ana.lima", "chloe → ben_k",
                "dev-ops → chloe",
            ], "\(transitions)")
        let json = try TestEnvironment.storyreel([
            "plan", TestEnvironment.sample("stories"), "--json",
        ])
        let plan = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let first = (plan?["units"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "transition" }
        #expect(first?["from"] is String && first?["to"] is String, "\(String(describing: first))")
    }
}
