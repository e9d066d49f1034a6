import Foundation
import StoryMedia

/// A new story's folder, built under a temporary name in the stories folder
/// (`.HANDLE.XXXXXX.storyreel-tmp`, a dot-name, which `render` passes over) and given its name
/// only once its first clip is in it, so a render listing the stories never sees it empty: made
/// first, it stood empty for a few system calls before the copy went in, and a render then
/// skipped the story as one with no clip (65; a CI run under load).
///
/// While it lives it is pinned (``FolderPin``) under the path it will have, so the first clip is
/// placed into it as into any story folder, and errors name that path. An interrupt before
/// ``giveItsName()`` removes it and what was placed in it; one a kill left behind is removed by
/// the next ingest (``removeStale(in:)``).
final class NewStoryFolder {
    /// The path the folder gets (`STORIES/HANDLE`).
    let path: String
    /// The pin on the folder, under ``path``: the copies go into it by descriptor.
    let pin: FolderPin
    /// The stories folder, held open: the folder is made and renamed through it.
    private let parent: FolderHandle
    /// The folder's temporary name in the stories folder.
    private let temporaryName: String
    /// The interrupt action that removes the clips placed in it (``InterruptCleanup``).
    private var interruptAction: Int?

    /// Makes the folder that will be `path` (`STORIES/HANDLE`) under a temporary name and pins it.
    /// Throws `.cannotCreateOutput` naming `path` when it cannot be made or opened.
    init(path: String) throws {
        self.path = path
        parent = try FolderHandle(path: path.containingFolder)
        temporaryName = try TemporaryFile.createFolder(for: path, in: parent)
        let opened: FolderHandle
        do {
            opened = try FolderHandle(name: temporaryName, in: parent, labelled: path)
        } catch {
            unlinkat(parent.descriptor, temporaryName, AT_REMOVEDIR)
            InterruptCleanup.forgetFolder(parent.entryPath(temporaryName))
            throw error
        }
        // Something else may have been put at the name between the mkdir and the open (a QA
        // pass: someone's folder, opened instead, took the clip and was renamed into place):
        // what was opened must be, as the folder just made is, an empty folder of this user's.
        guard NewStoryFolder.isEmptyAndOwn(opened) else {
            InterruptCleanup.forgetFolder(parent.entryPath(temporaryName))
            throw MediaError(.cannotCreateOutput, path: path, "the folder was replaced while storyreel worked")
        }
        // Marked as storyreel's while it has its temporary name, so that a sweep after a kill
        // removes only a folder storyreel made (``removeStale(in:)``); unmarked once it has its name.
        OutputMark.mark(descriptor: opened.descriptor)
        pin = FolderPin(opened)
        interruptAction = InterruptCleanup.onInterrupt { NewStoryFolder.removePlaced(in: opened) }
    }

    deinit { discard() }

    /// Renames the folder to ``path``, with the clips placed in it, unless something has that
    /// name by now (nothing of storyreel's can: ingests into one stories folder take turns).
    /// Throws `.cannotCreateOutput` naming ``path`` when it cannot; the folder then stays
    /// temporary, and is removed when this goes away.
    func giveItsName() throws {
        let name = path.lastComponent
        let replaced = MediaError(.cannotCreateOutput, path: path, "the folder was replaced while storyreel worked")
        try InterruptCleanup.deferringInterrupts {
            // The rename goes by name: what has the temporary name must still be the folder the
            // clip went into (a QA pass: a symlink or folder swapped in there became the story,
            // and the clip was reported ingested).
            guard parent.identity(of: temporaryName) == pin.handle.identity else { throw replaced }
            let failure = parent.renameWithoutReplacing(temporaryName, to: name)
            guard failure == 0 else {
                let reason =
                    failure == EEXIST
                    ? "something took the name while storyreel worked" : "cannot give the new story folder its name"
                throw MediaError.system(.cannotCreateOutput, path: path, reason, code: failure)
            }
            guard parent.identity(of: name) == pin.handle.identity else {
                // Swapped in between the check and the rename: it goes back where it was put.
                _ = parent.renameWithoutReplacing(name, to: temporaryName)
                throw replaced
            }
            // Unmarked once it has its name: taken off before the rename, a kill between the two
            // left an unmarked folder under the temporary name, holding a copy of the clip,
            // that no sweep removes (a QA pass). A kill after the rename leaves the mark on the
            // story's folder, where nothing reads it.
            OutputMark.unmark(descriptor: pin.handle.descriptor)
            // It has its name: no cleanup may take it away now, a failed flush included.
            stopGuarding()
            try parent.flushEntries(after: path)
        }
    }

