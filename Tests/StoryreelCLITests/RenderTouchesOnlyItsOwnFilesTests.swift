import Foundation
import StoryMedia
import StoryreelKit
import StoryreelTestSupport
import Testing

/// `render -o OUT` removes or overwrites only what storyreel wrote: the stale-temp sweep,
/// `--prune`, folders that are not bundles, OUT inside INPUT, and failed starts.
@Suite struct RenderTouchesOnlyItsOwnFilesTests {
    /// A folder a user cares about: a git checkout with dot-files, dot-folders and their files.
    func makeUserFolder(_ path: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: "\(path)/.git/objects", withIntermediateDirectories: true)
        try Data("ref: refs/heads/main\n".utf8).write(to: URL(fileURLWithPath: "\(path)/.git/HEAD"))
        try Data("blob".utf8).write(to: URL(fileURLWithPath: "\(path)/.git/objects/ab12"))
        try Data("API_KEY=secret\n".utf8).write(to: URL(fileURLWithPath: "\(path)/.env"))
        try Data("old temp-looking file".utf8).write(to: URL(fileURLWithPath: "\(path)/.draft.swp.tmp"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(path)/notes.txt"))
    }

    @Test func nonEmptyFolderThatIsNotABundleIsRefusedWith73AndLeftAlone() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("checkout")
        try makeUserFolder(out)
        let before = FolderSnapshot(out)
        let (result, _) = try fixture.render(into: "checkout")
        #expect(result.status == 73)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("not a storyreel bundle") && lines[0].contains("--force"))
        #expect(FolderSnapshot(out) == before, "nothing was created, changed or removed")
    }

