import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// A file never has storyreel's temporary name without its mark, which is how a later run tells
/// a stale temporary file for its own and removes it. Two QA passes killed runs in the gaps.
@Suite struct TemporaryFileMarkTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// A copy of someone's clip (`render`'s `clips/`, `ingest`) carries no mark once it has its
    /// name, but its temporary file carries the mark until then: a render killed while it
    /// flushed a 94 MB copy whose mark it had already taken off left the whole copy under
    /// storyreel's temporary name for good.
    @Test func aCopyKeepsItsTemporaryMarkUntilItHasItsName() throws {
        // A name already taken: the exclusive commit fails after flushing, before any rename.
        let taken = try folder.write("taken.mp4", Data("someone's".utf8))
        let refused = try StagedFile(for: taken, replacing: false, marked: false)
        try refused.append(Data("copy".utf8))
        #expect(throws: StagedFile.NameTaken.self) { try refused.commit(exclusively: true) }
        #expect(OutputMark.isMarked(refused.temporaryPath), "flushed, still under its temporary name: marked")
        // Its permissions are already its final ones (owner-writable, for the unmark): set after
        // the rename, an interrupt between the two left the clip owner-only and marked (a review).
        var staged = stat()
        #expect(stat(refused.temporaryPath, &staged) == 0)
        #expect(staged.st_mode & 0o777 == (0o644 & ~FileCreationMask.current) | S_IRUSR | S_IWUSR)

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

    /// A temporary file is made nameless (`O_TMPFILE`, where the file system can: this one's),
    /// marked, and only then linked under its name: a run killed between the `open` of its name
    /// and the mark left an empty, unmarked temporary file for good.
    @Test func aTemporaryFileIsMarkedBeforeItHasItsName() throws {
        // A file system that makes no nameless file gets the named fallback, which this cannot see.
        let probe = open(folder.url.path, 0o20_200_000 | O_WRONLY, 0o600)  // O_TMPFILE
        guard probe >= 0 else { return }
        close(probe)
        let staged = try StagedFile(for: folder.path("poster.jpg"))
        var file = stat()
        #expect(stat(staged.temporaryPath, &file) == 0)
        // Its open descriptor: the one of the same inode.
        let descriptor = try #require(
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init).first {
                var open = stat()
                return fstat($0, &open) == 0 && open.st_ino == file.st_ino && open.st_dev == file.st_dev
            })
        let info = try String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)
        let flags = try #require(
            info.split(separator: "\n").first { $0.hasPrefix("flags:") }.flatMap {
                Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8)
            })
        #expect(flags & 0o20_000_000 != 0, "opened nameless (O_TMPFILE): \(info)")
        #expect(OutputMark.isMarked(staged.temporaryPath))
    }

    /// A staged file's temporary file is held (`flock`) while the file is being written, so a
    /// sweep for its output's name (``TemporaryFile/removeStale(besides:)``, which `cube -o` and
    /// `thumbnail -o` run, holding no lock on their folder) leaves it; once the writer has gone
    /// (here: dropped without closing its name, as a kill leaves it), the sweep removes it.
    @Test func aSweepBesideAnOutputSparesTheFileALiveWriterHolds() throws {
        let output = folder.path("turn.mp4")
        var writing: StagedFile? = try StagedFile(for: output)
        try writing?.append(Data("half a clip".utf8))
        let temporary = try #require(writing?.temporaryPath)
        TemporaryFile.removeStale(besides: output)
        #expect(FileManager.default.fileExists(atPath: temporary), "a live writer's file stays")

        // What a killed run leaves: the same kind of file, marked, that nobody holds, an hour old;
        // and one finished a moment ago, unlocked, as a live run's waits for its name.
        let left = folder.path(".turn.mp4.Ab12Cd\(TemporaryFile.suffix)")
        let finished = folder.path(".turn.mp4.Fr35h0\(TemporaryFile.suffix)")
        for path in [left, finished] {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            #expect(descriptor >= 0)
            OutputMark.mark(descriptor: descriptor)
            close(descriptor)
        }
        try FileManager.default.setAttributes([.modificationDate: Date() - 3600], ofItemAtPath: left)
        // Someone's file of that shape, without the mark, and another output's stale file.
        let users = try folder.write(".turn.mp4.Us3rFl\(TemporaryFile.suffix)", Data("mine".utf8))
        let other = folder.path(".other.mp4.Zz99Yy\(TemporaryFile.suffix)")
        #expect(FileManager.default.createFile(atPath: other, contents: Data()))
        let otherDescriptor = open(other, O_RDONLY | O_CLOEXEC)
        OutputMark.mark(descriptor: otherDescriptor)
        close(otherDescriptor)
        try FileManager.default.setAttributes([.modificationDate: Date() - 3600], ofItemAtPath: other)

        TemporaryFile.removeStale(besides: output)
        #expect(!FileManager.default.fileExists(atPath: left), "the killed run's file goes")
        #expect(FileManager.default.fileExists(atPath: temporary), "the live writer's file stays")
        #expect(FileManager.default.fileExists(atPath: finished), "a file finished a moment ago stays")
        #expect(FileManager.default.fileExists(atPath: users), "an unmarked file stays")
        #expect(FileManager.default.fileExists(atPath: other), "another output's file stays")
        withExtendedLifetime(writing) {}
        writing = nil
        #expect(!FileManager.default.fileExists(atPath: temporary), "dropped unfinished: removed by its writer")
    }
}
