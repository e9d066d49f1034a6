import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

/// `--prune` removes a file through its folder's descriptor, and only the very file examined: an
/// output folder swapped for a symlink meanwhile (a QA pass raced one) leads nowhere outside.
@Suite struct FolderEntryRemovalTests {
    @Test func removesTheExaminedFileThroughARealFolderOnly() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder.path("posters"), withIntermediateDirectories: false)
        try manager.createDirectory(atPath: folder.path("victim"), withIntermediateDirectories: false)
        try Data("ours".utf8).write(to: URL(fileURLWithPath: folder.path("posters/a.jpg")))
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: folder.path("victim/a.jpg")))
        let ours = try #require(FileIdentity(entryAt: folder.path("posters/a.jpg")))
        let theirs = try #require(FileIdentity(entryAt: folder.path("victim/a.jpg")))

        // The folder swapped for a symlink to the victim's: nothing is removed, whichever file
        // was examined.
        try manager.moveItem(atPath: folder.path("posters"), toPath: folder.path("posters-real"))
        try manager.createSymbolicLink(atPath: folder.path("posters"), withDestinationPath: folder.path("victim"))
        for identity in [ours, theirs] {
            #expect(
                !FolderEntryRemoval.remove(
                    "a.jpg", in: folder.path("posters"), identity: identity, folderMayBeLink: false))
        }
        #expect(manager.fileExists(atPath: folder.path("victim/a.jpg")))

        // Through a real folder: only the file examined, not another one put under its name.
        try manager.removeItem(atPath: folder.path("posters"))
        try manager.moveItem(atPath: folder.path("posters-real"), toPath: folder.path("posters"))
        #expect(
            !FolderEntryRemoval.remove("a.jpg", in: folder.path("posters"), identity: theirs, folderMayBeLink: false))
        #expect(
            !FolderEntryRemoval.remove(
                "../victim/a.jpg", in: folder.path("posters"), identity: theirs, folderMayBeLink: false))
        #expect(manager.fileExists(atPath: folder.path("victim/a.jpg")))
        #expect(FolderEntryRemoval.remove("a.jpg", in: folder.path("posters"), identity: ours, folderMayBeLink: false))
        #expect(!manager.fileExists(atPath: folder.path("posters/a.jpg")))
    }
}