    /// Removes the folder and the clips placed in it, unless it has been given its name.
    func discard() {
        guard interruptAction != nil else { return }
        NewStoryFolder.removePlaced(in: pin.handle)
        if parent.identity(of: temporaryName) == pin.handle.identity {
            unlinkat(parent.descriptor, temporaryName, AT_REMOVEDIR)
        }
        stopGuarding()
    }

    private func stopGuarding() {
        if let interruptAction { InterruptCleanup.removeInterruptAction(interruptAction) }
        interruptAction = nil
        InterruptCleanup.forgetFolder(parent.entryPath(temporaryName))
    }

    /// Removes the new story folders a killed ingest left in `storiesFolder` under a temporary
    /// name for a valid handle, with what it had placed in them: a folder with storyreel's mark
    /// (``OutputMark``, where the file system holds marks) that holds only what an ingest places
    /// there (``removeClips(in:)``) is removed; one that holds anything else, a folder of that
    /// shape the user made (a QA pass: one with a clip of theirs in it went), or a symlink, is
    /// left; an unmarked one is removed only when it is empty and this user's. Call it under the
    /// ingest lock.
    static func removeStale(in storiesFolder: String) {
        guard let parent = try? FolderHandle(path: storiesFolder) else { return }
        for name in parent.entryNames()
        where TemporaryFile.stagedName(of: name).map({ StoryHandle.problem(with: $0) == nil }) == true
            && parent.status(of: name).map({ $0.st_mode & S_IFMT }) == S_IFDIR
        {
            guard let folder = try? FolderHandle(name: name, in: parent) else { continue }
            if OutputMark.isUnmarked(parent.entryPath(name)) {
                // Unmarked, it may be someone's, and is removed only empty: a kill between the
                // folder's mkdir and its mark left it so, for good (a safety QA pass).
                if isEmptyAndOwn(folder) { unlinkat(parent.descriptor, name, AT_REMOVEDIR) }
                continue
            }
            guard removeClips(in: folder) else { continue }
            unlinkat(parent.descriptor, name, AT_REMOVEDIR)
        }
    }

    /// Removes what an ingest places in a new story's folder, when that is all it holds: one clip
    /// at most and temporary copies (``removePlaced(in:)``). Returns false, removing nothing, when
    /// it holds anything else: a folder a killed run left is known only by its contents.
    private static func removeClips(in folder: FolderHandle) -> Bool {
        let names = folder.entryNames()
        guard names.filter(isStoredClipName).count <= 1, names.allSatisfy({ isPlaced($0, in: folder) }) else {
            return false
        }
        removePlaced(in: folder)
        return true
    }

    /// Removes, from the folder this run made, the regular files an ingest places there: clips
    /// under a name ingest gives (`NNNN-NAME`) and temporary copies for such names; whatever
    /// else someone put there stays.
    private static func removePlaced(in folder: FolderHandle) {
        for name in folder.entryNames()
        where isPlaced(name, in: folder) {
            unlinkat(folder.descriptor, name, 0)
        }
    }

    /// True when `name` in `folder` is a regular file with a name an ingest gives a clip, or a
    /// temporary copy's for one (cut short, extension and all, when long: ``TemporaryFile``).
    private static func isPlaced(_ name: String, in folder: FolderHandle) -> Bool {
        // A temporary copy carries storyreel's mark (a QA pass: an unmarked one of that shape,
        // the user's, went with the folder).
        (isStoredClipName(name)
            || (TemporaryFile.stagedName(of: name).map(hasSequencePrefix) == true
                && !OutputMark.isUnmarked(folder.entryPath(name))))
            && folder.status(of: name).map { $0.st_mode & S_IFMT } == S_IFREG
    }

    /// True when `folder` is a folder of this user's that holds nothing.
    private static func isEmptyAndOwn(_ folder: FolderHandle) -> Bool {
        var status = stat()
        guard fstat(folder.descriptor, &status) == 0, status.st_uid == geteuid() else { return false }
        // Not ``FolderHandle/entryNames()``, which gives none for a folder it cannot list.
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.entryPath(".")))?.isEmpty == true
    }

    /// True for a name ingest gives a clip: ``hasSequencePrefix(_:)`` and a clip's name.
    private static func isStoredClipName(_ name: String) -> Bool {
        hasSequencePrefix(name) && StoryInput.isClipFileName(name)
    }

    /// True when `name` starts as the names ingest gives clips do: four digits or more, then `-`.
    private static func hasSequencePrefix(_ name: String) -> Bool {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return digits.count >= 4 && name.dropFirst(digits.count).hasPrefix("-")
    }
}
