import Foundation
import StoryreelTestSupport
import Testing

/// `thumbnail -o` and `cube -o`/`--filmstrip` replace a file only when storyreel wrote it (it
/// carries the `user.storyreel` mark), or when it is empty (a `mktemp` name); any other file is
/// refused (73) and left as it was, unless `--force`. From a QA pass: `cube A B -o holiday.mp4`
/// replaced someone's video without a word.
@Suite struct OnlyItsOwnOutputsAreReplacedTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let clip = TestEnvironment.sample("portrait-h264.mp4")
    static let other = TestEnvironment.sample("sixty-fps.mp4")

    func run(_ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.storyreel(arguments)
    }

    @Test func aFileStoryreelDidNotWriteIsRefusedAndKept() throws {
        let mine = Data("my holiday video".utf8)
        let commands: [(String, [String])] = [
            ("poster.jpg", ["thumbnail", Self.clip, "--width", "64", "-o"]),
            ("cube.mp4", ["cube", Self.clip, Self.other, "--size", "64x112", "-q", "-o"]),
            ("strip.png", ["cube", Self.clip, Self.other, "--size", "64x112", "-q", "--filmstrip"]),
        ]
        for (name, command) in commands {
            let path = try folder.write(name, mine)
            let refused = try run(command + [path])
            #expect(refused.status == 73, "\(name): \(refused.stderr)")
            #expect(
                refused.stderr
                    == "storyreel: error: \(path): holds a file without storyreel's mark (one it did not write, an "
                    + "older storyreel's, or a copy: tar, cp and caches drop the mark); remove it, or give --force to "
                    + "replace it\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == mine, "\(name) is untouched")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") } == [])

            // With --force it is replaced; then it is storyreel's, and a second run replaces it.
            let forced = try run(command + [path, "--force"])
            #expect(forced.status == 0, "\(name): \(forced.stderr)")
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(written != mine && written.count > 100)
            let again = try run(command + [path])
            #expect(again.status == 0, "\(name): a file storyreel wrote is replaced: \(again.stderr)")
        }
    }

    static let canMountRamfs = MountNamespace.allows("mount -t ramfs none /mnt")

    /// On a file system that keeps no extended attributes (ramfs here; FAT and exFAT cards,
    /// NFSv3), nothing tells storyreel's file from a user's: one with content is replaced only
    /// with `--force`, its own earlier output too, and an empty one as anywhere (a QA pass: a
    /// user's file there was replaced, exit 0, in silence).
    @Test(.enabled(if: canMountRamfs, "needs a mount namespace (root with CAP_SYS_ADMIN)"))
    func onAFileSystemWithoutMarksAFileIsReplacedOnlyWithForce() throws {
        let volume = folder.path("card")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: false)
        let script = """
            mount -t ramfs none "$2" || exit 99
            printf 'my precious photo' > "$2/mine.jpg"
            "$0" thumbnail "$1" --width 64 -o "$2/mine.jpg"; echo "refused=$?"
            cat "$2/mine.jpg"; echo
            "$0" thumbnail "$1" --width 64 -o "$2/mine.jpg" --force; echo "forced=$?"
            "$0" thumbnail "$1" --width 64 -o "$2/mine.jpg"; echo "again=$?"
            : > "$2/empty.jpg"
            "$0" thumbnail "$1" --width 64 -o "$2/empty.jpg"; echo "empty=$?"
            ls -A "$2"
            """
        let result = try MountNamespace.run(script, [Self.clip, volume])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("refused=73") && lines.contains("my precious photo"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "mine.jpg: holds a file, and its file system keeps no extended attributes, so storyreel cannot tell "
                    + "whether it wrote it; remove it, or give --force to replace it"), "\(result.stderr)")
        #expect(lines.contains("forced=0") && lines.contains("again=73") && lines.contains("empty=0"), "\(result)")
        // Nothing else left on the card.
        #expect(lines.suffix(2) == ["empty.jpg", "mine.jpg"], "\(result.stdout)")
    }

    /// From a safety QA pass: an output edited in place (`>>`, an in-place metadata tool) keeps
    /// its mark, and the next run replaced the edit with exit 0, where `thumbnail --out-dir`
    /// refuses it and `render` moves it aside. The mark holds the size and modification time
    /// the file was written with; one that differs is refused (73) and kept, unless `--force`.
    /// Moved (a rename keeps both), it is still storyreel's.
    @Test func anOutputChangedInPlaceSinceItWasWrittenIsRefusedAndKept() throws {
        let commands: [(String, [String])] = [
            ("poster.jpg", ["thumbnail", Self.clip, "--width", "64", "-o"]),
            ("cube.mp4", ["cube", Self.clip, Self.other, "--size", "64x112", "-q", "-o"]),
            ("strip.png", ["cube", Self.clip, Self.other, "--size", "64x112", "-q", "--filmstrip"]),
        ]
        for (name, command) in commands {
            let written = folder.path("first-" + name)
            let first = try run(command + [written])
            #expect(first.status == 0, "\(name): \(first.stderr)")
            let path = folder.path(name)
            try FileManager.default.moveItem(atPath: written, toPath: path)
            let moved = try run(command + [path])
            #expect(moved.status == 0, "\(name): a moved output is still storyreel's: \(moved.stderr)")

            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("USER EDIT".utf8))
            try handle.close()
            let edited = try Data(contentsOf: URL(fileURLWithPath: path))
            let refused = try run(command + [path])
            #expect(refused.status == 73, "\(name): \(refused.stderr)")
            #expect(
                refused.stderr
                    == "storyreel: error: \(path): has changed since storyreel wrote it (its size or modification time "
                    + "is not what was written); remove it, or give --force to replace it\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == edited, "\(name) keeps the edit")

            let forced = try run(command + [path, "--force"])
            #expect(forced.status == 0, "\(name): \(forced.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != edited)
            let again = try run(command + [path])
            #expect(again.status == 0, "\(name): \(again.stderr)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") } == [])
        }
    }

    /// A clip `ingest` copied in is someone's media, not an output: it carries no mark (a QA
    /// pass: `cube -o` replaced an ingested story clip without `--force`).
    @Test func anIngestedClipIsNotStoryreelsToReplace() throws {
        let stories = folder.path("stories")
        let ingest = try run(["ingest", Self.clip, "--story", "ana", "--into", stories, "--create", "-q"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let clip = "\(stories)/ana/0001-portrait-h264.mp4"
        let before = try Data(contentsOf: URL(fileURLWithPath: clip))
        let cube = try run(["cube", Self.clip, Self.other, "--size", "64x112", "-q", "-o", clip])
        #expect(cube.status == 73, "\(cube.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: clip)) == before)
    }

    /// From a QA pass: a file put under the name while the run worked was replaced at its end,
    /// the check having been made before the work. It is made again just before the rename.
    @Test func aFilePutThereWhileTheRunWorksIsKept() throws {
        let path = folder.path("late.mp4")
        let result = try TestEnvironment.run(
            "/bin/bash",
            [
                "-c", "\"$@\" & pid=$!; sleep 0.6; printf mine > \(path); wait $pid", "bash",
                TestEnvironment.storyreelBinary, "cube", Self.clip, Self.other, "--size", "1080x1920", "--duration",
                "4", "-q", "-o", path,
            ])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("storyreel: error: \(path): holds a file without storyreel's mark"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["late.mp4"])
    }

    @Test func anEmptyFileOrNothingIsWrittenWithoutForce() throws {
        let empty = try folder.write("empty.jpg", Data())
        let filled = try run(["thumbnail", Self.clip, "--width", "64", "-o", empty])
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).prefix(2) == Data([0xFF, 0xD8]))
        let fresh = try run(["thumbnail", Self.clip, "--width", "64", "-o", folder.path("new.jpg")])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        // A copy of storyreel's output (cp keeps no extended attributes) is the user's file.
        let copy = folder.path("copy.jpg")
        #expect(try TestEnvironment.run("cp", [folder.path("new.jpg"), copy]).status == 0)
        #expect(try run(["thumbnail", Self.clip, "--width", "64", "-o", copy]).status == 73)
    }
}
