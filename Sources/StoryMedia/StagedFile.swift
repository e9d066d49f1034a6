import CFFmpeg
import Foundation

/// A file being written under a ``TemporaryFile`` name, that takes its final name only once it
/// is complete and flushed to disk: what every atomic writer of storyreel is built on. Until
/// ``commit(exclusively:)`` succeeds, the final path is untouched; a staged file dropped or
/// failed is removed.
public final class StagedFile {
    /// The path the finished file will have.
    public let path: String
    /// Where the file is written until it is committed: a path through the staging folder's
    /// descriptor (``FolderHandle/entryPath(_:)``).
    public let temporaryPath: String

    /// The folder the file is written into, by descriptor.
    private let folder: FolderHandle
    /// Where it is staged: `folder`, or a staging folder of storyreel's own.
    private let staging: FolderHandle
    /// Its temporary name in `staging`.
    private let temporaryName: String
    private var descriptor: Int32
    private let permissions: mode_t
    private let marked: Bool
    private var committed = false

    /// The destination already exists and ``commit(exclusively:)`` may not replace it.
    public struct NameTaken: Error {
        /// The destination.
        public var path: String

        /// The error for `path`.
        public init(path: String) { self.path = path }
    }

    /// Starts a file for `path`, staged in `stagingFolder` (a folder of storyreel's own on the
    /// same file system) or beside `path`. The finished file gets `permissions` less the umask,
    /// as any new file would, but always stays readable by its owner: storyreel reads back what
    /// it wrote (its ledger, its mark), and under a umask of 777 a run made its own ledger
    /// unreadable, so every later run started from nothing (a QA pass). Throws `.cannotCreateOutput` when the staging folder cannot be
    /// written or, when `replacing` (the file will be given its name by a rename that replaces),
    /// when `path` is anything but a regular file or nothing: a folder, a symlink, a device such
    /// as `/dev/null`, a FIFO, which a rename would replace with a regular file. A file committed
    /// `exclusively` never replaces anything, so it passes `replacing: false`.
    /// The file carries ``OutputMark``'s mark unless `marked` is false: a copy of someone's clip
    /// (`ingest`, `render`'s `clips/`) is their media, not an output storyreel may replace.
    public init(
        for path: String, stagingFolder: String? = nil, permissions: mode_t = 0o644, replacing: Bool = true,
        marked: Bool = true
    ) throws {
        let folder = try FolderHandle.forWriting(path)
        if replacing { try StagedFile.checkReplaceable(path, in: folder) }
        self.path = path
        self.permissions = permissions
        self.marked = marked
        self.folder = folder
        staging = try stagingFolder.map { try FolderHandle.forWriting(path, in: $0) } ?? folder
        (descriptor, temporaryName, temporaryPath) = try TemporaryFile.create(for: path, in: staging)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { TemporaryFile.remove(temporaryPath) }
    }

