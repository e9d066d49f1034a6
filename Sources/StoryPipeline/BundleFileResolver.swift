import Foundation
import StoryMedia

/// Finds the file a manifest's relative path names without ever looking outside the bundle.
///
/// The path is walked one component at a time from the manifest's folder with `lstat` (which
/// reads no content and opens nothing): a symlink's target is spliced into the walk and followed
/// only while it stays inside the bundle, and `..` may not climb above it. So `../secret`,
/// `clips/../../secret`, a symlink to `/etc/passwd` or to `../../..` are reported, not
/// followed, and a FIFO or a device is reported as what it is, not opened.
struct BundleFileResolver {
    /// What a path resolves to.
    enum Outcome {
        /// A regular file inside the bundle: its physical path (no symlinks, `.` or `..`) and its
        /// device and inode at the time of the walk.
        case file(path: String, identity: FileIdentity)
        /// Why it is not one, as a phrase for a problem line ("leads outside the bundle").
        case problem(String)
        /// Nothing is there: the phrase for a problem line ("is not in the bundle"), for a caller
        /// to whom a missing file is no problem (the player page) to tell from the others.
        case missing(String)
    }

    /// The physical components of the folder paths start from.
    private let start: [String]
    /// The physical components of the folder nothing may leave: the bundle, or `--root`.
    private let limit: [String]
    /// What `limit` is called in a problem: "the bundle" or "--root".
    private let scope: String
    /// Symlinks followed in one walk before it is called a loop (Linux's own limit).
    private static let maximumLinks = 40

    /// A resolver for paths relative to `folder` that must stay inside `root` (default: `folder`).
    /// Throws a usage-style message when `folder` is not inside `root`.
    init(folder: String, root: String? = nil) throws {
        start = try Self.physicalComponents(of: folder)
        limit = try root.map(Self.physicalComponents(of:)) ?? start
        scope = root == nil ? "the bundle" : "--root"
        guard start.starts(with: limit) else {
            throw MediaError(.unreadableInput, path: folder, "the manifest's folder is not inside --root \(root ?? "")")
        }
    }

    /// The regular file `relative` names, or why it is not one.
    func resolve(_ relative: String) -> Outcome {
        if relative.hasPrefix("/") { return .problem("is an absolute path; paths must be relative") }
        var stack = start
        var pending = Array(relative.split(separator: "/", omittingEmptySubsequences: true).reversed()).map(String.init)
        var links = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            if component == ".." {
                guard stack.count > limit.count else {
                    if links > 0 { return .problem("is a symlink that leads outside \(scope)") }
                    return .problem("leads outside \(scope)" + (scope == "the bundle" ? " (see --root)" : ""))
                }
                stack.removeLast()
                continue
            }
            let candidate = stack + [component]
            var status = stat()
            guard lstat(Self.path(candidate), &status) == 0 else {
                // Each reason reads on from the path: `posters/a.jpg is not in the bundle`. Under
                // --root, "is not in --root" read as "outside it" for a clip that was simply gone
                // (a QA pass), so it says that.
                guard errno == ENOENT else { return .problem("cannot be read: \(SystemErrorText.describe(errno))") }
                return .missing(Self.missingPhrase(scope))
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                links += 1
                guard links <= Self.maximumLinks else { return .problem("has a symlink loop") }
                guard let target = Self.linkTarget(Self.path(candidate)) else {
                    return .problem("has a symlink that cannot be read")
                }
                var targetComponents = target.split(separator: "/").map(String.init)
                if target.hasPrefix("/") {
                    // An absolute target may only name a place inside the limit, spelled from its root.
                    guard targetComponents.starts(with: limit) else {
                        return .problem("is a symlink that leads outside \(scope)")
                    }
                    stack = limit
                    targetComponents.removeFirst(limit.count)
                }
                pending += targetComponents.reversed()
            case S_IFDIR:
                stack = candidate
                if pending.allSatisfy({ $0 == "." }) { return .problem("is a folder, not a file") }
            case S_IFREG:
                // A file where the path goes on (`clips/a.mp4/x`): nothing is there either.
                guard pending.allSatisfy({ $0 == "." }) else { return .missing(Self.missingPhrase(scope)) }
                guard let identity = FileIdentity(path: Self.path(candidate)) else {
                    return .problem("vanished meanwhile")
                }
                return .file(path: Self.path(candidate), identity: identity)
            case S_IFIFO: return .problem("is a FIFO, not a regular file")
            case S_IFCHR, S_IFBLK: return .problem("is a device, not a regular file")
            case S_IFSOCK: return .problem("is a socket, not a regular file")
            default: return .problem("is not a regular file")
            }
        }
        return .problem("is a folder, not a file")
    }

    /// What a missing file is called in a problem within `scope`.
    private static func missingPhrase(_ scope: String) -> String {
        scope == "the bundle" ? "is not in the bundle" : "does not exist (no such file)"
    }

    /// The components of `folder`'s physical path (`realpath`), e.g. ["tmp", "reel"].
    private static func physicalComponents(of folder: String) throws -> [String] {
        guard let resolved = realpath(folder, nil) else {
            // Not every failure is a missing folder: one whose absolute path is longer than
            // `PATH_MAX` was "no such folder" (a scale QA pass).
            let code = errno
            guard code == ENOENT || code == ENOTDIR else {
                throw MediaError(
                    .unreadableInput, path: folder,
                    "cannot resolve the folder's path: \(SystemErrorText.describe(code))")
            }
            throw MediaError(.missingInput, path: folder, "no such folder")
        }
        defer { free(resolved) }
        // A file given as --root was "the manifest's folder is not inside --root" (a QA pass).
        if FileStamp(path: folder)?.isFolder == false {
            throw MediaError(.unreadableInput, path: folder, "not a folder")
        }
        return String(cString: resolved).split(separator: "/").map(String.init)
    }

    /// A path from its components.
    private static func path(_ components: [String]) -> String { "/" + components.joined(separator: "/") }

    /// A symlink's target as written.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
