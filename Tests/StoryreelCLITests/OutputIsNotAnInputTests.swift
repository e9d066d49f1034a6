import Foundation
import StoryreelTestSupport
import Testing

/// An output that is one of the inputs is refused with exit 64 and one error line before any
/// work, whatever its spelling (`./a.mp4`, `sub/../a.mp4`, absolute), and through a symlink or a
/// hard link: files are compared by device and inode. The inputs' bytes are unchanged afterwards
/// and nothing new is left in the folder.
@Suite struct OutputIsNotAnInputTests {
    let folder: TemporaryFolder
    /// The original bytes of `a.mp4` and `b.mp4`.
    let originals: [String: Data]

    init() throws {
        folder = try TemporaryFolder()
        var originals: [String: Data] = [:]
        let sources = ["a.mp4": "portrait-h264.mp4", "b.mp4": "stories/ben_k/1.mp4"]
        for (name, source) in sources {
            let data = try Data(contentsOf: TestEnvironment.samples.appendingPathComponent(source))
            try folder.write(name, data)
            originals[name] = data
        }
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link-a.jpg"), withDestinationPath: "a.mp4")
        try FileManager.default.linkItem(atPath: folder.path("a.mp4"), toPath: folder.path("hard-a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link-b.png"), withDestinationPath: "b.mp4")
        try FileManager.default.linkItem(atPath: folder.path("b.mp4"), toPath: folder.path("hard-b.png"))
        self.originals = originals
    }

    /// True when the file `name` in the folder still holds exactly `original`. (Compared here, not
    /// inside `#expect`, which would diff megabytes of bytes when they differ.)
    func holds(_ name: String, _ original: Data?) -> Bool {
        (try? Data(contentsOf: URL(fileURLWithPath: folder.path(name)))) == original
    }

