import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// `ingest` leaves nothing of its own behind in a story folder: not its temporary copy when it
/// is interrupted, not an interrupted run's stale temporaries once it runs again, not an empty
/// story folder when no clip went in.
@Suite struct IngestLeavesNothingBehindTests {
    /// A valid clip of about 100 MB (a sample followed by a large `free` atom), so copying it
    /// takes long enough to interrupt.
    func bigClip(in folder: TemporaryFolder) throws -> String {
        let path = try folder.write(
            "big.mp4", try Data(contentsOf: TestEnvironment.samples.appendingPathComponent("portrait-h264.mp4")))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        let chunk = Data(count: 1 << 20)
        let chunks = 100
        let atomSize = UInt32(chunks * chunk.count + 8)
        try handle.write(contentsOf: withUnsafeBytes(of: atomSize.bigEndian) { Data($0) } + Data("free".utf8))
        for _ in 0..<chunks { try handle.write(contentsOf: chunk) }
        return path
    }

    /// The temporary files (storyreel's name shape) in `folder`.
    func temporaries(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(TemporaryFile.isTemporaryName)
    }

    /// A new temporary folder holding `stories/ana/` and, beside it, `theirs/`, someone's folder
    /// with one file named `file` that holds `theirs`.
    func storiesBesideAFolderOfTheirs(holding file: String) throws -> (
        folder: TemporaryFolder, stories: String, theirs: String
    ) {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let theirs = folder.path("theirs")
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: "\(theirs)/\(file)"))
        return (folder, stories, theirs)
    }

    /// Starts `executable` with `arguments`, its standard output dropped; returns the process and
    /// the pipe its standard error goes to.
    func start(_ executable: String, _ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// True once a new story's first clip is being copied into `stories`: a temporary copy in
    /// the story's folder, which is itself still under a temporary name.
    func newStoryIsBeingCopied(in stories: String) -> Bool {
        temporaries(in: stories).contains { !temporaries(in: "\(stories)/\($0)").isEmpty }
    }

    // The old code left `.0001-big.mp4.XXXXXX.storyreel-tmp` (the partial copy) and the new
    // story folder behind: nothing handled SIGINT or SIGTERM, so the process just died.
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptedIngestRemovesItsTemporaryCopy(signal: Int32) throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let clip = try bigClip(in: folder)
        let story = "\(stories)/new.user"
        // Interrupt it while it copies: once its temporary file is there.
        let status = try TestEnvironment.interrupt(
            ["ingest", clip, "--story", "new.user", "--into", stories], with: signal
        ) { newStoryIsBeingCopied(in: stories) }
        #expect(status & 0x7f == signal, "it dies of the signal, as without the cleanup: status \(status)")
        #expect(!FileManager.default.fileExists(atPath: story), "the story folder it created is gone")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: stories).sorted() == [".storyreel-ingest.lock", "ana"])
    }

    /// From the QA pass: an `ingest --create` interrupted while it copied left the stories folder
    /// it had made, holding only its lock file, so the next ingest into the mistyped folder no
    /// longer needed --create. Nothing went in, so nothing is left.
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptedIngestCreateLeavesNoStoriesFolder(signal: Int32) throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("new/stories")
        let clip = try bigClip(in: folder)
        let status = try TestEnvironment.interrupt(
            ["ingest", clip, "--story", "ana", "--into", stories, "--create"], with: signal
        ) { newStoryIsBeingCopied(in: stories) }
        #expect(status & 0x7f == signal, "it dies of the signal: status \(status)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("new")), "the folders it created are gone")
    }

    /// From a QA pass of interrupts: an `ingest --create` interrupted after its first clip went in
    /// kept the folder it made (a story is in it) but removed its lock file, so a second ingest
    /// could lock a new file at that path while a third still held the old one. The lock file
    /// goes only with a folder that holds nothing else.
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptedIngestCreateKeepsTheLockFileOfAFolderAClipWentInto(signal: Int32) throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("new/stories")
        let big = try bigClip(in: folder)
        let first = "\(stories)/ana/0001-portrait-h264.mp4"
        let status = try TestEnvironment.interrupt(
            [
                "ingest", TestEnvironment.sample("portrait-h264.mp4"), big, "--story", "ana", "--into", stories,
                "--create",
            ],
            with: signal
        ) { FileManager.default.fileExists(atPath: first) && !temporaries(in: "\(stories)/ana").isEmpty }
        #expect(status & 0x7f == signal, "it dies of the signal: status \(status)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: stories).sorted() == [".storyreel-ingest.lock", "ana"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana") == ["0001-portrait-h264.mp4"])
    }

    /// From a QA pass of interrupts: an ingest interrupted in the moment after a clip took its
    /// name in the story (while the folder was flushed) died without its line, though the clip
    /// was in (5 of 300 SIGTERMs); a caller could not tell it had gone in. Interrupted as soon as
    /// the first clip has its name, in a story folder already there and in a new one, the run
    /// has said so whenever the clip is there.
    @Test(arguments: [true, false])
    func anIngestInterruptedAsAClipGoesInHasSaidSo(storyExists: Bool) throws {
        let folder = try TemporaryFolder()
        let big = try bigClip(in: folder)
        for attempt in 1...5 {
            let stories = folder.path("stories\(attempt)")
            try FileManager.default.createDirectory(
                atPath: storyExists ? "\(stories)/b" : stories, withIntermediateDirectories: true)
            let clip = TestEnvironment.sample("portrait-h264.mp4")
            let placed = "\(stories)/b/0001-portrait-h264.mp4"
            let output = folder.path("stdout\(attempt).txt")
            _ = try TestEnvironment.interrupt(
                ["ingest", clip, big, "--story", "b", "--into", stories], with: SIGTERM, standardOutput: output
            ) { FileManager.default.fileExists(atPath: placed) }
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if FileManager.default.fileExists(atPath: placed) {
                #expect(
                    said.hasPrefix("\(clip): ingested as b/0001-portrait-h264.mp4\n"), "attempt \(attempt): \(said)")
            }
        }
    }

    /// From a QA pass: an `ingest --create` that made the stories folder and was interrupted took
    /// it away again, lock file and all, while a second `--create` waited for the lock; that one
    /// then failed (73, "cannot open the lock file") and its good upload was dropped. It makes the
    /// folder anew and ingests. (The first run is `flock` on the lock file, as ingest's own lock
    /// is a `flock`, so the second is surely waiting when the folder goes.)
    @Test func aWaitingIngestCreateMakesTheStoriesFolderAnewWhenTheFirstTookItAway() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories, withIntermediateDirectories: false)
        let lockFile = "\(stories)/.storyreel-ingest.lock"
        let (first, _) = try start("/usr/bin/flock", ["-o", lockFile, "sleep", "60"])
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        while try TestEnvironment.run("/usr/bin/flock", ["-n", lockFile, "true"]).status == 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let (second, errors) = try start(
            TestEnvironment.storyreelBinary,
            ["ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "b", "--into", stories, "--create"])
        let note = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        #expect(note.contains("waiting for the lock"), "\(note)")
        // The first run's cleanup: its lock file and the folder it made, empty again.
        #expect(unlink(lockFile) == 0)
        #expect(rmdir(stories) == 0)
        kill(first.processIdentifier, SIGKILL)  // killed outright, its lock goes with it
        second.waitUntilExit()
        let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(second.terminationStatus == 0, "\(rest)")
        #expect(FileManager.default.fileExists(atPath: "\(stories)/b/0001-portrait-h264.mp4"), "\(rest)")
    }

    /// The same after a failure: a file-size limit stops the copy (74), and the stories folder
    /// --create made goes with its lock file.
    @Test func failedIngestCreateLeavesNoStoriesFolder() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("new/stories")
        let outcome = try LimitedRun.storyreel(
            ["ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ana", "--into", stories, "--create"],
            fileSizeKiB: 100)
        #expect(outcome.result.status == 74, "\(outcome.result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("new")), "the folders it created are gone")
    }

    /// A clip not written (74) stays the outcome when --render then finds no stories (66): a
    /// review found the full disk's 74 reported as 66.
    @Test func aClipNotWrittenOutranksARenderOfNoStories() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories, withIntermediateDirectories: true)
        let outcome = try LimitedRun.storyreel(
            [
                "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ana", "--into", stories,
                "--render", folder.path("reel"),
            ], fileSizeKiB: 100)
        #expect(outcome.result.status == 74, "\(outcome.result.stderr)")
        #expect(outcome.result.stderr.contains("not ingested: "), "\(outcome.result.stderr)")
    }

    // The old code removed nothing: a killed ingest's temporary copy stayed in the story folder
    // for good (neither a later ingest nor a render removes it).
    @Test func laterIngestRemovesOnlyStaleTemporariesOfItsOwnShape() throws {
        let fixture = try BundleFixture()
        let story = "\(fixture.stories)/ben_k"
        let stale = "\(story)/.0011-big.mp4.Ab3dE9.storyreel-tmp"
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: stale))
        try TestEnvironment.markAsStoryreels(stale)
        // Not storyreel's (a user's dot-file, a name one letter off, a folder, a symlink, a file
        // of exactly the shape but without storyreel's mark: a QA pass saw it go), or not in the
        // story folder the ingest writes into: all left as they are.
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(story)/.notes"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(story)/.notes.txt.Xy34Zw.storyreel-tmp"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(story)/.x.mp4.Ab3dE9x.storyreel-tmp"))
        try FileManager.default.createDirectory(
            atPath: "\(story)/.folder.mp4.Ab3dE9.storyreel-tmp", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: "\(story)/.link.mp4.Ab3dE9.storyreel-tmp", withDestinationPath: "\(story)/.notes")
        let otherStory = "\(fixture.stories)/ana.lima/.0003-x.mp4.Ab3dE9.storyreel-tmp"
        try Data("other story".utf8).write(to: URL(fileURLWithPath: otherStory))
        try TestEnvironment.markAsStoryreels(otherStory)
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: story).filter { $0.hasPrefix(".") }.sorted()
        #expect(
            hidden == [
                ".folder.mp4.Ab3dE9.storyreel-tmp", ".link.mp4.Ab3dE9.storyreel-tmp", ".notes",
                ".notes.txt.Xy34Zw.storyreel-tmp", ".x.mp4.Ab3dE9x.storyreel-tmp",
            ])
        #expect(FileManager.default.fileExists(atPath: otherStory))
    }

    // The old code made a new story's folder under its own name, empty until the copy went in;
    // it left nothing under a temporary name to remove. A kill leaves the folder under its
    // temporary name, with the finished clip in it or the copy going in: the next ingest removes
    // it (and a render passes over it meanwhile), but not a folder of that shape that holds
    // anything else, nor a symlink.
    @Test func aNewStoryFolderAKilledIngestLeftIsRemovedByTheNext() throws {
        let fixture = try BundleFixture()
        let stories = fixture.stories
        let finished = "\(stories)/.newbie.Ab3dE9.storyreel-tmp"
        try FileManager.default.createDirectory(atPath: finished, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(finished)/0001-portrait-h264.mp4")
        let copying = "\(stories)/.other.x9Yz01.storyreel-tmp"
        try FileManager.default.createDirectory(atPath: copying, withIntermediateDirectories: false)
        try Data(count: 4096).write(to: URL(fileURLWithPath: "\(copying)/.0001-big.mp4.Q1w2E3.storyreel-tmp"))
        try TestEnvironment.markAsStoryreels("\(copying)/.0001-big.mp4.Q1w2E3.storyreel-tmp")
        // What a killed ingest leaves carries storyreel's mark; a folder of the same shape and
        // contents without it is the user's (a QA pass: `.zoe.Ab12Cd.storyreel-tmp/0001-my-own.mp4`
        // went, clip and all).
        for folder in [finished, copying] { try TestEnvironment.markAsStoryreels(folder) }
        // A folder of storyreel's holding a temporary-shaped file without the mark: the user's
        // file stays, and so does the folder (a QA pass: both went).
        let holding = "\(stories)/.yan.Cd34Ef.storyreel-tmp"
        try FileManager.default.createDirectory(atPath: holding, withIntermediateDirectories: false)
        try TestEnvironment.markAsStoryreels(holding)
        try Data("my precious notes".utf8).write(
            to: URL(fileURLWithPath: "\(holding)/.0001-notes.mp4.ZZZZZZ.storyreel-tmp"))
        let unmarked = "\(stories)/.zoe.Ab12Cd.storyreel-tmp"
        try FileManager.default.createDirectory(atPath: unmarked, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(unmarked)/0001-my-own.mp4")
        // A kill between the new folder's mkdir and its mark left it empty and unmarked, for
        // good (a safety QA pass): an empty one is removed, as it holds nothing anyone could lose.
        let unmarkedEmpty = "\(stories)/.killed.Qq11Ww.storyreel-tmp"
        try FileManager.default.createDirectory(atPath: unmarkedEmpty, withIntermediateDirectories: false)
        let users = "\(stories)/.mine.Ab3dE9.storyreel-tmp"
        try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(users)/0001-notes.mp4"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(users)/notes.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: "\(stories)/.link.Ab3dE9.storyreel-tmp", withDestinationPath: "ben_k")
        // Folders no ingest makes (a QA pass: the sweep removed them, and the user's clips): not
        // for a handle ingest takes, or holding a clip under a name ingest never gives.
        let notIngests = [
            ".my backup.ABC123.storyreel-tmp": "0001-holiday.mp4", "..hidden.ABC123.storyreel-tmp": "0001-x.mp4",
            ".ana.ABC123.storyreel-tmp": "holiday.mp4", ".bob.ABC123.storyreel-tmp": "1-x.mp4",
        ]
        for (name, clip) in notIngests {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(name)", withIntermediateDirectories: false)
            try FileManager.default.copyItem(
                atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: "\(stories)/\(name)/\(clip)")
        }
        let (render, _) = try fixture.render(into: "reel")
        #expect(render.status == 0, "a render passes over them: \(render.stderr)")
        #expect(!render.stderr.contains("newbie"), "\(render.stderr)")
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ana.lima", "--into", stories,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: stories).filter { $0.hasPrefix(".") }.sorted()
        #expect(
            hidden
                == ([
                    ".link.Ab3dE9.storyreel-tmp", ".mine.Ab3dE9.storyreel-tmp", ".storyreel-ingest.lock",
                    ".yan.Cd34Ef.storyreel-tmp", ".zoe.Ab12Cd.storyreel-tmp",
                ] + notIngests.keys).sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: unmarked) == ["0001-my-own.mp4"])
        for (name, clip) in notIngests {
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/\(name)") == [clip])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: users).sorted() == ["0001-notes.mp4", "notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ben_k").count > 1, "the link's target")
    }

    // A QA pass: the rename that names the new story's folder went by name, so a symlink (or a
    // folder) swapped in at its temporary name during the copy became the story, and the clip,
    // left in the folder moved away, was reported ingested (0). What has the name must be the
    // folder the clip went into; the clip is taken back out of it, and the swapped-in link and
    // the folder it leads to are left as they are.
    @Test func aLinkSwappedInAtTheNewStorysTemporaryNameIsNotTakenForIt() throws {
        let (folder, stories, victim) = try storiesBesideAFolderOfTheirs(holding: "0001-big.mp4")
        let (ingest, errors) = try start(
            TestEnvironment.storyreelBinary,
            ["ingest", try bigClip(in: folder), "--story", "newbie", "--into", stories])
        defer {
            kill(ingest.processIdentifier, SIGCONT)
            ingest.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ingest.isRunning, !newStoryIsBeingCopied(in: stories) { usleep(100) }
        try #require(kill(ingest.processIdentifier, SIGSTOP) == 0)
        let staging = try #require(temporaries(in: stories).first)
        let moved = folder.path("moved")
        try FileManager.default.moveItem(atPath: "\(stories)/\(staging)", toPath: moved)
        try FileManager.default.createSymbolicLink(atPath: "\(stories)/\(staging)", withDestinationPath: victim)
        kill(ingest.processIdentifier, SIGCONT)
        ingest.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ingest.terminationStatus == 73, "\(stderr)")
        #expect(stderr.contains("\(stories)/newbie: the folder was replaced while storyreel worked"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(stories)/newbie"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(stories)/\(staging)") == victim)
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["0001-big.mp4"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(victim)/0001-big.mp4")) == Data("theirs".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved).isEmpty, "its own copy is taken out")
    }

    /// True when strace can trace a process here (it needs ptrace).
    static let canTrace: Bool = {
        guard let probe = try? TestEnvironment.run("/usr/bin/strace", ["-f", "-o", "/proc/self/fd/2", "true"])
        else { return false }
        return probe.status == 0
    }()

    /// From an ingest QA pass: the flush of the story folder after the clip took its name failed
    /// (EIO, injected), and the ingest said "ingested", exit 0, of a clip a power cut could take
    /// away. It is an I/O failure now (74), naming the flush; the clip stays where it is, so the
    /// retry a 74 asks for finds it already ingested. A new story's folder likewise.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func aFolderFlushThatFailsIsAnIOFailure() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(stories)/ana/0001-old.mp4")
        let upload = TestEnvironment.sample("sixty-fps.mp4")
        for (story, nth) in [("ana", 2), ("newbie", 3)] {
            let traced = try TestEnvironment.run(
                "/usr/bin/strace",
                [
                    "-f", "-o", folder.path("trace-\(story)"), "-e", "trace=fsync", "-e",
                    "inject=fsync:error=EIO:when=\(nth)",
                    TestEnvironment.storyreelBinary, "ingest", upload, "--story", story, "--into", stories,
                ])
            #expect(traced.status == 74, "\(story): \(traced.stderr)")
            #expect(
                traced.stderr.contains(
                    "its folder cannot be flushed to disk, so a crash may undo that: Input/output error"),
                "\(story): \(traced.stderr)")
            let again = try TestEnvironment.storyreel(["ingest", upload, "--story", story, "--into", stories])
            #expect(
                again.status == 0 && again.stdout.contains("already ingested"),
                "\(story): \(again.stdout)\(again.stderr)")
        }
    }

    // A re-check of the fix above: between the mkdir of the temporary folder and its open, a
    // folder of someone's put at the name was opened instead, took the clip, and was renamed
    // into place (0). strace holds the run just after the mkdir; the folder opened must be an
    // empty one of this user's, and no byte is written into anyone else's.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func aFolderSwappedInBeforeTheTemporaryFolderIsOpenedIsNotTakenForIt() throws {
        let (folder, stories, theirs) = try storiesBesideAFolderOfTheirs(holding: "mine.txt")
        let (ingest, errors) = try start(
            "/usr/bin/strace",
            [
                "-f", "-o", folder.path("trace"), "-e", "trace=mkdirat", "-e", "inject=mkdirat:delay_exit=1500000",
                TestEnvironment.storyreelBinary, "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story",
                "newbie", "--into", stories,
            ])
        defer { ingest.waitUntilExit() }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, ingest.isRunning, temporaries(in: stories).isEmpty { usleep(1000) }
        let staging = try #require(temporaries(in: stories).first)
        let moved = folder.path("moved")
        try FileManager.default.moveItem(atPath: "\(stories)/\(staging)", toPath: moved)
        try FileManager.default.moveItem(atPath: theirs, toPath: "\(stories)/\(staging)")
        ingest.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ingest.terminationStatus == 73, "\(stderr)")
        #expect(stderr.contains("\(stories)/newbie: the folder was replaced while storyreel worked"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(stories)/newbie"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/\(staging)") == ["mine.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved).isEmpty)
    }

    /// Runs `ingest UPLOAD --story ana --into STORIES` under strace with `inject` on its
    /// copy_file_range calls; returns the exit status and stderr once `during` has run (at once
    /// when the injection has no delay) and the ingest has ended.
    func ingestInjecting(
        _ inject: String, upload: String, into stories: String, trace: String, during: () throws -> Void = {}
    ) throws -> (status: Int32, stderr: String) {
        let (ingest, errors) = try start(
            "/usr/bin/strace",
            [
                "-f", "-o", trace, "-e", "trace=copy_file_range", "-e", "inject=copy_file_range:\(inject)",
                TestEnvironment.storyreelBinary, "ingest", upload, "--story", "ana", "--into", stories,
            ])
        try during()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ingest.waitUntilExit()
        return (ingest.terminationStatus, stderr)
    }

    /// Ingests a copy of a sample upload into a new story, its copy held back 1.5 s (strace), and
    /// runs `change(folder, upload)` once the copy is staged.
    func ingestChangingTheUploadDuringItsCopy(_ change: (TemporaryFolder, String) throws -> Void) throws -> (
        run: (status: Int32, stderr: String), folder: TemporaryFolder, stories: String, upload: String
    ) {
        let (folder, stories, _) = try storiesBesideAFolderOfTheirs(holding: "mine.txt")
        let upload = folder.path("upload.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: upload)
        let run = try ingestInjecting(
            "delay_enter=1500000:when=1", upload: upload, into: stories, trace: folder.path("trace")
        ) {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, temporaries(in: "\(stories)/ana").isEmpty { usleep(1000) }
            try change(folder, upload)
        }
        return (run, folder, stories, upload)
    }

    // copy_file_range answering 0 at the start (as some file systems do for a file that holds
    // data) was taken for the end of the file: the copy came out short, and a good upload was
    // rejected as "changed while it was being copied" (65; a QA pass). It is copied another way.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func aCopyFileRangeThatAnswersNothingAtTheStartFallsBackToReading() throws {
        let (folder, stories, _) = try storiesBesideAFolderOfTheirs(holding: "mine.txt")
        let upload = TestEnvironment.sample("portrait-h264.mp4")
        let run = try ingestInjecting("retval=0:when=1", upload: upload, into: stories, trace: folder.path("trace"))
        #expect(run.status == 0, "\(run.stderr)")
        let trace = try String(contentsOfFile: folder.path("trace"), encoding: .utf8)
        #expect(trace.contains("(INJECTED)"), "the copy went through copy_file_range")
        let filed = try Data(contentsOf: URL(fileURLWithPath: "\(stories)/ana/0001-portrait-h264.mp4"))
        #expect(filed == (try Data(contentsOf: URL(fileURLWithPath: upload))))
    }

    // An upload rewritten in place while it was copied, its size kept and its mtime put back,
    // was filed with the bytes the rewrite put there, not those inspected (a QA pass): its
    // change time, which no program can put back, is compared too.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func anUploadRewrittenDuringTheCopyWithItsMtimePutBackIsRefused() throws {
        let (run, folder, stories, _) = try ingestChangingTheUploadDuringItsCopy { scratch, upload in
            // Its times to the nanosecond, kept on another file and put back with `touch -r`.
            let times = scratch.path("times")
            #expect(try TestEnvironment.run("/usr/bin/touch", ["-r", upload, times]).status == 0)
            let file = try #require(FileHandle(forUpdatingAtPath: upload))
            try file.seek(toOffset: 2000)
            try file.write(contentsOf: Data(repeating: 0x5A, count: 64))
            try file.close()
            #expect(try TestEnvironment.run("/usr/bin/touch", ["-r", times, upload]).status == 0)
        }
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stderr.contains("not ingested: it changed while it was being copied"), "\(run.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana")) ?? []).isEmpty)
        withExtendedLifetime(folder) {}
    }

    // An ingest QA pass: an upload a slow writer was still writing was rejected (65, "it looks
    // truncated") in every try, though it grew while ingest read it, which a job setting rejected
    // uploads aside takes for a damaged file. Refused, and changed since ingest first looked, it
    // is not ingested, 75. The upload's first open is held back 3 s while 0.5 MB more of it
    // arrives (still short of its end); with --create, no stories folder is made for it.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func anUploadRefusedWhileItGrowsIsToBeTriedAgain() throws {
        let folder = try TemporaryFolder()
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("stories/dev-ops/deploy.mov")))
        let upload = try folder.write("upload.mov", whole.prefix(whole.count / 3))
        let stories = folder.path("stories")
        let trace = folder.path("trace")
        let (ingest, errors) = try start(
            "/usr/bin/strace",
            [
                "-f", "-o", trace, "-P", upload, "-e", "trace=openat", "-e", "inject=openat:delay_enter=3000000:when=1",
                TestEnvironment.storyreelBinary, "ingest", upload, "--story", "ana", "--into", stories, "--create",
            ])
        usleep(1_500_000)
        let file = try #require(FileHandle(forWritingAtPath: upload))
        try file.seekToEnd()
        try file.write(contentsOf: whole[(whole.count / 3)..<(whole.count / 2)])
        try file.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ingest.waitUntilExit()
        #expect(try String(contentsOfFile: trace, encoding: .utf8).contains("(DELAYED)"), "the open was held back")
        try expectToBeTriedAgainThenRejected(ingest.terminationStatus, stderr, upload: upload, stories: stories)
    }

    /// Expects the `ingest --create` of `upload` into `stories` that exited `status` with
    /// `stderr` to have left it not ingested while it grew (75), with no stories folder made;
    /// then, still short and no longer growing, an ingest of it to reject it, as before.
    func expectToBeTriedAgainThenRejected(
        _ status: Int32, _ stderr: String, upload: String, stories: String, rejectedFor reason: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(status == 75, "\(stderr)", sourceLocation: sourceLocation)
        #expect(
            stderr == "storyreel: error: \(upload): not ingested: it changed while it was being read; run again once "
                + "it is complete\n", sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: stories), "no stories folder for an upload not ingested",
            sourceLocation: sourceLocation)
        let short = try TestEnvironment.storyreel(["ingest", upload, "--story", "ana", "--into", stories, "--create"])
        #expect(short.status == 65, "\(short.stderr)", sourceLocation: sourceLocation)
        #expect(
            short.stderr.contains("\(upload): rejected: \(reason)"), "\(short.stderr)", sourceLocation: sourceLocation)
    }

    // A second ingest QA pass: an upload written a few KB at a time, its index last (as phones
    // and ffmpeg write it), was rejected (65) in 8 of 8 tries: the read refused it in
    // milliseconds, between two writes, its stamp the same before and after. Refused within a
    // second of a write, it is watched until that second has passed: written to again, it is not
    // ingested, 75; its writer gone, it is rejected, as before.
    @Test func anUploadRefusedBetweenTwoWritesOfItsWriterIsToBeTriedAgain() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("whole.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=3", "-c:v", "libx264", "-preset", "ultrafast", clip,
        ])
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try #require(whole.count > 80_000, "room for the writer's 60 KB before the index")
        let upload = try folder.write("upload.mp4", whole.prefix(4096))
        let stories = folder.path("stories")
        let (ingest, errors) = try start(
            TestEnvironment.storyreelBinary, ["ingest", upload, "--story", "ana", "--into", stories, "--create"])
        // The writer: 1 KB every 50 ms, for up to 3 s, until the ingest has ended.
        let file = try #require(FileHandle(forWritingAtPath: upload))
        for step in 0..<60 where ingest.isRunning {
            usleep(50_000)
            try file.seekToEnd()
            try file.write(contentsOf: whole[(4096 + step * 1024)..<(4096 + (step + 1) * 1024)])
        }
        try file.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ingest.waitUntilExit()
        try expectToBeTriedAgainThenRejected(
            ingest.terminationStatus, stderr, upload: upload, stories: stories, rejectedFor: "moov atom not found")
    }

    // An upload still being written, which grows while it is copied, was rejected (65), which a
    // job setting rejected uploads aside takes for a damaged file, though the line asked for a
    // run once it is complete (a QA pass). It is not ingested, 75 (EX_TEMPFAIL: try again), and
    // the next run, once it is complete, takes it.
    @Test(.enabled(if: canTrace, "needs strace and ptrace"))
    func anUploadThatGrowsWhileItIsCopiedIsToBeTriedAgain() throws {
        let (run, folder, stories, upload) = try ingestChangingTheUploadDuringItsCopy { _, upload in
            let file = try #require(FileHandle(forWritingAtPath: upload))
            try file.seekToEnd()
            // A `free` box of 4 KB, so the file is whole again once it has grown.
            try file.write(contentsOf: Data([0, 0, 0x10, 0]) + Data("free".utf8) + Data(repeating: 0, count: 4088))
            try file.close()
        }
        #expect(run.status == 75, "\(run.stderr)")
        #expect(
            run.stderr == "storyreel: error: \(upload): not ingested: it changed while it was being copied; run again "
                + "once it is complete\n")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana")) ?? []).isEmpty)
        let again = try TestEnvironment.storyreel(["ingest", upload, "--story", "ana", "--into", stories, "--json"])
        let outcome = try #require(
            (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["clips"]
                as? [[String: Any]])
        #expect(again.status == 0 && outcome.first?["outcome"] as? String == "ingested", "\(again.stderr)")
        withExtendedLifetime(folder) {}
    }

    // The old code created the story folder before looking at any clip and left it there, empty,
    // when every clip was rejected.
    @Test func failedIngestLeavesNoStoryFolderItCreated() throws {
        let fixture = try BundleFixture()
        let garbage = try fixture.folder.write("broken.mp4", Data(repeating: 7, count: 1000))
        let result = try TestEnvironment.storyreel(["ingest", garbage, "--story", "newbie", "--into", fixture.stories])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(garbage): rejected"))
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/newbie"))
    }

    // The old code made the stories folder --create asked for before it looked at any clip, and
    // left it there with its lock file when every clip was rejected (nor did it render then).
    @Test func anIngestWhoseClipsAreAllRejectedCreatesNoStoriesFolder() throws {
        let fixture = try BundleFixture()
        let garbage = try fixture.folder.write("broken.mp4", Data(repeating: 7, count: 1000))
        let long = TestEnvironment.sample("portrait-h264.mp4")
        let fresh = fixture.folder.path("new/stories")
        let rejected = try TestEnvironment.storyreel([
            "ingest", garbage, long, "--story", "ana", "--into", fresh, "--create", "--max-duration", "1",
            "--render", fixture.folder.path("reel"),
        ])
        #expect(rejected.status == 65)
        #expect(rejected.stdout.isEmpty)
        #expect(
            rejected.stderr.split(separator: "\n").map {
                $0.replacingOccurrences(of: fixture.folder.url.path, with: "TMP")
            } == [
                "storyreel: error: TMP/broken.mp4: rejected: not a QuickTime/MP4 file (no ftyp or moov atom at the start)",
                "storyreel: error: \(long): rejected: 3.0 s is longer than --max-duration 1 s",
            ], "\(rejected.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).sorted() == [
                "broken.mp4", "stories",
            ], "no new/stories, no reel")
        // One clip that can go in is enough to make it.
        let made = try TestEnvironment.storyreel([
            "ingest", garbage, long, "--story", "ana", "--into", fresh, "--create",
        ])
        #expect(made.status == 65)
        #expect(made.stdout == "\(long): ingested as ana/0001-portrait-h264.mp4\n")
        #expect(FileManager.default.fileExists(atPath: "\(fresh)/ana/0001-portrait-h264.mp4"))
    }
}
