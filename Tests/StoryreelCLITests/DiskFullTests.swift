import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Issue 9, item 7: a full disk while writing used to kill `cube` with SIGILL (a semaphore of the
/// encoder thread freed below its initial value). A full disk is simulated without root by a
/// file-size limit (`ulimit -f`, SIGXFSZ ignored): a write past it fails with EFBIG, as one on
/// a full disk fails with ENOSPC. storyreel must exit 74 (or 73) with one line naming the file,
/// and leave nothing behind: no clip, no temporary file, no PNG frames, no filmstrip, no folder
/// it created. "File too large" in the error shows the limit is what failed the run.
@Suite struct DiskFullTests {
    let outputs: TemporaryFolder
    init() throws { outputs = try TemporaryFolder() }

    /// Everything in the output folder, hidden files included, recursively.
    func leftovers() -> [String] {
        (FileManager.default.enumerator(atPath: outputs.url.path)?.allObjects as? [String] ?? []).sorted()
    }

    func expectFullDiskFailure(_ outcome: LimitedRun.Outcome, naming path: String) {
        let result = outcome.result
        #expect(result.status == 74 || result.status == 73, "\(result.status): \(result.stderr)")
        let lines = LimitedRun.errorLines(result.stderr)
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("storyreel: error: \(path): ") == true, "\(lines)")
        #expect(lines.first?.contains("File too large") == true, "the file-size limit caused it: \(lines)")
    }

    @Test func cubeClipStopsAtTheLimitMidStreamAndLeavesNothing() throws {
        // 90 frames: the limit is hit while packets are written on the encoder thread.
        let clip = outputs.path("cube.mp4")
        let outcome = try LimitedRun.storyreel(
            ["cube", HostileFiles.goodClip, HostileFiles.otherClip, "--duration", "3", "-o", clip], fileSizeKiB: 100)
        expectFullDiskFailure(outcome, naming: clip)
        #expect(outcome.result.stderr.contains("cannot write a packet"), "failed on the encoder thread")
        #expect(leftovers().isEmpty, "\(leftovers())")
    }

    @Test func cubeRemovesFramesFilmstripAndTheFolderItMadeWhenTheClipFails() throws {
        // Each 180x320 PNG frame (about 20 KB) fits under the limit, the clip (about 200 KB) does
        // not: frames are on disk when the clip fails, and must all go.
        let clip = outputs.path("cube.mp4")
        let frames = outputs.path("new/frames")
        let outcome = try LimitedRun.storyreel(
            [
                "cube", HostileFiles.goodClip, HostileFiles.otherClip, "--size", "180x320", "--duration", "4", "-o",
                clip, "--frames-dir", frames, "--filmstrip", outputs.path("strip.png"),
            ], fileSizeKiB: 100)
        expectFullDiskFailure(outcome, naming: clip)
        #expect(leftovers().isEmpty, "\(leftovers())")
    }

    /// From a QA pass: the filmstrip took its name before the clip was finished, so a clip that
    /// failed on a full disk took the new filmstrip away with it, and the file it had replaced
    /// (an earlier run's, or with `--force` someone's own) was gone. Every output now takes its
    /// name only once all are written.
    @Test func aFailedCubeLeavesTheFilesAtItsOutputsAsTheyWere() throws {
        let clip = outputs.path("cube.mp4")
        let strip = outputs.path("strip.png")
        for force in [false, true] {
            if force {
                try Data(repeating: 7, count: 5000).write(to: URL(fileURLWithPath: strip))  // someone's own file
            } else {
                let earlier = try TestEnvironment.storyreel([
                    "cube", HostileFiles.goodClip, HostileFiles.otherClip, "--size", "180x320", "--filmstrip", strip,
                ])
                #expect(earlier.status == 0, "\(earlier.stderr)")
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: strip))
            // The filmstrip (about 45 KB) fits under the limit, the 4 s clip (about 140 KB) does not.
            let outcome = try LimitedRun.storyreel(
                [
                    "cube", HostileFiles.otherClip, HostileFiles.goodClip, "--size", "180x320", "--duration", "4", "-o",
                    clip, "--filmstrip", strip,
                ] + (force ? ["--force"] : []), fileSizeKiB: 100)
            expectFullDiskFailure(outcome, naming: clip)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: strip)) == before, "force \(force): the file at strip.png")
            #expect(leftovers() == ["strip.png"], "\(leftovers())")
        }
    }

    @Test func cubeFramesThatDoNotFitLeaveNothing() throws {
        let frames = outputs.path("frames")
        let outcome = try LimitedRun.storyreel(
            [
                "cube", HostileFiles.goodClip, HostileFiles.otherClip, "--frames-dir", frames, "-o",
                outputs.path("c.mp4"),
            ],
            fileSizeKiB: 20)
        expectFullDiskFailure(outcome, naming: frames + "/frame_0000.png")
        #expect(leftovers().isEmpty, "\(leftovers())")
    }

    /// From the last QA pass: when the frames' record was the one write that failed (a 100-frame
    /// run's record is 1.5 KB, each 8x8 frame far less), the failure removed the frames already
    /// renamed into place, and with them the earlier run's. The record is now written first.
    @Test func aRecordThatCannotBeWrittenLeavesTheEarlierFrames() throws {
        let frames = outputs.path("frames")
        let first = try TestEnvironment.storyreel([
            "cube", HostileFiles.otherClip, HostileFiles.goodClip, "--size", "32x32", "--frames-dir", frames,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let before = FolderSnapshot(frames)
        let outcome = try LimitedRun.storyreel(
            [
                "cube", HostileFiles.goodClip, HostileFiles.otherClip, "--size", "8x8", "--fps", "200", "--duration",
                "0.5", "--frames-dir", frames,
            ], fileSizeKiB: 1)
        expectFullDiskFailure(outcome, naming: frames + "/.storyreel-frames")
        #expect(FolderSnapshot(frames) == before)
    }

    /// From the QA pass: a file-size limit left at its default action (CI runners, systemd's
    /// LimitFSIZE) killed render, cube and ingest with SIGXFSZ (153), with no error line and their
    /// temporary files left behind. storyreel ignores the signal itself now.
    @Test func aFileSizeLimitIsAnErrorNotAKill() throws {
        let frames = outputs.path("frames")
        let cube = try LimitedRun.storyreel(
            ["cube", HostileFiles.goodClip, HostileFiles.otherClip, "--frames-dir", frames], fileSizeKiB: 20,
            ignoringFileSizeSignal: false)
        expectFullDiskFailure(cube, naming: frames + "/frame_0000.png")
        let reel = outputs.path("reel")
        let render = try LimitedRun.storyreel(
            ["render", TestEnvironment.sample("stories"), "-o", reel, "--quiet"], fileSizeKiB: 100,
            ignoringFileSizeSignal: false)
        #expect(render.result.status == 74, "\(render.result.status): \(render.result.stderr)")
        #expect(render.result.stderr.contains("File too large"), "\(render.result.stderr)")
        #expect(!leftovers().contains { TemporaryFile.isTemporaryName(($0 as NSString).lastPathComponent) })
    }

    /// From the QA pass: a render that a full disk stopped (74) still saved the settings it was
    /// given, so the next plain render re-keyed the bundle to them. They are saved only by a run
    /// whose outputs were all written.
    @Test func aRenderStoppedByAFullDiskKeepsTheBundlesSettings() throws {
        let reel = outputs.path("reel")
        let stories = TestEnvironment.sample("stories")
        let first = try TestEnvironment.storyreel(["render", stories, "-o", reel, "--size", "90x160", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let settings = reel + "/.storyreel/settings.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: settings))
        let full = try LimitedRun.storyreel(
            ["render", stories, "-o", reel, "--size", "360x640", "--crf", "18", "--quiet"], fileSizeKiB: 30)
        #expect(full.result.status == 74, "\(full.result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: settings)) == before)
        // When only the ledger's last save fails (every output cached, the page removed, the
        // manifest in place), the run is complete: a warning, its settings kept. (The ledger was
        // saved with everything but the page's removal, which the next run sees.)
        let last = try LimitedRun.storyreel(
            ["render", stories, "-o", reel, "--size", "90x160", "--no-player"], fileSizeKiB: 5)
        #expect(last.result.status == 0, "\(last.result.stderr)")
        #expect(last.result.stderr.contains("warning: the ledger could not be saved"), "\(last.result.stderr)")
        let kept = try String(contentsOfFile: settings, encoding: .utf8)
        #expect(kept.contains("\"player\": \"no\""), "\(kept)")
        let next = try TestEnvironment.storyreel(["render", stories, "-o", reel, "--quiet"])
        #expect(next.status == 0 && next.stderr.isEmpty, "\(next.stderr)")
    }

    @Test func aFinishedClipIsNotTouchedByAFailedRewrite() throws {
        let clip = outputs.path("cube.mp4")
        let first = try TestEnvironment.storyreel(
            ["cube", HostileFiles.goodClip, HostileFiles.otherClip, "--size", "180x320", "-o", clip])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: clip))
        let outcome = try LimitedRun.storyreel(
            ["cube", HostileFiles.otherClip, HostileFiles.goodClip, "--duration", "3", "-o", clip], fileSizeKiB: 100)
        expectFullDiskFailure(outcome, naming: clip)
        #expect(try Data(contentsOf: URL(fileURLWithPath: clip)) == before)
        #expect(leftovers() == ["cube.mp4"], "\(leftovers())")
    }

    @Test func thumbnailOnAFullDiskLeavesNothing() throws {
        let poster = outputs.path("poster.png")
        let outcome = try LimitedRun.storyreel(["thumbnail", HostileFiles.goodClip, "-o", poster], fileSizeKiB: 20)
        expectFullDiskFailure(outcome, naming: poster)
        #expect(leftovers().isEmpty, "\(leftovers())")
    }

    /// From a QA pass: `ingest --create --render` whose only clip a full disk stopped went on to
    /// render the stories folder it had made and taken away again: a second line, "no such file
    /// or folder", and 66 (an upload it may not read) in place of 74. Nothing went in, so nothing
    /// is rendered: one line, 74, and with `--json` a null render.
    @Test func ingestCreateRenderWithNothingWrittenDoesNotRender() throws {
        let stories = outputs.path("stories")
        let reel = outputs.path("reel")
        for json in [false, true] {
            let outcome = try LimitedRun.storyreel(
                ["ingest", HostileFiles.goodClip, "--story", "ana", "--into", stories, "--create", "--render", reel]
                    + (json ? ["--json"] : []), fileSizeKiB: 20)
            let result = outcome.result
            #expect(result.status == 74, "\(result.stderr)")
            let lines = LimitedRun.errorLines(result.stderr)
            #expect(
                lines.count == 1 && lines[0].contains("not ingested") && lines[0].contains("File too large"), "\(lines)"
            )
            if json {
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                #expect(object?["render"] is NSNull, "\(result.stdout)")
            }
            #expect(leftovers().isEmpty, "\(leftovers())")
        }
    }
}
