import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// A clip replaced after the plan hashed it (an upload renamed over it while `render` ran) must
/// not lend its pictures to the old clip's key: the old code filed the new clip's poster, stills
/// and transition under the old hash, and later runs reused them as cached.
@Suite struct SourceChangedDuringRenderTests {
    /// A clip swapped for a link to a file outside the stories input after the listing checked
    /// where it led, and before the plan read it: the render copied that file into the bundle
    /// and played it (a QA pass: 5 of 5 runs with the swap 20 ms in). It is skipped as a link
    /// that leads outside, and its avatar likewise, without opening them.
    @Test func aClipSwappedForALinkOutsideAfterTheListingIsSkipped() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        for clip in ["ana/1.mp4", "ben/1.mp4", "ben/2.mp4"] {
            try FileManager.default.createDirectory(
                atPath: "\(stories)/\(clip)".containingFolder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(stories)/\(clip)")
        }
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("stories/ana.lima/avatar.jpg"), toPath: "\(stories)/ben/avatar.jpg")
        let input = try StoryInput.load(stories)
        #expect(input.skipped.isEmpty)
        let outside = folder.path("outside.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("sixty-fps.mp4"), toPath: outside)
        for swapped in ["\(stories)/ben/1.mp4", "\(stories)/ben/avatar.jpg"] {
            try FileManager.default.removeItem(atPath: swapped)
            try FileManager.default.createSymbolicLink(atPath: swapped, withDestinationPath: outside)
        }
        let plan = try BundlePlan.make(input: input, settings: BundleSettings(), options: RenderOptions(), cache: nil)
        #expect(plan.skipped.map(\.path) == ["ben/1.mp4", "ben/avatar.jpg"], "\(plan.skipped)")
        #expect(
            plan.skipped.map(\.reason) == [InputRoot.outsideReason, "avatar: \(InputRoot.outsideReason)"],
            "\(plan.skipped)")
        #expect(!plan.units.contains { $0.source.hasSuffix("outside.mp4") || $0.source == "\(stories)/ben/1.mp4" })
    }

    /// A skip only for a change while the run read the clip makes the run one to run again (75),
    /// wherever that cause sits among a unit's joined causes; any other skip alone does not.
    @Test func aChangeWhileReadMakesTheRunOneToRunAgain() {
        var summary = RenderSummary()
        summary.skipped = [SkippedEntry(path: "a/1.mp4", story: "a", reason: "no decodable video frame")]
        #expect(!summary.mustRunAgain)
        let changed = "first-frame: it changed while storyreel read it; \(BundlePlan.runAgain); poster: timed out"
        summary.skipped.append(SkippedEntry(path: "a/2.mp4", story: "a", reason: changed))
        #expect(summary.mustRunAgain)
    }

    @Test func outputsDecodedFromAReplacedClipAreNotKept() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        for (story, clip) in [("ana", "portrait-h264.mp4"), ("ben", "sixty-fps.mp4")] {
            try FileManager.default.createDirectory(
                atPath: "\(stories)/\(story)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestEnvironment.sample(clip), toPath: "\(stories)/\(story)/1.mp4")
        }
        let plan = try BundlePlan.make(
            input: try StoryInput.load(stories), settings: BundleSettings(), options: RenderOptions(), cache: nil)
        let replaced = "\(stories)/ana/1.mp4"
        #expect(plan.sourceStamps[replaced] != nil)
        // The new clip is renamed over the old one, as an upload would be.
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("edit-list.mp4"), toPath: folder.path("new.mp4"))
        #expect(rename(folder.path("new.mp4"), replaced) == 0)

        let bundle = folder.path("out")
        let run = try Self.execute(plan, options: RenderOptions(), into: bundle)

        let anaUnits = plan.units.filter { $0.source == replaced && ![.clip, .transition].contains($0.kind) }
        #expect(anaUnits.count == 4, "poster, thumbnail and the two stills")
        for unit in anaUnits {
            #expect(!FileManager.default.fileExists(atPath: BundlePaths.join(bundle, unit.output)), "\(unit.output)")
        }
        // One entry for the clip, naming every unit that failed with its cause: the copy and the
        // pictures failed for two causes, which were two entries (the summary counted two
        // skipped clips; a QA pass).
        let entries = run.failures.filter { $0.path == "ana/1.mp4" }
        #expect(entries.count == 1, "\(run.failures)")
        let reason = try #require(entries.first?.reason)
        #expect(
            reason.contains("poster, thumbnail, first-frame, last-frame: it changed while storyreel read it"),
            "\(reason)")
        #expect(reason.hasPrefix("clip: ") && reason.contains("; poster"), "\(reason)")
        let transition = try #require(plan.units.first { $0.kind == .transition })
        #expect(!FileManager.default.fileExists(atPath: BundlePaths.join(bundle, transition.output)))
        #expect(run.transitionFailures.map(\.output) == [transition.output])
        // Ben's clip did not change: his outputs are made.
        for unit in plan.units where unit.story == "ben" {
            #expect(FileManager.default.fileExists(atPath: BundlePaths.join(bundle, unit.output)), "\(unit.output)")
        }
    }

    /// From a QA pass of inputs changing mid-run: a clip rewritten in place after the plan hashed
    /// it, its mtime then put back (`rsync --inplace -t`), kept its size, mtime and inode, so the
    /// check after decoding passed and the other content's stills were filed under its key for
    /// good. Its change time moved, and the check now sees it: nothing of it is kept, and the
    /// failure is not kept as the clip's own either.
    @Test func outputsDecodedFromAClipRewrittenInPlaceWithItsMtimePutBackAreNotKept() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: "\(stories)/ana", withIntermediateDirectories: true)
        let clip = "\(stories)/ana/1.mp4"
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: clip)
        let plan = try BundlePlan.make(
            input: try StoryInput.load(stories), settings: BundleSettings(), options: RenderOptions(), cache: nil)
        var before = stat()
        try #require(stat(clip, &before) == 0)
        // The same size, written in place with one letter changed in the encoder's note (x264's
        // SEI: it decodes the same), then the mtime put back to the nanosecond.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        let note = try #require(bytes.range(of: Data("x264 - core".utf8)))
        bytes[note.lowerBound] = UInt8(ascii: "y")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: clip))
        try handle.write(contentsOf: bytes)
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        try #require(utimensat(AT_FDCWD, clip, &times, 0) == 0)
        let now = try #require(FileStamp(path: clip))
        let planned = try #require(plan.sourceStamps[clip])
        #expect(now == planned, "size, mtime and inode are as the plan saw them")
        #expect(!now.isSameWithChangeTime(planned))
        #expect(throws: MediaError.self) { try BundlePlan.unchanged(clip, since: planned) }
        // Hashed again, it is not the clip the plan hashed.
        let planHash = try #require(plan.sourceHashes[clip])
        #expect(throws: MediaError.self) { try BundlePlan.unchanged(clip, since: planned, sha256: planHash) }
        // A change time moved with nothing written (`touch -a`, `chmod`, a hard link) is hashed
        // again and taken: the QA pass of this check found good clips skipped.
        let other = try TemporaryFolder()
        let touched = other.path("touched.mp4")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: touched)
        let untouched = try #require(FileStamp(path: touched))
        usleep(20_000)
        try #require(chmod(touched, 0o600) == 0)
        #expect(try #require(FileStamp(path: touched)).statusChanged != untouched.statusChanged)
        let hash = try ContentHasher.sha256(ofFileAt: touched)
        #expect(try BundlePlan.unchanged(touched, since: untouched, sha256: hash) == untouched)
        #expect(throws: MediaError.self) { try BundlePlan.unchanged(touched, since: untouched) }
        let bundle = folder.path("out")
        let run = try Self.execute(plan, options: RenderOptions(), into: bundle)
        let pictures = plan.units.filter { ![.clip, .transition].contains($0.kind) && $0.source == clip }
        #expect(pictures.count == 4, "poster, thumbnail and the two stills")
        for unit in pictures {
            #expect(!FileManager.default.fileExists(atPath: BundlePaths.join(bundle, unit.output)), "\(unit.output)")
        }
        let reason = try #require(run.failures.first { $0.path == "ana/1.mp4" }?.reason)
        #expect(reason.contains("it changed while storyreel read it"), "\(reason)")
    }

    /// From a QA pass of inputs changing mid-run: a clip reposted in two stories is planned
    /// once, from the first copy; when only that copy was replaced during the render, the other
    /// story's unchanged copy was skipped with it ("it changed while storyreel read it"), and
    /// its story lost the item. The units are now made from the other copy. Not with
    /// `--reference`, whose items play their own paths.
    @Test(arguments: [RenderOptions.ClipMode.copy, .reference])
    func aRepostIsMadeFromAnotherCopyWhenTheFirstIsReplaced(mode: RenderOptions.ClipMode) throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        for story in ["ana", "ben"] {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(story)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(stories)/\(story)/1.mp4")
        }
        var options = RenderOptions()
        options.clipMode = mode
        let plan = try BundlePlan.make(
            input: try StoryInput.load(stories), settings: BundleSettings(), options: options, cache: nil)
        let pictures = plan.units.filter { ![.transition, .avatar].contains($0.kind) }
        #expect(
            pictures.allSatisfy { $0.sourceLabel == "ana/1.mp4" && $0.otherCopies.map(\.sourceLabel) == ["ben/1.mp4"] })
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("edit-list.mp4"), toPath: folder.path("new.mp4"))
        #expect(rename(folder.path("new.mp4"), "\(stories)/ana/1.mp4") == 0)

        let bundle = folder.path("out")
        let run = try Self.execute(plan, options: options, into: bundle)
        let made = pictures.filter { FileManager.default.fileExists(atPath: BundlePaths.join(bundle, $0.output)) }
        if mode == .copy {
            #expect(made.count == pictures.count, "\(run.failures)")
            #expect(run.failures.isEmpty, "\(run.failures)")
        } else {
            #expect(made.isEmpty)
            #expect(run.failures.map(\.path) == ["ana/1.mp4"], "\(run.failures)")
        }
    }

    /// Runs `plan`'s units into a new bundle folder `bundle`, with the plan's stamps and hashes,
    /// as `render` does.
    static func execute(_ plan: BundlePlan, options: RenderOptions, into bundle: String) throws -> UnitRun {
        for name in BundlePaths.outputFolders + [BundlePaths.privateFolder] {
            try FileManager.default.createDirectory(
                atPath: BundlePaths.join(bundle, name), withIntermediateDirectories: true)
        }
        var run = UnitRun(
            bundle: bundle, options: options, canvas: (plan.canvasWidth, plan.canvasHeight),
            ledger: BundleLedger(bundle: bundle, shard: nil), sourceStamps: plan.sourceStamps,
            sourceHashes: plan.sourceHashes, progress: { _ in })
        run.execute(plan.units)
        return run
    }
}
