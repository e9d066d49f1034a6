import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The canvas default, the settings a bundle keeps, and keys that follow exactly the parameters
/// a unit is rendered with.
@Suite struct SavedSettingsAndKeysTests {
    func canvas(_ manifest: Manifest) -> [Int] {
        [manifest.canvas.width, manifest.canvas.height]
    }

    @Test func theDefaultCanvasIsTheLargestItemAndSizeOverridesIt() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let automatic = try TestEnvironment.storyreel(["render", fixture.stories, "-o", out, "--quiet"])
        #expect(automatic.status == 0, "\(automatic.stderr)")
        let first = try fixture.manifest("reel")
        #expect(canvas(first) == [540, 960], "every sample story clip is 540x960")
        let transition = try #require(first.transitions.first?.src)
        let probe = try TestEnvironment.ffprobeVideoStream("\(out)/\(transition)")
        #expect([probe["width"] as? Int, probe["height"] as? Int] == [540, 960])

        let fixed = try TestEnvironment.storyreel(["render", fixture.stories, "-o", out, "--size", "720x1280", "-q"])
        #expect(fixed.status == 0)
        #expect(canvas(try fixture.manifest("reel")) == [720, 1280])
        let back = try TestEnvironment.storyreel(["render", fixture.stories, "-o", out, "--size", "auto", "--json"])
        #expect(back.status == 0)
        #expect(canvas(try fixture.manifest("reel")) == [540, 960])
        #expect(back.stdout.contains("\"rendered\":0"), "the automatic canvas's outputs are still there")
    }

    /// A QA pass: one landscape upload among the portrait stories made the automatic canvas
    /// 1080x606, and every portrait story was cropped to a strip a third of its height.
    @Test func aLandscapeClipAmongPortraitStoriesDoesNotTurnTheCanvas() throws {
        let fixture = try BundleFixture()
        try HostileFiles.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", fixture.stories + "/chloe/wide.mp4",
        ])
        let result = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--quiet", "--no-player",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        #expect(canvas(manifest) == [540, 960], "the portrait clips' canvas")
        let wide = try #require(manifest.stories.flatMap(\.items).first { $0.width == 1920 })
        let still = try TestEnvironment.ffprobeVideoStream(fixture.folder.path("reel") + "/" + (wide.firstFrame ?? "-"))
        #expect([still["width"] as? Int, still["height"] as? Int] == [540, 960], "its still is cropped to the canvas")
    }

    /// From the phone-uploads QA pass: one taller upload (an Android phone's 1080x2400) ingested
    /// into 9:16 stories made the automatic canvas 864x1920, in silence: every story was cropped
    /// to it, and every still and transition made again. The canvas takes the aspect most
    /// clips have; a change it does make (a larger 9:16 clip) is said.
    @Test func aTallerUploadDoesNotSetTheCanvasAndAChangeOfCanvasIsSaid() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let first = try TestEnvironment.storyreel(["render", fixture.stories, "-o", out, "--quiet", "--no-player"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(canvas(try fixture.manifest("reel")) == [540, 960])
        func ingest(_ size: String) throws -> ProcessResult {
            let clip = fixture.folder.path("upload-\(size).mp4")
            try HostileFiles.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=s=\(size):r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                "-pix_fmt", "yuv420p", clip,
            ])
            return try TestEnvironment.storyreel([
                "ingest", clip, "--story", "chloe", "--into", fixture.stories, "--render", out, "--no-player",
            ])
        }
        let tall = try ingest("1080x2400")
        #expect(tall.status == 0, "\(tall.stderr)")
        #expect(canvas(try fixture.manifest("reel")) == [540, 960], "the stories' canvas")
        #expect(!tall.stderr.contains("canvas"), "\(tall.stderr)")
        let larger = try ingest("720x1280")
        #expect(larger.status == 0, "\(larger.stderr)")
        #expect(canvas(try fixture.manifest("reel")) == [720, 1280])
        #expect(
            larger.stderr.contains(
                "storyreel: note: canvas 540x960 → 720x1280 (automatic: the largest clip of the shape and aspect most "
                    + "clips have): every still and transition is the new canvas's (made again where the bundle does not have "
                    + "it from before); --size 540x960 keeps the old one"),
            "\(larger.stderr)")
    }

    @Test func aLaterRenderKeepsTheSavedSettingsAndSaysWhenTheyChange() throws {
        let fixture = try BundleFixture()
        let (first, _) = try fixture.render(into: "reel", ["--crf", "30", "--fps", "24", "--both-directions"])
        #expect(first.status == 0, "\(first.stderr)")
        let saved = try String(contentsOfFile: fixture.folder.path("reel/.storyreel/settings.json"), encoding: .utf8)
        #expect(saved.contains("\"crf\": \"30\"") && saved.contains("\"fps\": \"24\""), "\(saved)")
        // Without them: the same settings, so nothing to redo, and no note.
        let plain = try TestEnvironment.storyreel(["render", fixture.stories, "-o", fixture.folder.path("reel")])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("rendered 0,"), "\(plain.stderr)")
        #expect(!plain.stderr.contains("settings changed"))
        let kept = try fixture.manifest("reel")
        let transitions = kept.transitions
        #expect(transitions.count == 6, "both directions kept")
        #expect(transitions.allSatisfy { $0.fps == 24 && $0.frames == 12 })
        // A change is named in one note and kept.
        let changed = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--crf", "28", "--forward-only",
        ])
        #expect(changed.status == 0, "\(changed.stderr)")
        let notes = changed.stderr.split(separator: "\n").filter { $0.contains("settings changed") }
        #expect(
            notes == ["storyreel: note: settings changed: both-directions yes → no, crf 30 → 28 (kept for later runs)"])
        // ingest --render renders with the bundle's settings too.
        let clip = TestEnvironment.sample("portrait-h264.mp4")
        let ingest = try TestEnvironment.storyreel([
            "ingest", clip, "--story", "ben_k", "--into", fixture.stories, "--render", fixture.folder.path("reel"),
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(!ingest.stderr.contains("settings changed"))
        let after = try fixture.manifest("reel")
        #expect(canvas(after) == [BundleFixture.canvas.width, BundleFixture.canvas.height])
        #expect(after.transitions.count == 3)
        #expect(after.transitions.allSatisfy { $0.fps == 24 })
        // A value that fails with a kept one is named as kept, not as if given (a QA pass).
        let tooLong = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--transition-duration", "0.01",
        ])
        #expect(tooLong.status == 64)
        #expect(
            tooLong.stderr.hasPrefix(
                "storyreel: error: --transition-duration × --fps must make 1 to 1000 frames, got round(0.01 × 24) = 0 "
                    + "(--fps 24 kept from the bundle's settings; give it to change)"), "\(tooLong.stderr)")
    }

    /// From the QA pass: `--reference` was not kept, so the next plain render (or `ingest
    /// --render`) copied every clip into `clips/` and re-pointed every `src`, with no note. How
    /// clips get in is now a kept setting, and changing it is named.
    @Test func theClipModeIsKept() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        let (first, _) = try fixture.render(into: "reel", ["--reference"])
        #expect(first.status == 0, "\(first.stderr)")
        let referenced = try fixture.manifestBytes("reel")
        let plain = try TestEnvironment.storyreel(["render", fixture.stories, "-o", out])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("rendered 0,"), "\(plain.stderr)")
        #expect(try fixture.manifestBytes("reel") == referenced, "still referenced")
        #expect(!FileManager.default.fileExists(atPath: out + "/clips"), "no clips/ folder: it would stay empty")
        let copied = try TestEnvironment.storyreel(["render", fixture.stories, "-o", out, "--copy"])
        #expect(copied.status == 0, "\(copied.stderr)")
        let notes = copied.stderr.split(separator: "\n").filter { $0.contains("settings changed") }
        #expect(notes == ["storyreel: note: settings changed: clips reference → copy (kept for later runs)"])
        #expect(try fixture.manifest("reel").stories.allSatisfy { $0.items.allSatisfy { $0.src.hasPrefix("clips/") } })
    }

    @Test(arguments: [
        (["--crf", "30"], ["transition"]),
        (["--max-bitrate", "3M"], ["transition"]),
        (["--codec", "hevc"], ["transition"]),
        (["--fps", "20"], ["transition"]),
        (["--transition-duration", "0.4"], ["transition"]),
        (["--size", "240x426"], ["poster", "first-frame", "last-frame", "transition"]),
    ])
    func changingOneParameterRedoesExactlyTheUnitsItGoesInto(arguments: [String], kinds: [String]) throws {
        let fixture = try BundleFixture()
        let (first, _) = try fixture.render(into: "reel")
        #expect(first.status == 0)
        let before = try planUnits(fixture, [])
        let after = try planUnits(fixture, arguments)
        let changed = Set(after.subtracting(before).map { $0.split(separator: " ")[0] }.map(String.init))
        #expect(changed == Set(kinds), "\(arguments): \(changed)")
        // With --bundle, plan says which of them are not done: exactly what render redoes.
        #expect(try planUnits(fixture, arguments, notDoneOnly: true) == after.subtracting(before))
        let (result, summary) = try fixture.render(into: "reel", arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(summary["rendered"] as? Int == after.subtracting(before).count, "exactly the changed units")
    }

    /// `plan --bundle OUT` says when OUT holds no bundle, whose settings it would plan with: a
    /// typo planned silently with the default settings, every unit to do. A file is refused.
    @Test func planSaysWhenTheBundleItIsGivenIsNone() throws {
        let fixture = try BundleFixture()
        let missing = fixture.folder.path("no-such-reel")
        let planned = try TestEnvironment.storyreel(["plan", fixture.stories, "--json", "--bundle", missing])
        #expect(planned.status == 0, "\(planned.stderr)")
        #expect(
            planned.stderr
                == "storyreel: note: \(missing): no bundle there yet; planned with the options given and the default "
                + "settings, every unit to do\n"
        )
        #expect(!FileManager.default.fileExists(atPath: missing), "plan makes nothing")
        let foreign = fixture.folder.path("photos")
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(foreign)/holiday.jpg"))
        let notABundle = try TestEnvironment.storyreel(["plan", fixture.stories, "--bundle", foreign])
        #expect(notABundle.status == 0, "\(notABundle.stderr)")
        #expect(notABundle.stderr.contains("warning: \(foreign): not a storyreel bundle"), "\(notABundle.stderr)")
        let file = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--bundle", fixture.stories + "/ben_k/1.mp4",
        ])
        #expect(file.status == 73, "\(file.stderr)")
        #expect(file.stdout.isEmpty)
        // With --json, stdout holds the error object render gives (it was empty: a QA pass).
        let fileJSON = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--bundle", fixture.stories + "/ben_k/1.mp4", "--json",
        ])
        #expect(fileJSON.status == 73, "\(fileJSON.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(fileJSON.stdout.utf8)) as? [String: Any]
        #expect(object?["exitCode"] as? Int == 73, "\(fileJSON.stdout)")
        #expect((object?["error"] as? String)?.contains("ben_k/1.mp4") == true, "\(fileJSON.stdout)")
    }

    /// A settings file storyreel cannot read is named in a warning by plan and render, which
    /// then use the defaults and the options given: a damaged file silently re-keyed a bundle
    /// kept at --crf 20 to 23 (a QA pass).
    /// From a QA pass: a bundle copied or checked into git without `.storyreel/` was re-rendered
    /// at the default canvas in silence; a `.storyreel/` storyreel could not read read as no
    /// settings, and the render failed (73) only after writing outputs no ledger knew.
    @Test func missingOrUnreadableSettingsAreSaidAndAFolderItCannotWriteIsRefusedFirst() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel", ["--size", "270x480"])
        try FileManager.default.removeItem(atPath: fixture.folder.path("reel/.storyreel"))
        let warning =
            "storyreel: warning: \(fixture.folder.path("reel/.storyreel/settings.json")): missing, though the bundle "
            + "has a manifest (copied without .storyreel/?); the defaults and the options given are used"
        let plan = try TestEnvironment.storyreel(["plan", fixture.stories, "--bundle", fixture.folder.path("reel")])
        #expect(plan.status == 0 && plan.stderr.contains(warning + "\n"), "\(plan.stderr)")
        let render = try TestEnvironment.storyreel([
            "render", fixture.stories, "-o", fixture.folder.path("reel"), "--size", "270x480",
        ])
        #expect(render.status == 0 && render.stderr.contains(warning + ", and kept"), "\(render.stderr)")

        // As another user (root reads and writes anything): `.storyreel/` it cannot search.
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.folder.path(""))
        let bundle = fixture.folder.path("reel")
        _ = try TestEnvironment.run("/bin/chown", ["-R", "65534", bundle])
        try FileManager.default.setAttributes(
            [.ownerAccountID: 0, .posixPermissions: 0o700], ofItemAtPath: "\(bundle)/.storyreel")
        let before = fixture.outputs("reel")
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", TestEnvironment.storyreelBinary]
        let denied = try TestEnvironment.run(
            "/usr/bin/setpriv", nobody + ["render", fixture.stories, "-o", bundle, "--crf", "30"])
        #expect(denied.status == 73, "\(denied.stderr)")
        #expect(
            denied.stderr
                == "storyreel: error: \(bundle)/.storyreel: storyreel cannot read and write this folder "
                + "(Permission denied)\n", "\(denied.stderr)")
        #expect(fixture.outputs("reel") == before, "nothing written")
        let planned = try TestEnvironment.run(
            "/usr/bin/setpriv", nobody + ["plan", fixture.stories, "--bundle", bundle])
        #expect(
            planned.stderr.contains("\(bundle)/.storyreel/settings.json: Permission denied; the defaults"),
            "\(planned.stderr)")
    }

    @Test func damagedSettingsAreNamedNotSilentlyReplaced() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel", ["--crf", "20"])
        let file = fixture.folder.path("reel/.storyreel/settings.json")
        for (contents, reason) in [
            ("{bad", "not valid JSON: invalid value at line 1, column 2"),
            (#"["crf"]"#, "not a JSON object of strings"),
            ("null", "not a JSON object of strings"),
            (#"{"crf": "x"}"#, #""crf": "x" is not understood"#),
            (#"{"crf": "22", "crf": "30"}"#, #""crf" is given twice"#),
            // Each value passes; together they do not (every run failed with 64 on options it
            // was never given).
            (
                #"{"transition-duration": "10", "fps": "240"}"#,
                "transition-duration × fps makes 2400 frames, not 1 to 1000"
            ),
            // Each value is taken only where its option would take it: 1e308 frames per
            // second ended every run with SIGILL, CRF 0 failed every transition, "maybe" removed
            // the player page (a QA pass).
            (#"{"fps": "1e308"}"#, #""fps": "1e308" is not understood"#),
            (#"{"transition-duration": "1.9e19"}"#, #""transition-duration": "1.9e19" is not understood"#),
            (#"{"fps": "241"}"#, #""fps": "241" is not understood"#),
            (#"{"fps": "0x1E"}"#, #""fps": "0x1E" is not understood"#),
            (#"{"transition-duration": "10.4"}"#, #""transition-duration": "10.4" is not understood"#),
            (#"{"crf": "0"}"#, #""crf": "0" is not understood"#),
            (#"{"crf": "+20"}"#, #""crf": "+20" is not understood"#),
            (#"{"max-bitrate": "50"}"#, #""max-bitrate": "50" is not understood"#),
            (#"{"player": "maybe"}"#, #""player": "maybe" is not understood"#),
            (#"{"both-directions": "maybe"}"#, #""both-directions": "maybe" is not understood"#),
            (#"{"size": "360x+640"}"#, #""size": "360x+640" is not understood"#),
        ] {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: file))
            let warning = "storyreel: warning: \(file): \(reason); the defaults and the options given are used"
            let plan = try TestEnvironment.storyreel(["plan", fixture.stories, "--bundle", fixture.folder.path("reel")])
            #expect(plan.status == 0 && plan.stderr.contains(warning + "\n"), "\(plan.stderr)")
            let (render, _) = try fixture.render(into: "reel", ["--crf", "20"])
            #expect(render.status == 0 && render.stderr.contains(warning + ", and kept"), "\(render.stderr)")
        }
        // A peak written as the option takes it is understood (a QA pass: "4.5M" was not).
        try Data(#"{"max-bitrate": "4.5M", "crf": "20"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let suffixed = try TestEnvironment.storyreel([
            "plan", fixture.stories, "--bundle", fixture.folder.path("reel"), "--json",
        ])
        #expect(suffixed.status == 0 && !suffixed.stderr.contains("warning"), "\(suffixed.stderr)")
        // Not a file at all: refused before any work (it failed the run with 73 after it all).
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        let (folder, summary) = try fixture.render(into: "reel", ["--crf", "22"])
        #expect(folder.status == 73 && folder.stderr.contains("\(file): is not a regular file"), "\(folder.stderr)")
        #expect(summary["rendered"] == nil, "no work was done")
        try FileManager.default.removeItem(atPath: file)
        let (again, _) = try fixture.render(into: "reel")
        #expect(again.stderr.contains("missing, though the bundle has a manifest"), "\(again.stderr)")
        let (whole, _) = try fixture.render(into: "reel")
        #expect(!whole.stderr.contains("warning"), "the settings were saved whole: \(whole.stderr)")
    }

    /// A damaged ledger was passed over in silence, so no `--prune` could ever remove the outputs
    /// it listed (a QA pass): `render` and `plan` name it, and go on.
    @Test func aDamagedLedgerIsNamedNotPassedOverInSilence() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        let ledger = fixture.folder.path("reel/.storyreel/ledger.json")
        // 513 `[` and nothing after stopped the process inside Foundation's parser (SIGILL, a QA
        // pass), as it did in the stat cache beside it.
        let tooDeep = String(repeating: "[", count: 513)
        for (contents, reason) in [
            ("[", "not valid JSON"), (#"{"clips/a.mp4": 1}"#, "not a ledger"), (tooDeep, "not valid JSON"),
        ] {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: ledger))
            let warning = "storyreel: warning: \(ledger): \(reason)"
            let plan = try TestEnvironment.storyreel(
                ["plan", fixture.stories, "--json", "--bundle", fixture.folder.path("reel")])
            #expect(plan.status == 0 && plan.stderr.hasPrefix(warning), "\(plan.stderr)")
            let (render, _) = try fixture.render(into: "reel")
            #expect(render.status == 0, "\(render.stderr)")
            #expect(render.stderr.contains(warning), "\(render.stderr)")
            #expect(render.stderr.contains("--prune leaves those this run does not make again"), "\(render.stderr)")
            let (again, _) = try fixture.render(into: "reel")
            #expect(!again.stderr.contains("warning"), "the ledger was saved whole: \(again.stderr)")
        }
        try Data(tooDeep.utf8).write(to: URL(fileURLWithPath: fixture.folder.path("reel/.storyreel/stat-cache.json")))
        let (cached, _) = try fixture.render(into: "reel")
        #expect(cached.status == 0, "a stat cache it cannot read is an empty one: \(cached.stderr)")
    }

    /// A bundle merged without its hidden folder (no ledger) is done where a render adopts its
    /// files: every unit was "not done" while a render made none of them again.
    @Test func planCountsAsDoneWhatARenderWouldAdopt() throws {
        let fixture = try BundleFixture()
        _ = try fixture.render(into: "reel")
        try FileManager.default.removeItem(atPath: fixture.folder.path("reel/.storyreel"))
        // The fixture's canvas, which the settings no longer say.
        let units = try planUnits(fixture, ["--size", BundleFixture.canvasArgument])
        #expect(!units.isEmpty)
        let notDone = try planUnits(fixture, ["--size", BundleFixture.canvasArgument], notDoneOnly: true)
        #expect(notDone.isEmpty, "every unit is done: \(notDone)")
        let (result, summary) = try fixture.render(into: "reel")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(summary["rendered"] as? Int == 0)
        #expect(summary["cached"] as? Int == units.count)
    }

    /// `plan --json --bundle reel` with `extra`, as "kind output" lines (those not `done` only,
    /// when `notDoneOnly`).
    func planUnits(_ fixture: BundleFixture, _ extra: [String], notDoneOnly: Bool = false) throws -> Set<String> {
        let result = try TestEnvironment.storyreel(
            ["plan", fixture.stories, "--json", "--bundle", fixture.folder.path("reel")] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let units = (object?["units"] as? [[String: Any]] ?? []).filter { unit in
            #expect(unit["done"] is Bool, "\(unit)")
            return !notDoneOnly || unit["done"] as? Bool == false
        }
        return Set(units.map { "\($0["kind"] as? String ?? "") \($0["output"] as? String ?? "")" })
    }

    @Test func theKeyIsMadeOfEveryParameterTheRendererUsesButItsThreads() {
        let parameters = CubeTransitionJob.Parameters()
        let stored = Set(Mirror(reflecting: parameters).children.compactMap(\.label))
        let keyed = Set(parameters.canonicalFields.map(\.name))
        #expect(stored.subtracting(keyed) == ["threads"], "every other field goes into the key")
        #expect(keyed.subtracting(stored).isEmpty)
        var changed = parameters
        changed.threads = 1
        #expect(changed.canonicalKey == parameters.canonicalKey)
        changed.perspective = 3
        #expect(changed.canonicalKey != parameters.canonicalKey)
    }
}
