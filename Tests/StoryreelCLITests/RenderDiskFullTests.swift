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

    static let canMountTmpfs = MountNamespace.allows("mount -t tmpfs -o size=64k none /mnt")

    /// From a CI QA pass: on a really full disk (a small tmpfs, where the file-size limit above
    /// lets the small ledger through) the render's error named `.storyreel/ledger.json`, which
    /// could not be saved either, in place of the output that did not fit. The first output that
    /// failed is named.
    @Test(.enabled(if: canMountTmpfs, "needs a mount namespace (root with CAP_SYS_ADMIN)"))
    func aReallyFullDiskNamesTheOutputThatDidNotFit() throws {
        let fixture = try BundleFixture()
        let volume = fixture.folder.path("small")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: false)
        let result = try MountNamespace.run(
            "mount -t tmpfs -o size=600k none \"$2\" && exec \"$0\" render \"$1\" -o \"$2/reel\" --jobs 1 -q",
            [fixture.stories, volume])
        #expect(result.status == 74, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }
        #expect(errors.count == 1, "\(result.stderr)")
        let error = try #require(errors.first.map(String.init))
        #expect(error.contains("No space left on device"), "\(error)")
        #expect(!error.contains(".storyreel/"), "names an output, not storyreel's bookkeeping: \(error)")
        #expect(error.hasPrefix("storyreel: error: \(volume)/reel/"), "\(error)")
    }

    /// The sizes of the top-level MP4 boxes of `data`, by type.
    static func topLevelBoxSizes(_ data: Data) -> [String: Int] {
        var sizes: [String: Int] = [:]
        var offset = 0
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8 else { break }
            sizes[type, default: 0] += size
            offset += size
        }
        return sizes
    }

    /// From a QA pass: the disk filled while the last of a transition's samples were flushed,
    /// before its index. The flush's failure went unchecked, the hash of the short file said "it
    /// ends too soon", and the render blamed a good clip: `skipped`, exit 65, and a new manifest
    /// without the transition, with the new settings kept. The limit here lets the transition's
    /// samples reach their last flush (its size less its index, `moov`, less 0.5–1.5 KB), past
    /// the muxer's last 32 KB buffer before it.
    @Test func aDiskFullAtATransitionsLastFlushIsTheRunsFailureNotTheClips() throws {
        let fixture = try BundleFixture()
        let options = ["--size", "540x960", "--no-player", "--jobs", "1"]
        #expect(try fixture.render(into: "reel", options).0.status == 0)
        let out = fixture.folder.path("reel")
        try FileManager.default.copyItem(atPath: out, toPath: fixture.folder.path("probe"))
        #expect(try fixture.render(into: "probe", options + ["--crf", "30"]).0.status == 0)
        let old = Set(try FileManager.default.contentsOfDirectory(atPath: "\(out)/transitions"))
        var limits: [Int] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("probe/transitions"))
        where !old.contains(name) {
            let data = try Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("probe/transitions/\(name)")))
            let samplesEnd = data.count - (Self.topLevelBoxSizes(data)["moov"] ?? 0)
            let kilobytes = (samplesEnd - 512) / 1024
            if samplesEnd % 32768 > 1536, kilobytes > 64 { limits.append(kilobytes) }
        }
        let limit = try #require(limits.max(), "a transition whose last flush the limit can reach")
        let manifest = try fixture.manifestBytes("reel")
        let settings = try Data(contentsOf: URL(fileURLWithPath: "\(out)/.storyreel/settings.json"))
        let limited = try TestEnvironment.run(
            "/bin/bash",
            [
                "-c", "trap '' XFSZ; ulimit -f \(limit); exec \"$0\" \"$@\"", TestEnvironment.storyreelBinary, "render",
                fixture.stories, "-o", out, "--crf", "30",
            ] + options)
        #expect(limited.status == 74, "\(limited.status): \(limited.stderr)")
        #expect(!limited.stderr.contains("skipped"), "\(limited.stderr)")
        #expect(limited.stderr.contains("storyreel: error: \(out)/transitions/"), "\(limited.stderr)")
        #expect(try fixture.manifestBytes("reel") == manifest, "the manifest as it was")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/.storyreel/settings.json")) == settings)
        let (again, _) = try fixture.render(into: "reel", options + ["--crf", "30"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try fixture.manifestBytes("reel") == fixture.manifestBytes("probe"))
    }

    /// From the disk-full QA pass: a stat cache that could not be saved (immutable; here a
    /// folder has its name) left the run at exit 0 in silence, and every later run hashed the
    /// clips again without saying why. It is a warning, as the ledger's failure is.
    @Test func aStatCacheThatCannotBeSavedIsAWarning() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let cache = fixture.folder.path("reel/.storyreel/stat-cache.json")
        try FileManager.default.removeItem(atPath: cache)
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: false)
        let (result, _) = try fixture.render(into: "reel")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: warning: the stat cache could not be saved (is a folder, not a file; storyreel replaces "
                    + "only regular files); the bundle is as rendered, and the next run hashes the clips again"),
            "\(result.stderr)")
    }

    /// Whether `chattr +i` works here (root, on a file system that keeps the flag).
    static let immutableFilesWork: Bool = {
        guard let folder = try? TemporaryFolder() else { return false }
        let file = folder.path("probe")
        guard FileManager.default.createFile(atPath: file, contents: Data()) else { return false }
        guard (try? TestEnvironment.run("chattr", ["+i", file]))?.status == 0 else { return false }
        _ = try? TestEnvironment.run("chattr", ["-i", file])
        return true
    }()

    /// From the disk-full QA pass: `--prune` that could not remove the outputs it prunes
    /// (immutable) said nothing, exit 0. It warns, naming one, and they stay known, so the next
    /// `--prune` that can removes them.
    @Test(.enabled(if: immutableFilesWork, "chattr +i needs root and a file system that keeps the flag"))
    func outputsPruneCannotRemoveAreAWarning() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel", ["--crf", "30"]).0.status == 0)
        let transitions = fixture.folder.path("reel/transitions")
        let stale = try FileManager.default.contentsOfDirectory(atPath: transitions).sorted().map {
            "\(transitions)/\($0)"
        }
        #expect(stale.count == 3)
        #expect(try TestEnvironment.run("chattr", ["+i"] + stale).status == 0)
        defer { _ = try? TestEnvironment.run("chattr", ["-i"] + stale) }
        let (result, _) = try fixture.render(into: "reel", ["--crf", "23", "--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: warning: --prune could not remove transitions/\((stale[0] as NSString).lastPathComponent) "
                    + "and 2 more, which storyreel wrote and the manifest no longer uses; they stay known, for a later "
                    + "--prune"),
            "\(result.stderr)")
        #expect(try TestEnvironment.run("chattr", ["-i"] + stale).status == 0)
        let (again, _) = try fixture.render(into: "reel", ["--prune"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(stale.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "removed by the next --prune")
        #expect(try FileManager.default.contentsOfDirectory(atPath: transitions).count == 3)
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
