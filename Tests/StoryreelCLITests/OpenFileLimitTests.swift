import Foundation
import StoryreelTestSupport
import Testing

/// A QA pass at scale: under a low `ulimit -n`, `render` of the samples died of SIGILL (132),
/// libdispatch failing to open its eventfd, or stopped with 73, and a little higher it listed
/// good clips as skipped, "not a readable QuickTime/MP4 file: Too many open files" (65). Running
/// out of open files is the system's limit: storyreel raises a soft limit to the hard one, and
/// under a hard limit below ``DescriptorLimit/minimum`` (64) it stops before any work with one
/// line and 71 (EX_OSERR), blaming no clip. (It used to run until it ran out part-way, where
/// libdispatch and libgcrypt could still stop the process: SIGILL, SIGABRT; a QA pass.)
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

    /// The line every command stops with under a hard limit below the minimum.
    func startRefusal(limit: Int) -> String {
        "storyreel: error: cannot start: too many open files: storyreel needs more than the limit (\(limit), "
            + "`ulimit -n`) allows; raise it to 64 or more"
    }

    /// Under every hard limit from 6 to 63 each command stops before any work with that one line
    /// and writes nothing; at 64 it runs. A render of one job needs 18–20 here, so the runs just
    /// below the minimum are ones that used to stop part-way, or die (a QA pass: `thumbnail
    /// --out-dir` and `inspect --json` of SIGILL at 7–9 on a busy machine, `ingest` of SIGABRT).
    @Test func everyCommandShortOfTheMinimumStopsBeforeAnyWork() throws {
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let commands: [(Int) -> [String]] = [
            { ["render", self.stories, "-o", self.folder.path("bundle-\($0)"), "--jobs", "1", "--size", "180x320"] },
            { ["ingest", clip, "--into", self.folder.path("stories-\($0)"), "--story", "ann", "--create"] },
            { ["thumbnail", clip, "--out-dir", self.folder.path("posters-\($0)")] },
            { _ in ["inspect", clip, "--json"] },
        ]
        for arguments in commands {
            for limit in [6, 9, 20, 63] {
                let outcome = try LimitedRun.storyreel(arguments(limit), openFiles: (soft: limit, hard: limit))
                expectOutOfOpenFiles(outcome, limit: limit)
                #expect(
                    LimitedRun.errorLines(outcome.result.stderr) == [startRefusal(limit: limit)], "\(arguments(limit))")
            }
            let outcome = try LimitedRun.storyreel(arguments(64), openFiles: (soft: 64, hard: 64), seconds: 120)
            #expect(outcome.result.status == 0, "\(arguments(64)): \(outcome.result.stderr)")
        }
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(made == ["bundle-64", "posters-64", "stories-64"], "nothing is made short of the minimum")
    }

    /// A `--jobs` the open-file limit cannot hold is run with the jobs it can (a job holds up to
    /// 8 descriptors, 32 are kept free), not until the files run out part-way.
    @Test func jobsAreKeptWithinTheOpenFileLimit() throws {
        let output = folder.path("bundle")
        let outcome = try LimitedRun.storyreel(
            ["render", stories, "-o", output, "--jobs", "1024", "--size", "180x320", "--quiet", "--json"],
            openFiles: (soft: 64, hard: 64), seconds: 120)
        #expect(outcome.result.status == 0, "\(outcome.result.stderr)")
    }

    /// A re-check: `validate` short of open files listed the manifest's clips as unreadable
    /// (65), blaming the manifest.
    @Test(arguments: [7, 8])
    func validateShortOfOpenFilesBlamesNoManifest(limit: Int) throws {
        let bundle = folder.path("bundle-to-validate")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", bundle, "--size", "90x160"])
        #expect(render.status == 0, "\(render.stderr)")
        let outcome = try LimitedRun.storyreel(["validate", bundle], openFiles: (soft: limit, hard: limit))
        expectOutOfOpenFiles(outcome, limit: limit)
        #expect(LimitedRun.errorLines(outcome.result.stderr) == [startRefusal(limit: limit)])
    }
}
