import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// A run killed (SIGKILL) between renaming the new manifest into place and saving the ledger
/// left a manifest the ledger did not know: the next run took it for a user's edit, set it aside
/// in `.storyreel/replaced/` and warned that it "had changed since storyreel wrote it". The
/// ledger now records the contents about to be written, and saves that, before the rename.
@Suite struct LedgerPendingWriteTests {
    let folder: TemporaryFolder
    let bundle: String

    init() throws {
        folder = try TemporaryFolder()
        bundle = folder.path("bundle")
        try FileManager.default.createDirectory(
            atPath: BundlePaths.join(bundle, BundlePaths.privateFolder), withIntermediateDirectories: true)
    }

    /// The next run's view: the ledger as saved.
    func state(_ relative: String) -> BundleLedger.State {
        BundleLedger(bundle: bundle, shard: nil).state(of: relative)
    }

    /// Writes `data` as `relative` and records it, as a run that finishes does.
    func writeAndRecord(_ relative: String, _ data: Data) throws {
        let ledger = BundleLedger(bundle: bundle, shard: nil)
        try ledger.willWrite(relative, data: data)
        try ledger.save()
        try AtomicFile.write(data, to: BundlePaths.join(bundle, relative))
        try ledger.record(relative)
        try ledger.save()
    }

    @Test func aRunKilledAroundTheRenameLeavesFilesTheNextRunKnows() throws {
        let manifest = BundlePaths.manifest
        try writeAndRecord(manifest, Data("{\"version\": 1}\n".utf8))
        #expect(state(manifest) == .current)

        // Killed after the rename, before the ledger's last save.
        let ledger = BundleLedger(bundle: bundle, shard: nil)
        let second = Data("{\"version\": 1, \"more\": true}\n".utf8)
        try ledger.willWrite(manifest, data: second)
        try ledger.save()
        try AtomicFile.write(second, to: BundlePaths.join(bundle, manifest))
        #expect(state(manifest) == .current, "the new manifest is storyreel's")

        // Killed before the rename: the manifest there is still the recorded one.
        try writeAndRecord(manifest, Data("{\"version\": 1}\n".utf8))
        let before = BundleLedger(bundle: bundle, shard: nil)
        try before.willWrite(manifest, data: Data("{\"version\": 1, \"third\": true}\n".utf8))
        try before.save()
        #expect(state(manifest) == .current)

        // An edit is still an edit.
        try Data("{\"edited\": 1}\n".utf8).write(to: URL(fileURLWithPath: BundlePaths.join(bundle, manifest)))
        #expect(state(manifest) == .changed)
    }

    @Test func aNewFileOnlyAboutToBeWrittenIsMissingThenStoryreelsAndNeverSomeoneElses() throws {
        let page = "index.html"
        let ledger = BundleLedger(bundle: bundle, shard: nil)
        let bytes = Data("<!doctype html>\n".utf8)
        try ledger.willWrite(page, data: bytes)
        try ledger.save()
        #expect(state(page) == .missing, "the pending entry survives the save")
        try AtomicFile.write(bytes, to: BundlePaths.join(bundle, page))
        #expect(state(page) == .current)
        try Data("someone's page\n".utf8).write(to: URL(fileURLWithPath: BundlePaths.join(bundle, page)))
        #expect(state(page) == .unknown, "not what was pending, and nothing was written: not storyreel's")
    }
}