    /// Every path under the folder, relative, sorted (hidden files included).
    func tree() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.url.path)
        var paths: [String] = []
        while let relative = enumerator?.nextObject() as? String { paths.append(relative) }
        return paths.sorted()
    }

    /// Runs `storyreel` in the folder and checks the refusal: exit 64, one error line that names
    /// `option`, nothing on stdout, the inputs' bytes unchanged and no new file anywhere.
    func expectRefused(_ arguments: [String], naming option: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let before = tree()
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        let shown = arguments.joined(separator: " ")
        #expect(result.status == 64, "\(shown): \(result.stderr)", sourceLocation: sourceLocation)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("storyreel: error: ") }
        #expect(errors.count == 1, "\(shown): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            errors.first?.hasPrefix("storyreel: error: \(option)") == true, "\(shown): \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            errors.first?.contains("is the same file as the input") == true, "\(shown): \(result.stderr)",
            sourceLocation: sourceLocation)
        // A conflict found on disk, not in the arguments' syntax: the line alone, as render's OUT
        // inside INPUT (a README QA pass: it carried the command's usage).
        #expect(
            errors.first?.contains("; usage: ") == false, "\(shown): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(shown): \(result.stdout)", sourceLocation: sourceLocation)
        for (name, data) in originals {
            #expect(holds(name, data), "\(shown) changed \(name)", sourceLocation: sourceLocation)
        }
        #expect(tree() == before, "\(shown) left files behind", sourceLocation: sourceLocation)
    }

    @Test func thumbnailOutputThatIsTheClipIsRefusedWhateverItsSpelling() throws {
        let spellings = ["a.mp4", "./a.mp4", "sub/../a.mp4", folder.path("a.mp4"), "link-a.jpg", "hard-a.jpg"]
        for out in spellings {
            try expectRefused(["thumbnail", "a.mp4", "-o", out, "--format", "jpeg"], naming: "-o '\(out)'")
            try expectRefused(["thumbnail", "./a.mp4", "--out=\(out)", "--format", "png"], naming: "-o '\(out)'")
        }
    }

    /// From a CLI QA pass: `-o -` appended to the clip itself (`>> a.mp4`) grew the clip by a
    /// poster and exited 0, where an `-o` path that is the clip is refused. Standard output is
    /// compared by device and inode too; a pipe or another file still takes the poster.
    @Test func thumbnailStandardOutputThatIsTheClipIsRefused() throws {
        let binary = TestEnvironment.storyreelBinary
        let before = tree()
        let appended = try TestEnvironment.run(
            "/bin/sh", ["-c", "\"$0\" thumbnail a.mp4 -o - --width 90 >> hard-a.jpg", binary], in: folder.url)
        #expect(appended.status == 64, "\(appended.stderr)")
        #expect(
            appended.stderr == "storyreel: error: -o -: standard output is the input 'a.mp4'; writing it would "
                + "change the input\n")
        #expect(holds("a.mp4", originals["a.mp4"]))
        #expect(tree() == before)
        let elsewhere = try TestEnvironment.run(
            "/bin/sh", ["-c", "\"$0\" thumbnail a.mp4 -o - --width 90 >> sub/poster.jpg", binary], in: folder.url)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(
            (try? Data(contentsOf: URL(fileURLWithPath: folder.path("sub/poster.jpg"))))?.starts(with: [0xFF, 0xD8])
                == true)
    }

    /// From a CLI QA pass: `thumbnail -o .png` wrote a JPEG, hidden, named `.png`; `cube -o .mp4`
    /// is refused. An image extension alone is not a name; `.thumb` is one (JPEG, as any name
    /// without an extension).
    @Test func aPosterNamedByItsExtensionAloneIsRefused() throws {
        for name in [".png", "sub/.WEBP", ".jpg"] {
            let before = tree()
            let result = try TestEnvironment.storyreel(["thumbnail", "a.mp4", "-o", name], in: folder.url)
            #expect(result.status == 64, "\(result.stderr)")
            let ext = name.split(separator: "/").last!
            #expect(
                result.stderr.hasPrefix(
                    "storyreel: error: -o '\(name)': give the file a name before its extension (poster\(ext))"),
                "\(result.stderr)")
            #expect(tree() == before)
        }
        let named = try TestEnvironment.storyreel(
            ["thumbnail", "a.mp4", "-o", ".thumb", "--width", "90"], in: folder.url)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path(".thumb")))
    }

    @Test func thumbnailOutDirPosterThatIsAClipIsRefused() throws {
        // The poster of a.mp4 in the folder itself, as PNG, is a.png: here, another input.
        try folder.write("a.png", originals["b.mp4"]!)
        let copy = originals["b.mp4"]!
        try expectRefused(
            ["thumbnail", "a.mp4", "a.png", "--out-dir", ".", "--format", "png"], naming: "--out-dir's poster")
        #expect(holds("a.png", copy))
        // A poster name that is a hard link to (or a symlink at) the clip, in another folder.
        try FileManager.default.linkItem(atPath: folder.path("a.mp4"), toPath: folder.path("sub/a.jpg"))
        try expectRefused(["thumbnail", "a.mp4", "--out-dir", "sub"], naming: "--out-dir's poster")
        try FileManager.default.createSymbolicLink(atPath: folder.path("sub/b.jpg"), withDestinationPath: "../b.mp4")
        try expectRefused(["thumbnail", "b.mp4", "--out-dir", "./sub/../sub"], naming: "--out-dir's poster")
    }

    @Test func thumbnailNextToItsClipStillWorks() throws {
        let result = try TestEnvironment.storyreel(
            ["thumbnail", "a.mp4", "--out-dir", ".", "--width", "90", "--at", "0"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("a.jpg")))
        #expect(holds("a.mp4", originals["a.mp4"]))
    }

    @Test func cubeOutputThatIsFromOrToIsRefused() throws {
        let cube = ["cube", "a.mp4", "b.mp4", "--size", "64x64"]
        for out in ["a.mp4", "./b.mp4", "sub/../a.mp4", folder.path("b.mp4"), "link-a.jpg", "hard-b.png"] {
            try expectRefused(cube + ["-o", out], naming: "-o '\(out)'")
            try expectRefused(cube + ["--filmstrip", out], naming: "--filmstrip '\(out)'")
        }
        // Refused even when the other outputs are fine.
        try expectRefused(cube + ["-o", "fine.mp4", "--filmstrip", "hard-a.jpg"], naming: "--filmstrip")
    }

    @Test func cubeFramesThatAreFromOrToAreRefused() throws {
        // 15 frames: frame_0000.png … frame_0014.png; the last is a hard link to FROM, then a symlink to TO.
        let frames = folder.path("frames")
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: folder.path("a.mp4"), toPath: "\(frames)/frame_0014.png")
        try expectRefused(
            ["cube", "a.mp4", "b.mp4", "--size", "64x64", "--frames-dir", "frames"], naming: "--frames-dir's frame")
        try FileManager.default.removeItem(atPath: "\(frames)/frame_0014.png")
        try FileManager.default.createSymbolicLink(
            atPath: "\(frames)/frame_0003.png", withDestinationPath: folder.path("b.mp4"))
        try expectRefused(
            ["cube", "./a.mp4", "sub/../b.mp4", "--size", "64x64", "--frames-dir", "./frames/"],
            naming: "--frames-dir's frame")
        // At 0.1 s the transition has 3 frames: frame_0003.png would not be written, but a
        // shorter run removes earlier frames, and this one is TO: refused (64), the link left alone.
        let short = try TestEnvironment.storyreel(
            ["cube", "a.mp4", "b.mp4", "--size", "64x64", "--frames-dir", "frames", "--duration", "0.1"],
            in: folder.url)
        #expect(short.status == 64, "\(short.stderr)")
        #expect(
            short.stderr.contains(
                "--frames-dir's earlier frame 'frames/frame_0003.png' (a shorter run removes it) is the same file as "
                    + "the input 'b.mp4'"), "\(short.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(written == ["frame_0003.png"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(frames)/frame_0003.png") != "")
        #expect(holds("b.mp4", originals["b.mp4"]))
    }
}
