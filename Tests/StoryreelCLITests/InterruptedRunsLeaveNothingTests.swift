import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Ctrl-C (SIGINT) or SIGTERM in the middle of `thumbnail` or `render` leaves no temporary file
/// and no folder the run made that is still empty, and the process still dies of the signal.
/// (The old code handled no signal: `thumbnail --out-dir` left the folders it had made, and
/// `render` its temporary files, until the next render swept them.)
@Suite struct InterruptedRunsLeaveNothingTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// Every path under `root` whose name has storyreel's temporary shape.
    func temporaries(under root: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return names.filter { TemporaryFile.isTemporaryName(($0 as NSString).lastPathComponent) }
    }

    /// Interrupts `arguments` with `signal` once `ready` holds; expects it to die of the signal.
    func interrupt(_ arguments: [String], with signal: Int32, once ready: () -> Bool) throws {
        // Patient: a loaded machine (the other suites run alongside) can take a minute to get there.
        let status = try TestEnvironment.interrupt(arguments, with: signal, patience: 300, once: ready)
        #expect(status & 0x7f == signal, "it dies of the signal: status \(status)")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func interruptedThumbnailLeavesNoFolderItMade(signal: Int32) throws {
        let clip = TestEnvironment.sample("iphone-hevc-hdr.mov")
        let posters = folder.path("new/posters")
        // Several large HDR posters one at a time: seconds of work once the folder is made.
        try interrupt(
            ["thumbnail", clip, clip, clip, clip, "--out-dir", posters, "--height", "4000", "--jobs", "1"],
            with: signal
        ) { FileManager.default.fileExists(atPath: posters) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no folder left")
    }

    /// From a QA pass of interrupts: a poster's line is journaled before the poster takes its
    /// name, and an interrupt between the two left the folders the run had made, holding only a
    /// journal naming a poster that was not there (13 of 100 SIGTERMs in the first 80 ms). The
    /// run is interrupted as soon as its journal appears: the folders go unless a poster is in.
    @Test(arguments: [SIGINT, SIGTERM])
    func aThumbnailInterruptedAsItJournalsLeavesNoFolderItMadeWithoutAPoster(signal: Int32) throws {
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        for attempt in 1...3 {
            let made = folder.path("new\(attempt)")
            let posters = "\(made)/posters"
            try interrupt(["thumbnail", clip, clip, "--out-dir", posters, "--jobs", "1"], with: signal) {
                FileManager.default.fileExists(atPath: "\(posters)/.storyreel-posters-journal")
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: posters)) ?? []
            if names.contains(where: { !$0.hasPrefix(".") }) { continue }  // a poster went in first
            #expect(!FileManager.default.fileExists(atPath: made), "attempt \(attempt): left \(names)")
        }
    }

    /// From the QA pass: an interrupted `cube --frames-dir` replaced an earlier run's frames one
    /// by one, and its cleanup then removed the ones it had written: the earlier run lost frames
    /// (52 of 60 left). The frames are now staged and take their names only at the end.
    @Test(arguments: [SIGTERM, SIGHUP])
    func anInterruptedCubeLeavesTheEarlierRunsFrames(signal: Int32) throws {
        let frames = folder.path("frames")
        let (from, to) = (
            TestEnvironment.sample("stories/ben_k/1.mp4"), TestEnvironment.sample("stories/chloe/morning.mp4")
        )
        let settings = ["--size", "540x960", "--duration", "2", "--frames-dir", frames]
        let first = try TestEnvironment.storyreel(["cube", from, to] + settings)
        #expect(first.status == 0, "\(first.stderr)")
        let before = FolderSnapshot(frames)
        let firstFrame = FileStamp(path: "\(frames)/frame_0000.png")
        try interrupt(["cube", to, from] + settings, with: signal) {
            // Ready once several frames are written (staged), or one has replaced the earlier
            // run's (as the old code did).
            temporaries(under: frames).count >= 3 || FileStamp(path: "\(frames)/frame_0000.png") != firstFrame
        }
        #expect(FolderSnapshot(frames) == before, "the earlier run's frames, all of them, as they were")
    }

    /// From the re-check QA pass: an interrupt while the staged frames were renamed into place
    /// removed those already renamed, and the earlier run's frames of the same names with them.
    /// Interrupts are now held off until the frames are in place and recorded: the folder holds
    /// one whole run's frames, all of them recorded, and a later run into it is not refused.
    @Test func anInterruptWhileFramesTakeTheirNamesKeepsOneWholeRun() throws {
        let frames = folder.path("frames")
        let from = TestEnvironment.sample("stories/ben_k/1.mp4")
        let to = TestEnvironment.sample("stories/chloe/morning.mp4")
        // 1000 small frames: renaming them takes long enough to interrupt.
        let settings = ["--size", "64x64", "--fps", "200", "--duration", "5", "--frames-dir"]
        #expect(try TestEnvironment.storyreel(["cube", from, to] + settings + [frames]).status == 0)
        let earlier = FolderSnapshot(frames)
        let reference = folder.path("reference")
        #expect(try TestEnvironment.storyreel(["cube", to, from] + settings + [reference]).status == 0)
        let later = FolderSnapshot(reference)
        let firstFrame = FileStamp(path: "\(frames)/frame_0000.png")
        let status = try TestEnvironment.interrupt(
            ["cube", to, from] + settings + [frames], with: SIGTERM, patience: 300
        ) {
            FileStamp(path: "\(frames)/frame_0000.png") != firstFrame
        }
        // Held off until the run's outputs are kept, the signal then ends it; or the run, done,
        // exits first (0).
        #expect(status & 0x7f == SIGTERM || status == 0, "status \(status)")
        let after = FolderSnapshot(frames)
        #expect(after == earlier || after == later, "one whole run's frames, each as that run wrote it")
        #expect(temporaries(under: frames).isEmpty)
        let again = try TestEnvironment.storyreel(["cube", from, to] + settings + [frames])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func interruptedRenderLeavesNoTemporaryFile() throws {
        let out = folder.path("reel")
        try interrupt(
            ["render", TestEnvironment.sample("stories"), "-o", out, "--size", "1080x1920", "--jobs", "1"],
            with: SIGINT
        ) { !temporaries(under: out).isEmpty }
        #expect(temporaries(under: out).isEmpty)
        // The output folders it made that are still empty go too (a QA pass found them left).
        for name in ["clips", "posters", "thumbs", "stills", "avatars", "transitions"] {
            let contents = try? FileManager.default.contentsOfDirectory(atPath: "\(out)/\(name)")
            #expect(contents.map { !$0.isEmpty } ?? true, "\(name) is gone or holds what was made")
        }
    }

    /// The files in `out`'s output folders, as bundle-relative paths (not temporary files).
    func outputs(in out: String) -> Set<String> {
        let folders = ["clips", "posters", "thumbs", "stills", "avatars", "transitions"]
        return Set(
            folders.flatMap { name in
                ((try? FileManager.default.contentsOfDirectory(atPath: "\(out)/\(name)")) ?? [])
                    .filter { !TemporaryFile.isTemporaryName($0) }.map { "\(name)/\($0)" }
            })
    }

    /// From a QA pass: an interrupted render's finished outputs were in no ledger (it is saved
    /// at the end), so no later `--prune` removed them: stale files shipped with the bundle. An
    /// interrupt now records them first.
    @Test func anInterruptedRunsOutputsAreRecordedSoPruneRemovesThem() throws {
        let out = folder.path("reel")
        let stories = TestEnvironment.sample("stories")
        let first = try TestEnvironment.storyreel(["render", stories, "-o", out, "--size", "90x160", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let kept = outputs(in: out)
        // Once a poster at the new size is in place: a clip's images are whole files when named.
        func newPosters() -> Int { outputs(in: out).subtracting(kept).filter { $0.hasPrefix("posters/") }.count }
        try interrupt(["render", stories, "-o", out, "--size", "1080x1920", "--jobs", "1"], with: SIGTERM) {
            newPosters() >= 1
        }
        #expect(newPosters() >= 1, "the interrupted run finished some outputs")
        let pruned = try TestEnvironment.storyreel(["render", stories, "-o", out, "--prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(outputs(in: out) == kept, "\(outputs(in: out).subtracting(kept).sorted())")
    }

    /// From the QA pass: the old render saved changed settings before it rendered anything, so
    /// an interrupted run (a mistyped flag, then Ctrl-C) changed the bundle's settings for good,
    /// with no note ever printed. They are saved once the units ran.
    @Test func anInterruptedRunLeavesTheBundlesSettingsAsTheyWere() throws {
        let out = folder.path("reel")
        let stories = TestEnvironment.sample("stories")
        let first = try TestEnvironment.storyreel(["render", stories, "-o", out, "--size", "90x160", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        let settings = "\(out)/.storyreel/settings.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: settings))
        try interrupt(
            ["render", stories, "-o", out, "--size", "1080x1920", "--crf", "30", "--jobs", "1"], with: SIGINT
        ) { !temporaries(under: out).isEmpty }
        #expect(try Data(contentsOf: URL(fileURLWithPath: settings)) == before)
        let again = try TestEnvironment.storyreel(["render", stories, "-o", out, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("settings changed"), "\(again.stderr)")
    }

    /// From a QA pass: `cube -o` and `thumbnail -o` killed with SIGKILL each left their
    /// temporary file beside the output (an empty clip, a whole poster), and no later run removed
    /// them: they piled up. The next run for the same output removes the ones storyreel marked
    /// that no live run holds and nothing wrote in the last ten minutes; a user's file of that
    /// shape, unmarked, another output's, and a recent one stay.
    @Test func aLaterRunForTheSameOutputRemovesWhatKilledRunsLeft() throws {
        let clip = HostileFiles.goodClip
        // Each an hour old: a sweep that holds no lock leaves a file written in the last ten
        // minutes, which may be a live run's, finished and waiting for its name.
        func leftBehind(_ name: String, marked: Bool = true, age: Double = 3600) throws -> String {
            let path = try folder.write(name, Data("left by a killed run".utf8))
            if marked { try TestEnvironment.markAsStoryreels(path) }
            try FileManager.default.setAttributes([.modificationDate: Date() - age], ofItemAtPath: path)
            return path
        }
        let suffix = TemporaryFile.suffix
        let stale = [
            try leftBehind(".turn.mp4.Ab12Cd\(suffix)"), try leftBehind(".turn.mp4.Ef34Gh\(suffix)"),
            try leftBehind(".poster.jpg.Ij56Kl\(suffix)"),
        ]
        let kept = [
            try leftBehind(".turn.mp4.Us3rFl\(suffix)", marked: false), try leftBehind(".other.mp4.Mn78Op\(suffix)"),
            try leftBehind(".turn.mp4.Fr35h0\(suffix)", age: 5),
        ]
        let cube = try TestEnvironment.storyreel(
            ["cube", clip, HostileFiles.otherClip, "-o", folder.path("turn.mp4"), "--size", "64x64"])
        #expect(cube.status == 0, "\(cube.stderr)")
        let poster = try TestEnvironment.storyreel(["thumbnail", clip, "-o", folder.path("poster.jpg")])
        #expect(poster.status == 0, "\(poster.stderr)")
        for path in stale { #expect(!FileManager.default.fileExists(atPath: path), "\(path) stayed") }
        for path in kept { #expect(FileManager.default.fileExists(atPath: path), "\(path) was removed") }
    }
}
