import Foundation
import StoryPipeline
import StoryreelTestSupport
import Testing

/// Cleaning up after a failed job: what the job wrote goes, with the folders it made; what
/// another writer put in their place, and folders that were there before, stay.
@Suite struct CreatedOutputsTests {
    @Test func removesWhatItWroteAndTheFoldersItMade() throws {
        let folder = try TemporaryFolder()
        var created = CreatedOutputs()
        let made = folder.path("a/b")
        try created.createFolder(made)
        let file = try folder.write("a/b/out.png", Data("ours".utf8))
        created.add(file)
        #expect(created.files == [file])
        created.removeAll()
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: folder.path("a")), "both folders it made are gone")
        #expect(FileManager.default.fileExists(atPath: folder.path("")))
    }

    /// From a QA pass: a folder name holding a symlink to nothing was refused with "File
    /// exists", of a name `ls` shows in red and `test -e` says is not there.
    @Test func aSymlinkToNothingIsNamedAsOne() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("out")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path("nowhere"))
        var created = CreatedOutputs()
        do {
            try created.createFolder(link)
            Issue.record("the link was taken for a folder")
        } catch {
            #expect(
                "\(error)"
                    == "\(link): cannot create the folder '\(link)': it is a symbolic link that leads to nothing")
        }
    }

    /// Another run wrote the same output meanwhile (atomically, as storyreel writes: a new file
    /// renamed over the path). That file is not this job's to remove, nor is its folder.
    @Test func keepsAFileAnotherWriterPutInItsPlace() throws {
        let folder = try TemporaryFolder()
        var created = CreatedOutputs()
        try created.createFolder(folder.path("out"))
        let file = try folder.write("out/poster.jpg", Data("ours".utf8))
        created.add(file)
        let theirs = try folder.write("theirs.tmp", Data("theirs".utf8))
        #expect(rename(theirs, file) == 0)
        created.removeAll()
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "theirs")
        #expect(FileManager.default.fileExists(atPath: folder.path("out")))
    }

    /// A symlink put where the job's file was is not the job's file, even when it points at a
    /// file with the same inode.
    @Test func keepsASymlinkPutInItsPlace() throws {
        let folder = try TemporaryFolder()
        var created = CreatedOutputs()
        let file = try folder.write("poster.jpg", Data("ours".utf8))
        created.add(file)
        let kept = folder.path("kept.jpg")
        #expect(link(file, kept) == 0, "a second name for the job's file")
        #expect(unlink(file) == 0 && symlink(kept, file) == 0)
        created.removeAll()
        #expect(FileManager.default.fileExists(atPath: file), "the symlink stays")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "ours")
    }

    @Test func leavesAFolderThatWasThereBefore() throws {
        let folder = try TemporaryFolder()
        let existing = folder.path("existing")
        try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: false)
        var created = CreatedOutputs()
        try created.createFolder(existing)
        let file = try folder.write("existing/out.png", Data("ours".utf8))
        created.add(file)
        created.removeAll()
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(FileManager.default.fileExists(atPath: existing))
    }
}
