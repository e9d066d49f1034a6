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

    /// From a QA pass: a re-render at another `--crf` that a full disk stopped when it saved its
    /// ledger left the transitions it had finished in no ledger, so no `--prune` ever removed
    /// them. A ledger that cannot be saved (here a folder at its name, as a full disk refuses
    /// the file) now has the run remove what it recorded since the last save.
    @Test func outputsALedgerCouldNotRecordAreRemoved() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let (first, _) = try fixture.render(into: "reel", ["--crf", "20"])
        #expect(first.status == 0, "\(first.stderr)")
        let ledger = "\(out)/.storyreel/ledger.json"
        let earlier = try Data(contentsOf: URL(fileURLWithPath: ledger))
        try FileManager.default.removeItem(atPath: ledger)
        try FileManager.default.createDirectory(atPath: ledger, withIntermediateDirectories: false)
        let before = Set(fixture.outputs("reel"))
        let (failed, _) = try fixture.render(into: "reel", ["--crf", "30"])
        #expect([73, 74].contains(failed.status), "\(failed.status): \(failed.stderr)")
        #expect(failed.stderr.contains("ledger.json"), "\(failed.stderr)")
        let strays = Set(fixture.outputs("reel")).subtracting(before)
        #expect(strays.isEmpty, "outputs in no ledger: \(strays.sorted())")
        // The ledger back as it was: a plain render with --prune leaves exactly what plays.
        try FileManager.default.removeItem(atPath: ledger)
        try earlier.write(to: URL(fileURLWithPath: ledger))
        let (pruned, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let manifest = try fixture.manifest("reel")
        let referenced = Set(
            manifest.stories.flatMap { story in
                story.items.flatMap {
                    [$0.src, $0.poster, $0.thumbnail, $0.firstFrame, $0.lastFrame].compactMap { $0 }
                }
                    + [story.user.avatar].compactMap { $0 }
            } + manifest.transitions.map(\.src))
        #expect(Set(fixture.outputs("reel")) == referenced)
    }
}
