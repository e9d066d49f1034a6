import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryreelCLI

/// `thumbnail --out-dir`'s record of the posters it wrote. It was rewritten whole before and
/// after every poster, so a run's cost grew with the square of its posters (a QA pass: 765 clips
/// took 3.7 s, 1.4 s without the record; 2295 clips wrote 594 MB of record). Posters now go into
/// a journal before their rename, and the record is rewritten only when the journal has grown by
/// a quarter of it, and at the end; what a killed run journaled is known to the next run.
@Suite struct PosterFolderTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    var recordPath: String { folder.path(PosterFolder.recordName) }
    var journalPath: String { folder.path(PosterJournal.name) }

    /// The record's posters and pending names.
    func record() throws -> (posters: Set<String>, pending: Set<String>) {
        let data = try Data(contentsOf: URL(fileURLWithPath: recordPath))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let posters = try #require(object["posters"] as? [String: Any])
        let pending = try #require(object["pending"] as? [String: Any])
        return (Set(posters.keys), Set(pending.keys))
    }

    func posterName(_ index: Int) -> String { "clip-\(index).jpg" }

    /// Writes posters `range` through a folder object that then goes away without `finish()`,
    /// as in a run killed part-way.
    func writeWithoutFinishing(_ range: Range<Int>) throws {
        let posters = try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in })
        for index in range { try posters.write(Data("poster \(index)".utf8), to: folder.path(posterName(index))) }
    }

    @Test func theRecordIsRewrittenAFewTimesNotForEveryPoster() throws {
        let posters = try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in })
        var recordSizes: Set<Int> = []
        for index in 0..<300 {
            try posters.write(Data("poster \(index)".utf8), to: folder.path(posterName(index)))
            // The record only grows: each save leaves a size of its own.
            if let size = FileStamp(path: recordPath)?.size { recordSizes.insert(Int(size)) }
        }
        // Saved at 64, 128, 192 and 256 posters (the quarter rule starts above 256).
        #expect(recordSizes.count <= 5, "the record was saved \(recordSizes.count) times for 300 posters")
        #expect(FileManager.default.fileExists(atPath: journalPath), "the posters since are journaled")
        #expect(posters.finish() == nil)
        let saved = try record()
        #expect(saved.posters == Set((0..<300).map(posterName)))
        #expect(saved.pending.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: journalPath), "the journal goes at the end")
    }

    @Test func aKilledRunsJournaledPostersAreKnownToTheNextRun() throws {
        try writeWithoutFinishing(0..<100)
        // Saved at 64: the other 36 are in the journal alone. A kill can cut a last line short.
        #expect(try record().posters.count == 64)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journalPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"name":"clip-5"#.utf8))
        try handle.close()

        let posters = try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in })
        for index in 0..<100 {
            #expect(posters.refusal(toReplace: folder.path(posterName(index))) == nil, "\(posterName(index))")
        }
        #expect(try record().posters.count == 100, "the record took the journal in")
        #expect(!FileManager.default.fileExists(atPath: journalPath))
        #expect(posters.finish() == nil)
    }

    /// A journaled poster whose file holds something else (the run was killed before its rename,
    /// and someone wrote the name since) is someone's: refused, as a file no run wrote is.
    @Test func aJournaledPosterIsOnlyItsOwnWhileItHoldsWhatWasJournaled() throws {
        try writeWithoutFinishing(0..<3)
        try Data("the user's picture".utf8).write(to: URL(fileURLWithPath: folder.path(posterName(1))))
        let posters = try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in })
        #expect(posters.refusal(toReplace: folder.path(posterName(0))) == nil)
        #expect(posters.refusal(toReplace: folder.path(posterName(1))) != nil)
        #expect(posters.refusal(toReplace: folder.path(posterName(2))) == nil)
        #expect(posters.finish() == nil)
    }

    /// A re-check: a symlink at the journal's name was written through and then removed, and a
    /// hard link's other file took the journal's lines. Either is refused before any work, and
    /// left as it is.
    @Test func aJournalThatIsALinkIsRefusedAndLeftAlone() throws {
        let victim = try TemporaryFolder()
        let target = victim.path("notes.txt")
        try Data("important\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: journalPath, withDestinationPath: target)
        #expect(throws: MediaError.self) { try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in }) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: journalPath) == target)
        try FileManager.default.removeItem(atPath: journalPath)
        try FileManager.default.linkItem(atPath: target, toPath: journalPath)
        #expect(throws: MediaError.self) { try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in }) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("important\n".utf8))
    }

    /// A run that wrote nothing into a folder without a record leaves neither record nor journal.
    @Test func aRunThatWroteNothingLeavesNothing() throws {
        let posters = try PosterFolder(path: folder.url.path, timeout: 5, waiting: { _ in })
        #expect(posters.finish() == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
