import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// Writes go into the folder that was opened, by descriptor: a folder swapped for a symlink to
/// another folder (a victim's) while storyreel works cannot lead a write, a temporary file or a
/// replacement into the victim (a QA pass with a racer swapping folders every few milliseconds
/// had outputs, copies of clips and the ledger land in, and replace files of, a victim folder).
@Suite struct FolderPinTests {
    let root: TemporaryFolder
    /// The folder written into, and the victim a symlink in its place leads to.
    let folder: String
    let victim: String
    init() throws {
        root = try TemporaryFolder()
        folder = root.path("out")
        victim = root.path("victim")
        for path in [folder, victim] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        try Data("victim's".utf8).write(to: URL(fileURLWithPath: victim + "/poster.jpg"))
    }

    /// Moves the folder away (to `out.moved`) and puts a symlink to the victim in its place.
    func swapFolderForLinkToVictim() throws -> String {
        let moved = root.path("out.moved")
        #expect(rename(folder, moved) == 0)
        #expect(symlink(victim, folder) == 0)
        return moved
    }

    func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    func victimIsUntouched() throws {
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["poster.jpg"])
        #expect(try text(victim + "/poster.jpg") == "victim's")
    }

    /// A pinned folder swapped before the write: the file goes into the folder pinned.
    @Test func writeIntoAPinnedFolderSwappedForASymlinkStaysInThePinnedFolder() throws {
        let pin = try FolderPin(path: folder)
        let moved = try swapFolderForLinkToVictim()
        try AtomicFile.write(Data("storyreel's".utf8), to: folder + "/poster.jpg")
        try victimIsUntouched()
        #expect(try text(moved + "/poster.jpg") == "storyreel's")
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved) == ["poster.jpg"])
        withExtendedLifetime(pin) {}
    }

    /// Without a pin, the folder is opened when the writing starts: swapped between the start and
    /// the rename, the file still takes its name in the folder it was written in.
    @Test func folderSwappedWhileAFileIsStagedGetsTheFile() throws {
        let moved: String
        do {
            let file = try StagedFile(for: folder + "/poster.jpg")
            try file.append(Data("storyreel's".utf8))
            moved = try swapFolderForLinkToVictim()
            try file.commit()
        }
        try victimIsUntouched()
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved) == ["poster.jpg"])
        #expect(try text(moved + "/poster.jpg") == "storyreel's")
    }

    /// An exclusive write (a bundle's output, whose name was free) swapped likewise.
    @Test func exclusiveWriteIntoASwappedPinnedFolderStaysInThePinnedFolder() throws {
        let pin = try FolderPin(path: folder)
        let moved = try swapFolderForLinkToVictim()
        try AtomicFile.write(Data("storyreel's".utf8), to: folder + "/poster.jpg", exclusively: true)
        try victimIsUntouched()
        #expect(try text(moved + "/poster.jpg") == "storyreel's")
        withExtendedLifetime(pin) {}
    }

    /// What is checked of a file in a pinned folder (its stamp, identity, mark and contents) is
    /// the file in the folder pinned, not the victim's of the same name: with the folder swapped,
    /// a render hashed a victim's file into its ledger, set good outputs aside and left its page
    /// unwritten (a QA pass).
    @Test func readsOfAFileInAPinnedFolderSwappedForASymlinkSeeThePinnedFolder() throws {
        let path = folder + "/poster.jpg"
        try AtomicFile.write(Data("storyreel's own".utf8), to: path)
        let written = try #require(FileStamp(path: path))
        do {
            let pin = try FolderPin(path: folder)
            _ = try swapFolderForLinkToVictim()
            #expect(FileStamp(path: path) == written)
            #expect(FileStamp(path: path, followingLinks: false)?.size == written.size)
            #expect(FileIdentity(path: path) == written.identity && FileIdentity(entryAt: path) == written.identity)
            #expect(try RegularFile.contents(of: path, maxSize: 100) == Data("storyreel's own".utf8))
            #expect(OutputMark.isMarked(path), "the mark of the file written, not of the victim's")
            try victimIsUntouched()
            withExtendedLifetime(pin) {}
        }
        #expect(FileStamp(path: path)?.size == 8, "unpinned, the path leads to the victim's file again")
    }

    /// A pin ends with its object: later writes follow the path again.
    @Test func aReleasedPinNoLongerHoldsTheFolder() throws {
        do { _ = try FolderPin(path: folder) }
        #expect(FolderPin.handle(for: folder) == nil)
        let pin = try FolderPin(path: folder + "/")
        #expect(FolderPin.handle(for: root.path("./out")) === pin.handle, "one folder however it is spelled")
    }

    /// A folder of storyreel's own opened inside a pinned one is never a symlink.
    @Test func aFolderInsideIsNotOpenedThroughASymlink() throws {
        let parent = try FolderHandle(path: root.url.path)
        #expect(symlink(victim, root.path("posters")) == 0)
        #expect { try FolderHandle(name: "posters", in: parent) } throws: { error in
            (error as? MediaError)?.reason.contains("symbolic link") == true
        }
        #expect(try FolderHandle(name: "out", in: parent).identity == FileIdentity(path: folder))
    }
}
