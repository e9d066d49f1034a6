import Foundation
import StoryMedia

/// A `flock(2)` on a lock file (`OUT/.lock` for a bundle, `STORIES/.storyreel-ingest.lock`
/// for ingest), so two storyreel writers cannot clobber one folder. It is exclusive, except that
/// the shards of a render share `OUT/.lock` (they write disjoint units, each shard also holding
/// its own exclusive lock) while a full render waits for all of them. The kernel drops the lock
/// when the process dies, so a killed run never leaves the folder locked. The lock file is
/// opened without following a symlink and must be a regular file; storyreel never writes into it.
/// A bundle's lock and ingest's are also taken on the folder itself, first, by the same rule: a
/// lock file looks stale, and `.lock` deleted during a render let a second render run beside it
/// (a QA pass: 2 of 7 manifests lost a story). The files stay for older storyreels.
public final class BundleLock: Sendable {
    private let descriptor: Int32
    /// The bundle folder's own descriptor, locked before the lock file, or -1.
    private let folderDescriptor: Int32
    /// The locked folder held open for writing (``FolderPin``), for a lock on a folder itself.
    private let pin: FolderPin?

    /// Why a lock could not be taken.
    public struct Timeout: Error, CustomStringConvertible {
        /// The locked folder.
        public let folder: String
        /// How long we waited.
        public let seconds: Double
        /// The option that sets how long.
        public var option = "--lock-timeout"
        public var description: String {
            "\(folder): another storyreel run holds the lock; gave up after \(seconds.secondsText) s (\(option))"
        }
    }

    /// A lock the file system refused, rather than another run's: said as such (it was "another
    /// storyreel run holds the lock"), or for a bundle's folder, done without.
    public struct Unavailable: Error, CustomStringConvertible {
        /// The file or folder that could not be locked.
        public let file: String
        /// The `errno` of `flock`.
        public let code: Int32
        public var description: String {
            MediaError.system(.cannotCreateOutput, path: file, "cannot lock it", code: code).description
        }
    }

    /// Takes the lock of `folder`: on the folder itself, then on its lock file `fileName`
    /// (created if needed; a bundle's `.lock` by default); `shared` for a shard.
    public convenience init(
        folder: String, fileName: String = BundlePaths.lockFile, shared: Bool = false, timeout: Double,
        waiting: (Int32?) -> Void = { _ in }
    ) throws {
        let deadline = MonotonicClock.now + max(0, min(timeout, 1e9))
        var announced = false
        let folderDescriptor = try Self.lockFolder(
            folder, shared: shared, deadline: deadline, timeout: timeout, announced: &announced, waiting: waiting)
        do {
            let descriptor = try Self.lockFile(
                BundlePaths.join(folder, fileName), folder: folder, shared: shared, deadline: deadline,
                timeout: timeout, announced: &announced, waiting: waiting, holder: BundleLock.holder(ofInode:))
            self.init(lockedDescriptor: descriptor, folderDescriptor: folderDescriptor)
        } catch {
            if folderDescriptor >= 0 {
                flock(folderDescriptor, LOCK_UN)
                close(folderDescriptor)
            }
            throw error
        }
    }

    /// Takes the lock on `file` (created if needed) for `folder`, exclusive or `shared`, waiting
    /// up to `timeout` seconds. When another process holds it, `waiting` is called once, with the
    /// holder's pid when the kernel reports it. A lock file removed or replaced while this run
    /// waited for it is not taken: the lock is taken on the file at `file` then (a QA pass: an
    /// `ingest --create` that took its stories folder away again removed the lock file that
    /// others were waiting on, and two ingests then ran at once).
    public convenience init(
        file: String, folder: String, shared: Bool = false, timeout: Double, waiting: (Int32?) -> Void = { _ in }
    ) throws {
        try self.init(
            file: file, folder: folder, shared: shared, timeout: timeout, waiting: waiting,
            holder: BundleLock.holder(ofInode:))
    }

    /// As above, finding the holder of a lock with `holder` (tests stand in for `/proc/locks`).
    convenience init(
        file: String, folder: String, shared: Bool = false, timeout: Double, waiting: (Int32?) -> Void,
        holder: (UInt64) -> Int32?
    ) throws {
        let deadline = MonotonicClock.now + max(0, min(timeout, 1e9))
        var announced = false
        let descriptor = try Self.lockFile(
            file, folder: folder, shared: shared, deadline: deadline, timeout: timeout, announced: &announced,
            waiting: waiting, holder: holder)
        self.init(lockedDescriptor: descriptor)
    }

