import Foundation
import StoryreelTestSupport
import Testing

/// Which storyreel made a bundle, and what an upgrade leaves (an upgrade QA pass): two builds
/// that rendered differently both said `storyreel 0.3.0`; an older storyreel remade a newer
/// bundle's pictures with its older renderer, rewrote its manifest and, with `--prune`, removed
/// the newer outputs; and a bundle copied without `.storyreel/` kept every old picture for good.
@Suite struct BundleVersionTests {
    /// `--version` names the renderer and the probe; the manifest's `generator` the renderer.
    @Test func theVersionAndTheGeneratorNameTheRenderer() throws {
        let version = try TestEnvironment.storyreel(["--version"])
        #expect(version.status == 0)
        let line = version.stdout.trimmingCharacters(in: .newlines)
        let match = try #require(
            line.wholeMatch(of: /storyreel (\d+\.\d+\.\d+) \(renderer (\d+), probe (\d+)\)/), "\(version.stdout)")
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        #expect(try fixture.manifest("reel").generator == "storyreel \(match.1) (renderer \(match.2))")
    }

    /// Every file under `folder` (hidden ones too) with its bytes and mtime.
    private func snapshot(_ folder: String) throws -> [String: (Data, Date)] {
        var files: [String: (Data, Date)] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        while let relative = enumerator.nextObject() as? String {
            let path = folder + "/" + relative
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            files[relative] = (try Data(contentsOf: URL(fileURLWithPath: path)), modified ?? .distantPast)
        }
        return files
    }

    /// `render` (with `--prune`, and `--force`) and `ingest --render` refuse (73) a bundle whose
    /// manifest a newer storyreel wrote, a newer renderer or a newer format, in one line, before
    /// any work: the bundle and the stories folder stay as they were.
    @Test func aNewerStoryreelsBundleIsRefusedAndLeftAsItWas() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        let manifestPath = out + "/manifest.json"
        let written = try Data(contentsOf: URL(fileURLWithPath: manifestPath))
        let newer: [(change: (inout [String: Any]) -> Void, named: String)] = [
            ({ $0["generator"] = "storyreel 0.3.0 (renderer 999)" }, "(storyreel 0.3.0 (renderer 999))"),
            // Numbers of any size (a QA pass: ten digits and more read as none, and the bundle
            // was written over).
            (
                { $0["generator"] = "storyreel 0.3.0 (renderer 1000000000)" },
                "(storyreel 0.3.0 (renderer 1000000000))"
            ),
            (
                { $0["generator"] = "storyreel 0.3.0 (renderer 99999999999999999999999)" },
                "(storyreel 0.3.0 (renderer 99999999999999999999999))"
            ),
            (
                {
                    $0["version"] = 1e23
                    $0["generator"] = "storyreel 0.3.0 (renderer 1)"
                }, "(storyreel 0.3.0 (renderer 1), manifest version 1e+23)"
            ),
            (
                {
                    $0["version"] = 2
                    $0["generator"] = "storyreel 0.4.0"
                }, "(storyreel 0.4.0, manifest version 2)"
            ),
        ]
        for (change, named) in newer {
            var manifest = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
            change(&manifest)
            try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
            let bundleBefore = try snapshot(out)
            let storiesBefore = try snapshot(fixture.stories)
            for extra in [["--prune"], ["--force"]] {
                let (result, _) = try fixture.render(into: "reel", extra)
                #expect(result.status == 73, "\(extra): \(result.stderr)")
                #expect(
                    result.stderr.hasPrefix("storyreel: error: \(out): rendered by a newer storyreel \(named); ")
                        && result.stderr.hasSuffix(
                            "upgrade storyreel, or render into another folder (to go back to this version, remove its "
                                + "manifest.json first)\n")
                        && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
            }
            let plan = try TestEnvironment.storyreel(["plan", fixture.stories, "--bundle", out])
            #expect(
                plan.status == 73 && plan.stderr.contains("rendered by a newer storyreel \(named)"), "\(plan.stderr)")
            let ingest = try TestEnvironment.storyreel([
                "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ben_k", "--into", fixture.stories,
                "--render", out,
            ])
            #expect(ingest.status == 73, "\(ingest.stderr)")
            #expect(ingest.stderr.contains("rendered by a newer storyreel \(named)"), "\(ingest.stderr)")
            let bundleAfter = try snapshot(out)
            #expect(bundleAfter.mapValues(\.0) == bundleBefore.mapValues(\.0), "nothing in the bundle changed")
            #expect(bundleAfter.mapValues(\.1) == bundleBefore.mapValues(\.1), "nor was written again")
            #expect(try snapshot(fixture.stories).mapValues(\.0) == storiesBefore.mapValues(\.0), "no clip went in")
        }
    }

    /// Someone's `manifest.json` with a `version` of 2 (a web app's) is not a newer storyreel's:
    /// it is still "a file storyreel did not write", even with `--force` (a review).
    @Test func someonesManifestWithAVersionIsNotANewerStoryreels() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("site")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try Data(#"{"name": "Team site", "version": 2}"#.utf8).write(to: URL(fileURLWithPath: out + "/manifest.json"))
        let (result, _) = try fixture.render(into: "site", ["--force"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("a file storyreel did not write") && !result.stderr.contains("newer"))
    }

    /// A bundle made by an older renderer is made again with a note saying why; one whose
    /// manifest names no renderer (written before it was named) gets none, nor does a run that
    /// makes nothing.
    @Test func anOlderRenderersBundleIsMadeAgainWithANote() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let manifestPath = fixture.folder.path("reel/manifest.json")
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath)))
                as? [String: Any])
        manifest["generator"] = "storyreel 0.3.0 (renderer 1)"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let (cached, _) = try fixture.render(into: "reel")
        #expect(cached.status == 0 && !cached.stderr.contains("renderer 1"), "nothing made: \(cached.stderr)")
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        // Another canvas makes every still and transition again, as a new renderer does.
        let (result, summary) = try fixture.render(into: "reel", ["--size", "144x256"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((summary["rendered"] as? Int ?? 0) > 0)
        #expect(
            result.stderr.contains(
                "storyreel: note: the bundle was rendered by renderer 1 (storyreel 0.3.0 (renderer 1)): its pictures "
                    + "and transitions are made again by renderer "),
            "\(result.stderr)")
        #expect(result.stderr.contains("--prune removes the old ones"))
        #expect(try fixture.manifest("reel").generator.hasSuffix(")") && !result.stderr.contains("error"))
    }

    /// A bundle copied without `.storyreel/` (the CI artifact of docs/bundles.md), then rendered with other
    /// keys: `--prune` removes the earlier pictures, which name themselves in their own bytes, and
    /// leaves a user's JPEG under an output's name, a copy edited in place, and the transitions.
    @Test func pruneRemovesEarlierOutputsOfABundleCopiedWithoutItsLedger() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "made").0.status == 0)
        let out = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/sh")
        copy.arguments = ["-c", "cd \"$0\" && cp -r --no-preserve=all -- * \"$1\"/", fixture.folder.path("made"), out]
        try copy.run()
        copy.waitUntilExit()
        #expect(copy.terminationStatus == 0)
        let earlier = Set(fixture.outputs("reel"))
        // A stranger's JPEG at a still's name, and an earlier still edited in place.
        let stills = earlier.filter { $0.hasPrefix("stills/") }.sorted()
        try #require(stills.count >= 2)
        let stranger = "stills/00000000000000000000-first.jpg"
        try FileManager.default.copyItem(atPath: "\(out)/\(stills[0])", toPath: "\(out)/tmp.jpg")
        var strangerBytes = try Data(contentsOf: URL(fileURLWithPath: "\(out)/tmp.jpg"))
        strangerBytes[strangerBytes.count - 100] ^= 0x55
        try strangerBytes.write(to: URL(fileURLWithPath: "\(out)/\(stranger)"))
        try FileManager.default.removeItem(atPath: "\(out)/tmp.jpg")
        var edited = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(stills[1])"))
        edited[edited.count - 100] ^= 0x55
        try edited.write(to: URL(fileURLWithPath: "\(out)/\(stills[1])"))
        // Another canvas: every still and transition gets a new key.
        let (rendered, _) = try fixture.render(into: "reel", ["--size", "144x256"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let (pruned, _) = try fixture.render(into: "reel", ["--prune", "--size", "144x256"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let manifest = try fixture.manifestBytes("reel")
        let left = Set(fixture.outputs("reel")).filter { path in
            let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return manifest.range(of: Data(stem.utf8)) == nil
        }
        #expect(
            Set(left.filter { !$0.hasPrefix("transitions/") }) == Set([stranger, stills[1]]),
            "of the images only the stranger's file and the edited copy stay: \(left)")
        // Transitions are left: their comment hashes their samples alone, which a remux keeps.
        let earlierTransitions = earlier.filter { $0.hasPrefix("transitions/") }
        #expect(
            !earlierTransitions.isEmpty && Set(left.filter { $0.hasPrefix("transitions/") }) == Set(earlierTransitions))
        let gone = earlier.subtracting(fixture.outputs("reel"))
        #expect(
            gone.count >= 15 && gone.allSatisfy { $0.hasPrefix("stills/") || $0.hasPrefix("posters/") },
            "the earlier stills: \(gone)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(stranger)")) == strangerBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(stills[1])")) == edited)
    }

    /// From an incremental-render QA pass: after a render killed before it saved its ledger (or a
    /// bundle copied without `.storyreel/`), a story deleted from the input kept its clip copies
    /// in `clips/` for good, published: `--prune` removed only what a ledger records or what names
    /// itself. A clip copy's name is its content's hash, so one that hashes to its name goes; a
    /// user's file at such a name that does not hash to it stays.
    @Test func pruneRemovesTheClipsOfADeletedStoryFromABundleWithoutItsLedger() throws {
        let fixture = try BundleFixture()
        #expect(try fixture.render(into: "reel").0.status == 0)
        let out = fixture.folder.path("reel")
        try FileManager.default.removeItem(atPath: "\(out)/.storyreel")
        let chloe = try fixture.manifest("reel").stories.first { $0.id == "chloe" }
        let chloeClips = try #require(chloe).items.map(\.src)
        #expect(chloeClips.count == 2 && chloeClips.allSatisfy { $0.hasPrefix("clips/") })
        let stranger = "clips/0123456789abcdef.mp4"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(out)/\(stranger)"))
        try FileManager.default.removeItem(atPath: "\(fixture.stories)/chloe")
        let (pruned, summary) = try fixture.render(into: "reel", ["--prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        for clip in chloeClips { #expect(!FileManager.default.fileExists(atPath: "\(out)/\(clip)"), "\(clip)") }
        #expect(FileManager.default.fileExists(atPath: "\(out)/\(stranger)"), "a user's file is kept")
        #expect((summary["pruned"] as? Int ?? 0) >= chloeClips.count, "\(summary)")
        let manifest = try fixture.manifest("reel")
        for item in manifest.stories.flatMap(\.items) {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(item.src)"), "\(item.src) still plays")
        }
    }
}
