import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// `cube --frames-dir DIR` replaces the frames it wrote in an earlier run (no stale frames of a
/// longer transition stay), refuses a folder holding frames it did not write, and prints the
/// folder's pattern without `//`.
@Suite struct CubeFramesFolderTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let from = TestEnvironment.sample("stories/ana.lima/avatar.jpg")
    static let to = TestEnvironment.sample("stories/ben_k/avatar.jpg")

    func cube(_ frames: String, duration: String) throws -> ProcessResult {
        try TestEnvironment.storyreel([
            "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, "--duration", duration,
        ])
    }

    /// Expects `result` refused (73) with the one line `frames: reason`.
    func expectRefused(_ result: ProcessResult, _ frames: String, _ reason: String) {
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr == "storyreel: error: \(frames): \(reason)\n")
    }

    func frameNames(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix("frame_") }.sorted()
    }

    /// From a scale QA pass: each PNG frame's memory stayed with the process (6.3 GB for 1000
    /// frames at 1080x1920; here 85 MB at 20 frames of 540x960, 184 MB at 80). Memory no longer
    /// grows with the frame count.
    @Test func memoryDoesNotGrowWithTheFrameCount() throws {
        let from = TestEnvironment.sample("stories/ana.lima/IMG_0001.MOV")
        let to = TestEnvironment.sample("stories/ben_k/1.mp4")
        var peaks: [Int] = []
        for fps in ["20", "80"] {
            let frames = folder.path("frames-\(fps)")
            let outcome = try LimitedRun.storyreel(
                ["cube", from, to, "--size", "540x960", "--frames-dir", frames, "--fps", fps, "--duration", "1"],
                seconds: 120, measuresMemory: true)
            #expect(outcome.result.status == 0, "\(outcome.result.stderr)")
            #expect(try frameNames(frames).count == Int(fps))
            peaks.append(try #require(outcome.peakKiB))
        }
        #expect(peaks[1] - peaks[0] < 40 << 10, "peak KiB at 20 and 80 frames: \(peaks)")
    }

    @Test func aShorterRunRemovesTheEarlierRunsExtraFrames() throws {
        let frames = folder.path("frames")
        let long = try cube(frames + "/", duration: "0.5")
        #expect(long.status == 0, "\(long.stderr)")
        #expect(try frameNames(frames).count == 15)
        #expect(long.stderr.contains("\(frames)/frame_*.png"), "\(long.stderr)")
        #expect(!long.stderr.contains("//"), "\(long.stderr)")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(frames)/notes.txt"))
        let short = try cube(frames, duration: "0.2")
        #expect(short.status == 0, "\(short.stderr)")
        #expect(try frameNames(frames) == (0..<6).map { String(format: "frame_%04d.png", $0) })
        #expect(FileManager.default.fileExists(atPath: "\(frames)/notes.txt"), "other files are left alone")
    }

    /// Two runs into one --frames-dir take turns (a `flock` on the folder), so neither replaces
    /// or removes the other's frames mid-run: while another process holds the folder, a run says
    /// once who holds it (it waited in silence, a QA pass found), waits up to `--timeout`, then
    /// gives up with 75 and writes nothing.
    @Test func framesDirIsLockedWhileARunWrites() throws {
        let frames = folder.path("locked")
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        let holder = open(frames, O_RDONLY | O_DIRECTORY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let result = try TestEnvironment.storyreel([
            "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, "--timeout", "0.3",
        ])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: waiting for the lock on \(frames) (held by pid \(getpid()))…\n"
                + "storyreel: error: \(frames): another storyreel run holds the lock; gave up after 0.3 s (--timeout)\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: frames).isEmpty)
    }

    /// The folder is made before the run's checks (it is locked first); a run refused by them
    /// takes the folders it made away again.
    @Test func aRefusedRunLeavesNoFolderBehind() throws {
        let frames = folder.path("new/frames")
        let result = try TestEnvironment.storyreel([
            "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, "-o", Self.from + ".mp4",
            "--filmstrip", frames + "/frame_0000.png",
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("new")))
    }

    /// From the QA pass: a shorter run removed an earlier frame that was its own input, and a
    /// --filmstrip at a frame's or the record's name in a new folder replaced it unnoticed.
    @Test func noInputOrOtherOutputIsAFrameTheRunWritesOrRemoves() throws {
        let frames = folder.path("frames")
        #expect(try cube(frames, duration: "0.5").status == 0)
        let input = "\(frames)/frame_0014.png"
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let stale = try TestEnvironment.storyreel([
            "cube", Self.from, input, "--size", "64x64", "--frames-dir", frames, "--duration", "0.2",
        ])
        #expect(stale.status == 64, "\(stale.stderr)")
        #expect(stale.stderr.contains("earlier frame"), "\(stale.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "the input is kept")
        let new = folder.path("new")
        for strip in ["\(new)/frame_0003.png", "\(frames)/.storyreel-frames"] {
            let folder = strip.hasPrefix(new) ? new : frames
            let result = try TestEnvironment.storyreel([
                "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", folder, "--filmstrip", strip,
            ])
            #expect(result.status == 64, "\(strip): \(result.stderr)")
            #expect(result.stderr.contains("are the same file"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: new), "nothing made")
    }

    /// From the QA pass: a --filmstrip into a missing folder failed only once the frames were
    /// written, over the earlier run's, and the failure then removed them: 15 of 30 were lost.
    /// A QA pass: `--filmstrip DIR/frame_0100.png` was written, and every later run into DIR was
    /// then refused (73) as holding a frame storyreel did not write. A clip or filmstrip named as
    /// a frame in the frames folder is refused before any work, and nothing is left.
    @Test func anOutputNamedAsAFrameInTheFramesFolderIsRefused() throws {
        let frames = folder.path("frames")
        for (option, name) in [("--filmstrip", "frame_0100.png"), ("-o", "frame_x.mp4")] {
            let refused = try TestEnvironment.storyreel([
                "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, option, "\(frames)/\(name)",
            ])
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(
                refused.stderr.hasPrefix(
                    "storyreel: error: \(option) '\(frames)/\(name)': a frame's name (frame_*) in --frames-dir's folder"
                ),
                "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: frames), "nothing is left")
        }
        let beside = try TestEnvironment.storyreel([
            "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, "--filmstrip", "\(frames)/strip.png",
        ])
        #expect(beside.status == 0, "\(beside.stderr)")
        let again = try cube(frames, duration: "0.5")
        #expect(again.status == 0, "a later run takes the folder: \(again.stderr)")
    }

    @Test func aFilmstripThatCannotBeWrittenFailsBeforeAnyFrameIsReplaced() throws {
        let frames = folder.path("frames")
        #expect(try cube(frames, duration: "1").status == 0)
        let before = FolderSnapshot(frames)
        let result = try TestEnvironment.storyreel([
            "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, "--filmstrip",
            folder.path("missing/strip.png"),
        ])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(FolderSnapshot(frames) == before, "the earlier run's 30 frames are as they were")
    }

    @Test func aFolderHoldingFramesStoryreelDidNotWriteIsRefused() throws {
        let frames = folder.path("theirs")
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        let theirs = Data("their frame".utf8)
        try theirs.write(to: URL(fileURLWithPath: "\(frames)/frame_0020.png"))
        expectRefused(
            try cube(frames, duration: "0.5"), frames,
            "holds frame_0020.png, which storyreel did not write; give an empty or new folder to --frames-dir")
        #expect(try frameNames(frames) == ["frame_0020.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_0020.png")) == theirs)
    }

    /// From a QA pass: a frame a person had replaced since the run (an edit, a copied image)
    /// was written over, and one past a shorter run's end removed, with exit 0; the record held
    /// names only. It now holds each frame's size and SHA-256, and a changed frame is refused
    /// (73) before any work, as `thumbnail --out-dir` refuses a changed poster. A record of names
    /// alone (a run stopped as its frames took their names, or an older storyreel) still lets
    /// them be replaced.
    @Test func aFrameChangedSinceTheRunWroteItIsRefused() throws {
        let frames = folder.path("edited")
        #expect(try cube(frames, duration: "0.5").status == 0)
        let record = try String(contentsOfFile: "\(frames)/.storyreel-frames", encoding: .utf8)
        let first = try #require(record.split(separator: "\n").first)
        let size = try #require(FileManager.default.attributesOfItem(atPath: "\(frames)/frame_0000.png")[.size] as? Int)
        #expect(first.hasPrefix("frame_0000.png \(size) ") && first.count == "frame_0000.png \(size) ".count + 64)
        let edit = Data("my edit".utf8)
        try edit.write(to: URL(fileURLWithPath: "\(frames)/frame_0014.png"))
        let edited = try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_0003.png")) + Data([0])
        try edited.write(to: URL(fileURLWithPath: "\(frames)/frame_0003.png"))
        expectRefused(
            try cube(frames, duration: "0.2"), frames,
            "holds frame_0003.png and 1 more, changed since storyreel wrote it; move it away or give another --frames-dir"
        )
        #expect(try frameNames(frames).count == 15)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_0014.png")) == edit)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_0003.png")) == edited)

        let namesOnly = (0..<15).map { String(format: "frame_%04d.png\n", $0) }.joined()
        try Data(namesOnly.utf8).write(to: URL(fileURLWithPath: "\(frames)/.storyreel-frames"))
        let replaced = try cube(frames + "//", duration: "0.2")
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try frameNames(frames).count == 6)
        #expect(replaced.stderr.contains(" -> \(frames)/frame_*.png"), "no // (a QA pass): \(replaced.stderr)")
    }

    /// From a re-check: the changed-frame check was made only as the run started, so a frame
    /// edited while the run rendered was written over. The folder is checked again just before
    /// the frames take their names, and the run fails (73) with nothing replaced.
    @Test func aFrameEditedWhileTheRunRendersIsNotReplaced() throws {
        let frames = folder.path("busy")
        #expect(try cube(frames, duration: "0.2").status == 0)
        let run = Process()
        run.executableURL = URL(fileURLWithPath: TestEnvironment.storyreelBinary)
        run.arguments = [
            "cube", Self.from, Self.to, "--size", "360x640", "--frames-dir", frames, "--duration", "1",
        ]
        run.standardError = FileHandle.nullDevice
        try run.run()
        // The first frame staged under its temporary name: the start's check is behind it, and
        // 29 more frames, about a second of PNG encoding, are ahead.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, run.isRunning,
            !(try FileManager.default.contentsOfDirectory(atPath: frames)).contains(where: { $0.hasPrefix(".frame_") })
        {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let edit = Data("edited mid-run".utf8)
        try edit.write(to: URL(fileURLWithPath: "\(frames)/frame_0003.png"))
        run.waitUntilExit()
        #expect(run.terminationStatus == 73)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_0003.png")) == edit)
        #expect(try frameNames(frames).count == 6, "the earlier run's frames, none replaced or added")
    }

    /// From a QA pass: a person's file at the record's name, `.storyreel-frames`, was written
    /// over with exit 0 (`thumbnail --out-dir` refuses its own record's name). It is refused
    /// (73) before any work and left as it is, as is a folder there; storyreel's own record is read.
    @Test func aFileAtTheRecordsNameThatIsNoRecordIsRefused() throws {
        // Lines that only begin with `frame_`, and only newlines, were taken for a record (a re-check).
        let notRecords = [
            "my notes\n", "frame_0000.png", "frame_0000.png\nnotes.txt\n", "frame_todo list for Monday\n", "\n\n\n",
        ]
        for (index, contents) in notRecords.enumerated() {
            let frames = folder.path("notes-\(index)")
            try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
            let record = "\(frames)/.storyreel-frames"
            try Data(contents.utf8).write(to: URL(fileURLWithPath: record))
            let result = try cube(frames, duration: "0.2")
            #expect(result.status == 73, "\(result.stderr)")
            #expect(
                result.stderr
                    == "storyreel: error: \(record): is not a record of frames storyreel wrote; move it away\n",
                "\(result.stderr)")
            #expect(try String(contentsOfFile: record, encoding: .utf8) == contents)
            #expect(try frameNames(frames).isEmpty)
        }
        let folderThere = folder.path("folder-record")
        try FileManager.default.createDirectory(
            atPath: "\(folderThere)/.storyreel-frames", withIntermediateDirectories: true)
        #expect(try cube(folderThere, duration: "0.2").status == 73)
        // The record a run wrote is read by the next, which replaces its frames.
        let own = folder.path("own")
        #expect(try cube(own, duration: "0.5").status == 0)
        #expect(try cube(own, duration: "0.2").status == 0)
        #expect(try frameNames(own).count == 6)
    }

    /// A frame name holding a symlink (or a folder) is refused before any work, and the earlier
    /// run's frames stay. (The old code replaced frames 0–2, failed at the symlink and removed
    /// them.)
    @Test func aFrameNameHoldingASymlinkIsRefusedBeforeAnyWork() throws {
        let frames = folder.path("frames")
        #expect(try cube(frames, duration: "0.2").status == 0)
        let before = try (0..<6).map { try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_000\($0).png")) }
        try FileManager.default.removeItem(atPath: "\(frames)/frame_0003.png")
        try FileManager.default.createSymbolicLink(atPath: "\(frames)/frame_0003.png", withDestinationPath: "elsewhere")
        let refused = try cube(frames, duration: "0.2")
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("holds frame_0003.png, which is not a regular file"), "\(refused.stderr)")
        for index in [0, 1, 2, 4, 5] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_000\(index).png")) == before[index])
        }
    }

    /// A run interrupted (SIGINT) part-way leaves no frame of its own: they are only good
    /// together, as a failure already removed them. (The old code left the frames written so
    /// far, unrecorded, and the next run into the folder refused them as a stranger's.) The
    /// frames are staged under temporary names until the end: it is interrupted once two are.
    @Test func anInterruptedRunLeavesNoFrames() throws {
        let frames = folder.path("new/frames")
        let status = try TestEnvironment.interrupt(
            [
                "cube", Self.from, Self.to, "--size", "360x640", "--frames-dir", frames, "--duration", "1", "--fps",
                "240",
            ], with: SIGINT
        ) {
            (((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).filter {
                TemporaryFile.isTemporaryName($0)
            }).count >= 2
        }
        #expect(status & 0x7f == SIGINT)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no folder left")
        #expect(try cube(frames, duration: "0.2").status == 0, "the next run is not refused")
    }
}
