import Foundation
import StoryMedia
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `storyreel ingest`: checks, sequence names, idempotence, untouched sources.
@Suite struct IngestTests {
    @Test func ingestIsIdempotentLeavesSourcesUntouchedAndRejectsGarbage() throws {
        let fixture = try BundleFixture()
        let uploads = fixture.folder.path("uploads")
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        let good = "\(uploads)/IMG_1539.MOV"
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("iphone-hevc-hdr.mov"), toPath: good)
        let garbage = "\(uploads)/broken.mov"
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: garbage))
        let before = try TestEnvironment.run("sha256sum", [good, garbage]).stdout

        let first = try TestEnvironment.storyreel([
            "ingest", garbage, good, "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(first.status == 65)
        #expect(first.stderr.contains("\(garbage): rejected"))
        #expect(first.stdout.contains("ingested as ben_k/0011-IMG_1539.MOV"), "one above 10.mp4")
        #expect(FileManager.default.fileExists(atPath: "\(fixture.stories)/ben_k/0011-IMG_1539.MOV"))

        let second = try TestEnvironment.storyreel(["ingest", good, "--story", "ben_k", "--into", fixture.stories])
        #expect(second.status == 0)
        #expect(second.stdout.contains("already ingested as ben_k/0011-IMG_1539.MOV"))
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(fixture.stories)/ben_k")
        #expect(names.filter { $0.hasSuffix("IMG_1539.MOV") }.count == 1)
        #expect(!names.contains { $0.hasPrefix(".") }, "no temp files left")
        #expect(try TestEnvironment.run("sha256sum", [good, garbage]).stdout == before, "sources untouched")
        #expect(FileManager.default.fileExists(atPath: good))
    }

    /// From a scripting QA pass: an upload that is not there, a folder or a FIFO was "rejected"
    /// (65), as a damaged upload is, where `inspect`, `thumbnail` and `cube` exit 66 on such a
    /// path, so a job that sets rejected uploads aside took one that never arrived for a bad one.
    /// It is not ingested, 66, with the reason; the good upload beside it still goes in.
    @Test func anUploadThatIsNotThereOrNoFileIsNotIngestedRatherThanRejected() throws {
        let fixture = try BundleFixture()
        let missing = fixture.folder.path("never-arrived.mp4")
        let folder = fixture.folder.path("a-folder.mp4")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let fifo = fixture.folder.path("a-fifo.mp4")
        try HostileFiles.fifo(at: fifo)
        let good = fixture.folder.path("good.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: good)
        let result = try TestEnvironment.storyreel([
            "ingest", missing, folder, fifo, good, "--story", "chloe", "--into", fixture.stories, "--json",
        ])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(
            LimitedRun.errorLines(result.stderr) == [
                "storyreel: error: \(missing): not ingested: no such file",
                "storyreel: error: \(folder): not ingested: a folder, not a file",
                "storyreel: error: \(fifo): not ingested: a FIFO, not a regular file",
            ], "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let clips = try #require(object["clips"] as? [[String: Any]]).map { $0.compactMapValues { $0 as? String } }
        #expect(clips.map { $0["outcome"] } == ["not-ingested", "not-ingested", "not-ingested", "ingested"])
        #expect(clips[0]["reason"] == "no such file")
        // With nothing that can go in, nothing is made either (`--create`, as for a rejection).
        let created = fixture.folder.path("new-stories")
        let alone = try TestEnvironment.storyreel(["ingest", missing, "--story", "ann", "--into", created, "--create"])
        #expect(alone.status == 66, "\(alone.stderr)")
        #expect(alone.stderr == "storyreel: error: \(missing): not ingested: no such file\n")
        #expect(!FileManager.default.fileExists(atPath: created))
    }

    /// From a QA pass: `--into` the uploads folder itself (files, no story folder), which
    /// `render` refuses as no stories folder, took a story and a lock file (0). It is refused
    /// (66) and nothing is written; an empty folder is a stories folder to be, and takes one.
    @Test func aFolderOfFilesWithNoStoryFolderIsNoStoriesFolder() throws {
        let folder = try TemporaryFolder()
        let uploads = folder.path("uploads")
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: false)
        let upload = "\(uploads)/a.mp4"
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: upload)
        /// Ingests the upload into `stories` as `ana`: refused with 66 and `reason`, nothing written.
        func expectRefused(into stories: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation)
            throws
        {
            let before = FolderSnapshot(stories)
            let refused = try TestEnvironment.storyreel(["ingest", upload, "--story", "ana", "--into", stories])
            #expect(refused.status == 66, "\(refused.stderr)", sourceLocation: sourceLocation)
            #expect(
                refused.stderr == "storyreel: error: \(stories): \(reason)\n", sourceLocation: sourceLocation)
            #expect(FolderSnapshot(stories) == before, sourceLocation: sourceLocation)
        }
        let noStoryFolder =
            "not a stories folder: it holds files but no story folder (expected STORIES/HANDLE/clip.mov); --into "
            + "takes the stories folder"
        try expectRefused(into: uploads, noStoryFolder)
        // A system folder beside the files is no story folder either (a re-check).
        try FileManager.default.createDirectory(atPath: "\(uploads)/lost+found", withIntermediateDirectories: false)
        try expectRefused(into: uploads, noStoryFolder)
        // A story folder given as STORIES (clips at its top, and a folder in it), for a story it
        // does not hold, is refused too (an ingest QA pass: the clip went into st/ana/ana/,
        // which no render plays, exit 0).
        let story = folder.path("st/ana")
        try FileManager.default.createDirectory(atPath: "\(story)/old", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: upload, toPath: "\(story)/0001-a.mp4")
        try expectRefused(
            into: story,
            "holds clips at its top (0001-a.mp4), as a story folder does, and no story ana: --into takes the stories "
                + "folder, whose folders are the stories")
        let empty = folder.path("stories")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let taken = try TestEnvironment.storyreel(["ingest", upload, "--story", "ana", "--into", empty])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(empty)/ana") == ["0001-a.mp4"])
    }

    /// From an ingest QA pass: `ingest --create --render reel` with `--into reel/st` passed the
    /// check of OUT (missing), made the stories folder inside it, ingested the clip, and then the
    /// render refused OUT, which now held `st` (73, the upload in), with "pass --force", an option
    /// ingest refuses. It is refused before any clip goes in, as a second run was.
    @Test func storiesToBeMadeInsideTheBundleFolderAreRefusedBeforeAnyClipGoesIn() throws {
        let folder = try TemporaryFolder()
        let reel = folder.path("reel")
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "a", "--into", "\(reel)/st", "--create",
            "--render", reel,
        ])
        #expect(result.status == 73)
        #expect(
            result.stderr
                == "storyreel: error: \(reel): the stories folder '\(reel)/st' is to be made inside it, and a bundle "
                + "folder holding st, which is not storyreel's, is refused; choose a bundle folder outside the "
                + "stories folder\n")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: reel), "nothing made")
        // Nor when OUT holds only what an earlier run left: its lock file, an empty output folder
        // (a re-check: a render refused under `ulimit -v` leaves the lock file).
        for leftover in [".lock", "transitions"] {
            try FileManager.default.createDirectory(atPath: reel, withIntermediateDirectories: true)
            if leftover == ".lock" {
                FileManager.default.createFile(atPath: "\(reel)/.lock", contents: nil)
            } else {
                try FileManager.default.createDirectory(
                    atPath: "\(reel)/\(leftover)", withIntermediateDirectories: false)
            }
            let again = try TestEnvironment.storyreel([
                "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "a", "--into", "\(reel)/st",
                "--create", "--render", reel,
            ])
            #expect(again.status == 73, "\(leftover): \(again.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "\(reel)/st"), "\(leftover)")
            try FileManager.default.removeItem(atPath: reel)
        }
        // Made by hand and rendered once with --force, the bundle holds its stories: ingest goes on.
        let stories = "\(reel)/st"
        try FileManager.default.createDirectory(atPath: "\(stories)/a", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: "\(stories)/a/1.mp4")
        let forced = try TestEnvironment.storyreel(
            ["render", stories, "-o", reel, "--force", "-q", "--size", BundleFixture.canvasArgument])
        #expect(forced.status == 0, "\(forced.stderr)")
        let after = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "a", "--into", stories, "--render", reel,
            "-q",
        ])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(stories)/a").sorted() == [
                "0002-portrait-h264.mp4", "1.mp4",
            ])
    }

    /// From a re-check: `--into reel/../st --create` with no `reel` made `st` (the path tidied by
    /// its spelling), which the system could not reach through `reel`: "was removed while this
    /// ingest waited for its lock" (66), and `st` was taken away again.
    @Test func aDotDotAfterAFolderThatDoesNotExistIsSaidSo() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("reel/../st")
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "a", "--into", stories, "--create",
        ])
        #expect(result.status == 66)
        #expect(
            result.stderr
                == "storyreel: error: \(stories): \(folder.path("reel")) does not exist, so the '..' after it leads "
                + "nowhere; give the path without it\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).isEmpty)
        // After a file, or a link (the system goes up from where it points), and in --render's
        // OUT (a later re-check: each made the tidied folder, or ingested and failed the render).
        FileManager.default.createFile(atPath: folder.path("file"), contents: nil)
        try FileManager.default.createDirectory(atPath: folder.path("deep/er"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: "deep/er")
        try FileManager.default.createDirectory(atPath: folder.path("st/a"), withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (
                ["--into", folder.path("file/../new"), "--create"],
                "\(folder.path("file/../new")): \(folder.path("file")) is not a folder, so the '..' after it leads "
                    + "nowhere; give the path without it"
            ),
            (
                ["--into", folder.path("link/../new"), "--create"],
                "\(folder.path("link/../new")): \(folder.path("link")) is a symbolic link, so the '..' after it leads "
                    + "up from where it points; give the path without it"
            ),
            (
                ["--into", folder.path("st"), "--render", folder.path("nothere/../out")],
                "\(folder.path("nothere/../out")): \(folder.path("nothere")) does not exist, so the '..' after it "
                    + "leads nowhere; give the path without it"
            ),
        ]
        for (arguments, line) in cases {
            let refused = try TestEnvironment.storyreel(
                ["ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "a"] + arguments)
            #expect([66, 73].contains(refused.status), "\(refused.stderr)")
            #expect(refused.stderr == "storyreel: error: \(line)\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("st/a")).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path("new")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("deep/new")))
        // Every command that makes its output folder says the same (a review: `render -o`,
        // `thumbnail --out-dir` and `cube --frames-dir` said `cannot open the folder: No such file
        // or directory`, after making the tidied path's folder and taking it away).
        let made = folder.path("nothere/../made")
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        for arguments in [
            ["render", folder.path("st"), "-o", made, "-q"], ["thumbnail", clip, "--out-dir", made],
            ["cube", clip, clip, "--frames-dir", made, "-q"],
        ] {
            let refused = try TestEnvironment.storyreel(arguments)
            #expect(refused.status == 73, "\(arguments[0]): \(refused.stderr)")
            #expect(
                refused.stderr
                    == "storyreel: error: \(made): \(folder.path("nothere")) does not exist, so the '..' after it leads "
                    + "nowhere; give the path without it\n", "\(arguments[0])")
            #expect(!FileManager.default.fileExists(atPath: folder.path("made")))
        }
    }

    /// From a QA pass: a service that only ran `ingest --render` kept every transition an ingest
    /// replaced (a story's new last clip changes the transition out of it), for good: ingest had
    /// no `--prune`. With it, the render after the ingest removes them.
    @Test func ingestRenderWithPruneRemovesTheOutputsItsRenderNoLongerUses() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let size = ["--size", BundleFixture.canvasArgument]
        func ingest(_ clip: String, _ extra: [String] = []) throws -> ProcessResult {
            let result = try TestEnvironment.storyreel(
                [
                    "ingest", TestEnvironment.sample(clip), "--story", "ben_k", "--into", fixture.stories,
                    "--render", out,
                ]
                    + size + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return result
        }
        func transitionFiles() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "\(out)/transitions").count
        }
        _ = try ingest("portrait-h264.mp4")
        _ = try ingest("sixty-fps.mp4")
        let kept = try fixture.manifest("reel").transitions.count
        #expect(try transitionFiles() > kept, "the transition out of ben_k before the second ingest is left")
        let pruning = try ingest("edit-list.mp4", ["--prune"])
        #expect(pruning.stderr.contains(", pruned "), "\(pruning.stderr)")
        #expect(try transitionFiles() == fixture.manifest("reel").transitions.count)
        #expect(try TestEnvironment.storyreel(["validate", out]).status == 0)
        let alone = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("black-intro.mp4"), "--story", "ana.lima", "--into", fixture.stories,
            "--prune",
        ])
        #expect(alone.status == 64)
        #expect(
            alone.stderr.hasPrefix(
                "storyreel: error: --prune removes a bundle's unused outputs: give it with --render OUT"),
            "\(alone.stderr)")
    }

    @Test func ingestWarnsWhenCameraNamedClipsStillPlayAfterTheNewOne() throws {
        let fixture = try BundleFixture()
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let camera = try TestEnvironment.storyreel(["ingest", clip, "--story", "ana.lima", "--into", fixture.stories])
        #expect(camera.status == 0)
        #expect(camera.stdout.contains("ingested as ana.lima/0001-portrait-h264.mp4"))
        #expect(
            camera.stderr.contains(
                "warning: ana.lima/0001-portrait-h264.mp4 plays before IMG_0001.MOV, IMG_0002.MOV"))
        let numbered = try TestEnvironment.storyreel(["ingest", clip, "--story", "ben_k", "--into", fixture.stories])
        #expect(numbered.status == 0)
        #expect(numbered.stdout.contains("ingested as ben_k/0011-portrait-h264.mp4"))
        #expect(!numbered.stderr.contains("plays before"), "it plays after 10.mp4, the last clip")
        // A clip numbered past the 9999 the sequence follows plays after the new one too, for
        // another reason than the camera names' (the warning said it did not start with a number).
        try FileManager.default.copyItem(atPath: clip, toPath: "\(fixture.stories)/ben_k/99999.mp4")
        let past = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(past.status == 0, "\(past.stderr)")
        #expect(
            past.stderr
                == "storyreel: warning: ben_k/0012-sixty-fps.mp4 plays before 99999.mp4: ingest numbers a clip after "
                + "the highest number up to 9999, and these are numbered higher; renumber them to set the order\n")

        // A name that starts with a date is no sequence number: the warning says so, not that
        // it is numbered higher (a QA pass: "numbered higher" of `2024-06-01 12.00.00.mp4`).
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("black-intro.mp4"),
            toPath: "\(fixture.stories)/chloe/2024-06-01 12.00.00.mp4")
        let dated = try TestEnvironment.storyreel(["ingest", clip, "--story", "chloe", "--into", fixture.stories])
        #expect(dated.status == 0, "\(dated.stderr)")
        #expect(
            dated.stderr.contains(
                "warning: chloe/0001-portrait-h264.mp4 plays before 2024-06-01 12.00.00.mp4: ingest does not take a "
                    + "date a name starts with for a sequence number; number them to set the order"),
            "\(dated.stderr)")
        #expect(!dated.stderr.contains("numbered higher"), "\(dated.stderr)")

        // Ten names a line, then how many more (a review: a story of 9000 camera-named clips
        // listed them all for every upload). Numbers, not dates: `20240601_1.mp4` is a date now.
        // Links to a copy: a link to the shared sample changes its change time, and an ingest of
        // it running at the same time in another test rightly refused it as changed while it
        // was copied (65; seen once in a clean clone's `make test`).
        let copy = fixture.folder.path("camera.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: copy)
        for index in 0..<12 {
            try FileManager.default.linkItem(atPath: copy, toPath: "\(fixture.stories)/ben_k/5024060\(index)_1.mp4")
        }
        let many = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("black-intro.mp4"), "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(
            many.stderr.contains(
                "99999.mp4, 50240600_1.mp4, 50240601_1.mp4, 50240602_1.mp4, 50240603_1.mp4, 50240604_1.mp4, 50240605_1.mp4, 50240606_1.mp4, 50240607_1.mp4, 50240608_1.mp4 and 3 more: ingest"
            ), "\(many.stderr)")

        // `--json` names every clip that plays after the upload, in play order, in
        // `playsBefore` (a review: a script reading only stdout never learnt of it), and leaves
        // `warnings` to why few players could play the clip.
        let json = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story", "ana.lima", "--into", fixture.stories,
            "--json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let entry = try #require((object?["clips"] as? [[String: Any]])?.first, "\(json.stdout)")
        #expect(entry["file"] as? String == "ana.lima/0002-sixty-fps.mp4", "\(json.stdout)")
        #expect(entry["playsBefore"] as? [String] == ["IMG_0001.MOV", "IMG_0002.MOV"], "\(json.stdout)")
        #expect(entry["warnings"] as? [String] == [], "\(json.stdout)")
        #expect(json.stderr.contains("ana.lima/0002-sixty-fps.mp4 plays before IMG_0001.MOV, IMG_0002.MOV"))
    }

    /// Past 9999 the sequence runs on through the numbers that continue it: after `9999.mp4`
    /// every clip was numbered `10000-…` (a re-check), and played before the earlier ones. A
    /// number across a gap (a date) is still not followed.
    /// From a QA pass: `--story Ana.Lima` for the story `ana.lima` started a second story in
    /// silence (one folder on macOS and Windows). It still does, with a warning that names it.
    @Test func aNewStoryNamedAsAnotherInAnotherCaseIsWarnedAbout() throws {
        let fixture = try BundleFixture()
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let first = try TestEnvironment.storyreel(["ingest", clip, "--story", "Ana.Lima", "--into", fixture.stories])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr
                == "storyreel: warning: Ana.Lima: a new story, though ana.lima is there, a name that differs only in "
                + "case: two stories here, one folder on macOS and Windows; is --story ana.lima meant?\n")
        #expect(FileManager.default.fileExists(atPath: "\(fixture.stories)/Ana.Lima/0001-portrait-h264.mp4"))
        // In the JSON too (an ingest QA pass: only stderr said it).
        let json = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ANA.lima", "--into", fixture.stories, "--json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let warnings = ((object?["clips"] as? [[String: Any]])?.first?["warnings"] as? [String]) ?? []
        #expect(warnings.contains { $0.hasPrefix("ANA.lima: a new story, though ") }, "\(json.stdout)")
        // Once it is there, it is a story of its own: no warning.
        let again = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story", "Ana.Lima", "--into", fixture.stories,
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.isEmpty, "\(again.stderr)")
    }

    /// From an ingest QA pass: a clip went into a story whose `story.json` says `"isRead": "yes"`
    /// with 0 and no word, and the next render left the story out (66, nothing played). The
    /// clip still goes in, and a warning says the story will not play until the file is fixed.
    @Test func aStoryThatRenderLeavesOutForItsStoryFileIsWarnedAbout() throws {
        let fixture = try BundleFixture()
        let settings = "\(fixture.stories)/ben_k/story.json"
        try Data(#"{"isRead": "yes"}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let result = try TestEnvironment.storyreel(["ingest", clip, "--story", "ben_k", "--into", fixture.stories])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: warning: ben_k/story.json: \"isRead\" must be true or false, got \"yes\"; render leaves the "
                    + "story out until it is fixed"), "\(result.stderr)")
        // `--json` carries it in the clip's warnings, where a script reading only stdout sees it.
        let json = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("black-intro.mp4"), "--story", "ben_k", "--into", fixture.stories,
            "--json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let clips = object?["clips"] as? [[String: Any]]
        #expect(
            clips?.first?["warnings"] as? [String] == [
                "ben_k/story.json: \"isRead\" must be true or false, got \"yes\"; render leaves the story out until it "
                    + "is fixed"
            ], "\(json.stdout)")
        // A story.json render reads: no such line.
        try Data(#"{"isRead": true}"#.utf8).write(to: URL(fileURLWithPath: settings))
        let fine = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(fine.status == 0 && !fine.stderr.contains("story.json"), "\(fine.stderr)")
    }

    /// From an ingest QA pass: an upload whose bytes matched a clip render skips (a link leading
    /// outside the stories, the second spelling of a name that differs only in Unicode
    /// normalization) was "already ingested as" that clip, exit 0, and never played. It goes
    /// in as a clip of its own; a link inside the stories, which render plays, still counts.
    @Test func anUploadMatchingAClipRenderSkipsGoesIn() throws {
        let folder = try TemporaryFolder()
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let other = TestEnvironment.sample("sixty-fps.mp4")
        let outside = folder.path("outside.mp4")
        try FileManager.default.copyItem(atPath: clip, toPath: outside)
        let stories = folder.path("stories")
        for (story, setUp) in [
            (
                "linked",
                { (path: String) in
                    try FileManager.default.createSymbolicLink(atPath: "\(path)/link.mp4", withDestinationPath: outside)
                }
            ),
            (
                "spelled",
                { (path: String) in
                    try FileManager.default.copyItem(atPath: other, toPath: "\(path)/cafe\u{301}.mp4")
                    try FileManager.default.copyItem(atPath: clip, toPath: "\(path)/caf\u{E9}.mp4")
                }
            ),
        ] as [(String, (String) throws -> Void)] {
            let path = "\(stories)/\(story)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try setUp(path)
            let result = try TestEnvironment.storyreel(["ingest", clip, "--story", story, "--into", stories])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("ingested as \(story)/0001-portrait-h264.mp4\n"), "\(result.stdout)")
        }
        // The twin render plays is already there: an upload equal to it does not go in again (a
        // re-check: its size was looked up under its twin's name, which a String key took for
        // the same, and the upload went in as 0002).
        let played = try TestEnvironment.storyreel(["ingest", other, "--story", "spelled", "--into", stories])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.hasSuffix("already ingested as spelled/cafe\u{301}.mp4\n"), "\(played.stdout)")
        // A link to a clip inside the stories plays: the same upload is already there.
        let inside = "\(stories)/inside"
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: "\(inside)/link.mp4", withDestinationPath: "../linked/0001-portrait-h264.mp4")
        let again = try TestEnvironment.storyreel(["ingest", clip, "--story", "inside", "--into", stories])
        #expect(again.stdout.hasSuffix("already ingested as inside/link.mp4\n"), "\(again.stdout)")
    }

    @Test func theSequenceRunsOnPast9999ButNotAcrossAGap() throws {
        let fixture = try BundleFixture()
        let story = "\(fixture.stories)/ben_k"
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(story)/9999.mp4")
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("edit-list.mp4"), toPath: "\(story)/20240101.mp4")
        func ingest(_ clip: String, expecting expected: String) throws {
            let result = try TestEnvironment.storyreel([
                "ingest", TestEnvironment.sample(clip), "--story", "ben_k", "--into", fixture.stories,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("ingested as ben_k/\(expected)\n"), "\(result.stdout)")
            #expect(result.stderr.contains("plays before 20240101.mp4"), "the date plays after: \(result.stderr)")
        }
        try ingest("sixty-fps.mp4", expecting: "10000-sixty-fps.mp4")
        try ingest("black-intro.mp4", expecting: "10001-black-intro.mp4")
        // A gap in the sequence (a clip renamed or taken out) is run on across: after 10003 the
        // next is 10004, not 10002, which would play before it (a re-check).
        try FileManager.default.moveItem(
            atPath: "\(story)/10001-black-intro.mp4", toPath: "\(story)/10003-black-intro.mp4")
        try ingest("stories/ana.lima/IMG_0001.MOV", expecting: "10004-IMG_0001.MOV")
    }

    @Test func newStoryIsCreatedAndBadHandleOrLongClipIsRefused() throws {
        let fixture = try BundleFixture()
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let created = try TestEnvironment.storyreel(["ingest", clip, "--story", "new.user", "--into", fixture.stories])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(fixture.stories)/new.user/0001-portrait-h264.mp4"))
        let badHandle = try TestEnvironment.storyreel(["ingest", clip, "--story", "../etc", "--into", fixture.stories])
        #expect(badHandle.status == 64)
        // A new story folder named like an option ('rm *' in STORIES would read '-rf' as one) is
        // not made; an existing one is still ingested into.
        let dash = try TestEnvironment.storyreel(["ingest", clip, "--story=-rf", "--into", fixture.stories])
        #expect(dash.status == 64)
        #expect(dash.stderr.contains("--story '-rf': a new story's handle may not start with '-'"), "\(dash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/-rf"))
        try FileManager.default.createDirectory(
            atPath: "\(fixture.stories)/-made-by-hand", withIntermediateDirectories: false)
        let existing = try TestEnvironment.storyreel([
            "ingest", clip, "--story=-made-by-hand", "--into", fixture.stories,
        ])
        #expect(existing.status == 0, "\(existing.stderr)")
        let tooLong = try TestEnvironment.storyreel(
            ["ingest", clip, "--story", "other", "--into", fixture.stories, "--max-duration", "1"])
        #expect(tooLong.status == 65)
        #expect(tooLong.stderr.contains("longer than --max-duration"))
        let data = try Data(contentsOf: URL(fileURLWithPath: clip))
        let truncated = fixture.folder.path("upload-cut.mp4")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        let cut = try TestEnvironment.storyreel(["ingest", truncated, "--story", "other", "--into", fixture.stories])
        #expect(cut.status == 65)
        #expect(cut.stderr.contains("\(truncated): rejected: the moov index points"))
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/other/0001-upload-cut.mp4"))
    }

    @Test func ingestThenRenderUpdatesTheBundle() throws {
        let fixture = try BundleFixture()
        let clip = TestEnvironment.sample("sixty-fps.mp4")
        let bundle = fixture.folder.path("reel")
        let result = try TestEnvironment.storyreel(
            ["ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", bundle])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        #expect(manifest.story(id: "chloe")?.items.count == 3)
    }

    /// A clip just over `--max-duration` is named with as many decimals as show it longer: a
    /// clip of 5.033 s read "5.0 s is longer than --max-duration 5 s" (a QA pass).
    @Test func aClipJustOverTheMaximumSaysByHowMuch() throws {
        let fixture = try BundleFixture()
        let clip = fixture.folder.path("151-frames.mp4")
        let made = try TestEnvironment.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=90x160:rate=30", "-frames:v", "151", "-pix_fmt",
                "yuv420p", clip,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let result = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ana", "--into", fixture.stories, "--max-duration", "5",
        ])
        #expect(result.status == 65)
        #expect(result.stderr == "storyreel: error: \(clip): rejected: 5.03 s is longer than --max-duration 5 s\n")
    }

    /// From the audio QA pass: 3 s of video with 10 s of audio was "10.0 s is longer than
    /// --max-duration 5 s", which read as wrong to someone who filmed 3 s.
    @Test func aClipLongerForItsAudioSaysSo() throws {
        let fixture = try BundleFixture()
        let clip = fixture.folder.path("long-audio.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=90x160:rate=30:duration=3", "-f", "lavfi", "-i", "sine=d=10",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", clip,
        ])
        let result = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ana", "--into", fixture.stories, "--max-duration", "5",
        ])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "storyreel: error: \(clip): rejected: 10.0 s is longer than --max-duration 5 s "
                + "(its video lasts 3.0 s; its audio runs on)\n")
    }

    /// From the phone-uploads QA pass: audio muxed a little past the last picture, as phones
    /// and apps do, made a clip of exactly the limit's video "longer than --max-duration". Up to
    /// 0.1 s past its video, a clip is measured by its video; more is measured by its container.
    @Test(arguments: [(2.04, true), (2.3, false)])
    func audioAFramePastTheVideoDoesNotMakeAClipTooLong(audioSeconds: Double, accepted: Bool) throws {
        let fixture = try BundleFixture()
        let clip = fixture.folder.path("phone.mp4")
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=90x160:r=30:d=2", "-f", "lavfi", "-i", "sine=d=\(audioSeconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", clip,
        ])
        let result = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ana", "--into", fixture.stories, "--max-duration", "2",
        ])
        if accepted {
            #expect(result.status == 0, "\(result.stderr)")
        } else {
            #expect(result.status == 65)
            #expect(result.stderr.contains("rejected: 2.3"), "\(result.stderr)")
            #expect(result.stderr.contains(" s is longer than --max-duration 2 s"), "\(result.stderr)")
        }
    }

    /// `--json`: one object on stdout, each clip's outcome in argument order with its file in
    /// the stories folder or its reason, and the render's summary; no per-clip lines beside it.
    /// A clip name holding `: ingested as ` made the lines of several clips ambiguous (a QA
    /// pass); the object is not. A run that fails before any clip prints `{error, exitCode}`.
    @Test func jsonGivesEachClipsOutcomeAndTheRendersSummary() throws {
        let fixture = try BundleFixture()
        let odd = fixture.folder.path("a: ingested as b.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: odd)
        let garbage = fixture.folder.path("broken.mp4")
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: garbage))
        let bundle = fixture.folder.path("reel")
        let first = try TestEnvironment.storyreel([
            "ingest", odd, garbage, "--story", "chloe", "--into", fixture.stories, "--render", bundle, "--json",
        ])
        #expect(first.status == 65, "the garbage is rejected: \(first.stderr)")
        #expect(first.stderr.contains("\(garbage): rejected"), "errors stay on stderr")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(object["story"] as? String == "chloe")
        #expect(object["stories"] as? String == fixture.stories)
        let entries = try #require(object["clips"] as? [[String: Any]])
        #expect((entries[0]["warnings"] as? [String]) == [], "an ingested clip's warnings, none here")
        #expect(
            (entries[0]["playsBefore"] as? [String]) == ["morning.mp4", "night.mp4"], "chloe's names are not numbered")
        let clips = entries.map { $0.compactMapValues { $0 as? String } }
        #expect(clips.map { $0["clip"] } == [odd, garbage])
        #expect(clips.map { $0["outcome"] } == ["ingested", "rejected"])
        #expect(entries.map { $0["exitCode"] as? Int } == [0, 65], "each clip's own exit code")
        let file = try #require(clips[0]["file"])
        #expect(file.hasPrefix("chloe/") && file.hasSuffix("-a: ingested as b.mp4"))
        #expect(FileManager.default.fileExists(atPath: "\(fixture.stories)/\(file)"))
        #expect(clips[1]["reason"]?.isEmpty == false && clips[1]["file"] == nil)
        let render = try #require(object["render"] as? [String: Any])
        #expect(render["manifest"] as? String == "\(bundle)/manifest.json")
        #expect(try fixture.manifest("reel").story(id: "chloe")?.items.count == 3)

        let again = try TestEnvironment.storyreel([
            "ingest", odd, "--story", "chloe", "--into", fixture.stories, "--json",
        ])
        #expect(again.status == 0)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect((second["clips"] as? [[String: Any]])?.first?["outcome"] as? String == "already-ingested")
        #expect((second["clips"] as? [[String: Any]])?.first?["file"] as? String == file)
        #expect(second["render"] is NSNull)

        // A backend batching uploads tells "try again" (75) and "not there" (66) from a damaged
        // upload (65) by each clip's exitCode, not by its reason's text (a scripting QA pass).
        let gone = fixture.folder.path("gone.mp4")
        let batch = try TestEnvironment.storyreel([
            "ingest", odd, gone, garbage, "--story", "chloe", "--into", fixture.stories, "--json",
        ])
        #expect(batch.status == 66, "a clip not there outranks a rejected one: \(batch.stderr)")
        let third = try #require(try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any])
        let outcomes = try #require(third["clips"] as? [[String: Any]])
        #expect(outcomes.map { $0["outcome"] as? String } == ["already-ingested", "not-ingested", "rejected"])
        #expect(outcomes.map { $0["exitCode"] as? Int } == [0, 66, 65])

        let missing = try TestEnvironment.storyreel([
            "ingest", odd, "--story", "chloe", "--into", fixture.folder.path("nope"), "--json",
        ])
        #expect(missing.status == 66)
        let failure = try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [String: Any]
        #expect(failure?["exitCode"] as? Int == 66)
    }

    // The old code followed the link and wrote the clip into the folder outside STORIES (exit 0),
    // which render then skipped as leading outside the stories input.
    /// From a QA pass: a new story's folder was made before its upload was inspected, so for
    /// 30–190 ms it stood empty, and a render listing the stories then skipped it as a story
    /// with no clip (65). It is made just before the copy goes in, so a render finds it holding
    /// the copy, which it leaves out with a warning (exit 0). The ingest is stopped as soon as
    /// the folder appears, and the render runs while it is stopped.
    // The old code made the folder first, then the copy: a render in between (a CI run under
    // load) skipped the story as one with no clip (65).
    @Test func aNewStorysFolderIsNeverThereWithoutItsClip() throws {
        let fixture = try BundleFixture()
        let folder = "\(fixture.stories)/newcomer"
        let ingest = Process()
        ingest.executableURL = URL(fileURLWithPath: TestEnvironment.storyreelBinary)
        ingest.arguments = [
            "ingest", TestEnvironment.sample("iphone-hevc-hdr.mov"), "--story", "newcomer", "--into", fixture.stories,
            "--quiet",
        ]
        try ingest.run()
        defer {
            kill(ingest.processIdentifier, SIGCONT)
            ingest.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ingest.isRunning, !FileManager.default.fileExists(atPath: folder) { usleep(50) }
        try #require(kill(ingest.processIdentifier, SIGSTOP) == 0 || !ingest.isRunning)
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(contents == ["0001-iphone-hevc-hdr.mov"], "the new story's folder comes with its clip")
        let (render, _) = try fixture.render(into: "reel")
        #expect(render.status == 0, "\(render.stderr)")
        #expect(!render.stderr.contains("no playable clip"), "\(render.stderr)")
    }

    @Test func storyFolderLinkedOutsideStoriesIsRefusedAndNothingIsWritten() throws {
        let fixture = try BundleFixture()
        let elsewhere = fixture.folder.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: "\(fixture.stories)/evil", withDestinationPath: elsewhere)
        let before = FolderSnapshot(fixture.stories)
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let result = try TestEnvironment.storyreel(["ingest", clip, "--story", "evil", "--into", fixture.stories])
        #expect(result.status == 73)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "storyreel: error: \(fixture.stories)/evil: it leads outside the stories input (a link or '..'); "
                + "only links inside it are followed\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(FolderSnapshot(fixture.stories) == before, "not even the lock file")
        // A link that stays inside STORIES is followed, as render follows it.
        try FileManager.default.createSymbolicLink(atPath: "\(fixture.stories)/alias", withDestinationPath: "ben_k")
        let inside = try TestEnvironment.storyreel(["ingest", clip, "--story", "alias", "--into", fixture.stories])
        #expect(inside.status == 0, "\(inside.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(fixture.stories)/ben_k/0011-portrait-h264.mp4"))
    }

    // The old code rejected these legal names (65, "File name too long": `0001-` and the
    // temporary name's `.` and `.XXXXXX.storyreel-tmp` made them longer than 255 bytes) and left
    // the new, empty story folder behind.
    @Test func longClipNamesAreShortenedToFitKeepingTheExtension() throws {
        let fixture = try BundleFixture()
        let sample = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("portrait-h264.mp4")))
        let ascii = String(repeating: "a", count: 246) + ".mp4"  // 250 bytes
        let accented = String(repeating: "é", count: 125) + ".MOV"  // 254 bytes, 2 bytes a letter
        var unique = sample
        unique.append(contentsOf: [0, 0, 0, 9] + Array("free".utf8) + [1])
        let clips = [try fixture.folder.write(ascii, sample), try fixture.folder.write(accented, unique)]
        let result = try TestEnvironment.storyreel(["ingest"] + clips + ["--story", "long", "--into", fixture.stories])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(fixture.stories)/long").sorted()
        #expect(names.count == 2, "\(names)")
        for name in names {
            #expect(name.utf8.count <= 255, "\(name.utf8.count) bytes")
            #expect(!name.unicodeScalars.contains("\u{FFFD}"), "cut on a character boundary")
        }
        #expect(names.first == "0001-" + String(repeating: "a", count: 246) + ".mp4", "fits: 255 bytes")
        #expect(
            names.last == "0002-" + String(repeating: "é", count: 123) + ".MOV", "the stem is cut, not the extension")
        #expect(result.stdout.contains("ingested as long/\(names[1])"))
        let copied = try Data(contentsOf: URL(fileURLWithPath: "\(fixture.stories)/long/\(names[1])"))
        #expect(copied == unique)
    }

    // The old code kept them: a clip named with a newline, a tab and a terminal escape went in
    // as `0001-new<LF>line<TAB>x<ESC>[31m.mp4`, which breaks a shell loop over the story. A QA
    // pass: U+2028 and the bidirectional overrides were kept too (`ls` showed a clip as a .jpg).
    @Test func controlCharactersInAClipNameBecomeUnderscores() throws {
        let fixture = try BundleFixture()
        let clip = try fixture.folder.write(
            "new\nline\tx\u{1B}[31m\u{7F}\u{85}é\u{2028}\u{202E}4pm.jpg\u{2066}.mp4",
            try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("portrait-h264.mp4"))))
        let result = try TestEnvironment.storyreel(["ingest", clip, "--story", "odd", "--into", fixture.stories])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: "\(fixture.stories)/odd") == [
                "0001-new_line_x_[31m__é__4pm.jpg_.mp4"
            ])
    }

    // From the QA pass: the old ingest took an upload whose index was whole over pictures that
    // do not decode (render then skipped it), and stored an upload named without a clip
    // extension under that name, which render does not play.
    @Test func anUploadMustDecodeAndIsStoredUnderAClipName() throws {
        let fixture = try BundleFixture()
        // Not zeros, which say "preallocated" (``InspectBadInputTests``), but bytes as garbled.
        let broken = try fixture.folder.write(
            "broken.mp4", HostileFiles.goodClipWithPicturesZeroed(from: 0, filler: 0x01, sparing: 8))
        let bare = fixture.folder.path("upload")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: bare)
        let result = try TestEnvironment.storyreel([
            "ingest", broken, bare, "--story", "new", "--into", fixture.stories,
        ])
        #expect(result.status == 65)
        #expect(result.stderr == "storyreel: error: \(broken): rejected: no decodable video frame\n")
        #expect(result.stdout == "\(bare): ingested as new/0001-upload.mp4\n")
        let (render, _) = try fixture.render(into: "reel")
        #expect(render.status == 0, "\(render.stderr)")
        let manifest = try fixture.manifest("reel")
        #expect(manifest.stories.first { $0.id == "new" }?.items.count == 1, "it plays")
    }

    // The old code called a clip it could not write (a full disk) "rejected" and exited 65, so a
    // script that sets aside bad uploads set aside good ones.
    @Test func aClipThatCannotBeWrittenIsNotRejectedAndTheRunExits74() throws {
        let fixture = try BundleFixture()
        let small = TestEnvironment.sample("sixty-fps.mp4")  // 391 KB
        let large = TestEnvironment.sample("portrait-h264.mp4")  // 741 KB
        let garbage = try fixture.folder.write("broken.mp4", Data(repeating: 7, count: 1000))
        // Files over 500 kB cannot be written (EFBIG, as a full disk gives ENOSPC), SIGXFSZ ignored.
        let result = try TestEnvironment.run(
            "/bin/sh",
            [
                "-c", "trap '' XFSZ; exec prlimit --fsize=500000 \"$0\" \"$@\"", TestEnvironment.storyreelBinary,
                "ingest", garbage, large, small, "--story", "new", "--into", fixture.stories,
            ])
        #expect(result.status == 74, "\(result.stderr)")
        // The number the unwritten clip tried is not used up: the next clip takes it.
        #expect(result.stdout == "\(small): ingested as new/0001-sixty-fps.mp4\n")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 2 && errors[0].hasPrefix("storyreel: error: \(garbage): rejected: "), "\(errors)")
        #expect(
            errors.last
                == "storyreel: error: \(large): not ingested: \(fixture.stories)/new/0001-portrait-h264.mp4: "
                + "cannot write: File too large")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(fixture.stories)/new") == ["0001-sixty-fps.mp4"])
    }

    static let canMountTmpfs = MountNamespace.allows("mount -t tmpfs -o size=64k,nr_inodes=8 none /mnt")

    /// From an ingest QA pass: out of inodes, where a file could not be created, ingest exited
    /// 73, which a backend reads as a setting to fix; out of blocks it exits 74. A full disk is
    /// 74 whatever ran out (a tmpfs of 4 inodes, in a mount namespace of the test's own).
    @Test(.enabled(if: canMountTmpfs, "needs a mount namespace (root with CAP_SYS_ADMIN)"))
    func aDiskOutOfInodesIsAFullDisk() throws {
        let folder = try TemporaryFolder()
        let volume = folder.path("small")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: false)
        let result = try MountNamespace.run(
            "mount -t tmpfs -o size=5m,nr_inodes=4 none \"$2\" && exec \"$0\" ingest \"$1\" --story ana "
                + "--into \"$2/stories\" --create",
            [TestEnvironment.sample("sixty-fps.mp4"), volume])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
    }

    // The old ingest had no --lock-timeout: it waited 60 s, then named an option it refused (64).
    @Test func aLockedStoriesFolderIsWaitedForUpToTheLockTimeout() throws {
        let fixture = try BundleFixture()
        let lockFile = "\(fixture.stories)/.storyreel-ingest.lock"
        let holder = open(lockFile, O_RDWR | O_CREAT, 0o644)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let started = Date()
        let result = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "new", "--into", fixture.stories, "--lock-timeout", "0.5",
        ])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: waiting for the lock on \(fixture.stories) (held by pid "
                + "\(ProcessInfo.processInfo.processIdentifier))…\n"
                + "storyreel: error: \(fixture.stories): another storyreel run holds the lock; gave up after 0.5 s "
                + "(--lock-timeout)\n")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/new"))
    }

    /// From a QA pass: with the bundle's lock held, `ingest --render -q` exited 75 with the
    /// render's line alone, nothing saying the clip had gone in. The line now says so.
    @Test func aRenderThatFailsAfterTheIngestSaysTheClipsAreIn() throws {
        let fixture = try BundleFixture()
        let reel = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: reel, withIntermediateDirectories: true)
        let holder = open("\(reel)/.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("sixty-fps.mp4"), "--story", "new", "--into", fixture.stories, "-q",
            "--render", reel, "--lock-timeout", "0.3",
        ])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: error: \(reel): another storyreel run holds the lock; gave up after 0.3 s "
                + "(--lock-timeout) (1 clip was ingested into '\(fixture.stories)'; render again to update the bundle)\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(fixture.stories)/new") == ["0001-sixty-fps.mp4"])
    }

    // The old code ingested the clip (printing its line on stdout) and only then refused OUT.
    @Test func badRenderOutputIsRefusedBeforeAnyClipIsIngested() throws {
        let fixture = try BundleFixture()
        let clip = TestEnvironment.sample("sixty-fps.mp4")
        let before = FolderSnapshot(fixture.stories)
        let inside = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", "\(fixture.stories)/reel",
        ])
        #expect(inside.status == 64)
        #expect(inside.stdout.isEmpty)
        #expect(inside.stderr.contains("inside the stories input"))
        let file = try fixture.folder.write("reel.mp4", Data("not a folder".utf8))
        let onFile = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", file,
        ])
        #expect(onFile.status == 73)
        #expect(onFile.stdout.isEmpty)
        #expect(onFile.stderr.contains("\(file): exists and is not a folder"))
        #expect(FolderSnapshot(fixture.stories) == before)
        // A folder of other files: the advice is one ingest can follow (it takes no --force; the
        // old line told it to pass one, which ingest then refused with 64).
        let other = fixture.folder.path("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        _ = try fixture.folder.write("other/notes.txt", Data("mine".utf8))
        let foreign = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", other,
        ])
        #expect(foreign.status == 73)
        #expect(foreign.stderr.contains("or render there once with `storyreel render --force`"), "\(foreign.stderr)")
        #expect(!foreign.stderr.contains("pass --force"))
        #expect(FolderSnapshot(fixture.stories) == before)
        // From a QA pass: these were found only by the render, after the clip went in.
        let dangling = fixture.folder.path("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent/zz")
        let linkedClips = fixture.folder.path("linked")
        try FileManager.default.createDirectory(atPath: linkedClips, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: "\(linkedClips)/clips", withDestinationPath: other)
        for (output, line) in [
            (dangling, "\(dangling): is a symbolic link that leads to nothing"),
            ("\(file)/x", "\(file)/x: \(file) is a file, not a folder"),
            (linkedClips, "\(linkedClips)/clips: is a symbolic link, not a folder"),
        ] {
            let refused = try TestEnvironment.storyreel([
                "ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", output,
            ])
            #expect(refused.status == 73, "\(output): \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("storyreel: error: \(line)"), "\(refused.stderr)")
            #expect(FolderSnapshot(fixture.stories) == before)
        }
        // A stories folder --create would make is not made either.
        let fresh = fixture.folder.path("fresh")
        let created = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "chloe", "--into", fresh, "--create", "--render", "\(fresh)/reel",
        ])
        #expect(created.status == 64)
        #expect(created.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    /// Duplicates are found by content among the clips of the upload's size: a clip of the same
    /// size but other bytes is a new clip, the same bytes under another name are already there.
    @Test func aDuplicateIsTheSameBytesNotTheSameSize() throws {
        let fixture = try BundleFixture()
        let original = TestEnvironment.sample("portrait-h264.mp4")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        let twin = fixture.folder.path("twin.mp4")
        try FileManager.default.copyItem(atPath: original, toPath: twin)
        // The same size, one byte of the last sample changed: still a valid clip, other bytes.
        bytes[bytes.count - 1] ^= 0x01
        let altered = try fixture.folder.write("altered.mp4", Data(bytes))
        let first = try TestEnvironment.storyreel(["ingest", original, "--story", "new.one", "--into", fixture.stories])
        #expect(first.status == 0, "\(first.stderr)")
        let again = try TestEnvironment.storyreel([
            "ingest", twin, altered, "--story", "new.one", "--into", fixture.stories,
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("\(twin): already ingested as new.one/0001-portrait-h264.mp4"), "\(again.stdout)")
        #expect(again.stdout.contains("\(altered): ingested as new.one/0002-altered.mp4"), "\(again.stdout)")
    }

    /// From a QA pass: an ingest killed (SIGKILL) between renaming the clip into the story and
    /// taking storyreel's mark off it left the user's clip marked as storyreel's own, for good,
    /// and an `-o` output at its path (`thumbnail -o`, `cube -o`) then replaced it without `--force`. The ingest run again
    /// finds the clip already there and takes the mark off.
    @Test func anIngestRunAgainTakesOffAMarkAKillLeftOnTheClip() throws {
        let fixture = try BundleFixture()
        let upload = TestEnvironment.sample("portrait-h264.mp4")
        let first = try TestEnvironment.storyreel(["ingest", upload, "--story", "new.one", "--into", fixture.stories])
        #expect(first.status == 0, "\(first.stderr)")
        let stored = "\(fixture.stories)/new.one/0001-portrait-h264.mp4"
        #expect(OutputMark.isUnmarked(stored) && OutputMark.isUnmarked("\(fixture.stories)/new.one"))
        try TestEnvironment.markAsStoryreels(stored)  // the mark a kill leaves
        let again = try TestEnvironment.storyreel(["ingest", upload, "--story", "new.one", "--into", fixture.stories])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("already ingested as new.one/0001-portrait-h264.mp4"), "\(again.stdout)")
        #expect(OutputMark.isUnmarked(stored), "the mark is off")
        let cube = try TestEnvironment.storyreel(["cube", upload, upload, "-o", stored, "--size", "64x64"])
        #expect(cube.status == 73, "\(cube.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: stored)) == Data(contentsOf: URL(fileURLWithPath: upload)))
    }

    // The old code printed `CLIP: ingested as …` on stdout and the plays-before warning under
    // --quiet, whose help says "Print only errors".
    @Test func quietPrintsOnlyErrors() throws {
        let fixture = try BundleFixture()
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let quiet = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ana.lima", "--into", fixture.stories, "--quiet",
        ])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(fixture.stories)/ana.lima/0001-portrait-h264.mp4"))
        let again = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ana.lima", "--into", fixture.stories, "-q",
        ])
        #expect(again.status == 0)
        #expect(again.stdout.isEmpty && again.stderr.isEmpty, "already ingested: nothing either")
        let garbage = try fixture.folder.write("broken.mp4", Data(repeating: 7, count: 1000))
        let rejected = try TestEnvironment.storyreel([
            "ingest", garbage, "--story", "ana.lima", "--into", fixture.stories, "-q",
        ])
        #expect(rejected.status == 65)
        #expect(rejected.stdout.isEmpty)
        #expect(rejected.stderr.hasPrefix("storyreel: error: \(garbage): rejected: "), "errors still print")
    }
}
