import Foundation
import StoryMedia

/// The files and folders a job has created so far, so that a job that fails part-way (or writes
/// nothing) can remove every one of them and leave nothing behind. A file is removed only while
/// it is still the one the job wrote (the same inode), and a folder only when empty, so nothing
/// that someone else put there meanwhile is ever removed.
public struct CreatedOutputs: Sendable {
    /// Finished files, in the order they were added.
    public var files: [String] { written.map(\.path) }
    /// Finished files with their identities as written.
    private var written: [(path: String, identity: FileIdentity?)] = []
    /// Folders the job created, outermost first.
    private var folders: [String] = []

    /// Nothing created yet.
    public init() {}

    /// Why a `..` in `path` does not lead where its spelling says, or nil: what comes before it
    /// does not exist, is no folder, or is a symbolic link (the system goes up from the link's
    /// target, while a folder made from the tidied path goes up from the link). A folder made
    /// from such a path is not the one the path then opens (a re-check: `reel/../st` with no
    /// `reel`, or with `reel` a file or a link, made `./st` and could not open it; `render -o`,
    /// `thumbnail --out-dir` and `cube --frames-dir` said `cannot open the folder: No such file
    /// or directory`). ``createFolder(_:)`` refuses such a path, and `ingest` asks first.
    public static func dotDotProblem(in path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        for index in components.indices where components[index] == ".." && index > 0 {
            let kept = components[..<index].enumerated().filter { $0.offset == 0 || !["", "."].contains($0.element) }
            let before = kept.map(\.element).joined(separator: "/")
            guard !before.isEmpty, before != "." else { continue }
            guard let stamp = FileStamp(path: before, followingLinks: false) else {
                return "\(before) does not exist, so the '..' after it leads nowhere; give the path without it"
            }
            if stamp.isSymbolicLink {
                return "\(before) is a symbolic link, so the '..' after it leads up from where it points; give the "
                    + "path without it"
            }
            if !stamp.isFolder {
                return "\(before) is not a folder, so the '..' after it leads nowhere; give the path without it"
            }
        }
        return nil
    }

    /// Makes sure `path` is a folder, creating it (and missing parents) when needed. Throws
    /// `.cannotCreateOutput`, saying why, when it is a file or cannot be created.
    public mutating func createFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw MediaError(.cannotCreateOutput, path: path, "exists and is not a folder")
            }
            return
        }
        if let problem = Self.dotDotProblem(in: path) { throw MediaError(.cannotCreateOutput, path: path, problem) }
        var missing = [URL(fileURLWithPath: path).standardizedFileURL]
        while case let parent = missing[0].deletingLastPathComponent(), parent.path != missing[0].path,
            !FileManager.default.fileExists(atPath: parent.path)
        {
            missing.insert(parent, at: 0)
        }
        // One mkdir a missing folder, outermost first, so a failure names the folder and the
        // system's reason ("Not a directory" under a file, "Permission denied").
        var made: [String] = []
        for folder in missing.map(\.path) {
            // Registered as it is made, so an interrupt (Ctrl-C) takes it away again while empty.
            var failure: Int32 = 0
            let created = InterruptCleanup.trackFolder(folder) {
                if FileCreationMask.makeFolder(folder) { return true }
                failure = errno
                return false
            }
            if created {
                made.append(folder)
            } else if failure != EEXIST || FileStamp(path: folder)?.isFolder != true {
                var reason = SystemErrorText.describe(failure)
                // A symlink that leads nowhere "exists" to mkdir but not to stat (a QA pass: the
                // line said "File exists" of a name that did not seem to be there).
                var status = stat()
                if failure == EEXIST, lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
                    reason = "it is a symbolic link that leads to nothing"
                }
                for folder in made.reversed() where rmdir(folder) == 0 { InterruptCleanup.forgetFolder(folder) }
                throw MediaError(
                    .cannotCreateOutput, path: path,
                    "cannot create the folder '\(PathDisplay.asGiven(folder, given: path))': \(reason)")
            }
        }
        folders += made
    }

    /// True when the finished files are only good together (a transition's frames and clip):
    /// each one added is also removed if the process is interrupted (Ctrl-C, SIGTERM) before
    /// ``keepAll()``, as a failure removes them with ``removeAll()``.
    public var allOrNothing = false

    /// Records a finished file, as it is now on disk.
    public mutating func add(_ file: String) {
        written.append((file, FileIdentity(entryAt: file)))
        if allOrNothing { InterruptCleanup.removeFileOnInterrupt(file) }
    }

    /// Announces that `file` is about to be written: with ``allOrNothing``, an interrupt from
    /// now on removes it, even in the instant between its rename into place and ``add(_:)``.
    public func willWrite(_ file: String) {
        if allOrNothing { InterruptCleanup.removeFileOnInterrupt(file) }
    }

    /// The run is complete: an interrupt from now on leaves its files (see ``allOrNothing``).
    public func keepAll() {
        guard allOrNothing else { return }
        for (path, _) in written { InterruptCleanup.forgetFile(path) }
    }

    /// Removes every recorded file that is still the file the job wrote (another writer may have
    /// replaced it since), then every folder the job created, innermost first, each only when it
    /// is empty.
    public func removeAll() {
        for (path, identity) in written.reversed() where identity != nil && FileIdentity(entryAt: path) == identity {
            unlink(FolderPin.resolved(path))
        }
        for folder in folders.reversed() where rmdir(folder) == 0 { InterruptCleanup.forgetFolder(folder) }
    }
}
