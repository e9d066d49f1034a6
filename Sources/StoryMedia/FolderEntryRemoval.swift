import Foundation

/// Removing one file by its name in a folder without following a folder swapped for a symlink:
/// the folder is the one the run pinned (``FolderPin``), or is opened (with `O_NOFOLLOW` unless
/// it may be a link), the entry is checked through
/// that descriptor to be the very regular file that was examined, and removed through it
/// (`unlinkat`). A path looked up afresh could, by the time of the `unlink`, lead through a
/// symlink someone put in the folder's place, to a file outside the folder (a QA pass).
public enum FolderEntryRemoval {
    /// Removes `name` from `folder` when it is still the regular file `identity` names; true
    /// when it did. `folder` itself must not be a symlink unless `folderMayBeLink` (a bundle's
    /// top folder, which a user may give through a link).
    public static func remove(_ name: String, in folder: String, identity: FileIdentity, folderMayBeLink: Bool) -> Bool
    {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return false }
        // The folder the run pinned, as it writes there; else opened now.
        guard
            let handle = FolderPin.handle(for: folder)
                ?? (try? FolderHandle(path: folder, followingLink: folderMayBeLink)),
            let status = handle.status(of: name), status.st_mode & S_IFMT == S_IFREG, FileIdentity(status) == identity
        else { return false }
        return unlinkat(handle.descriptor, name, 0) == 0
    }
}
