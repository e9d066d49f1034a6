import CFFmpeg
import Foundation
import Synchronization

/// The mark storyreel leaves on every file it makes (through ``StagedFile``; not on a copy of a
/// clip, which is someone's media): the extended attribute `user.storyreel`. An `-o` output
/// replaces a file that has it, or an empty one (a `mktemp` name), and refuses any other unless
/// `--force`: storyreel overwrites only files it wrote. A file system that holds no user
/// attributes (FAT and exFAT cards, NFSv3, ramfs) can carry no mark, so nothing there tells
/// storyreel's file from a user's: a file with content is replaced only with `--force`, as
/// ffmpeg replaces nothing without `-y` (a QA pass: any file there was replaced, exit 0, in
/// silence). The check is made before any work and again just before the finished file takes
/// the name, so a file put there while the run worked is not replaced either.
public enum OutputMark {
    /// The extended attribute's name.
    static let attribute = "user.storyreel"

    /// Marks the file open as `descriptor`; one on a file system that cannot hold the mark is
    /// left unmarked.
    public static func mark(descriptor: Int32) {
        _ = fsetxattr(descriptor, attribute, "1", 1, 0)
    }

    /// Marks the finished file open as `descriptor` with its size and modification time (`1 SIZE
    /// SECONDS.NANOSECONDS`), so that a later `-o` run can tell a file changed in place since it
    /// was written (`>>`, an in-place metadata tool), which keeps the mark. Call it after the last
    /// write; setting the attribute changes neither.
    public static func seal(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return mark(descriptor: descriptor) }
        let value = sealValue(status)
        _ = fsetxattr(descriptor, attribute, value, value.utf8.count, 0)
    }

    /// The sealed mark's value for a file of `status`.
    private static func sealValue(_ status: stat) -> String {
        "1 \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// True when the file at `entry`, of `status`, carries a sealed mark (``seal(descriptor:)``)
    /// that is not its size and modification time: it changed since storyreel wrote it. A plain
    /// mark (`1`: a temporary file's, an earlier storyreel's) says nothing of that.
    static func changedSinceSealed(_ entry: String, status: stat) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 96)
        let length = lgetxattr(entry, attribute, &buffer, buffer.count)
        guard length > 1 else { return false }
        let value = String(decoding: buffer.prefix(length), as: UTF8.self)
        return value.hasPrefix("1 ") && value != sealValue(status)
    }

    /// Takes the mark off the file or folder open as `descriptor` (its temporary file carried it:
    /// ``TemporaryFile``), where it has one.
    public static func unmark(descriptor: Int32) {
        _ = fremovexattr(descriptor, attribute)
    }

    /// Takes the mark off the file at `path` (the entry itself), where it has one.
    public static func unmark(_ path: String) {
        _ = lremovexattr(FolderPin.resolved(path), attribute)
    }

    /// True when the file at `path` (the entry itself) carries the mark. A file in a pinned
    /// folder is read through the folder's descriptor (``FolderPin``).
    public static func isMarked(_ path: String) -> Bool {
        lgetxattr(FolderPin.resolved(path), attribute, nil, 0) >= 0
    }

    /// True when the file at `path` lacks the mark on a file system that holds marks: a file
    /// storyreel did not write there (or a plain copy of one).
    public static func isUnmarked(_ path: String) -> Bool {
        lgetxattr(FolderPin.resolved(path), attribute, nil, 0) < 0 && errno != EOPNOTSUPP
    }

    /// Throws `.cannotCreateOutput` when `path` is a regular file with content that storyreel
    /// did not write (it lacks the mark, or the mark cannot be read: a file this user may not
    /// read, or one on a file system that holds no marks), unless `force`. Anything else passes:
    /// nothing there, an empty file, a marked one; what is not a regular file is
    /// ``StagedFile``'s to refuse.
    public static func checkReplaceable(_ path: String, force: Bool) throws {
        guard !force else { return }
        guarded.withLock { _ = $0.insert(path) }
        try check(path)
    }

    /// The checked `-o` paths, checked again by ``checkBeforeReplacing(_:at:)``.
    private static let guarded = Mutex<Set<String>>([])

    /// Checks `path` again, just before a finished file is renamed over it, when it was an
    /// output given to ``checkReplaceable(_:force:)`` without `force`: the file at `entry`, a
    /// path to the same name through its folder's descriptor (``FolderHandle/entryPath(_:)``).
    static func checkBeforeReplacing(_ path: String, at entry: String) throws {
        guard guarded.withLock({ $0.contains(path) }) else { return }
        try check(path, at: entry)
    }

    /// Throws, naming `path`, when the file at `entry` (by default `path`) is a non-empty
    /// regular file without a readable mark.
    private static func check(_ path: String, at entry: String? = nil) throws {
        let entry = entry ?? FolderPin.resolved(path)
        var status = stat()
        guard lstat(entry, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return }
        if isMarked(entry) {
            guard changedSinceSealed(entry, status: status) else { return }
            throw MediaError(
                .cannotCreateOutput, path: path,
                "has changed since storyreel wrote it (its size or modification time is not what was written); "
                    + "remove it, or give --force to replace it")
        }
        if errno == EOPNOTSUPP {
            throw MediaError(
                .cannotCreateOutput, path: path,
                "holds a file, and its file system keeps no extended attributes, so storyreel cannot tell whether it "
                    + "wrote it; remove it, or give --force to replace it")
        }
        throw MediaError(
            .cannotCreateOutput, path: path,
            "holds a file without storyreel's mark (one it did not write, an older storyreel's, or a copy: "
                + "tar, cp and caches drop the mark); remove it, or give --force to replace it")
    }
}