    /// Opens (creating it if needed) and locks the lock file `file` of `folder` until `deadline`,
    /// and returns its descriptor; a file removed or replaced while this run waited is let go and
    /// the file at `file` locked instead.
    private static func lockFile(
        _ file: String, folder: String, shared: Bool, deadline: Double, timeout: Double, announced: inout Bool,
        waiting: (Int32?) -> Void, holder: (UInt64) -> Int32?
    ) throws -> Int32 {
        while true {
            var descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
            let failure = errno
            if descriptor < 0, failure == EACCES {
                // Another user's lock file (0644) in a folder both write: `flock` needs only a
                // descriptor, and read access gives one (a QA pass: the second user got 73).
                descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            }
            guard descriptor >= 0 else {
                // O_NOFOLLOW refuses a symlink with "Too many levels of symbolic links" (a QA pass).
                if failure == ELOOP {
                    throw MediaError(
                        .cannotCreateOutput, path: file, "is a symbolic link; storyreel locks only a regular file")
                }
                throw MediaError.system(.cannotCreateOutput, path: file, "cannot open the lock file", code: failure)
            }
            // Made under a umask of 777 it had no permission at all, and every later run of that
            // user was refused (73, a QA pass).
            FileCreationMask.keepFileUsable(descriptor)
            if try lockInPlace(
                descriptor, kind: S_IFREG, path: file, followingLink: false, folder: folder, shared: shared,
                deadline: deadline, timeout: timeout, announced: &announced, waiting: waiting, holder: holder)
            {
                return descriptor
            }
        }
    }

