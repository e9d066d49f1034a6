import CFFmpeg
import Foundation
import Synchronization

/// An open folder that files are written into by descriptor, not by path: a temporary file is
/// created in it, checked and renamed to its final name all through the one descriptor, so a
/// folder swapped for a symlink while storyreel works cannot redirect a write into the folder
/// the link leads to (a QA pass with a racer swapping folders every few milliseconds: outputs,
/// copies of clips and the ledger landed in, and replaced files of, a victim folder). Owns the
/// descriptor, closed in `deinit`.
///
/// A command pins the folders it checked (``FolderPin``) for as long as it writes into them:
/// every ``StagedFile`` for a file in a pinned folder then writes through the descriptor opened
/// when it was checked, whatever the path names later. A file in a folder nobody pinned gets a
/// handle of its own, opened when its writing starts.
public final class FolderHandle: Sendable {
    /// The folder's path as it was given.
    public let path: String
    /// The open folder (`O_DIRECTORY`).
    public let descriptor: Int32
    /// The folder opened, whatever its path names later.
    public let identity: FileIdentity

    /// Opens the folder at `path`. `followingLink`: `path` itself may be a symlink to a folder
    /// (one the user gave); otherwise a symlink there is refused, as a folder of storyreel's own
    /// is never one. Throws `.cannotCreateOutput` naming `path` when it is not an openable folder.
    public convenience init(path: String, followingLink: Bool = true) throws {
        switch FolderHandle.openFolder(path, followingLink: followingLink) {
        case .success(let opened): self.init(path: path, descriptor: opened.descriptor, identity: opened.identity)
        case .failure(let failure):
            throw MediaError.system(.cannotCreateOutput, path: path, "cannot open the folder", code: failure.code)
        }
    }

    /// Opens the folder `name` in `parent`, through `parent`'s descriptor and never through a
    /// symlink: a folder of storyreel's own inside one it holds open. Its path is `labelled`, or
    /// else `parent`'s joined with `name` (a folder built under a temporary name is labelled
    /// with the path it will have). Throws `.cannotCreateOutput` naming that path when it cannot.
    public convenience init(name: String, in parent: FolderHandle, labelled: String? = nil) throws {
        let path = labelled ?? (parent.path as NSString).appendingPathComponent(name)
        let descriptor = openat(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            let failure = errno
            if descriptor >= 0 { close(descriptor) }
            // `O_NOFOLLOW | O_DIRECTORY` on a symlink fails with ENOTDIR, as on a file.
            let isLink = parent.status(of: name).map { $0.st_mode & S_IFMT == S_IFLNK } == true
            if isLink {
                throw MediaError(.cannotCreateOutput, path: path, "cannot open the folder: it is a symbolic link")
            }
            throw MediaError.system(.cannotCreateOutput, path: path, "cannot open the folder", code: failure)
        }
        self.init(path: path, descriptor: descriptor, identity: FileIdentity(status))
    }

    private init(path: String, descriptor: Int32, identity: FileIdentity) {
        self.path = path
        self.descriptor = descriptor
        self.identity = identity
    }

    /// Why a folder could not be opened: the `errno` value.
    private struct OpenFailure: Error {
        var code: Int32
    }

