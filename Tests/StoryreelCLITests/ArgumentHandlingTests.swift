import Foundation
import StoryreelTestSupport
import Testing

/// `validate DIR`, `-o -` and `ingest --into`: arguments mean what a user expects.
@Suite struct ArgumentHandlingTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let clip = TestEnvironment.sample("portrait-h264.mp4")
    static let toClip = TestEnvironment.sample("stories/ben_k/1.mp4")
    static let stories = TestEnvironment.sample("stories")

    @Test func validateOfAFolderChecksItsManifest() throws {
        let fixture = try BundleFixture()
        let (render, _) = try fixture.render(into: "reel")
        #expect(render.status == 0, "\(render.stderr)")
        let bundle = fixture.folder.path("reel")
        let byFolder = try TestEnvironment.storyreel(["validate", bundle])
        #expect(byFolder.status == 0, "\(byFolder.stderr)")
        #expect(byFolder.stdout == "\(bundle)/manifest.json: valid\n")
        let empty = fixture.folder.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let missing = try TestEnvironment.storyreel(["validate", empty])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("\(empty)/manifest.json"), "\(missing.stderr)")
    }

    /// A canvas over the largest H.264/HEVC picture (level 6.2: 8192x4352) is said before any
    /// work: a phone's hardware decoder may refuse such transitions (``LevelLimitTests``).
    @Test func aCanvasOverTheLargestLevelIsAWarning() throws {
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories, withIntermediateDirectories: true)
        for (size, warned) in [("6000x6000", true), ("4096x4096", false)] {
            let render = try TestEnvironment.storyreel(["render", stories, "-o", folder.path("out"), "--size", size])
            #expect(render.status == 66, "no story: \(render.stderr)")
            #expect(
                render.stderr.contains(
                    "storyreel: warning: transitions: a \(size) clip is over the largest picture of any H.264 or HEVC level"
                )
                    == warned, "\(size): \(render.stderr)")
        }
        // ingest --render says it too, before its clips (a QA pass: the render it ran warned in
        // silence). The clip here is garbage, so it is rejected and no render follows.
        let upload = folder.path("upload.mp4")
        try Data("not a clip".utf8).write(to: URL(fileURLWithPath: upload))
        let ingest = try TestEnvironment.storyreel([
            "ingest", upload, "--story", "ana", "--into", stories, "--render", folder.path("out"), "--size",
            "6000x6000",
        ])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        #expect(
            ingest.stderr.hasPrefix(
                "storyreel: warning: transitions: a 6000x6000 clip is over the largest picture of any H.264 or HEVC level"
            ), "\(ingest.stderr)")
    }

    /// An empty path is a usage error (64) before any work, for every path option. (The old code
    /// decoded and encoded the poster, then failed with 73 on a file named ''.)
    @Test(arguments: [
        ["thumbnail", clip, "-o", ""], ["thumbnail", clip, "--out-dir", ""], ["cube", clip, toClip, "-o", ""],
        ["cube", clip, toClip, "--frames-dir", ""], ["render", stories, "-o", ""],
        ["ingest", clip, "--story", "", "--into", "x"], ["validate", stories, "--root", ""],
    ])
    func emptyPathsAreUsageErrors(arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("storyreel: error: -"), "\(result.stderr)")
        #expect(result.stderr.contains("got an empty one"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// `--output=` was told "-o needs a value, got an empty one" (a CLI QA pass): an option with
    /// two names gives both.
    @Test func anEmptyValueNamesBothSpellings() throws {
        let result = try TestEnvironment.storyreel(["thumbnail", Self.clip, "--output="], in: folder.url)
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix("storyreel: error: -o/--output needs a value, got an empty one"), "\(result.stderr)"
        )
    }

    /// A file name that is not UTF-8 cannot be held by a Swift string: it is refused (64) by
    /// argument number rather than read as another name. (The old code said "no such file" for
    /// an input and wrote an output under a name with U+FFFD in it.)
    @Test func argumentThatIsNotUTF8IsRefused() throws {
        let result = try TestEnvironment.run(
            "/bin/sh",
            [
                "-c", "'\(TestEnvironment.storyreelBinary)' thumbnail '\(Self.clip)' -o \"$(printf 'caf\\351.jpg')\"",
            ],
            in: folder.url)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("storyreel: error: argument 4 "), "\(result.stderr)")
        #expect(result.stderr.contains("is not valid UTF-8"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// The refusal names the argument on one line, its control characters escaped as every
    /// message's are: a newline in it printed a second line that looked like storyreel's own.
    @Test func argumentThatIsNotUTF8IsShownOnOneLine() throws {
        let result = try TestEnvironment.run(
            "/bin/sh",
            [
                "-c",
                "'\(TestEnvironment.storyreelBinary)' inspect '\(Self.clip)' \"$(printf '\\377\\nstoryreel: note: \\033[31mok.mp4')\"",
            ],
            in: folder.url)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("storyreel: error: argument 3 "), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "no raw escape: \(result.stderr)")
        #expect(result.stderr.contains("\\nstoryreel: note: \\u{1B}[31mok.mp4"), "\(result.stderr)")
    }

    @Test func thumbnailDashOWritesTheImageToStdout() throws {
        let result = try TestEnvironment.run(
            "/bin/sh",
            ["-c", "'\(TestEnvironment.storyreelBinary)' thumbnail '\(Self.clip)' -o - --width 180 > out.jpg"],
            in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("-")), "no file named '-'")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("out.jpg")))
        #expect(bytes.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "stdout holds a JPEG and nothing else")
        let stream = try TestEnvironment.ffprobeVideoStream(folder.path("out.jpg"))
        #expect(stream["width"] as? Int == 180)
        let png = try TestEnvironment.run(
            "/bin/sh",
            [
                "-c",
                "'\(TestEnvironment.storyreelBinary)' thumbnail '\(Self.clip)' -o - --format png --width 90 > p.png",
            ],
            in: folder.url)
        #expect(png.status == 0, "\(png.stderr)")
        let pngBytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("p.png")))
        #expect(pngBytes.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        // Onto a terminal (`script` gives the run one) it is refused, as curl refuses: the bytes
        // are noise there (a scripting QA pass).
        let onTerminal = try TestEnvironment.run(
            "script",
            [
                "-qec", "'\(TestEnvironment.storyreelBinary)' thumbnail '\(Self.clip)' -o - --width 16 2>&1",
                "/dev/null",
            ],
            in: folder.url)
        #expect(onTerminal.status == 64, "\(onTerminal.stdout)")
        #expect(
            onTerminal.stdout.hasPrefix(
                "storyreel: error: -o -: standard output is a terminal; send the image to a file or a pipe"),
            "\(onTerminal.stdout)")
    }

    @Test(arguments: [
        ["cube", clip, toClip, "-o", "-"], ["cube", clip, toClip, "--filmstrip", "-"],
        ["cube", clip, toClip, "--frames-dir", "-"], ["render", stories, "-o", "-"],
        ["thumbnail", clip, "--out-dir", "-"], ["ingest", clip, "--story", "a", "--into", "s", "--render", "-"],
        // It made a stories folder named "-" (a QA pass).
        ["ingest", clip, "--story", "a", "--into", "-", "--create"],
    ])
    func dashAsAFileOutputIsRefused(_ arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("- (standard output) is not supported here"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(arguments)")
    }

    /// From a QA pass: `plan --bundle -` planned for a folder named `-` (exit 0); a folder cannot
    /// come from standard input.
    @Test(arguments: [["plan", stories, "--bundle", "-"], ["validate", stories, "--root", "-"]])
    func dashAsAFolderToReadIsRefused(_ arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("- (standard input) is not supported here"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// From a QA pass: `render stories -o $OUT --json` with OUT unset rendered into a folder
    /// named `--json` and exited 0; `thumbnail -o --help` wrote a poster named `--help`.
    @Test(arguments: [
        ["render", stories, "-o", "--json"], ["thumbnail", clip, "-o", "--help"],
        ["cube", clip, toClip, "--frames-dir", "--quiet"], ["plan", stories, "--bundle", "--json"],
        ["ingest", clip, "--story", "a", "--into", "--create"],
    ])
    func aValueThatReadsAsAnOptionIsRefused(_ arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("needs a value"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(arguments)")
    }

    /// From a QA pass: a file output named as a folder decoded, rendered and encoded, then
    /// failed to take its name (73); a file where its folder should be was "no such folder".
    @Test(arguments: [
        ["cube", clip, toClip, "-o", "x.mp4/"], ["cube", clip, toClip, "--filmstrip", "s.png/."],
        ["thumbnail", clip, "-o", "p.jpg/"], ["thumbnail", clip, "-o", ".."],
    ])
    func aFileOutputNamedAsAFolderIsRefusedBeforeAnyWork(_ arguments: [String]) throws {
        let result = try TestEnvironment.storyreel(arguments, in: folder.url)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("names a folder; give a file name"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "\(arguments)")
    }

    @Test func aFileWhereTheOutputsFolderShouldBeIsNamedSo() throws {
        let file = try folder.write("afile", Data("x".utf8))
        let result = try TestEnvironment.storyreel(["cube", Self.clip, Self.toClip, "-o", "\(file)/x.mp4"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("x.mp4: not a folder: \(file)"), "\(result.stderr)")
    }

    /// `render stories out`, written as `cp` is, names the slip (it said only "needs exactly
    /// one INPUT"); three inputs, or two with `-o`, get the count.
    @Test func aSecondInputToRenderIsTakenForTheBundleInTheHint() throws {
        let out = folder.path("out")
        let slip = try TestEnvironment.storyreel(["render", Self.stories, out])
        #expect(slip.status == 64, "\(slip.stderr)")
        #expect(
            slip.stderr.hasPrefix(
                "storyreel: error: render needs exactly one INPUT (got 2; did you mean -o '\(out)'?); usage: "),
            "\(slip.stderr)")
        let three = try TestEnvironment.storyreel(["render", Self.stories, out, "x", "-o", out])
        #expect(three.stderr.hasPrefix("storyreel: error: render needs exactly one INPUT (got 3); usage: "))
        #expect(!FileManager.default.fileExists(atPath: out))
        let quote = try TestEnvironment.storyreel(["render", Self.stories, "it's out"])
        #expect(quote.stderr.contains(#"did you mean -o 'it'\''s out'?"#), "\(quote.stderr)")
    }

    @Test func ingestIntoAMissingFolderIsRefusedUnlessCreate() throws {
        let stories = folder.path("stories")
        let refused = try TestEnvironment.storyreel(["ingest", Self.clip, "--story", "ana", "--into", stories])
        #expect(refused.status == 66, "\(refused.stderr)")
        #expect(
            refused.stderr == "storyreel: error: \(stories): no such stories folder; give --create to start a new one\n"
        )
        #expect(!FileManager.default.fileExists(atPath: stories))
        let created = try TestEnvironment.storyreel(
            ["ingest", Self.clip, "--story", "ana", "--into", stories, "--create"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana") == ["0001-portrait-h264.mp4"])
        let file = try folder.write("file", Data())
        let notAFolder = try TestEnvironment.storyreel(["ingest", Self.clip, "--story", "ana", "--into", file])
        #expect(notAFolder.status == 66, "\(notAFolder.stderr)")
    }

    /// True when this process may mount over `/proc` in a mount namespace of its own.
    static let canHideProc = MountNamespace.allows("mount -t tmpfs none /proc")

    /// Without `/proc` (a bare chroot) the Swift runtime reads no command line at all: storyreel
    /// says so (71) instead of answering every command with "no command given" (64). Hides
    /// `/proc` in a mount namespace of its own.
    @Test(.enabled(if: canHideProc, "needs a mount namespace (root with CAP_SYS_ADMIN)"))
    func withoutProcTheCommandLineIsAClearError() throws {
        let script = "mount -t tmpfs none /proc && exec \"$0\" inspect \"$1\""
        let result = try MountNamespace.run(script, [Self.clip])
        #expect(result.status == 71, "\(result.stderr)")
        #expect(result.stderr == "storyreel: error: cannot read the command line: is /proc mounted?\n")
        #expect(result.stdout.isEmpty)
        let withProc = try TestEnvironment.storyreel(["inspect", Self.clip])
        #expect(withProc.status == 0, "the same command with /proc: \(withProc.stderr)")
    }
}
