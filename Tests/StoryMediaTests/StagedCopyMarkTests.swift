import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// A copy of someone's clip (`render`'s `clips/`, `ingest`) carries no mark once it has its
/// name, but its temporary file carries storyreel's mark until then: a QA pass killed a render
/// while it flushed a 94 MB copy whose mark it had already taken off, and the whole copy stayed
/// under storyreel's temporary name for good, unmarked, so no later run could tell it for its own.
@Suite struct StagedCopyMarkTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func aCopyKeepsItsTemporaryMarkUntilItHasItsName() throws {
        // A name already taken: the exclusive commit fails after flushing, before any rename.
        let taken = try folder.write("taken.mp4", Data("someone's".utf8))
        let refused = try StagedFile(for: taken, replacing: false, marked: false)
        try refused.append(Data("copy".utf8))
        #expect(throws: StagedFile.NameTaken.self) { try refused.commit(exclusively: true) }
        #expect(OutputMark.isMarked(refused.temporaryPath), "flushed, still under its temporary name: marked")

        let free = folder.path("free.mp4")
        let placed = try StagedFile(for: free, replacing: false, marked: false)
        try placed.append(Data("copy".utf8))
        try placed.commit(exclusively: true)
        #expect(OutputMark.isUnmarked(free), "placed: someone's media, unmarked")
        var status = stat()
        #expect(stat(free, &status) == 0)
        let umask = FileCreationMask.current
        #expect(status.st_mode & 0o777 == (0o644 & ~umask) | S_IRUSR, "a new file's permissions")
        #expect(try Data(contentsOf: URL(fileURLWithPath: free)) == Data("copy".utf8))
    }
}
