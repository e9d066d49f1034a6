import CFFmpeg
import Foundation

/// The one naming scheme for the temporary files storyreel's atomic writers use
/// (``AtomicFile``, ``OutputFile``, the pipeline's clip placement): `.NAME.XXXXXX.storyreel-tmp`
/// beside the final file (or in a staging folder of storyreel's own), where `XXXXXX` is six
/// random letters or digits and NAME is the final file's name, cut short when the whole would
/// not fit the file system's limit on a name. A stale-temp sweep removes only a regular file of
/// exactly that shape that carries ``OutputMark``'s mark, which every temporary file gets as it
/// is made (where the file system holds marks; elsewhere the name alone), so a user's own file
/// of that shape is never touched (a QA pass: a user's `.notes.txt.Xy34Zw.storyreel-tmp` in a
/// story folder went). A temporary file this process made is removed if it is interrupted
/// (``InterruptCleanup``).
public enum TemporaryFile {
    /// The suffix every storyreel temporary file ends with.
    public static let suffix = ".storyreel-tmp"
    /// How many random characters a name carries.
    static let randomLength = 6

    /// Creates an empty temporary file (mode 0600) for the file `finalPath` names, in `folder`
    /// (the final file's folder, or a staging folder of storyreel's own), through the folder's
    /// descriptor. Returns its open descriptor, its name in `folder` and a path that leads to it
    /// through the descriptor (``FolderHandle/entryPath(_:)``). The file is removed if the
    /// process is interrupted (``InterruptCleanup``) until ``release(_:)`` or ``remove(_:)``.
    /// Throws `.cannotCreateOutput` naming `finalPath` when it cannot be created.
    public static func create(for finalPath: String, in folder: FolderHandle) throws -> (
        descriptor: Int32, name: String, path: String
    ) {
        if let made = try createMarkedBeforeNamed(for: finalPath, in: folder) { return made }
        var descriptor: Int32 = -1
        let name = try freshName(for: finalPath, in: folder, making: "a file") { name in
            var failure: Int32 = 0
            _ = InterruptCleanup.trackFile {
                descriptor = openat(
                    folder.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                failure = errno
                return descriptor >= 0 ? folder.entryPath(name) : nil
            }
            return descriptor >= 0 ? 0 : failure
        }
        // Writable by its owner whatever the umask: a umask of 222 made it 0400, and FFmpeg,
        // which opens it again by its path, could not (a QA pass). The file takes its final
        // permissions when it is finished (``StagedFile``).
        FileCreationMask.keepFileUsable(descriptor)
        holdInUse(descriptor)
        OutputMark.mark(descriptor: descriptor)
        return (descriptor, name, folder.entryPath(name))
    }

    /// Takes a lock (`flock`) on the new temporary file open as `descriptor`, held while that
    /// descriptor is open: a sweep removes a temporary file only when it can take the lock
    /// itself (``removeStale(in:finalNames:hardLinkedFor:untouchedFor:)``), that is, when the run writing it has
    /// gone, so `cube -o` and `thumbnail -o`, which hold no lock on their folder, can sweep the
    /// files a killed run of theirs left there. Taken before the mark, which a sweep asks for too.
    private static func holdInUse(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
    }

    /// True when a live run holds the temporary file at `path` (``holdInUse(_:)``), or when that
    /// cannot be told (it cannot be opened or locked): a shared lock, which a file opened for
    /// reading can take on every file system (an exclusive one needs it open for writing on
    /// NFS, and a review found the check answering "not in use" for every file there).
    static func isInUse(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0
    }

    /// ``create(for:in:)`` where the file system can make a nameless file (`O_TMPFILE`): it is
    /// made usable and marked before it is linked under its temporary name, so it never has that
    /// name without the mark (a QA pass: a run killed between the `open` and the mark left an
    /// empty, unmarked temporary file that no later run could tell for its own). Nil, having made
    /// nothing, where no nameless file can be made or linked.
    private static func createMarkedBeforeNamed(for finalPath: String, in folder: FolderHandle) throws -> (
        descriptor: Int32, name: String, path: String
    )? {
        let descriptor = cff_open_nameless(folder.descriptor, 0o600)
        guard descriptor >= 0 else { return nil }
        FileCreationMask.keepFileUsable(descriptor)
        holdInUse(descriptor)
        OutputMark.mark(descriptor: descriptor)
        var unlinkable = false
        do {
            let name = try freshName(for: finalPath, in: folder, making: "a file") { name in
                var failure: Int32 = 0
                _ = InterruptCleanup.trackFile {
                    let linked =
                        linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder.descriptor, name, AT_SYMLINK_FOLLOW) == 0
                    failure = linked ? 0 : errno
                    return linked ? folder.entryPath(name) : nil
                }
                // Any failure but a name taken (no /proc, a file system that links no nameless
                // file): made by name instead.
                if failure != 0 && failure != EEXIST { unlinkable = true }
                return failure
            }
            return (descriptor, name, folder.entryPath(name))
        } catch  where unlinkable {
            close(descriptor)
            return nil
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Creates an empty temporary folder for the folder `finalPath` names, in `folder` (the final
    /// folder's parent), through the folder's descriptor, usable by its owner whatever the umask
    /// (``FileCreationMask/makeFolder(_:in:)``). Returns its name in `folder`. It is removed if
    /// the process is interrupted while it is empty (``InterruptCleanup``) until
    /// ``InterruptCleanup/forgetFolder(_:)`` of `folder.entryPath(name)`. Throws
    /// `.cannotCreateOutput` naming `finalPath` when it cannot be created.
    public static func createFolder(for finalPath: String, in folder: FolderHandle) throws -> String {
        try freshName(for: finalPath, in: folder, making: "a folder") { name in
            var failure: Int32 = 0
            let created = InterruptCleanup.trackFolder(folder.entryPath(name)) {
                if FileCreationMask.makeFolder(name, in: folder.descriptor) { return true }
                failure = errno
                return false
            }
            return created ? 0 : failure
        }
    }

    /// Calls `make` with fresh temporary names for `finalPath` in `folder` until it makes one
    /// (returns 0) or fails otherwise than on a name already taken (returns the `errno` value),
    /// at most 100 times; returns the name made. Throws `.cannotCreateOutput` naming `finalPath`
    /// ("cannot create `what` in FOLDER") when none was.
    private static func freshName(
        for finalPath: String, in folder: FolderHandle, making what: String, _ make: (String) -> Int32
    ) throws -> String {
        var failure: Int32 = EEXIST
        for _ in 0..<100 where failure == EEXIST {
            let name = self.name(for: finalPath, in: folder)
            failure = make(name)
            if failure == 0 { return name }
        }
        // The folder as the user gave it (relative stays relative).
        let given = folder.path.isEmpty ? "." : folder.path
        throw MediaError.system(
            .cannotCreateOutput, path: finalPath, "cannot create \(what) in '\(given)'", code: failure)
    }

    /// A hard link to `source`'s file (following a symlink to it) under a fresh temporary name
    /// for `finalPath` in `folder`, removed if the process is interrupted until ``release(_:)``
    /// or ``remove(_:)``: its name in `folder` and a path leading to it through the folder's
    /// descriptor; nil when it cannot be made (another file system, no hard links).
    public static func hardLink(to source: String, for finalPath: String, in folder: FolderHandle) -> (
        name: String, path: String
    )? {
        let name = self.name(for: finalPath, in: folder)
        let path = InterruptCleanup.trackFile {
            linkat(AT_FDCWD, source, folder.descriptor, name, AT_SYMLINK_FOLLOW) == 0 ? folder.entryPath(name) : nil
        }
        return path.map { (name, $0) }
    }

    /// Stops guarding `path` against interrupts: it has been given its final name.
    public static func release(_ path: String) {
        InterruptCleanup.forgetFile(path)
    }

    /// Removes the temporary file at `path` and stops guarding it.
    public static func remove(_ path: String) {
        unlink(path)
        InterruptCleanup.forgetFile(path)
    }

    /// A fresh name `.NAME.RANDOM.storyreel-tmp` in `folder` for `finalPath` (see
    /// ``name(for:random:limit:)``).
    private static func name(for finalPath: String, in folder: FolderHandle) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let random = String((0..<randomLength).map { _ in alphabet.randomElement()! })
        return name(for: finalPath, random: random, limit: FileNameLength.limit(in: folder.entryPath(".")))
    }

    /// `.NAME.RANDOM.storyreel-tmp` for `finalPath`, where NAME is the final file's name, cut
    /// (at a character boundary) as far as needed for the whole name to fit in `limit` bytes,
    /// the file system's limit: a long final name still gets a temporary name it can create,
    /// and the shortened name still has the shape ``isTemporaryName(_:)`` recognises.
    static func name(for finalPath: String, random: String, limit: Int) -> String {
        let finalName = URL(fileURLWithPath: finalPath).lastPathComponent
        let overhead = 2 + random.utf8.count + suffix.utf8.count
        let kept = FileNameLength.prefix(of: finalName, fittingIn: limit - overhead)
        return ".\(kept.isEmpty ? "file" : kept).\(random)\(suffix)"
    }

    /// True for a file name of exactly the shape storyreel's temporary files have.
    public static func isTemporaryName(_ name: String) -> Bool { stagedName(of: name) != nil }

    /// The NAME a temporary file `.NAME.RANDOM.storyreel-tmp` was staged for (cut as
    /// ``name(for:random:limit:)`` cuts it), or nil when `name` is not of that exact shape.
    public static func stagedName(of name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(suffix) else { return nil }
        let stem = name.dropFirst().dropLast(suffix.count)
        guard let dot = stem.lastIndex(of: "."), dot > stem.startIndex else { return nil }
        let random = stem[stem.index(after: dot)...]
        guard random.count == randomLength,
            random.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) })
        else { return nil }
        return String(stem[..<dot])
    }

    /// Removes the stale temporary files a killed run left for the output `path` (`cube -o`,
    /// `thumbnail -o`), beside it: each killed run left one, and none was ever removed (a QA
    /// pass). One a live run is writing stays (``holdInUse(_:)``), and so does one written in
    /// the last ``staleAfter`` seconds: a live run's finished file waits for its name with its
    /// descriptor closed (`cube`'s filmstrip while its clip is encoded), unlocked, and a second
    /// run for the same name would have removed it (a review).
    public static func removeStale(besides path: String) {
        removeStale(in: path.containingFolder, finalNames: [path.lastComponent], untouchedFor: staleAfter)
    }

    /// Now, in seconds since 1970, by the clock that stamps the files of `folder`: the time of a
    /// nameless file made there (or a named one whose name goes at once, where the file system
    /// makes no nameless file) and let go at once; this host's clock where neither can be made.
    /// A file's age is its mtime's distance from this: a shared folder's times come from its
    /// server, and a host whose clock ran 15 minutes ahead removed a live run's finished file as
    /// stale; one whose clock was behind never removed a killed run's (a QA pass).
    static func folderNow(_ folder: String) -> Double {
        let handle = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { return Date().timeIntervalSince1970 }
        defer { close(handle) }
        var probe = cff_open_nameless(handle, 0o600)
        if probe < 0 {
            // A file system that makes no nameless file (NFS, the shared folder this is for: a
            // review): a named one, let go of its name at once.
            let name = ".storyreel-clock.\(UInt64.random(in: 0...UInt64.max)).storyreel-tmp"
            probe = openat(handle, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if probe >= 0 { unlinkat(handle, name, 0) }
        }
        guard probe >= 0 else { return Date().timeIntervalSince1970 }
        defer { close(probe) }
        var status = stat()
        guard fstat(probe, &status) == 0 else { return Date().timeIntervalSince1970 }
        return Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
    }

    /// How long, in seconds, a temporary file must have been left untouched before a sweep that
    /// holds no lock takes it for a killed run's: far longer than any run leaves one finished.
    public static let staleAfter: Double = 600

    /// Removes the stale temporary files a killed writer left directly in `folder`: regular
    /// files (never folders or symlinks) with storyreel's mark whose names have its temporary
    /// shape, and, when `finalNames` is given, that were staged for one of those names
    /// (`.NAME.XXXXXX…`), and that no live run holds (``holdInUse(_:)``). Returns how many were
    /// removed. Call it on folders storyreel owns, under their lock, or with `finalNames` on
    /// names of outputs the caller is about to write and `untouchedFor` (seconds since the file
    /// was last written). An unmarked one that is a hard link (more than one name) staged for a
    /// name `hardLinkedFor` accepts goes too: a hard-linked clip's temporary name
    /// (``hardLink(to:for:in:)``) cannot carry the mark, its inode being the source's, and a kill
    /// left it for good (a QA pass); taking away one of several names loses no content. Only for
    /// such names: a user's hard link of the temporary shape staged for another (`mine.txt`) was
    /// taken away too (a safety QA pass).
    @discardableResult
    public static func removeStale(
        in folder: String, finalNames: Set<String>? = nil, hardLinkedFor: (String) -> Bool = { _ in false },
        untouchedFor age: Double = 0
    ) -> Int {
        var removed = 0
        let now = age > 0 ? folderNow(folder) : 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let staged = stagedName(of: name), finalNames?.contains(staged) ?? true else { continue }
            let path = FolderPin.resolved((folder as NSString).appendingPathComponent(name))
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
                !OutputMark.isUnmarked(path) || (status.st_nlink > 1 && hardLinkedFor(staged)),
                age == 0 || now - Double(status.st_mtim.tv_sec) >= age, !isInUse(path)
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
