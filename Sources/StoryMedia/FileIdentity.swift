import Foundation

/// A file's device and inode: two paths name the same file exactly when their identities are
/// equal, whatever their spelling, links or `..` components.
public struct FileIdentity: Hashable, Sendable {
    /// The device the file is on.
    public let device: UInt64
    /// The inode on that device.
    public let inode: UInt64

    /// The identity in a `stat` result.
    init(_ status: stat) {
        device = UInt64(clamping: status.st_dev)
        inode = UInt64(clamping: status.st_ino)
    }

    /// The identity of the file at `path` (following symlinks), or nil when nothing is there. A
    /// file in a pinned folder is read through the folder's descriptor (``FolderPin``).
    public init?(path: String) {
        var status = stat()
        guard FolderPin.withResolved(path, { stat($0, &status) == 0 }) else { return nil }
        self.init(status)
    }

    /// The identity of the file open as `descriptor` (standard output may be a file), or nil
    /// when `fstat` fails (a closed descriptor).
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the directory entry at `path` itself (a symlink's own, not its target's),
    /// or nil when nothing is there. A file in a pinned folder is read through the folder's
    /// descriptor (``FolderPin``).
    public init?(entryAt path: String) {
        var status = stat()
        guard lstat(FolderPin.resolved(path), &status) == 0 else { return nil }
        self.init(status)
    }
}
