import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// The ledger keeps a transition's codecs string once read, so a no-op re-run opens no
/// transition; what it keeps answers only for the very file it was read from.
@Suite struct LedgerCodecsTests {
    let folder: TemporaryFolder
    let bundle: String
    /// An output's name, as ledgers hold only those.
    let relative = "transitions/0123456789abcdef0123.mp4"

    init() throws {
        folder = try TemporaryFolder()
        bundle = folder.path("bundle")
        for sub in [BundlePaths.privateFolder, "transitions"] {
            try FileManager.default.createDirectory(
                atPath: BundlePaths.join(bundle, sub), withIntermediateDirectories: true)
        }
    }

    var path: String { BundlePaths.join(bundle, relative) }

    /// Writes `data` as the transition and records it; returns the ledger and the file's stamp.
    func writeAndRecord(_ data: Data) throws -> (BundleLedger, FileStamp) {
        try AtomicFile.write(data, to: path)
        let ledger = BundleLedger(bundle: bundle, shard: nil)
        try ledger.record(relative)
        return (ledger, try #require(FileStamp(path: path)))
    }

    @Test func aNotedCodecsStringIsSavedAndAnswersWhileTheFileIsUnchanged() throws {
        let (ledger, stamp) = try writeAndRecord(Data(repeating: 1, count: 100))
        #expect(ledger.codecs(of: relative) == nil, "nothing noted yet")
        ledger.noteCodecs("avc1.64001f", of: relative, readAt: stamp)
        try ledger.save()
        #expect(BundleLedger(bundle: bundle, shard: nil).codecs(of: relative) == "avc1.64001f")

        // Another file at the name: what was read from the old one no longer answers.
        try AtomicFile.write(Data(repeating: 2, count: 150), to: path)
        #expect(BundleLedger(bundle: bundle, shard: nil).codecs(of: relative) == nil)
        // Recorded anew, it starts with nothing noted.
        let (again, _) = try writeAndRecord(Data(repeating: 3, count: 120))
        #expect(again.codecs(of: relative) == nil)
    }

    @Test func aStringReadFromAnotherFileIsNotNoted() throws {
        let (ledger, stamp) = try writeAndRecord(Data(repeating: 1, count: 100))
        // Read from a file that was at the name a moment before (another size).
        let earlier = try folder.write("earlier.mp4", Data(repeating: 1, count: 101))
        ledger.noteCodecs("avc1.64001f", of: relative, readAt: try #require(FileStamp(path: earlier)))
        #expect(ledger.codecs(of: relative) == nil)
        ledger.noteCodecs("avc1.64001f", of: "transitions/unknown.mp4", readAt: stamp)
        #expect(!ledger.recorded.contains("transitions/unknown.mp4"))
    }

    // A hand-edited value (a QA pass: a quote, a newline, 2 MB) was copied into the manifest
    // as it was; only what a probe writes is taken, anything else is read from the file again.
    @Test func aValueNoProbeWritesIsNotTaken() throws {
        for odd in ["avc1.64001f\", \"evil\": \"1", "avc1\n", String(repeating: "a", count: 65), "", "hvc1-x"] {
            let (ledger, stamp) = try writeAndRecord(Data(repeating: 1, count: 100))
            ledger.noteCodecs(odd, of: relative, readAt: stamp)
            #expect(ledger.codecs(of: relative) == nil, "\(odd)")
        }
        let (ledger, stamp) = try writeAndRecord(Data(repeating: 1, count: 100))
        ledger.noteCodecs("hvc1.1.6.L93.90", of: relative, readAt: stamp)
        #expect(ledger.codecs(of: relative) == "hvc1.1.6.L93.90")
    }
}
