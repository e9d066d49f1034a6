import Foundation
import StoryMedia
import StoryreelKit
import StoryreelTestSupport
import Synchronization
import Testing

@testable import StoryPipeline

/// A file someone puts at an output's name while `render` runs is theirs: it is kept, as one
/// found there before the run is. The old code checked the names when the run began and then
/// renamed its finished files over whatever had them, so a transition or a new bundle's
/// manifest put there meanwhile was replaced without a trace.
@Suite struct ForeignFilesDuringRenderTests {
    /// Three one-clip stories, two transitions between them.
    static func stories(in folder: TemporaryFolder) throws -> String {
        let stories = folder.path("stories")
        for (story, clip) in [("ana", "portrait-h264.mp4"), ("ben", "sixty-fps.mp4"), ("cy", "edit-list.mp4")] {
            try FileManager.default.createDirectory(atPath: "\(stories)/\(story)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestEnvironment.sample(clip), toPath: "\(stories)/\(story)/1.mp4")
        }
        return stories
    }

    let folder: TemporaryFolder
    let stories: String
    let bundle: String
    /// One job, so that the transitions are made first, one after the other; a small canvas.
    let options: RenderOptions
    /// The transitions' paths in the bundle, as planned.
    let transitions: [String]

    init() throws {
        let folder = try TemporaryFolder()
        let stories = try Self.stories(in: folder)
        let bundle = folder.path("out")
        var options = RenderOptions()
        options.jobs = 1
        options.settings.canvas = .fixed(width: 180, height: 320)
        let plan = try BundlePlan.make(
            input: try StoryInput.load(stories), settings: BundleSettings().applying(options.settings),
            options: options, cache: nil)
        transitions = plan.units.filter { $0.kind == .transition }.map { BundlePaths.join(bundle, $0.output) }
        (self.folder, self.stories, self.bundle, self.options) = (folder, stories, bundle, options)
    }

    @Test func aTransitionAndAManifestPutThereDuringTheRenderAreKept() throws {
        let transitions = self.transitions
        #expect(transitions.count == 2)
        let manifest = BundlePaths.join(bundle, BundlePaths.manifest)
        let theirs = Data("someone's file\n".utf8)
        // With one job the transitions are made first, one after the other: once the first is
        // done, someone puts files at the second's name and at the manifest's.
        let placed = Mutex(false)
        let renderer = BundleRenderer(input: stories, output: bundle, options: options)
        #expect(throws: MediaError.self) {
            try renderer.run(progress: { progress in
                guard progress.current.hasPrefix("transition"), !placed.withLock({ $0 }) else { return }
                placed.withLock { $0 = true }
                let second = transitions.first { !FileManager.default.fileExists(atPath: $0) }!
                FileManager.default.createFile(atPath: second, contents: theirs)
                FileManager.default.createFile(atPath: manifest, contents: theirs)
            })
        }
        #expect(placed.withLock { $0 })
        #expect(transitions.filter { FileManager.default.contents(atPath: $0) == theirs }.count == 1)
        #expect(FileManager.default.contents(atPath: manifest) == theirs)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: bundle).filter {
            $0.hasSuffix(".storyreel-tmp")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// The turn and the outgoing clip's last-frame still are made together (the still is the
    /// turn's face): the still was written, the turn found its name taken, and the still, made
    /// again alone, met its own file and was failed as someone else's, dropping a clip that plays.
    @Test func aTransitionsNameTakenDuringTheRenderCostsOnlyThatTransition() throws {
        let transitions = self.transitions
        let theirs = Data("someone's file\n".utf8)
        let placed = Mutex<String?>(nil)
        let summary = try BundleRenderer(input: stories, output: bundle, options: options).run(progress: { progress in
            guard progress.current.hasPrefix("transition"), placed.withLock({ $0 == nil }) else { return }
            let second = transitions.first { !FileManager.default.fileExists(atPath: $0) }!
            placed.withLock { $0 = second }
            FileManager.default.createFile(atPath: second, contents: theirs)
        })
        let taken = try #require(placed.withLock { $0 })
        #expect(FileManager.default.contents(atPath: taken) == theirs)
        #expect(summary.skipped.count == 1, "\(summary.skipped)")
        #expect(summary.skipped.first?.reason.contains("\(taken) is a file storyreel did not write") == true)
        let manifest = try Manifest(
            jsonData: try Data(contentsOf: URL(fileURLWithPath: BundlePaths.join(bundle, BundlePaths.manifest))))
        #expect(manifest.stories.map(\.id) == ["ana", "ben", "cy"], "every clip plays")
    }
    /// From a QA pass: `posters/` moved aside and made anew while a render wrote into it gave 0,
    /// the new posters in the moved folder (written through the folder the run held open) and a
    /// manifest naming them where they were not. The run fails (73) naming the folder, and the
    /// manifest is not written; the next run makes them where they belong.
    @Test func anOutputFolderMovedDuringTheRenderFailsItBeforeTheManifest() throws {
        let posters = BundlePaths.join(bundle, "posters")
        let moved = Mutex(false)
        #expect {
            try BundleRenderer(input: stories, output: bundle, options: options).run(progress: { _ in
                moved.withLock { done in
                    guard !done else { return }
                    done = true
                    _ = rename(posters, posters + ".old")
                    _ = mkdir(posters, 0o755)
                }
            })
        } throws: { error in
            let failure = error as? MediaError
            return failure?.kind == .cannotCreateOutput && failure?.path == posters
                && failure?.reason.hasPrefix("was moved or replaced while storyreel wrote into it") == true
        }
        #expect(!FileManager.default.fileExists(atPath: BundlePaths.join(bundle, BundlePaths.manifest)))
        let again = try BundleRenderer(input: stories, output: bundle, options: options).run(progress: { _ in })
        let manifestPath = try #require(again.manifestPath)
        let problems = try ManifestValidator.problems(inManifestAt: manifestPath)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// From a re-check: a first render in which nothing plays, into a bare OUT where someone put a
    /// file meanwhile, removed the clip copy it had made but kept the ledger naming it, and
    /// counted it as rendered. The bundle stays (someone's file is in it), the ledger names only
    /// what is there, and what was removed is not counted.
    @Test func aFileOfSomeoneElsesKeepsTheUnplayedBundleButItsLedgerIsTrue() throws {
        let broken = folder.path("broken")
        try FileManager.default.createDirectory(atPath: "\(broken)/alice", withIntermediateDirectories: true)
        // Pictures garbled, not zeros, which say "preallocated", and not the audio, which does
        // not decode then: either skips the clip before any unit runs.
        try HostileFiles.goodClipWithPicturesZeroed(from: 0, filler: 0x01, sparing: 8)
            .write(to: URL(fileURLWithPath: "\(broken)/alice/1.mp4"))
        let theirs = BundlePaths.join(bundle, "posters/holiday.jpg")
        let summary = try BundleRenderer(input: broken, output: bundle, options: options).run(progress: { _ in
            if !FileManager.default.fileExists(atPath: theirs) {
                FileManager.default.createFile(atPath: theirs, contents: Data("mine".utf8))
            }
        })
        #expect(summary.manifestPath == nil)
        #expect(summary.rendered == 0, "the copy it made was removed")
        #expect(FileManager.default.fileExists(atPath: theirs))
        let ledger = try Data(contentsOf: URL(fileURLWithPath: BundlePaths.join(bundle, ".storyreel/ledger.json")))
        let recorded = try #require(try JSONSerialization.jsonObject(with: ledger) as? [String: Any])
        for relative in recorded.keys {
            #expect(FileManager.default.fileExists(atPath: BundlePaths.join(bundle, relative)), "\(relative)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: BundlePaths.join(bundle, "clips")).isEmpty)
    }
}
