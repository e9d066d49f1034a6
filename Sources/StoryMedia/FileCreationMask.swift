import Foundation

/// The process's file-creation mask (`umask`), and what storyreel does about one that takes
/// access away from a file's own owner (222, 377, 777).
///
/// Files and folders storyreel makes get the permissions any new one would, but never less than
/// it needs to use them again: a folder its owner cannot search or write, or a file its owner
/// cannot read, left every later run of that user refused (73) until someone changed it by hand
/// (a QA pass: a render into an existing empty OUT under a umask of 777 left its output folders
/// mode 000). `mkdir -p` does the same for the folders it makes on the way.
public enum FileCreationMask {
    /// The mask, read once (by setting and restoring it).
    public static let current: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    /// True when the mask takes read, write or search permission from an owner.
    public static var limitsOwner: Bool { current & 0o700 != 0 }

    /// Makes the folder `name` in the folder open as `parent` (`AT_FDCWD`: `name` is a path), as
    /// `mkdirat` does, then gives it read, write and search permission for its owner when the
    /// mask took any away (a symlink put at the name meanwhile is not followed: glibc's
    /// `AT_SYMLINK_NOFOLLOW`). Returns false, with `errno` set by `mkdirat`, when it could not.
    public static func makeFolder(_ name: String, in parent: Int32 = AT_FDCWD) -> Bool {
        guard mkdirat(parent, name, 0o777) == 0 else { return false }
        if limitsOwner { _ = fchmodat(parent, name, (0o777 & ~current) | 0o700, AT_SYMLINK_NOFOLLOW) }
        return true
    }

    /// Gives the file open as `descriptor` read and write permission for its owner, when the mask
    /// took either away (a journal or lock file storyreel appends to and opens again).
    public static func keepFileUsable(_ descriptor: Int32) {
        guard limitsOwner else { return }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o600 != 0o600 else {
            return
        }
        fchmod(descriptor, (status.st_mode & 0o7777) | 0o600)
    }
}