    /// Opens the folder at `path` and reads its identity, or the `errno` value that stopped it.
    private static func openFolder(_ path: String, followingLink: Bool) -> Result<
        (descriptor: Int32, identity: FileIdentity), OpenFailure
    > {
        let descriptor = open(
            path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW))
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            let failure = OpenFailure(code: errno)
            if descriptor >= 0 { close(descriptor) }
            return .failure(failure)
        }
        return .success((descriptor, FileIdentity(status)))
    }

    deinit { close(descriptor) }

    /// A path that names `name` in this very folder, for the calls that take a path (FFmpeg's
    /// muxer, `getxattr`, hashing): `/proc/self/fd/N/name`, which leads through the open
    /// descriptor, where `/proc` is mounted; the folder's path joined with `name` elsewhere.
    public func entryPath(_ name: String) -> String {
        FolderHandle.descriptorPathsWork
            ? "/proc/self/fd/\(descriptor)/\(name)" : (path as NSString).appendingPathComponent(name)
    }

    /// The status of `name` in this folder (the entry itself; a symlink is not followed), or nil
    /// when nothing has the name.
    public func status(of name: String) -> stat? {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// The names of the entries in this very folder (read through its descriptor), or none when
    /// it cannot be listed.
    public func entryNames() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: entryPath("."))) ?? []
    }

    /// Makes the folder's entries durable (`fsync`) after `path`, an entry of it, took its name;
    /// throws `.ioFailure` naming `path` when the disk fails it (EIO, or no space for the
    /// folder's own blocks), as a failed flush of the file itself does. A file system that does
    /// not flush folders (EINVAL, EROFS) passes. The flush's failure was ignored, and an ingest
    /// said "ingested", exit 0, of a clip a power cut could then take away (an ingest QA pass).
    public func flushEntries(after path: String) throws {
        guard fsync(descriptor) != 0 else { return }
        let code = errno
        guard [EIO, ENOSPC, EDQUOT].contains(code) else { return }
        throw MediaError.system(
            .ioFailure, path: path, "has its name, but its folder cannot be flushed to disk, so a crash may undo that",
            code: code)
    }

    /// The identity of the entry `name` in this folder, not following a symlink there, or nil
    /// when nothing has that name.
    public func identity(of name: String) -> FileIdentity? {
        status(of: name).map(FileIdentity.init)
    }

    /// Renames the entry `name` in this folder to `newName` in it only when nothing has that
    /// name (`renameat2`'s `RENAME_NOREPLACE`; where the file system cannot, after checking that
    /// nothing has it). Returns 0, or the `errno` value: `EEXIST` when something has the name.
    public func renameWithoutReplacing(_ name: String, to newName: String) -> Int32 {
        renameWithoutReplacing(name, to: newName, in: self)
    }

    /// Renames the entry `name` in this folder to `newName` in `folder` (on the same file
    /// system), as ``renameWithoutReplacing(_:to:)`` does within one folder.
    public func renameWithoutReplacing(_ name: String, to newName: String, in folder: FolderHandle) -> Int32 {
        if cff_renameat_noreplace(descriptor, name, folder.descriptor, newName) == 0 { return 0 }
        let failure = errno
        guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(failure) else { return failure }
        guard folder.status(of: newName) == nil else { return EEXIST }
        return renameat(descriptor, name, folder.descriptor, newName) == 0 ? 0 : errno
    }

    /// The pinned handle for `folder` (default: the folder that holds `file`), or a new handle
    /// on it (its path followed as given) when nobody pinned it. Throws `.cannotCreateOutput`
    /// naming `file` when that folder cannot be opened.
    public static func forWriting(_ file: String, in folder: String? = nil) throws -> FolderHandle {
        let folder = folder ?? file.containingFolder
        if let pinned = FolderPin.handle(for: folder) { return pinned }
        switch openFolder(folder, followingLink: true) {
        case .success(let opened):
            return FolderHandle(path: folder, descriptor: opened.descriptor, identity: opened.identity)
        case .failure(let failure):
            // The folder as the user gave it (relative stays relative); a missing one in the
            // words `cube -o` uses (a QA pass: "cannot create a file in nodir: No such file or
            // directory" from `thumbnail -o` and `--filmstrip`).
            if failure.code == ENOENT { throw MediaError(.cannotCreateOutput, path: file, "no such folder: \(folder)") }
            throw MediaError.system(
                .cannotCreateOutput, path: file, "cannot create a file in '\(folder)'", code: failure.code)
        }
    }

    /// True when `/proc/self/fd/N` leads to the file descriptor N has open (Linux with `/proc`).
    private static let descriptorPathsWork: Bool = {
        let root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return false }
        defer { close(root) }
        var opened = stat()
        var throughProc = stat()
        return fstat(root, &opened) == 0 && stat("/proc/self/fd/\(root)", &throughProc) == 0
            && FileIdentity(opened) == FileIdentity(throughProc)
    }()
}