    /// Appends `bytes`. A full disk or any other write failure throws `.ioFailure` naming the
    /// final path.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure("cannot write", kind: .ioFailure) }
            offset += written
        }
    }

    /// Appends `data`.
    public func append(_ data: Data) throws {
        try data.withUnsafeBytes { try append($0) }
    }

    /// Appends `source` from its current position to its end, copied by the kernel
    /// (`copy_file_range`, as `cp` copies: no pass through this process's memory), in chunks of
    /// `chunkSize` bytes, and returns the bytes copied. Returns nil, having copied nothing, where
    /// the kernel cannot copy between the two files (another file system on an older kernel, a
    /// file system without the call): the caller copies through memory then. A failure part-way
    /// (a full disk) throws `.ioFailure` naming the final path, as ``append(_:)-(UnsafeRawBufferPointer)``
    /// does; `source`'s deadline and growth are checked between chunks, as its reads check them.
    public func appendKernelCopy(of source: RegularFile, chunkSize: Int = 64 << 20) throws -> UInt64? {
        var total: UInt64 = 0
        while true {
            try source.checkDeadline()
            let copied = cff_copy_file_range(source.descriptor, descriptor, chunkSize)
            if copied < 0 {
                if errno == EINTR { continue }
                if total == 0 && [EXDEV, ENOSYS, EOPNOTSUPP, EINVAL, EBADF, EPERM].contains(errno) { return nil }
                throw failure("cannot write", kind: .ioFailure)
            }
            // Some file systems answer 0 for a file that holds data (as coreutils, Go and Rust
            // know): at the start, that is a copy the kernel cannot do, not an empty file.
            if copied == 0 { return total == 0 && source.size > 0 ? nil : total }
            total += UInt64(copied)
            try source.checkNotGrowing(total: total, chunkSize: chunkSize)
        }
    }

    /// Finishes writing (permissions, flushed to disk) and closes the file, still under its
    /// temporary name, so that many staged files can wait for ``commit(exclusively:)`` without holding a
    /// descriptor each.
    public func finish() throws {
        try finishWriting()
    }

    /// Gives the finished file its name, replacing whatever file had it; `exclusively`: only
    /// when nothing has that name (throws ``NameTaken`` otherwise).
    ///
    /// A file without the mark (a copy of someone's clip) keeps its temporary file's mark until
    /// it has its name, and loses it in the same step, with interrupts held off: a run killed
    /// while it was flushed, the mark taken off first, left a whole unmarked copy under
    /// storyreel's temporary name that no later run could tell for its own (a QA pass: one in
    /// five kills of a render copying a 94 MB clip). It has its final permissions before then,
    /// owner-writable until unmarked (a user attribute needs that): set after the rename, a run
    /// interrupted between the two left the clip owner-only and marked for good (a review).
    /// `placed` runs once the file has its name, with interrupts still held off (see
    /// ``moveIntoPlace(_:in:at:folder:exclusively:placed:)``).
    public func commit(exclusively: Bool = false, placed whenPlaced: () -> Void = {}) throws {
        let keepsMarkUntilPlaced = !marked && descriptor >= 0
        if keepsMarkUntilPlaced {
            guard fchmod(descriptor, finalPermissions | S_IWUSR) == 0 else { throw failure("cannot set permissions") }
            guard fsync(descriptor) == 0 else { throw failure("cannot flush to disk", kind: .ioFailure) }
        } else {
            try finishWriting()
        }
        let placed = keepsMarkUntilPlaced ? descriptor : -1
        try StagedFile.moveIntoPlace(
            temporaryName, in: staging, at: path, folder: folder, exclusively: exclusively
        ) {
            defer { whenPlaced() }
            guard placed >= 0 else { return }
            OutputMark.unmark(descriptor: placed)
            if finalPermissions & S_IWUSR == 0 { _ = fchmod(placed, finalPermissions) }
        }
        committed = true
        TemporaryFile.release(temporaryPath)
        if keepsMarkUntilPlaced {
            close(descriptor)
            descriptor = -1
        }
    }

    /// Gives the finished file named `temporary` in `staging` (on the same file system) the
    /// name of `path` in `folder` (the folder `path` names, opened), and makes that durable. Both
    /// are reached through their descriptors, so a folder swapped for a symlink meanwhile does
    /// not redirect the rename. Not `exclusively`: a rename, replacing whatever file had the
    /// name. `exclusively`: only when nothing has the name (else ``NameTaken``; see
    /// ``placeWithoutReplacing(_:in:as:in:path:)``). Errors name `path`.
    /// `placed` runs once the file has its name, with interrupts still held off, before the folder
    /// is flushed.
    public static func moveIntoPlace(
        _ temporary: String, in staging: FolderHandle, at path: String, folder: FolderHandle, exclusively: Bool,
        placed: () -> Void = {}
    ) throws {
        let name = path.lastComponent
        // With interrupts held off: an interrupt's cleanup, which records the outputs that have
        // their names (a render's ledger), finds this file still temporary (and removes it) or in
        // place. One renamed just after the cleanup looked stayed in the bundle in no ledger,
        // so no `--prune` removed it (a test run under load).
        try InterruptCleanup.deferringInterrupts {
            if exclusively {
                try placeWithoutReplacing(temporary, in: staging, as: name, in: folder, path: path)
            } else {
                try checkReplaceable(path, in: folder)
                try OutputMark.checkBeforeReplacing(path, at: folder.entryPath(name))
                guard renameat(staging.descriptor, temporary, folder.descriptor, name) == 0 else {
                    throw failure(path, "cannot move the finished file into place")
                }
            }
            placed()
        }
        try folder.flushEntries(after: path)
    }

    /// Gives `temporary` in `staging` the name `name` in `folder` only when nothing has it
    /// (else ``NameTaken``): a rename that does not replace (`renameat2`'s
    /// `RENAME_NOREPLACE`); where the file system cannot, a hard link, which fails on an existing
    /// name, then the temporary name is removed; without hard links either, a name reserved with
    /// `O_EXCL` that the finished file then replaces (a kill between the two leaves that empty
    /// reservation). Errors name `path`.
    private static func placeWithoutReplacing(
        _ temporary: String, in staging: FolderHandle, as name: String, in folder: FolderHandle, path: String
    ) throws {
        if cff_renameat_noreplace(staging.descriptor, temporary, folder.descriptor, name) == 0 { return }
        guard errno != EEXIST else { throw NameTaken(path: path) }
        guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(errno) else {
            throw failure(path, "cannot move the finished file into place")
        }
        if linkat(staging.descriptor, temporary, folder.descriptor, name, 0) == 0 {
            unlinkat(staging.descriptor, temporary, 0)
            return
        }
        guard errno != EEXIST else { throw NameTaken(path: path) }
        let reserved = openat(folder.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard reserved >= 0 else {
            if errno == EEXIST { throw NameTaken(path: path) }
            throw failure(path, "cannot create the file")
        }
        close(reserved)
        guard renameat(staging.descriptor, temporary, folder.descriptor, name) == 0 else {
            let error = failure(path, "cannot move the finished file into place")
            unlinkat(folder.descriptor, name, 0)
            throw error
        }
    }

    /// `what` failed at `path`, for the reason `errno` gives.
    private static func failure(_ path: String, _ what: String) -> MediaError {
        MediaError.system(.cannotCreateOutput, path: path, what, code: errno)
    }

    /// Throws `.cannotCreateOutput` when something other than a regular file has the name of
    /// `path` in `folder` (the entry itself: a symlink is not followed). A rename replaces the entry, so
    /// writing to `/dev/null`, a FIFO or a symlink would otherwise remove it and leave a regular
    /// file in its place.
    static func checkReplaceable(_ path: String, in folder: FolderHandle) throws {
        let name = path.lastComponent
        guard let status = folder.status(of: name), status.st_mode & S_IFMT != S_IFREG else { return }
        throw MediaError(
            .cannotCreateOutput, path: path,
            "is \(RegularFile.describe(mode: status.st_mode)); storyreel replaces only regular files")
    }

    /// The permissions a new file would get (`permissions` less the umask), always readable by its
    /// owner.
    private var finalPermissions: mode_t { (permissions & ~FileCreationMask.current) | S_IRUSR }

    /// Sets the permissions a new file would get, flushes and closes.
    private func finishWriting() throws {
        guard descriptor >= 0 else { return }
        defer {
            close(descriptor)
            descriptor = -1
        }
        // Marked while its owner may still write it: a user attribute needs write permission, and
        // under a umask of 222 the final permissions have none, so the mark was lost and the next
        // run refused its own output (a QA pass).
        // Its temporary file carried the mark (``TemporaryFile``); a copy of someone's clip keeps none.
        // Sealed with what it holds, so a later `-o` run can tell an edit in place (OutputMark).
        if marked { OutputMark.seal(descriptor: descriptor) } else { OutputMark.unmark(descriptor: descriptor) }
        guard fchmod(descriptor, finalPermissions) == 0 else {
            throw failure("cannot set permissions")
        }
        guard fsync(descriptor) == 0 else { throw failure("cannot flush to disk", kind: .ioFailure) }
    }

    /// An error of `kind` naming the final path, with `what` and the current `errno` text.
    private func failure(_ what: String, kind: MediaError.Kind = .cannotCreateOutput) -> MediaError {
        MediaError.system(kind, path: path, what, code: errno)
    }
}
