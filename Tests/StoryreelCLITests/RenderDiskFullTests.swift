import Foundation
import StoryreelTestSupport
import Testing

/// A render that runs out of space (simulated with a file-size limit, so writes fail as on a
/// full disk) exits 73/74 with one error line, leaves no temporary file and no manifest that
/// points at missing files, and the next render finishes the job.
@Suite struct RenderDiskFullTests {
    @Test(arguments: ["1", "2"]) func aFullDiskGives74AndLeavesNothingBehind(jobs: String) throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let limited = try TestEnvironment.run(
            "/bin/bash",
            [
                "-c", "trap '' XFSZ; ulimit -f 100; exec \"$0\" \"$@\"", TestEnvironment.storyreelBinary, "render",
                fixture.stories, "-o", out, "--size", BundleFixture.canvasArgument, "--jobs", jobs,
            ])
        #expect([73, 74].contains(limited.status), "\(limited.status): \(limited.stderr)")
        let errors = limited.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: \(out)/") }
        #expect(errors.count == 1, "\(limited.stderr)")
        let left = FolderSnapshot(out).paths
        #expect(left.filter { $0.hasSuffix(".storyreel-tmp") }.isEmpty, "no temporary file: \(left)")
        #expect(!left.contains("manifest.json"), "no manifest over a half-made bundle")
        for relative in fixture.outputs("reel") {
            let probe = try TestEnvironment.run("ffprobe", ["-v", "error", fixture.folder.path("reel/\(relative)")])
            #expect(probe.status == 0 && probe.stderr.isEmpty, "\(relative) is whole")
        }

        let (result, _) = try fixture.render(into: "reel", ["--jobs", jobs])
        #expect(result.status == 0, "\(result.stderr)")
        let validate = try TestEnvironment.storyreel(["validate", "\(out)/manifest.json"])
        #expect(validate.status == 0, "\(validate.stderr)")
    }

    /// From QA passes: a ledger that is not a regular file (here a folder at its name) failed
    /// the run when it was saved, after all its work; the failed save then removed what the run
    /// had recorded since the last save, the outputs it had adopted from the earlier run too, and
    /// the manifest left in place pointed at 49 missing files. It is now refused before any work,
    /// as the settings file is, and the bundle stays as it was. (What a failed save removes and
    /// keeps: `LedgerSaveFailureTests`.)
    @Test func aLedgerThatIsNotARegularFileIsRefusedBeforeAnyWork() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let (first, _) = try fixture.render(into: "reel", ["--crf", "20"])
        #expect(first.status == 0, "\(first.stderr)")
        let ledger = "\(out)/.storyreel/ledger.json"
        try FileManager.default.removeItem(atPath: ledger)
        try FileManager.default.createDirectory(atPath: ledger, withIntermediateDirectories: false)
        let before = FolderSnapshot(out)
        let (failed, _) = try fixture.render(into: "reel", ["--crf", "30"])
        #expect(failed.status == 73, "\(failed.status): \(failed.stderr)")
        #expect(
            failed.stderr
                == "storyreel: error: \(ledger): is not a regular file: storyreel keeps its ledger (what it wrote) there; "
                + "move it away\n")
        #expect(FolderSnapshot(out) == before, "nothing made, removed or changed")
        let validate = try TestEnvironment.storyreel(["validate", out])
        #expect(validate.status == 0, "\(validate.stderr)")
    }
}
