import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// A ledger that cannot be saved (a full disk) has the run remove what it made since the last
/// save, which would otherwise be in no ledger for good, and keep what it adopted: outputs of
/// earlier runs or of shards merged without their ledgers, which the manifest left in place
/// plays (a QA pass: a merged bundle lost every shard's output, and a damaged ledger took the
/// live bundle's clips and images with it).
@Suite struct LedgerSaveFailureTests {
    @Test func aFailedSaveRemovesWhatTheRunMadeAndKeepsWhatItAdopted() throws {
        let folder = try TemporaryFolder()
        let bundle = folder.path("bundle")
        let posters = BundlePaths.join(bundle, "posters")
        try FileManager.default.createDirectory(atPath: posters, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: BundlePaths.join(bundle, BundlePaths.privateFolder), withIntermediateDirectories: true)
        try Data("an earlier run's".utf8).write(to: URL(fileURLWithPath: "\(posters)/earlier.jpg"))
        try Data("this run's".utf8).write(to: URL(fileURLWithPath: "\(posters)/new.jpg"))

        let ledger = BundleLedger(bundle: bundle, shard: nil)
        #expect(ledger.state(of: "posters/earlier.jpg") == .unknown)
        try ledger.adopt("posters/earlier.jpg")
        try ledger.record("posters/new.jpg")
        // A folder at the ledger's name refuses the save, as a full disk does.
        try FileManager.default.createDirectory(
            atPath: BundlePaths.join(bundle, "\(BundlePaths.privateFolder)/ledger.json"),
            withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try ledger.save() }
        #expect(ledger.removeUnsaved() == 1)
        #expect(FileManager.default.fileExists(atPath: "\(posters)/earlier.jpg"), "adopted: kept")
        #expect(!FileManager.default.fileExists(atPath: "\(posters)/new.jpg"), "made in this run: removed")
    }
}