    /// The refusal of a folder that is not a bundle names the person's file. From the disk-full
    /// QA pass: a folder that held a person's file and storyreel's record of `cube --frames-dir`
    /// was refused naming the record, `.storyreel-frames`, which sorts first. From a later pass:
    /// OUT holding only `avatars/logo.png` was refused as holding `avatars`, one of storyreel's
    /// own names.
    @Test(arguments: [
        (files: [".storyreel-frames": "{}", "f": "mine"], named: "f"),
        (files: ["avatars/logo.png": "logo"], named: "avatars/logo.png"),
    ])
    func theRefusalNamesThePersonsFile(files: [String: String], named: String) throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("out")
        for (name, text) in files {
            let path = "\(out)/\(name)"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let before = FolderSnapshot(out)
        let (refused, _) = try fixture.render(into: "out")
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("not a storyreel bundle (it holds \(named));"), "\(refused.stderr)")
        #expect(FolderSnapshot(out) == before)
    }

    /// A QA pass: a folder holding only someone's `index.html` (a web site's root) was taken
    /// for a bundle, rendered into without `--force` (exit 0), and `plan --bundle` planned it
    /// without a warning. A page of storyreel's, copied without the rest, is still a bundle's.
    @Test func aFolderHoldingOnlySomeonesIndexPageIsNotABundle() throws {
        let fixture = try BundleFixture()
        let site = fixture.folder.path("site")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: false)
        try Data("<!doctype html><title>My site</title>\n".utf8).write(to: URL(fileURLWithPath: "\(site)/index.html"))
        let before = FolderSnapshot(site)
        let (refused, _) = try fixture.render(into: "site")
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("not a storyreel bundle (it holds index.html)"), "\(refused.stderr)")
        #expect(FolderSnapshot(site) == before, "nothing was created, changed or removed")
        let plan = try TestEnvironment.storyreel(["plan", fixture.stories, "--bundle", site])
        #expect(plan.stderr.contains("not a storyreel bundle"), "\(plan.stderr)")

        _ = try fixture.render(into: "bundle")
        let copied = fixture.folder.path("copied")
        try FileManager.default.createDirectory(atPath: copied, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: fixture.folder.path("bundle/index.html"), toPath: "\(copied)/index.html")
        let (rendered, _) = try fixture.render(into: "copied")
        #expect(rendered.status == 0, "\(rendered.stderr)")
    }

    @Test func forceRendersButTouchesNothingThatIsNotStoryreels() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("checkout")
        try makeUserFolder(out)
        // The user's own files inside what become storyreel's folders, dot-files included.
        try FileManager.default.createDirectory(atPath: "\(out)/clips", withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: "\(out)/clips/.keep"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(out)/clips/.mine.abcdef.tmp"))
        let before = FolderSnapshot(out)
        for run in 0..<2 {
            let (result, _) = try fixture.render(into: "checkout", ["--force", "--prune"])
            #expect(result.status == 0, "run \(run): \(result.stderr)")
        }
        let after = FolderSnapshot(out)
        #expect(before.changed(in: after).isEmpty, "changed or removed: \(before.changed(in: after))")
        #expect(FileManager.default.fileExists(atPath: "\(out)/manifest.json"))
    }

    @Test func staleTempSweepRemovesOnlyStoryreelTempNamesInItsOwnFolders() throws {
        let fixture = try BundleFixture()
        let (first, _) = try fixture.render(into: "reel")
        #expect(first.status == 0, "\(first.stderr)")
        let out = fixture.folder.path("reel")
        // What a killed render leaves: storyreel temp names in its folders and in .storyreel/.
        let stale = [
            "clips/.0123456789abcdef.mov.Ab3dE9.storyreel-tmp", "transitions/.k.mp4.zzzzzz.storyreel-tmp",
            ".storyreel/.stat-cache.json.q1w2e3.storyreel-tmp",
        ]
        // What a user keeps there, which merely looks hidden or temporary; the last of exactly a
        // temporary file's shape, but without storyreel's mark (a QA pass: it went).
        let kept = [
            ".env", ".manifest.json.Ab3dE9.storyreel-tmp", "posters/.DS_Store", "thumbs/.note.tmp",
            "clips/.x.mov.toolong7.storyreel-tmp", "stills/.mine.jpg.Xy34Zw.storyreel-tmp",
        ]
        for path in stale + kept { try Data("x".utf8).write(to: URL(fileURLWithPath: "\(out)/\(path)")) }
        for path in stale { try TestEnvironment.markAsStoryreels("\(out)/\(path)") }
        // `render --link` stages a clip as a hard link to its source, which cannot carry the mark
        // (its inode is the source's): a killed run's one is swept as a second name of a file (a
        // QA pass: it stayed for good); an unmarked one with no other name is someone's.
        let source = "\(fixture.stories)/chloe/night.mp4"
        let linked = "\(out)/clips/.0123456789abcdee.mp4.Lk3dE9.storyreel-tmp"
        try FileManager.default.linkItem(atPath: source, toPath: linked)
        let single = "clips/.0123456789abcded.mp4.Qw3rt5.storyreel-tmp"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(out)/\(single)"))
        // Only one staged for a clip's name: a user's hard link of that shape staged for another
        // name was taken away too (a safety QA pass).
        let notes = fixture.folder.path("mine.txt")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: notes))
        let userLink = "clips/.mine.txt.Abc123.storyreel-tmp"
        try FileManager.default.linkItem(atPath: notes, toPath: "\(out)/\(userLink)")
        try FileManager.default.createDirectory(
            atPath: "\(out)/avatars/.folder.abcdef.storyreel-tmp", withIntermediateDirectories: true)
        let (again, _) = try fixture.render(into: "reel", ["--force"])
        #expect(again.status == 0, "\(again.stderr)")
        for path in stale { #expect(!FileManager.default.fileExists(atPath: "\(out)/\(path)"), "\(path) removed") }
        for path in kept + [single, userLink] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(path)"), "\(path) kept")
        }
        #expect(FileManager.default.fileExists(atPath: "\(out)/avatars/.folder.abcdef.storyreel-tmp"), "no folder")
        #expect(!FileManager.default.fileExists(atPath: linked), "the stale hard link removed")
        #expect(FileManager.default.fileExists(atPath: source), "its source kept")
    }

    /// A shard shares its bundle with other shards at work, whose finished files wait for their
    /// names unlocked, so it removes only temporary files untouched for 10 minutes: a SIGKILLed
    /// shard's (a QA pass: they stayed through every later run of the shards, only a whole
    /// render removed them).
    @Test func aShardRemovesOnlyTemporariesUntouchedForTenMinutes() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel", ["--shard", "1/2"]).0.status == 0)
        let out = fixture.folder.path("reel")
        let old = "\(out)/transitions/.0123456789abcdef0123.mp4.Ab3dE9.storyreel-tmp"
        let fresh = "\(out)/posters/.0123456789abcdef0123.jpg.Xy34Zw.storyreel-tmp"
        for path in [old, fresh] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
            try TestEnvironment.markAsStoryreels(path)
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -660)], ofItemAtPath: old)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -300)], ofItemAtPath: fresh)
        let (again, _) = try fixture.render(into: "reel", ["--shard", "2/2"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: old), "a killed shard's file removed")
        #expect(FileManager.default.fileExists(atPath: fresh), "one that may be a live shard's kept")
    }

    /// From an incremental-render QA pass: a `--link` copy whose source was edited in place
    /// (the same inode, as `ffmpeg -y` rewrites its output) held the edit under the old content's
    /// name, and `--prune` left it for good as changed since it was written. It is a link to a
    /// source the input still holds, so it goes; the source stays.
    @Test func pruneRemovesALinkedCopyWhoseSourceWasEditedInPlace() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel", ["--link"]).0.status == 0)
        let clip = "\(fixture.stories)/chloe/night.mp4"
        let handle = try #require(FileHandle(forWritingAtPath: clip))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("sixty-fps.mp4"))))
        try handle.close()
        let (result, _) = try fixture.render(into: "reel", ["--link", "--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        let clips = Set(fixture.outputs("reel").filter { $0.hasPrefix("clips/") })
        let referenced = Set(try fixture.manifest("reel").stories.flatMap(\.items).map(\.src))
        #expect(clips == referenced, "a clip the manifest does not use: \(clips.subtracting(referenced))")
        #expect(FileManager.default.fileExists(atPath: clip), "the source is kept")
    }

    /// From a re-check QA pass: `--reference --prune` removed the input clips it plays when they
    /// lay in OUT's `clips/` under their own hash's name (a spec there naming them): taken for
    /// copies no ledger records, their `src` not among what the manifest uses. Both the user's
    /// files and a copy an earlier render made and the spec now names stay.
    @Test func referencePruneKeepsTheClipsItPlaysFromTheBundlesClipsFolder() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        let earlier = try #require(try fixture.manifest("reel").stories.first?.items.first?.src)
        let own = TestEnvironment.sample("sixty-fps.mp4")
        let sha = try ContentHasher.sha256(ofFileAt: own)
        let users = "clips/\(sha.prefix(16)).mp4"
        try FileManager.default.copyItem(atPath: own, toPath: "\(out)/\(users)")
        let names = [users, earlier].map { ($0 as NSString).lastPathComponent }
        let spec =
            #"{"stories": [{"handle": "ana", "items": ["\#(names[0])"]}, {"handle": "ben", "items": ["\#(names[1])"]}]}"#
        try Data(spec.utf8).write(to: URL(fileURLWithPath: "\(out)/clips/spec.json"))
        let result = try TestEnvironment.storyreel([
            "render", "\(out)/clips/spec.json", "-o", out, "--reference", "--prune", "--size",
            BundleFixture.canvasArgument,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for path in [users, earlier] { #expect(FileManager.default.fileExists(atPath: "\(out)/\(path)"), "\(path)") }
        let validate = try TestEnvironment.storyreel(["validate", out])
        #expect(validate.status == 0, "\(validate.stderr)")
    }

    @Test func pruneRemovesOnlyOutputsTheLedgerRecords() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let out = fixture.folder.path("reel")
        // Files storyreel did not write, one of them with a key-shaped name.
        let foreign = ["clips/my-important.mov", "posters/holiday.jpg", "posters/0123456789abcdef0123.jpg"]
        for path in foreign { try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(out)/\(path)")) }
        // Replace one clip so its old outputs are no longer referenced.
        let clip = "\(fixture.stories)/chloe/night.mp4"
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: clip)
        let before = Set(fixture.outputs("reel"))
        // Every output's mtime changed, as a copy or a CI cache restore changes it: an output
        // is still as written while its contents hash the same (it used to be kept, unpruned).
        for path in before {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_577_836_800)], ofItemAtPath: "\(out)/\(path)")
        }
        let (result, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        for path in foreign { #expect(FileManager.default.fileExists(atPath: "\(out)/\(path)"), "\(path) kept") }
        let removed = before.subtracting(fixture.outputs("reel"))
        #expect(removed.count == 6, "the old clip, poster, thumbnail, stills and transition: \(removed)")
        #expect(removed.allSatisfy { !foreign.contains($0) })
    }

    /// From a QA pass: the ledger is a file in the bundle anyone who can write there can edit,
    /// and `--prune` removed whatever it named with the size and mtime on record: a source clip
    /// (`../stories/chloe/night.mp4`), a file beside the bundle (`posters/../../victim.txt`), one
    /// through a symlinked subfolder (`posters/sub/x`); a later one, a user's own file in an
    /// output folder (`clips/holiday.mp4`, an empty `posters/x.jpg`). Entries of any shape but an
    /// output's name in its folder are dropped as the ledger is read.
    @Test func pruneRemovesNothingOutsideTheBundleWhateverTheLedgerSays() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let out = fixture.folder.path("reel")
        let victims = fixture.folder.path("victims")
        try FileManager.default.createDirectory(atPath: victims, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(victims)/x"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: fixture.folder.path("victim.txt")))
        try FileManager.default.createSymbolicLink(atPath: "\(out)/posters/sub", withDestinationPath: victims)
        let source = "\(fixture.stories)/chloe/night.mp4"
        try FileManager.default.copyItem(atPath: source, toPath: "\(out)/clips/holiday.mp4")
        try Data().write(to: URL(fileURLWithPath: "\(out)/posters/x.jpg"))
        let targets = [
            "../stories/chloe/night.mp4": source, "posters/../../victim.txt": fixture.folder.path("victim.txt"),
            "posters/sub/x": "\(victims)/x", "clips/./../../victim.txt": fixture.folder.path("victim.txt"),
            "clips/holiday.mp4": "\(out)/clips/holiday.mp4", "posters/x.jpg": "\(out)/posters/x.jpg",
        ]
        let ledgerPath = "\(out)/.storyreel/ledger.json"
        var ledger = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledgerPath))) as? [String: Any]
        )
        for (relative, target) in targets {
            var status = stat()
            try #require(stat(target, &status) == 0)
            // The size and mtime on record, and the contents' hash.
            let hash = try TestEnvironment.run("sha256sum", [target]).stdout.prefix(64)
            ledger[relative] = [
                "size": Int(status.st_size),
                "modified": Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                "sha256": String(hash),
            ]
        }
        try JSONSerialization.data(withJSONObject: ledger).write(to: URL(fileURLWithPath: ledgerPath))
        let (result, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        for target in Set(targets.values) { #expect(FileManager.default.fileExists(atPath: target), "\(target) kept") }
    }

    /// From a QA pass: a ledger entry giving another video's size, mtime and hash under a clip's
    /// name made render keep that video as the clip ("cached"), and the page played it under the
    /// user's story. An entry whose hash is not the one a clip's name gives is dropped as read.
    @Test func aLedgerEntryVouchingForAnotherVideoUnderAClipsNameIsNotBelieved() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        let item = try #require(try fixture.manifest("reel").stories.first?.items.first)
        let clip = "\(out)/\(item.src)"
        let other = TestEnvironment.sample("black-intro.mp4")
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.copyItem(atPath: other, toPath: clip)
        var status = stat()
        try #require(stat(clip, &status) == 0)
        let ledgerPath = "\(out)/.storyreel/ledger.json"
        var ledger = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledgerPath))) as? [String: Any]
        )
        ledger[item.src] = [
            "size": Int(status.st_size),
            "modified": Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            "sha256": String(try TestEnvironment.run("sha256sum", [clip]).stdout.prefix(64)),
        ]
        try JSONSerialization.data(withJSONObject: ledger).write(to: URL(fileURLWithPath: ledgerPath))
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("\(clip) is a file storyreel did not write"), "\(result.stderr)")
        let items = try fixture.manifest("reel").stories.flatMap(\.items)
        #expect(!items.contains { $0.src == item.src }, "the other video does not play as the clip")
        #expect(try TestEnvironment.storyreel(["validate", out]).status == 0)
    }

    @Test func outputInsideTheInputIsRefusedWith64() throws {
        let fixture = try BundleFixture()
        let before = FolderSnapshot(fixture.stories)
        for out in ["\(fixture.stories)/reel", "\(fixture.stories)/ben_k/../reel", fixture.stories] {
            // `plan --bundle OUT` plans what `render -o OUT` would do, so it refuses it alike (a
            // QA pass: it planned with the default settings, exit 0).
            for command in [["render", fixture.stories, "-o", out], ["plan", fixture.stories, "--bundle", out]] {
                let result = try TestEnvironment.storyreel(command)
                #expect(result.status == 64, "\(command): \(result.stderr)")
                // OUT that is INPUT itself is said so (a QA pass: it was said to be inside it).
                let words =
                    out == fixture.stories ? "the bundle folder is the stories input" : "inside the stories input"
                #expect(result.stderr.contains(words), "\(command): \(result.stderr)")
            }
        }
        // Through a symlink that leads into the input.
        let link = fixture.folder.path("link-into-stories")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.stories)
        let linked = try TestEnvironment.storyreel(["render", fixture.stories, "-o", "\(link)/reel"])
        #expect(linked.status == 64)
        #expect(FolderSnapshot(fixture.stories) == before)
    }

    /// The stories folder inside one of OUT's own folders (`clips/`, `.storyreel/`) is refused
    /// with 64 too, `--force` or not: render wrote its clip copies beside the user's story
    /// folders (a QA pass). One elsewhere in OUT is left to the checks above.
    @Test func inputInsideOneOfTheBundlesOwnFoldersIsRefusedWith64() throws {
        let fixture = try BundleFixture()
        for folder in ["clips", ".storyreel"] {
            let out = fixture.folder.path("out-\(folder)")
            let input = "\(out)/\(folder)"
            try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
            for story in ["ana", "ben"] {
                try FileManager.default.createDirectory(atPath: "\(input)/\(story)", withIntermediateDirectories: false)
                try FileManager.default.copyItem(
                    atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(input)/\(story)/1.mp4")
            }
            let before = FolderSnapshot(out)
            for command in [["render", input, "-o", out, "--force"], ["plan", input, "--bundle", out]] {
                let result = try TestEnvironment.storyreel(command)
                #expect(result.status == 64, "\(command): \(result.stderr)")
                #expect(result.stderr.contains("is inside the bundle's \(folder) folder"), "\(result.stderr)")
            }
            #expect(FolderSnapshot(out) == before, "\(folder): nothing written")
        }
        // One of OUT's folders bind-mounted at another path as the stories folder (a re-check).
        guard Self.canBindMount else { return }
        let out = fixture.folder.path("out-clips")
        let alias = fixture.folder.path("alias")
        try FileManager.default.createDirectory(atPath: alias, withIntermediateDirectories: false)
        let before = FolderSnapshot(out)
        let mounted = try MountNamespace.run(
            "mount --bind \"$1\" \"$2\" && exec \"$0\" render \"$2\" -o \"$3\" --force", ["\(out)/clips", alias, out])
        #expect(mounted.status == 64, "\(mounted.stderr)")
        #expect(mounted.stderr.contains("is inside the bundle's clips folder"), "\(mounted.stderr)")
        #expect(FolderSnapshot(out) == before, "nothing written through the mount")
    }

    /// From a QA pass: `render spec2.json -o rs2` with the spec in the current folder said "…
    /// inside the stories input .; choose a folder outside it", where the bare `.` before the `;`
    /// read as a typo. The input's path is quoted, in render's, plan's and ingest's lines alike.
    @Test func theStoriesInputIsQuotedInTheRefusal() throws {
        let fixture = try BundleFixture()
        let spec = #"{"stories": [{"handle": "ana", "items": ["ben_k/1.mp4"]}]}"#
        try Data(spec.utf8).write(to: URL(fileURLWithPath: "\(fixture.stories)/spec2.json"))
        let before = FolderSnapshot(fixture.stories)
        let inside = "rs2: the bundle folder is inside the stories input '.'; choose a folder outside it"
        for (command, line) in [
            (["render", "spec2.json", "-o", "rs2"], inside), (["plan", ".", "--bundle", "rs2"], inside),
            (["render", ".", "-o", "."], ".: the bundle folder is the stories input '.'; choose a folder outside it"),
            (
                [
                    "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ana", "--into", ".", "--render",
                    "rs2",
                ],
                inside
            ),
        ] {
            let result = try TestEnvironment.storyreel(command, in: URL(fileURLWithPath: fixture.stories))
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr == "storyreel: error: \(line)\n", "\(command)")
        }
        #expect(FolderSnapshot(fixture.stories) == before)
    }

    /// True when this process may bind-mount in a mount namespace of its own.
    static let canBindMount = MountNamespace.allows("mount --bind /tmp /mnt")

    /// From a safety QA pass: the check compared real paths, so the stories folder bind-mounted
    /// at another path (a container's second mount of one volume) let a render write its bundle
    /// into the stories folder, or with --force make the stories folder a bundle. It compares
    /// device and inode too. Mounted in a namespace of the test's own.
    @Test(.enabled(if: canBindMount, "needs a mount namespace (root with CAP_SYS_ADMIN)"))
    func outputInsideTheInputMountedElsewhereIsRefusedWith64() throws {
        let fixture = try BundleFixture()
        let view = fixture.folder.path("view")
        try FileManager.default.createDirectory(atPath: view, withIntermediateDirectories: false)
        let before = FolderSnapshot(fixture.stories)
        for (out, force, words) in [
            ("\(view)/reel", false, "the bundle folder is inside the stories input"),
            (view, true, "the bundle folder is the stories input"),
        ] {
            let script = "mount --bind \"$1\" \"$2\" && exec \"$0\" render \"$1\" -o \"$3\" $4"
            let result = try MountNamespace.run(script, [fixture.stories, view, out, force ? "--force" : ""])
            #expect(result.status == 64, "\(out): \(result.stderr)")
            #expect(
                result.stderr.contains(words) && result.stderr.contains("mounted at another path"), "\(result.stderr)")
        }
        #expect(FolderSnapshot(fixture.stories) == before)
    }

    /// From a safety QA pass: a fresh ext4 volume made for bundles holds `lost+found`, and a
    /// render into it was refused as not empty (73). At the root of a file system it is the file
    /// system's, and is passed over (and left); anywhere else it is anyone's folder. Mounted in a
    /// namespace of the test's own.
    @Test(.enabled(if: canBindMount, "needs a mount namespace (root with CAP_SYS_ADMIN)"))
    func aVolumesLostAndFoundIsPassedOver() throws {
        let fixture = try BundleFixture()
        let volume = fixture.folder.path("volume")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: false)
        let script =
            "mount -t tmpfs none \"$2\" && mkdir \"$2/lost+found\" && \"$0\" render \"$1\" -o \"$2\" -q --size 64x112 "
            + "&& ls -A \"$2\" && mkdir \"$2/inner\" \"$2/inner/lost+found\" && exec \"$0\" render \"$1\" -o \"$2/inner\" -q"
        let result = try MountNamespace.run(script, [fixture.stories, volume])
        #expect(result.status == 73, "not at a file system's root, it is anyone's: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").contains("lost+found"), "left: \(result.stdout)")
        #expect(result.stdout.split(separator: "\n").contains("manifest.json"), "rendered: \(result.stdout)")
        #expect(
            result.stderr.contains("not empty and not a storyreel bundle (it holds lost+found)"), "\(result.stderr)")
    }

    @Test func renderThatFailsBeforeAnyWorkLeavesNoSkeleton() throws {
        let folder = try TemporaryFolder()
        let clipsOnly = folder.path("clips-only")
        try FileManager.default.createDirectory(atPath: clipsOnly, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("portrait-h264.mp4"),
            toPath: "\(clipsOnly)/a.mp4")
        let garbage = try folder.write("stories.json", Data("not json".utf8))
        let cases: [(String, Int32)] = [
            (folder.path("missing"), 66), (clipsOnly, 66), (garbage, 66), ("/dev/null", 66),
        ]
        for (input, status) in cases {
            let out = folder.path("out-\((input as NSString).lastPathComponent)")
            let result = try TestEnvironment.storyreel(["render", input, "-o", out])
            #expect(result.status == status, "\(input): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "no skeleton for \(input)")
        }
    }

    @Test func shardArtifactsMergedWithoutHiddenFilesAreABundle() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "single")
        let merged = fixture.folder.path("merged")
        for shard in 1...2 {
            let (result, _) = try fixture.render(into: "shard\(shard)", ["--shard", "\(shard)/2"])
            #expect(result.status == 0, "\(result.stderr)")
            // What upload-artifact with include-hidden-files: false keeps.
            for folder in ["clips", "posters", "thumbs", "stills", "avatars", "transitions"] {
                let copy = try TestEnvironment.run(
                    "/bin/sh",
                    [
                        "-c", "mkdir -p \"$2\" && cp \"$1\"/[!.]* \"$2\"/ 2>/dev/null; true",
                        "sh", fixture.folder.path("shard\(shard)/\(folder)"), "\(merged)/\(folder)",
                    ])
                #expect(copy.status == 0)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "\(merged)/.storyreel"))
        let (final, summary) = try fixture.render(into: "merged")
        #expect(final.status == 0, "\(final.stderr)")
        #expect(summary["rendered"] as? Int == 0, "the shards did all the work")
        #expect(try fixture.manifestBytes("merged") == fixture.manifestBytes("single"))
    }

    @Test func shardsMergedByCopyingKeepEveryShardsLedger() throws {
        let fixture = try BundleFixture()
        let merged = fixture.folder.path("merged")
        for shard in 1...3 {
            let (result, _) = try fixture.render(into: "shard\(shard)", ["--shard", "\(shard)/3"])
            #expect(result.status == 0, "\(result.stderr)")
            let copy = try TestEnvironment.run("cp", ["-R", fixture.folder.path("shard\(shard)") + "/.", merged])
            #expect(copy.status == 0)
        }
        let (final, _) = try fixture.render(into: "merged")
        #expect(final.status == 0, "\(final.stderr)")
        // Every output came from a shard; after a change, --prune must know all of them.
        let clip = "\(fixture.stories)/ana.lima/IMG_0001.MOV"
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: clip)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(merged)/posters/holiday.jpg"))
        let before = Set(fixture.outputs("merged"))
        let (pruned, _) = try fixture.render(into: "merged", ["--prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let gone = before.subtracting(fixture.outputs("merged"))
        #expect(gone.count == 5, "the old clip, poster, thumbnail and stills (IMG_0001 faces no transition): \(gone)")
        #expect(!gone.contains("posters/holiday.jpg"))
        let manifest = try fixture.manifest("merged")
        let referenced = manifest.stories.flatMap(\.items).map(\.src)
        #expect(referenced.allSatisfy { FileManager.default.fileExists(atPath: "\(merged)/\($0)") })
    }

    /// An output folder replaced by a symlink would take the writes, and the stale-temporary
    /// sweep, out of OUT: it is refused (73), and what the link leads to is left as it was. (The
    /// old code wrote the thumbnails through the link and removed a temp-named file there.)
    @Test func symlinkInPlaceOfAnOutputFolderIsRefused() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let elsewhere = fixture.folder.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: "\(elsewhere)/.notes.123456.storyreel-tmp"))
        let thumbs = fixture.folder.path("reel/thumbs")
        try FileManager.default.removeItem(atPath: thumbs)
        try FileManager.default.createSymbolicLink(atPath: thumbs, withDestinationPath: elsewhere)
        let before = FolderSnapshot(elsewhere)
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("storyreel: error: \(thumbs): is a symbolic link, not a folder"))
        #expect(FolderSnapshot(elsewhere) == before)
    }

    /// A bundle merged without its ledgers (shards copied without hidden files) is adopted
    /// file by file: the old code took any file that began as a JPEG or an MP4 does, so a cut
    /// transition or poster was published (and later pruned as storyreel's). A file that is not
    /// whole is not adopted; one that names itself as that output (storyreel's, cut short: a
    /// shard's artifact half downloaded) is set aside in `.storyreel/replaced/` and made again,
    /// where it was left and its unit skipped on every run (a QA pass: the item stayed out of
    /// the bundle, 65, for good).
    @Test func aMergedBundleAdoptsOnlyWholeOutputs() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let copy = try fixture.copyWithoutHiddenFolder("reel", to: "copy")
        let manifest = try fixture.manifest("copy")
        let transition = try #require(manifest.transitions.first?.src)
        let poster = try #require(manifest.stories.last?.items.last?.poster)
        var cut: [String: Data] = [:]
        for name in [transition, poster] {
            let whole = try Data(contentsOf: URL(fileURLWithPath: "\(copy)/\(name)"))
            cut[name] = whole.prefix(whole.count / 2)
            try cut[name]!.write(to: URL(fileURLWithPath: "\(copy)/\(name)"))
        }
        let (result, summary) = try fixture.render(into: "copy")
        #expect(result.status == 0, "\(result.stderr)")
        // Every whole output is adopted: what is made is the two cut ones.
        #expect(summary["rendered"] as? Int == 2, "\(summary)")
        try expectSetAside(cut, in: copy, result)
        #expect(try fixture.manifestBytes("copy") == fixture.manifestBytes("reel"))
    }

    /// A clip copy carries nothing that names it, but one holding its source's first bytes and
    /// no more is that clip's copy cut short (a shard's artifact half downloaded): it is set
    /// aside and copied again, losing nothing (a QA pass: it was left and its item skipped on
    /// every run, 65, and the bundle validated without it). A copy with other bytes is still
    /// someone's file, left as it is.
    @Test func aMergedBundlesCutShortClipCopyIsSetAsideAndCopiedAgain() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let copy = try fixture.copyWithoutHiddenFolder("reel", to: "copy")
        let items = try fixture.manifest("copy").stories.flatMap(\.items)
        let (clip, other) = (items[0].src, items[1].src)
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(copy)/\(clip)"))
        let cut = whole.prefix(whole.count / 3)
        try cut.write(to: URL(fileURLWithPath: "\(copy)/\(clip)"))
        let (result, summary) = try fixture.render(into: "copy")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(summary["rendered"] as? Int == 1, "\(summary)")
        try expectSetAside([clip: cut], in: copy, result)
        #expect(try fixture.manifestBytes("copy") == fixture.manifestBytes("reel"))

        // The same, cut and one byte changed: not the clip's bytes, so not storyreel's to move.
        let again = try fixture.copyWithoutHiddenFolder("reel", to: "again")
        var changed = try Data(contentsOf: URL(fileURLWithPath: "\(again)/\(other)"))
        changed = changed.prefix(changed.count / 3)
        changed[changed.count - 1] ^= 0xFF
        try changed.write(to: URL(fileURLWithPath: "\(again)/\(other)"))
        let (refused, _) = try fixture.render(into: "again")
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(again)/\(other) is a file storyreel did not write; move it away"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(again)/\(other)")) == changed)
    }

    /// Shards rendered with `--link` and merged by copying (no ledgers) hold copies: the final
    /// `--link` pass adopts them and links them in place, as it does a copy it knows of, so
    /// `plan` and the run after agree that nothing is left (a QA pass: the final pass kept the
    /// copies, plan said nothing to do, and the run after linked the 9 clips, `changed: true`).
    @Test func aLinkRenderOverMergedCopiesLinksThemAtOnce() throws {
        let fixture = try BundleFixture()
        let reel = fixture.folder.path("reel")
        for shard in ["1/2", "2/2"] {
            let part = "part-\(shard.prefix(1))"
            #expect(try fixture.render(into: part, ["--shard", shard, "--link"]).0.status == 0)
            for folder in ["clips", "posters", "thumbs", "stills", "avatars", "transitions"] {
                let from = fixture.folder.path("\(part)/\(folder)")
                try FileManager.default.createDirectory(atPath: "\(reel)/\(folder)", withIntermediateDirectories: true)
                for name in (try? FileManager.default.contentsOfDirectory(atPath: from)) ?? [] {
                    // A copy, as an artifact download makes: a file of its own.
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(from)/\(name)"))
                    try bytes.write(to: URL(fileURLWithPath: "\(reel)/\(folder)/\(name)"))
                }
            }
        }
        func linkCounts() throws -> [Int] {
            try FileManager.default.contentsOfDirectory(atPath: "\(reel)/clips").map {
                (try FileManager.default.attributesOfItem(atPath: "\(reel)/clips/\($0)")[.referenceCount] as? Int) ?? 0
            }
        }
        #expect(try linkCounts().allSatisfy { $0 == 1 })
        let (final, summary) = try fixture.render(into: "reel", ["--link"])
        #expect(final.status == 0, "\(final.stderr)")
        let counts = try linkCounts()
        #expect(!counts.isEmpty && counts.allSatisfy { $0 >= 2 }, "still copies: \(counts)")
        #expect(summary["rendered"] as? Int == counts.count, "\(summary)")
        let plan = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--bundle", reel, "--link", "--json", "--size", BundleFixture.canvasArgument,
        ])
        let units = (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["units"]
        let undone = (units as? [[String: Any]] ?? []).filter { $0["done"] as? Bool != true }
        #expect(plan.status == 0 && undone.isEmpty, "\(undone)")
        let (next, nextSummary) = try fixture.render(into: "reel", ["--link"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(nextSummary["rendered"] as? Int == 0 && nextSummary["changed"] as? Bool == false, "\(nextSummary)")
    }

    /// Checks that each output of `kept` (its name, and the bytes it held) was set aside into
    /// `bundle/.storyreel/replaced/` with its bytes, said in a warning, and made again.
    func expectSetAside(
        _ kept: [String: Data], in bundle: String, _ result: ProcessResult,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let replaced = "\(bundle)/.storyreel/replaced"
        let keptFiles = try FileManager.default.contentsOfDirectory(atPath: replaced).map {
            try Data(contentsOf: URL(fileURLWithPath: "\(replaced)/\($0)"))
        }
        for (name, bytes) in kept {
            #expect(
                result.stderr.contains("\(name) had changed since storyreel wrote it: kept as .storyreel/replaced/"),
                "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(keptFiles.contains(bytes), "\(name) kept", sourceLocation: sourceLocation)
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: "\(bundle)/\(name)")) != bytes, "\(name) made again",
                sourceLocation: sourceLocation)
        }
        let validate = try TestEnvironment.storyreel(["validate", bundle])
        #expect(validate.status == 0, "\(validate.stderr)", sourceLocation: sourceLocation)
    }

    /// A user's JPEGs at the names a new clip's poster and thumbnail will get: the old code took
    /// them as storyreel's (whole JPEGs), recorded them, put them in the manifest as the clip's
    /// images, and a later `--prune` deleted them. Images of another size are not storyreel's.
    @Test func aUsersJPEGsAtAPlannedImagesNameAreNeitherTakenNorPruned() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: "\(fixture.stories)/yan", withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("black-intro.mp4"), toPath: "\(fixture.stories)/yan/1.mp4")
        let plan = try TestEnvironment.storyreel(["plan", fixture.stories, "--bundle", out, "--json"])
        let units = try #require(
            (try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])?["units"]
                as? [[String: Any]])
        let names = units.filter { $0["input"] as? String == "yan/1.mp4" }
            .filter { ["poster", "thumbnail"].contains($0["kind"] as? String) }.compactMap { $0["output"] as? String }
        #expect(names.count == 2, "\(plan.stdout.prefix(600))")
        // Whole JPEGs, of other sizes: a 180x180 avatar of the samples.
        let mine = try Data(contentsOf: URL(fileURLWithPath: "\(fixture.stories)/ben_k/avatar.jpg"))
        for name in names { try mine.write(to: URL(fileURLWithPath: "\(out)/\(name)")) }
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65)
        for name in names {
            #expect(result.stderr.contains("\(out)/\(name) is a file storyreel did not write"), "\(result.stderr)")
        }
        try FileManager.default.removeItem(atPath: "\(fixture.stories)/yan")
        #expect(try fixture.render(into: "reel", ["--prune"]).0.status == 0)
        for name in names {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(name)")) == mine, "\(name) kept")
        }
    }

    /// From a QA pass: the ledger knew an output by its size and mtime alone, so a user's file put
    /// at its name with the same size and mtime (`touch -r`, `exiftool -P`) was shipped as
    /// storyreel's, and `--prune` removed it once unused. Its inode and change time count too.
    @Test func aUsersFileWithAnOutputsSizeAndMtimeIsNotTakenForIt() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        let story = try #require(try fixture.manifest("reel").stories.first { $0.id == "dev-ops" })
        let avatar = try #require(story.user.avatar)
        let path = "\(out)/\(avatar)"
        var mine = try Data(contentsOf: URL(fileURLWithPath: path))
        mine.replaceSubrange(100..<120, with: Data(repeating: 0x55, count: 20))
        var status = stat()
        #expect(stat(path, &status) == 0)
        try mine.write(to: URL(fileURLWithPath: path + ".mine"))
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, path + ".mine", &times, 0) == 0)
        #expect(rename(path + ".mine", path) == 0)

        let (again, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("\(avatar) had changed since storyreel wrote it"), "\(again.stderr)")
        let kept = "\(out)/.storyreel/replaced/" + avatar.replacingOccurrences(of: "/", with: "-")
        #expect((try? Data(contentsOf: URL(fileURLWithPath: kept))) == mine, "the user's file is kept")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != mine, "and the avatar made again")
    }

    /// The refusal comes before anything is made: the old code made `.lock` and the output
    /// folders before `transitions` (after them in its list) and left them in the user's folder.
    @Test func aRefusedOutputFolderLeavesNothingBehind() throws {
        let fixture = try BundleFixture()
        let own = fixture.folder.path("own")
        try FileManager.default.createDirectory(atPath: "\(own)/real", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(own)/notes.txt"))
        try FileManager.default.createSymbolicLink(atPath: "\(own)/transitions", withDestinationPath: "real")
        let before = FolderSnapshot(own)
        let (result, _) = try fixture.render(into: "own", ["--force"])
        #expect(result.status == 73)
        #expect(result.stderr.contains("\(own)/transitions: is a symbolic link, not a folder"), "\(result.stderr)")
        #expect(FolderSnapshot(own) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: own).sorted() == ["notes.txt", "real", "transitions"])
    }

    /// A `manifest.json` storyreel did not write (the ledger does not know it and it is no
    /// storyreel manifest) is never replaced, not even with `--force`: 73 before any work. A
    /// folder holding only such a file counted as a bundle, and `--force` replaced it.
    @Test func foreignManifestIsNeverReplaced() throws {
        let fixture = try BundleFixture()
        for (name, extra) in [("alone", [String]()), ("forced", ["--force"])] {
            let out = fixture.folder.path(name)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            try Data(#"{"my":"precious"}"#.utf8).write(to: URL(fileURLWithPath: "\(out)/manifest.json"))
            if name == "forced" { try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(out)/notes.txt")) }
            let before = FolderSnapshot(out)
            let (result, _) = try fixture.render(into: name, extra)
            #expect(result.status == 73, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("manifest.json: a file storyreel did not write"), "\(result.stderr)")
            #expect(FolderSnapshot(out) == before, "\(name): nothing created, changed or removed")
        }
        // storyreel's own manifest, even edited, is replaced: the ledger knows it.
        #expect(try fixture.render(into: "reel").0.status == 0)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: fixture.folder.path("reel/manifest.json")))
        #expect(try fixture.render(into: "reel").0.status == 0)
        #expect(try fixture.manifestBytes("reel").count > 100)
    }

    /// A manifest in storyreel's format that another tool wrote (its `generator` is not
    /// storyreel's, which `validate` refuses) is never replaced either: it was, in silence, exit
    /// 0 (a QA pass).
    @Test func aManifestOfTheFormatThatAnotherToolWroteIsNeverReplaced() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let ours = try JSONSerialization.jsonObject(with: fixture.manifestBytes("reel")) as? [String: Any]
        var theirs = try #require(ours)
        theirs["generator"] = "my-cms 1.0"
        let out = fixture.folder.path("cms")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try JSONSerialization.data(withJSONObject: theirs).write(to: URL(fileURLWithPath: "\(out)/manifest.json"))
        let before = FolderSnapshot(out)
        let (result, _) = try fixture.render(into: "cms", ["--force"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("manifest.json: a file storyreel did not write"), "\(result.stderr)")
        #expect(FolderSnapshot(out) == before, "nothing created, changed or removed")
    }

    /// A bundle copied without `.storyreel/` (a deploy of its visible files) has no ledger to
    /// tell storyreel's page and manifest from edited ones: a render that replaces them keeps
    /// the old ones in `.storyreel/replaced/`, with a warning. A page given an analytics script
    /// was rewritten in silence (a QA pass); an unchanged page is not set aside.
    @Test func withoutALedgerAReplacedPageOrManifestIsKept() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let site = fixture.folder.path("site")
        let copy = try TestEnvironment.run(
            "/bin/sh", ["-c", "mkdir \"$2\" && cp -R \"$1\"/[!.]* \"$2\"/", "sh", fixture.folder.path("reel"), site])
        #expect(copy.status == 0, "\(copy.stderr)")
        let unchanged = try fixture.render(into: "site")
        #expect(unchanged.0.status == 0 && !unchanged.0.stderr.contains("ledger"), "\(unchanged.0.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(site)/.storyreel/replaced"))

        try FileManager.default.removeItem(atPath: "\(site)/.storyreel")
        let page = "\(site)/index.html"
        let edited = try Data(
            String(decoding: Data(contentsOf: URL(fileURLWithPath: page)), as: UTF8.self)
                .replacingOccurrences(of: "</body>", with: "<script src=\"/analytics.js\"></script></body>").utf8)
        try edited.write(to: URL(fileURLWithPath: page))
        let manifest = try Data(contentsOf: URL(fileURLWithPath: "\(site)/manifest.json"))
        // A new setting changes the manifest and so the page.
        let (result, _) = try fixture.render(into: "site", ["--transition-duration", "0.4"])
        #expect(result.status == 0, "\(result.stderr)")
        for (name, bytes) in ["index.html": edited, "manifest.json": manifest] {
            #expect(
                result.stderr.contains(
                    "\(name) is not in the bundle's ledger (.storyreel/ was missing or not kept), so it may have been "
                        + "edited: kept as .storyreel/replaced/\(name) and written again"), "\(result.stderr)")
            let kept = try Data(contentsOf: URL(fileURLWithPath: "\(site)/.storyreel/replaced/\(name)"))
            #expect(kept == bytes, "\(name) kept as it was")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(site)/\(name)")) != bytes, "\(name) written again")
        }
        #expect(try TestEnvironment.storyreel(["validate", site]).status == 0)

        // --no-player leaves such a page, and says so (a re-check: it stayed in silence).
        try FileManager.default.removeItem(atPath: "\(site)/.storyreel")
        let (noPlayer, _) = try fixture.render(into: "site", ["--transition-duration", "0.4", "--no-player"])
        #expect(noPlayer.status == 0, "\(noPlayer.stderr)")
        #expect(
            noPlayer.stderr.contains(
                "index.html is not in the bundle's ledger (.storyreel/ was missing or not kept), so --no-player left it"
            ),
            "\(noPlayer.stderr)")
        #expect(FileManager.default.fileExists(atPath: page))
    }

    /// A file with the exact name of an output the plan expects, which storyreel did not write
    /// (not in the ledger; for a clip, not the contents its name says; for an image, not a
    /// JPEG), is left as it is and its unit skipped (65), naming it. (The old code overwrote the
    /// clip and took the image as a cached poster.)
    @Test func strangerWithAnOutputsNameIsLeftAndItsUnitSkipped() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let manifest = try fixture.manifest("reel")
        let item = try #require(manifest.stories.first?.items.first)
        let out = fixture.folder.path("reel")
        let ledger = "\(out)/.storyreel/ledger.json"
        var entries = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledger))) as? [String: Any])
        for relative in [item.src, item.poster] {
            try Data("my own file".utf8).write(to: URL(fileURLWithPath: "\(out)/\(relative)"))
            entries.removeValue(forKey: relative)
        }
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: ledger))
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 65, "\(result.stderr)")
        for relative in [item.src, item.poster] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(relative)")) == Data("my own file".utf8))
            #expect(result.stderr.contains("\(out)/\(relative) is a file storyreel did not write"), "\(relative)")
        }
        #expect(try fixture.manifest("reel").stories.flatMap(\.items).allSatisfy { $0.id != item.id })
    }

    /// From a QA pass: a whole JPEG of the right size that someone put at an output's name the
    /// ledger did not know (a poster's, before the clip it belongs to came) was adopted as
    /// storyreel's, shipped as the poster, recorded, and removed by a later `--prune`. In a
    /// bundle with a ledger, only a file with storyreel's mark, or whose own bytes name it as
    /// that output (a copy that lost the mark: a later QA pass), is adopted.
    @Test func aWholeJPEGWithoutTheMarkIsNotAdopted() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let item = try #require(try fixture.manifest("reel").stories.first?.items.first)
        let out = fixture.folder.path("reel")
        let ledger = "\(out)/.storyreel/ledger.json"
        var entries = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledger))) as? [String: Any])
        entries.removeValue(forKey: item.poster)
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: ledger))
        // The same picture, written anew: a whole JPEG of the right size, without the mark and
        // without the comment naming it storyreel's output.
        let poster = "\(out)/\(item.poster)"
        let written = try Data(contentsOf: URL(fileURLWithPath: poster))
        let naming = try #require(written.range(of: Data("storyreel \(item.poster)".utf8)), "the poster names itself")
        let segment = naming.lowerBound - 4
        let length = Int(written[naming.lowerBound - 2]) << 8 | Int(written[naming.lowerBound - 1])
        let mine = written[..<segment] + written[(segment + 2 + length)...]
        try FileManager.default.removeItem(atPath: poster)
        try mine.write(to: URL(fileURLWithPath: poster))
        let (result, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("\(poster) is a file storyreel did not write"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == mine)
        func recorded() throws -> Set<String> {
            Set(
                (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledger)))
                    as? [String: Any])?.keys ?? [:].keys)
        }
        #expect(try !recorded().contains(item.poster), "not recorded as storyreel's")
        // A file storyreel wrote and did not record (a run killed before it saved its ledger)
        // carries the mark, and is adopted as before.
        let marked = try #require(try fixture.manifest("reel").stories.dropFirst().first?.items.first)
        entries = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledger))) as? [String: Any])
        entries.removeValue(forKey: marked.poster)
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: ledger))
        let (again, _) = try fixture.render(into: "reel")
        #expect(!again.stderr.contains("\(marked.poster) is a file storyreel did not write"), "\(again.stderr)")
        #expect(try recorded().contains(marked.poster))
        // storyreel's poster as a copy without the mark has it (`cp -r`, CI artifacts): its bytes
        // name it, and it is adopted.
        try FileManager.default.removeItem(atPath: poster)
        try written.write(to: URL(fileURLWithPath: poster))
        #expect(OutputMark.isUnmarked(poster))
        let (copied, _) = try fixture.render(into: "reel")
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try recorded().contains(item.poster))
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == written)
    }

    /// From a QA pass: in a bundle copied without `.storyreel/` (no ledger at all), a whole JPEG
    /// of the right size at an output's name was taken whatever it held: a user's picture was
    /// shipped as a poster and removed by a later `--prune`, and storyreel's own still of
    /// another item, whose comment names that item's output, played as this item's first frame.
    /// Without a ledger, as with one, an image is taken only when its bytes name it.
    @Test func withoutALedgerAWholeJPEGIsTakenOnlyWhenItNamesItself() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let items = try fixture.manifest("reel").stories.flatMap(\.items)
        let out = fixture.folder.path("reel")
        try FileManager.default.removeItem(atPath: "\(out)/.storyreel")
        // The poster without its comment: a whole JPEG of the right size someone put there.
        let poster = "\(out)/\(items[0].poster)"
        let written = try Data(contentsOf: URL(fileURLWithPath: poster))
        let naming = try #require(written.range(of: Data("storyreel \(items[0].poster)".utf8)))
        let segment = naming.lowerBound - 4
        let length = Int(written[naming.lowerBound - 2]) << 8 | Int(written[naming.lowerBound - 1])
        let mine = written[..<segment] + written[(segment + 2 + length)...]
        try FileManager.default.removeItem(atPath: poster)
        try mine.write(to: URL(fileURLWithPath: poster))
        // Another item's first-frame still under this one's name: storyreel's bytes, naming the other.
        let still = "\(out)/\(try #require(items[0].firstFrame))"
        let other = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(try #require(items[1].firstFrame))"))
        try FileManager.default.removeItem(atPath: still)
        try other.write(to: URL(fileURLWithPath: still))
        let (result, summary) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("\(poster) is a file storyreel did not write"), "\(result.stderr)")
        #expect(result.stderr.contains("\(still) is a file storyreel did not write"), "\(result.stderr)")
        // `--json` gives the skipped entries as the manifest has them (a scripting QA pass).
        let entries = (summary["skippedEntries"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        #expect(entries == (try fixture.manifest("reel").skipped.map(\.reason)), "\(entries)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == mine)
        #expect(try Data(contentsOf: URL(fileURLWithPath: still)) == other)
        // The published manifest names the file in the bundle, not where the bundle is (a QA
        // pass: the render host's absolute path went out in `skipped`).
        let skipped = try fixture.manifest("reel").skipped.map(\.reason)
        #expect(
            skipped.contains { $0.contains(": \(items[0].poster) is a file storyreel did not write") }, "\(skipped)")
        #expect(!skipped.contains { $0.contains(out) }, "\(skipped)")
        // Neither is recorded as storyreel's, so a later --prune leaves both.
        let ledger = try String(contentsOfFile: "\(out)/.storyreel/ledger.json", encoding: .utf8)
        #expect(!ledger.contains(items[0].poster) && !ledger.contains(items[0].firstFrame ?? "-"))
        let (pruned, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(pruned.status == 65, "\(pruned.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == mine)
        #expect(try Data(contentsOf: URL(fileURLWithPath: still)) == other)
    }

    /// A review: the comment naming an output is kept by tools that edit a file (`jpegtran -copy
    /// all`, the ffmpeg CLI re-encoding a clip), so a user's edit of storyreel's poster or
    /// transition at an output's name the ledger did not know was adopted, shipped, and later
    /// removed by `--prune`. The comment also gives the hash of the pictures, which an edit changes.
    @Test func anEditedCopyThatKeepsTheCommentIsSetAsideAndMadeAgain() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let manifest = try fixture.manifest("reel")
        let poster = try #require(manifest.stories.first?.items.first?.poster)
        let transitions = manifest.transitions.map(\.src)
        try #require(transitions.count >= 2)
        let (reencoded, turned) = (transitions[0], transitions[1])
        let out = fixture.folder.path("reel")
        let ledger = "\(out)/.storyreel/ledger.json"
        var entries = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ledger))) as? [String: Any])
        for name in [poster, reencoded, turned] { entries.removeValue(forKey: name) }
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: ledger))
        // The poster with one byte of its picture changed, its comment kept, written over the
        // file in place (a shell redirect, `ffmpeg -y`), which keeps storyreel's mark.
        var edited = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(poster)"))
        edited[edited.count - 100] ^= 0x55
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(out)/\(poster)"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: edited)
        try handle.close()
        #expect(!OutputMark.isUnmarked("\(out)/\(poster)"), "the mark stays with an edit in place")
        // A transition re-encoded, mirrored, by the ffmpeg CLI, which copies the comment tag.
        let mirrored = fixture.folder.path("mirrored.mp4")
        try HostileFiles.ffmpeg(["-i", "\(out)/\(reencoded)", "-vf", "hflip", "-c:v", "libx264", mirrored])
        let tags = try TestEnvironment.ffprobe(mirrored)["format"] as? [String: Any]
        let comment = (tags?["tags"] as? [String: Any])?["comment"] as? String
        #expect(
            comment?.hasPrefix("storyreel \(reencoded) sha256:") == true, "the CLI kept the comment: \(tags ?? [:])")
        try FileManager.default.removeItem(atPath: "\(out)/\(reencoded)")
        try FileManager.default.moveItem(atPath: mirrored, toPath: "\(out)/\(reencoded)")
        // A transition remuxed with a turn in its display matrix: the same samples.
        let upsideDown = fixture.folder.path("turned.mp4")
        try HostileFiles.ffmpeg([
            "-i", "\(out)/\(turned)", "-c", "copy", "-metadata:s:v:0", "rotate=180", upsideDown,
        ])
        try FileManager.default.removeItem(atPath: "\(out)/\(turned)")
        try FileManager.default.moveItem(atPath: upsideDown, toPath: "\(out)/\(turned)")
        // Not adopted: each names itself as its output, so each is storyreel's file, changed,
        // and is set aside and made again, as a changed output the ledger knows is (a QA pass:
        // they were left and their units skipped on every run).
        var edits: [String: Data] = [:]
        for name in [poster, reencoded, turned] {
            edits[name] = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(name)"))
        }
        let (result, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        try expectSetAside(edits, in: out, result)
    }

    /// From a review: a transition retimed by a remux (`ffmpeg -itsscale 2 -c copy`) keeps its
    /// samples, and so its comment's hash; in a bundle without its ledger it was adopted, and the
    /// manifest said 0.5 s of a clip of 0.97 s. Its duration must be its frames' at the rate.
    @Test func aRetimedCopyOfATransitionIsNotAdoptedButMadeAgain() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        try FileManager.default.removeItem(atPath: out + "/.storyreel")
        let transition = try #require(try fixture.manifest("reel").transitions.first?.src)
        let retimed = fixture.folder.path("retimed.mp4")
        try HostileFiles.ffmpeg([
            "-itsscale", "2", "-i", "\(out)/\(transition)", "-c", "copy", "-map_metadata", "0", retimed,
        ])
        try FileManager.default.removeItem(atPath: "\(out)/\(transition)")
        try FileManager.default.moveItem(atPath: retimed, toPath: "\(out)/\(transition)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(transition)"))
        let (result, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        try expectSetAside([transition: bytes], in: out, result)
        #expect(try fixture.manifest("reel").transitions.contains { $0.src == transition })
    }

    /// From a QA pass: shards merged as CI artifacts (`cp -r`, which drops storyreel's mark) into
    /// a bundle restored from the last run, with its ledger, lost every new clip at the final
    /// pass: its images were taken for someone's files (65, and the clip left out). Every image
    /// and transition names itself in its own bytes, and the copies are adopted.
    @Test func shardOutputsCopiedWithoutTheMarkIntoACachedBundleAreAdopted() throws {
        let fixture = try BundleFixture()
        let cached = fixture.folder.path("cached")
        #expect(try fixture.render(into: "cached").0.status == 0)
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=180x320:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", fixture.stories + "/ben_k/3.mp4",
        ])
        for shard in 1...2 {
            let (result, _) = try fixture.render(into: "shard\(shard)", ["--shard", "\(shard)/2"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // The artifacts' merge: visible files only, copied without extended attributes.
        for shard in 1...2 {
            let copy = Process()
            copy.executableURL = URL(fileURLWithPath: "/bin/sh")
            copy.arguments = [
                "-c", "cd \"$0\" && cp -r --no-preserve=all -- * \"$1\"/", fixture.folder.path("shard\(shard)"), cached,
            ]
            try copy.run()
            copy.waitUntilExit()
            #expect(copy.terminationStatus == 0)
        }
        let (final, summary) = try fixture.render(into: "cached")
        #expect(final.status == 0, "\(final.stderr)")
        #expect(summary["rendered"] as? Int == 0, "the shards' outputs are taken: \(final.stderr)")
        let items = try fixture.manifest("cached").stories.flatMap(\.items)
        #expect(items.count == 10, "the new clip plays")
        let (single, _) = try fixture.render(into: "single")
        #expect(single.status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: cached + "/manifest.json"))
                == Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("single/manifest.json"))))
    }
}
