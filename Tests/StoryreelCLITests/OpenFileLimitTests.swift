import Foundation
import StoryreelTestSupport
import Testing

/// A QA pass at scale: under a low `ulimit -n`, `render` of the samples died of SIGILL (132),
/// libdispatch failing to open its eventfd, or stopped with 73, and a little higher it listed
/// good clips as skipped, "not a readable QuickTime/MP4 file: Too many open files" (65). Running
/// out of open files is the system's limit: storyreel raises a soft limit to the hard one, and
/// under a hard limit that is too low it stops with one line and 71 (EX_OSERR), blaming no clip.
@Suite struct OpenFileLimitTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    var stories: String { TestEnvironment.sample("stories") }

    /// The one error line of `outcome`, which must say the limit was what failed.
    func expectOutOfOpenFiles(_ outcome: LimitedRun.Outcome, limit: Int) {
        let result = outcome.result
        #expect(result.status == 71, "limit \(limit): \(result.status): \(result.stderr)")
        let lines = LimitedRun.errorLines(result.stderr)
        #expect(!lines.isEmpty, "limit \(limit): \(result.stderr)")
        for line in lines {
            #expect(line.contains("too many open files"), "limit \(limit): \(line)")
            #expect(line.contains("(\(limit), `ulimit -n`)"), "limit \(limit): \(line)")
        }
    }

    // libdispatch stops the process (SIGILL, 132) when it cannot open its own descriptors: at a
    // hard limit of 4 or 5, every command died without a word (a QA pass). It is checked first.
    @Test(arguments: [4, 5])
    func aLimitTooLowForLibdispatchIsOneLine(limit: Int) throws {
        for arguments in [
            ["inspect", TestEnvironment.sample("portrait-h264.mp4")],
            ["render", stories, "-o", folder.path("bundle-\(limit)"), "--json"],
        ] {
            let outcome = try LimitedRun.storyreel(arguments, openFiles: (soft: limit, hard: limit))
            expectOutOfOpenFiles(outcome, limit: limit)
            #expect(LimitedRun.errorLines(outcome.result.stderr).count == 1, "\(outcome.result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("bundle-\(limit)")))
    }

    @Test func aLowSoftLimitIsRaisedToTheHardOne() throws {
        let output = folder.path("bundle")
        let outcome = try LimitedRun.storyreel(
            ["render", stories, "-o", output, "--quiet", "--json"], openFiles: (soft: 14, hard: 4096))
        #expect(outcome.result.status == 0, "\(outcome.result.stderr)")
        let summary = try #require(
            JSONSerialization.jsonObject(with: Data(outcome.result.stdout.utf8)) as? [String: Any])
        #expect(summary["skipped"] as? Int == 0, "\(summary)")
        let clips = TestEnvironment.storyClips.count
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("bundle/clips")).count == clips)
    }

    /// Runs `arguments(limit)` under hard open-file limits from `lowest` up, until a run
    /// succeeds, and returns the runs that failed with the limit each had. How many descriptors a
    /// command needs is not fixed: the test runner may leave some open, and FFmpeg's libraries
    /// and libdispatch open theirs as the run goes (ingest needed 9 in CI and 10–12 here), so a
    /// test at fixed limits checks something different on each machine. Every limit below the
    /// first that works is a run short of open files. The tests ask for only a few such runs
    /// (CI's runner may need fewer descriptors than this machine), enough that none passes empty.
    func runsShortOfOpenFiles(
        from lowest: Int, arguments: (Int) -> [String]
    ) throws -> [(limit: Int, outcome: LimitedRun.Outcome)] {
        var failed: [(limit: Int, outcome: LimitedRun.Outcome)] = []
        for limit in lowest...64 {
            let outcome = try LimitedRun.storyreel(
                arguments(limit), openFiles: (soft: limit, hard: limit), seconds: 120)
            if outcome.result.status == 0 { return failed }
            failed.append((limit, outcome))
        }
        Issue.record("no limit up to 64 let \(arguments(64)) finish")
        return failed
    }

    /// Every limit from "cannot list STORIES" to "the last clip's decoder" (one job needs
    /// 18–20 here): the render stops, and no manifest lists a good clip as skipped.
    @Test func renderShortOfOpenFilesStopsWithOneLine() throws {
        let failed = try runsShortOfOpenFiles(from: 6) { limit in
            ["render", stories, "-o", folder.path("bundle-\(limit)"), "--jobs", "1", "--size", "180x320"]
        }
        #expect(failed.count >= 4, "\(failed.map(\.limit))")
        for (limit, outcome) in failed {
            expectOutOfOpenFiles(outcome, limit: limit)
            #expect(LimitedRun.errorLines(outcome.result.stderr).count == 1, "\(outcome.result.stderr)")
            #expect(!outcome.result.stderr.contains(": skipped:"), "\(outcome.result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("bundle-\(limit)/manifest.json")))
            // A run stopped before any output leaves no empty folders behind (a QA pass found six
            // beside the lock file); one stopped after some keeps them for the next run.
            let bundle = folder.path("bundle-\(limit)")
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? []).filter { $0 != ".lock" }
            var holdsOutput = false
            for name in left {
                let inside = (try? FileManager.default.contentsOfDirectory(atPath: "\(bundle)/\(name)")) ?? []
                if inside.contains(where: { $0 != "ledger.json" && $0 != "stat-cache.json" }) { holdsOutput = true }
            }
            #expect(left.isEmpty || holdsOutput, "limit \(limit): \(left) hold nothing")
        }
        #expect(
            failed.contains {
                (try? FileManager.default.contentsOfDirectory(atPath: folder.path("bundle-\($0.limit)"))) == [".lock"]
            })
    }

    /// The upload is not ingested, not rejected: nothing is wrong with it, and a retry with a
    /// higher limit takes it.
    @Test func ingestShortOfOpenFilesSaysNotIngested() throws {
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let storiesFolder = { (limit: Int) in self.folder.path("stories-\(limit)") }
        for limit in 6...64 {
            try FileManager.default.createDirectory(
                atPath: "\(storiesFolder(limit))/ann", withIntermediateDirectories: true)
        }
        let failed = try runsShortOfOpenFiles(from: 6) { limit in
            ["ingest", clip, "--into", storiesFolder(limit), "--story", "ann"]
        }
        #expect(failed.count >= 1, "\(failed.map(\.limit))")
        for (limit, outcome) in failed {
            expectOutOfOpenFiles(outcome, limit: limit)
            let lines = LimitedRun.errorLines(outcome.result.stderr)
            // The lowest limits stop at the ingest lock, before the clip is opened.
            let named = lines.filter {
                $0.hasPrefix("storyreel: error: \(clip): not ingested: ")
                    || $0.hasPrefix("storyreel: error: \(storiesFolder(limit))/.storyreel-ingest.lock: ")
            }
            #expect(lines == named, "\(lines)")
            #expect(!outcome.result.stderr.contains("\(clip): not ingested: \(clip)"), "the clip is named once")
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(storiesFolder(limit))/ann").isEmpty)
            let retried = try TestEnvironment.storyreel([
                "ingest", clip, "--into", storiesFolder(limit), "--story", "ann",
            ])
            #expect(retried.status == 0, "\(retried.stderr)")
        }
    }

    /// A re-check: `validate` short of open files listed the manifest's clips as unreadable
    /// (65), blaming the manifest.
    @Test(arguments: [7, 8])
    func validateShortOfOpenFilesBlamesNoManifest(limit: Int) throws {
        let bundle = folder.path("bundle-to-validate")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", bundle, "--size", "90x160"])
        #expect(render.status == 0, "\(render.stderr)")
        let outcome = try LimitedRun.storyreel(["validate", bundle], openFiles: (soft: limit, hard: limit))
        #expect(outcome.result.status == 71 || outcome.result.status == 0, "\(outcome.result.stderr)")
        #expect(outcome.result.status == 0 || LimitedRun.errorLines(outcome.result.stderr).count == 1)
        #expect(!outcome.result.stderr.contains("cannot be read"), "\(outcome.result.stderr)")
    }

    /// From "cannot open --out-dir" to "cannot open the clip" (one job needs 8–9 here).
    @Test func thumbnailShortOfOpenFilesBlamesNoClip() throws {
        let clips = TestEnvironment.sampleClips.map(\.path)
        let failed = try runsShortOfOpenFiles(from: 6) { limit in
            ["thumbnail"] + clips + ["--out-dir", folder.path("posters-\(limit)"), "--jobs", "1"]
        }
        #expect(failed.count >= 1, "\(failed.map(\.limit))")
        for (limit, outcome) in failed {
            expectOutOfOpenFiles(outcome, limit: limit)
            #expect(!outcome.result.stderr.contains("not a readable"), "\(outcome.result.stderr)")
        }
    }
}