    /// Opens and locks bundle folder `folder` itself (following a symlink to it, as the render
    /// does) until `deadline`, and returns its descriptor; a folder put in its place while this
    /// run waited is locked instead. Returns -1 where the file system locks no folder: over NFS
    /// `flock` is a byte-range lock, and an exclusive one needs a descriptor open for writing,
    /// which a folder's never is (EBADF); the lock file alone keeps writers apart there, as it
    /// did before the folder was locked.
    private static func lockFolder(
        _ folder: String, shared: Bool, deadline: Double, timeout: Double, announced: inout Bool,
        waiting: (Int32?) -> Void
    ) throws -> Int32 {
        while true {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                throw MediaError.system(.cannotCreateOutput, path: folder, "cannot open the folder", code: errno)
            }
            do {
                if try lockInPlace(
                    descriptor, kind: S_IFDIR, path: folder, followingLink: true, folder: folder, shared: shared,
                    deadline: deadline, timeout: timeout, announced: &announced, waiting: waiting,
                    holder: BundleLock.holder(ofInode:))
                {
                    return descriptor
                }
            } catch is Unavailable {
                return -1
            }
        }
    }

    /// Locks open `descriptor` (``acquire(_:kind:file:folder:shared:deadline:timeout:option:announced:waiting:holder:)``)
    /// and keeps it when `path` still names the file locked (by `lstat`, or `stat` when
    /// `followingLink`): true. Otherwise it is let go and closed, and the caller opens `path`
    /// again (false); on an error it is closed and the error thrown.
    private static func lockInPlace(
        _ descriptor: Int32, kind: mode_t, path: String, followingLink: Bool, folder: String, shared: Bool,
        deadline: Double, timeout: Double, announced: inout Bool, waiting: (Int32?) -> Void,
        holder: (UInt64) -> Int32?
    ) throws -> Bool {
        let locked: stat
        do {
            locked = try acquire(
                descriptor, kind: kind, file: path, folder: folder, shared: shared, deadline: deadline,
                timeout: timeout, option: "--lock-timeout", announced: &announced, waiting: waiting, holder: holder)
        } catch {
            close(descriptor)
            throw error
        }
        var onDisk = stat()
        let found = followingLink ? stat(path, &onDisk) : lstat(path, &onDisk)
        if found == 0, onDisk.st_ino == locked.st_ino, onDisk.st_dev == locked.st_dev { return true }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        return false
    }

    /// Takes the lock on the folder itself (`flock` on its descriptor), for a folder of the
    /// user's where storyreel keeps no lock file (`thumbnail --out-dir`, `cube --frames-dir`),
    /// and pins it (``FolderPin``) while it is held: what is written there goes into the folder
    /// locked, even if a symlink takes its name meanwhile. A folder removed while this run waited
    /// for it is made again by `remake` (the caller's, which knows it made it) and locked anew.
    /// A ``Timeout`` names `option`, the command's option for `timeout`.
    public convenience init(
        folderItself folder: String, timeout: Double, option: String = "--lock-timeout",
        waiting: (Int32?) -> Void = { _ in }, remake: () throws -> Void = {}
    ) throws {
        let deadline = MonotonicClock.now + max(0, min(timeout, 1e9))
        var announced = false
        var remade = 0
        while true {
            let pin: FolderPin
            do {
                pin = try FolderPin(path: folder)
            } catch  where remade < 3 && FileStamp(path: folder) == nil {
                // Removed just before it could be opened, by the same run as below.
                try remake()
                remade += 1
                continue
            }
            _ = try Self.acquire(
                pin.handle.descriptor, kind: S_IFDIR, file: folder, folder: folder, shared: false,
                deadline: deadline, timeout: timeout, option: option, announced: &announced, waiting: waiting,
                holder: BundleLock.holder(ofInode:))
            // The folder was removed while this run waited (the run holding it had made it and,
            // writing nothing into it, took it away again): `remake` makes it anew, and it is
            // locked again (a QA pass: the waiting run failed, 73, "No such file or directory").
            var status = stat()
            guard fstat(pin.handle.descriptor, &status) == 0, status.st_nlink == 0 else {
                self.init(lockedDescriptor: pin.handle.descriptor, pin: pin)
                return
            }
            try remake()
        }
    }

    /// Holds the lock already taken on `descriptor` until deinit. With a `pin`, the descriptor
    /// is its folder's, which the pin owns: the folder locked is the one written into, by
    /// descriptor, while the lock is held.
    private init(lockedDescriptor: Int32, pin: FolderPin? = nil, folderDescriptor: Int32 = -1) {
        descriptor = lockedDescriptor
        self.pin = pin
        self.folderDescriptor = folderDescriptor
    }

    /// Takes the lock (exclusive or `shared`) on open `descriptor`, which must be of `kind`
    /// (`S_IFREG`, `S_IFDIR`), waiting until `deadline`; calls `waiting` the first time it has
    /// to wait (`announced` says whether it has), with the pid `holder` finds. Returns the locked
    /// file's status.
    private static func acquire(
        _ descriptor: Int32, kind: mode_t, file: String, folder: String, shared: Bool, deadline: Double,
        timeout: Double, option: String, announced: inout Bool, waiting: (Int32?) -> Void,
        holder: (UInt64) -> Int32?
    ) throws -> stat {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == kind else {
            throw MediaError(.cannotCreateOutput, path: file, "the lock file is not a regular file")
        }
        while flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            let failure = errno
            // Not held by another run: this file system cannot lock it (EBADF, ENOLCK).
            guard failure == EWOULDBLOCK || failure == EINTR else { throw Unavailable(file: file, code: failure) }
            guard MonotonicClock.now < deadline else {
                throw Timeout(folder: folder, seconds: timeout, option: option)
            }
            if !announced {
                let pid = holder(UInt64(clamping: status.st_ino))
                // No holder listed: it may have let go between the two looks. Try once more
                // before saying anything, so the line names the holder or is not printed (a QA
                // pass: "waiting for the lock on ns…" without the pid, then no wait at all).
                if pid == nil, flock(descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 { break }
                waiting(pid ?? holder(UInt64(clamping: status.st_ino)))
                announced = true
            }
            usleep(50_000)
        }
        return status
    }

    deinit {
        flock(descriptor, LOCK_UN)
        if pin == nil { close(descriptor) }
        if folderDescriptor >= 0 {
            flock(folderDescriptor, LOCK_UN)
            close(folderDescriptor)
        }
    }

    /// The pid holding a `flock` on the file with `inode`, from `/proc/locks`, or nil.
    static func holder(ofInode inode: UInt64) -> Int32? {
        guard let data = try? RegularFile.contents(of: "/proc/locks", maxSize: 16 << 20) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5].split(separator: ":").last == "\(inode)",
                let pid = Int32(fields[4]), pid > 0
            else { continue }
            return pid
        }
        return nil
    }
}
