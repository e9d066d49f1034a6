import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// A file name may hold a newline, a tab or an escape sequence. Every line storyreel prints
/// stays one line (control characters escaped: a newline as the two characters `\n`), JSON
/// keeps the name exactly, and a `--reference` manifest never names such a path.
@Suite struct ControlCharactersInNamesTests {
    /// What a clip's name tries to print as a line of its own.
    static let fakeNote = "storyreel: note: all good, 0 skipped"

    /// Plain text, backslashes and non-ASCII letters included, is kept byte for byte; each
    /// control character becomes an escape. The old code had no escaping at all.
    @Test func escapingKeepsPlainTextAndTurnsControlCharactersIntoEscapes() {
        for plain in ["ana.lima/IMG_0001.MOV", "café/a b\\n.mov", "ana.lima → ben_k", ""] {
            #expect(Console.escaped(plain) == plain)
        }
        #expect(
            Console.escaped("2\nx\t\r\0\u{1B}[31m\u{7F}\u{85}\u{2028}é")
                == #"2\nx\t\r\0\u{1B}[31m\u{7F}\u{85}\u{2028}é"#)
        // The bidirectional overrides and isolates, which reorder the rest of the line ("gpj.exe"
        // shown for "exe.jpg"); right-to-left letters themselves are kept.
        #expect(
            Console.escaped("clip\u{202E}4pm.exe\u{2066}\u{2069}\u{202A}")
                == #"clip\u{202E}4pm.exe\u{2066}\u{2069}\u{202A}"#)
        #expect(Console.escaped("ليلى.mp4") == "ليلى.mp4")
    }

