import Foundation

/// What `stat` says of a file that tells whether it changed: its size, its modification time
/// and its identity. Caches and the bundle ledger compare stamps instead of re-reading files.
///
/// Two stamps are equal when their size, mtime, identity and type are: the inode's change time
/// (``statusChanged``) is left out, because storyreel's own hard link (`render --link`) moves
/// it while the file is unchanged. The stat cache, which must notice a file rewritten in place
/// with its size and mtime put back, compares it too.
public struct FileStamp: Equatable, Sendable {
    /// Size in bytes.
    public let size: UInt64
    /// Modification time in nanoseconds since 1970.
    public let modified: Int64
    /// The inode's change time (`st_ctim`) in nanoseconds since 1970: moved by every write,
    /// and by a change of owner, permissions or links, and set by no program to a time of its
    /// choosing (`touch` and `utimensat` set only the mtime and atime).
    public let statusChanged: Int64
    /// The user id of the file's owner (not part of the equality: a `chown` changes no contents).
    public let owner: uid_t
    /// Device and inode.
    public let identity: FileIdentity
    /// True for a regular file.
    public let isRegularFile: Bool
    /// True for a folder.
    public let isFolder: Bool
    /// True for a symbolic link (a stamp read without following links).
    public let isSymbolicLink: Bool
    /// When the stamp was taken, in nanoseconds since 1970 by the wall clock (not part of the
    /// equality): a file changed within a tick of its file system's clock of this may change
    /// again with the same stamp (the stat cache's racy entries).
    public let takenAt: Int64

    /// The stamp in a `stat` result.
    init(_ status: stat) {
        size = UInt64(clamping: status.st_size)
        modified = FileStamp.nanoseconds(status.st_mtim)
        statusChanged = FileStamp.nanoseconds(status.st_ctim)
        owner = status.st_uid
        identity = FileIdentity(status)
        isRegularFile = (status.st_mode & S_IFMT) == S_IFREG
        isFolder = (status.st_mode & S_IFMT) == S_IFDIR
        isSymbolicLink = (status.st_mode & S_IFMT) == S_IFLNK
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        takenAt = FileStamp.nanoseconds(now)
    }

    /// `time` in nanoseconds since 1970, wrapping rather than trapping on a time the file
    /// system holds that does not fit.
    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ Int64(time.tv_nsec)
    }

    public static func == (left: FileStamp, right: FileStamp) -> Bool {
        left.size == right.size && left.modified == right.modified && left.identity == right.identity
            && left.isRegularFile == right.isRegularFile && left.isFolder == right.isFolder
            && left.isSymbolicLink == right.isSymbolicLink
    }

    /// True when `other` is this stamp and its change time too: no program can put a change time
    /// back, so a file rewritten in place with its size and mtime put back (`rsync --inplace -t`,
    /// an edit and `touch -r`) is told from one left alone. The change time also moves with no
    /// change of contents (`touch -a`, `chmod`, `chown`, a hard link made or removed).
    public func isSameWithChangeTime(_ other: FileStamp) -> Bool {
        self == other && statusChanged == other.statusChanged
    }

    /// The stamp of `path` (of the link itself unless `followingLinks`), or nil when nothing is
    /// there. A file in a pinned folder is read through the folder's descriptor (``FolderPin``).
    public init?(path: String, followingLinks: Bool = true) {
        var status = stat()
        let found =
            followingLinks
            ? FolderPin.withResolved(path) { stat($0, &status) == 0 } : lstat(FolderPin.resolved(path), &status) == 0
        guard found else { return nil }
        self.init(status)
    }
}