    /// The old render printed the skipped clip's name as it is: a second line
    /// `storyreel: note: all good, 0 skipped.mp4: skipped: …`; plan's text output got an extra
    /// line and column, and inspect's block an extra line.
    @Test func renderPlanAndInspectPrintANameWithANewlineOnOneLine() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        for story in ["ana", "ben"] {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(story)", withIntermediateDirectories: true)
        }
        let garbage = "ben/2\n\(Self.fakeNote).mp4"
        let tabbed = "ana/3\tx\n.mp4"
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: "\(stories)/ana/1.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.otherClip, toPath: "\(stories)/\(tabbed)")
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: "\(stories)/ben/1.mp4")
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: "\(stories)/\(garbage)"))

        let bundle = folder.path("reel")
        let render = try TestEnvironment.storyreel([
            "render", stories, "-o", bundle, "--size", BundleFixture.canvasArgument, "--jobs", "1",
        ])
        #expect(render.status == 65, "\(render.stderr)")
        let lines = render.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.hasPrefix("storyreel: ") }, "\(render.stderr)")
        #expect(!lines.contains { $0.hasPrefix(Self.fakeNote) }, "\(render.stderr)")
        #expect(
            lines.contains { $0.hasPrefix(#"storyreel: error: ben/2\n\#(Self.fakeNote).mp4: skipped: "#) },
            "\(render.stderr)")
        // JSON keeps the name exactly.
        let manifest = try Manifest(jsonData: Data(contentsOf: URL(fileURLWithPath: "\(bundle)/manifest.json")))
        #expect(manifest.skipped.map(\.path) == [garbage])
        #expect(try TestEnvironment.storyreel(["validate", bundle]).status == 0)

        let plan = try TestEnvironment.storyreel(["plan", stories])
        #expect(plan.status == 65, "\(plan.stderr)")
        let units = plan.stdout.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(units.allSatisfy { $0.count == 3 }, "\(plan.stdout)")
        #expect(units.contains { $0.last == #"ana/3\tx\n.mp4"# }, "\(plan.stdout)")
        let planJSON = try TestEnvironment.storyreel(["plan", stories, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(planJSON.stdout.utf8)) as? [String: Any]
        let inputs = (object?["units"] as? [[String: Any]] ?? []).compactMap { $0["input"] as? String }
        #expect(inputs.contains(tabbed))
        #expect(planJSON.stdout.contains(#""ana/3\tx\n.mp4""#), "the encoder's own escapes, as before")

        let clip = "\(stories)/\(tabbed)"
        let inspect = try TestEnvironment.storyreel(["inspect", clip])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.split(separator: "\n").first.map(String.init) == Console.escaped(clip))
        #expect(
            inspect.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(inspect.stdout)")
    }

    /// From a QA pass: OUT beside a folder named `https:example.invalid` made every `src` start
    /// with `https:`, which validate and the Kit took for a plain path and a browser for a URL:
    /// the page fetched each clip from that site. Such a clip is skipped with its reason.
    @Test func aReferencedClipWhosePathAURLReadsAsASchemeIsSkipped() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("https:example.invalid/stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: "\(stories)/ana/1.mp4")
        let render = try TestEnvironment.storyreel(
            [
                "render", "https:example.invalid/stories", "-o", ".", "--size", BundleFixture.canvasArgument,
                "--reference", "--force",
            ],
            in: folder.url)
        #expect(render.status == 66, "\(render.stderr)")
        #expect(
            render.stderr.contains(
                "ana/1.mp4: skipped: its path from the bundle ('https:example.invalid/stories/ana/1.mp4') is one a URL "
                    + "reads otherwise"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("manifest.json")), "nothing plays")
    }

    /// With `--reference` an item's `src` is the clip's own path, which may not hold a control
    /// character; the old render wrote it into the manifest (exit 0), a manifest `validate` now
    /// refuses. Copied clips are named by their hash, so `--copy` takes the clip.
    @Test func aReferencedClipWhosePathHoldsAControlCharacterIsSkipped() throws {
        // In a folder whose own name holds a '%': only the path from the bundle is written.
        let folder = try TemporaryFolder()
        let base = folder.path("100% real")
        let stories = "\(base)/stories"
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: "\(stories)/ana/1.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.otherClip, toPath: "\(stories)/ana/2\n.mp4")
        // A URL joined from these would ask for `ana/3` (a fragment follows) and `ana/4.mp4`.
        try FileManager.default.copyItem(atPath: HostileFiles.otherClip, toPath: "\(stories)/ana/3#take2.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.otherClip, toPath: "\(stories)/ana/4%2e.mp4")

        let referenced = "\(base)/referenced"
        let render = try TestEnvironment.storyreel([
            "render", stories, "-o", referenced, "--size", BundleFixture.canvasArgument, "--reference",
        ])
        #expect(render.status == 65, "\(render.stderr)")
        #expect(
            render.stderr.contains(
                #"storyreel: error: ana/2\n.mp4: skipped: its path holds a control character, which a "#
                    + "manifest's src may not (a URL would read it otherwise); render with --copy or --link"),
            "\(render.stderr)")
        for (name, character) in [("3#take2.mp4", "#"), ("4%2e.mp4", "%")] {
            #expect(
                render.stderr.contains("ana/\(name): skipped: its path holds '\(character)', which a manifest's src"),
                "\(render.stderr)")
        }
        let manifest = try Manifest(
            jsonData: Data(contentsOf: URL(fileURLWithPath: "\(referenced)/manifest.json")))
        #expect(manifest.stories.flatMap(\.items).map(\.src) == ["../stories/ana/1.mp4"])
        let validate = try TestEnvironment.storyreel(["validate", referenced, "--root", base])
        #expect(validate.status == 0, "\(validate.stderr)")

        let copied = try TestEnvironment.storyreel([
            "render", stories, "-o", "\(base)/copied", "--size", BundleFixture.canvasArgument,
        ])
        #expect(copied.status == 0, "\(copied.stderr)")
    }

    /// From the QA pass: a referenced clip skipped for its path still sized the automatic canvas
    /// (a 720x1280 `3#take2.mp4` beside a 540x960 clip gave a 720x1280 canvas); the canvas is
    /// the largest item that plays.
    @Test func aClipSkippedForItsPathDoesNotSizeTheCanvas() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("stories/ben_k/1.mp4"), toPath: "\(stories)/ana/1.mp4")
        try FileManager.default.copyItem(atPath: HostileFiles.goodClip, toPath: "\(stories)/ana/3#take2.mp4")
        let out = folder.path("reel")
        let render = try TestEnvironment.storyreel(["render", stories, "-o", out, "--reference", "--quiet"])
        #expect(render.status == 65, "\(render.stderr)")
        let manifest = try Manifest(jsonData: Data(contentsOf: URL(fileURLWithPath: "\(out)/manifest.json")))
        #expect(manifest.stories.flatMap(\.items).map(\.src) == ["../stories/ana/1.mp4"])
        #expect(manifest.canvas == Manifest.Size(width: 540, height: 960))
    }
}
