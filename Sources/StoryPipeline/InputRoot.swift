import Foundation
import StoryMedia

/// The folder a stories input is read from (the stories folder, or a spec's folder), and the
/// rule for links: storyreel follows a symlink, or a spec path with `..`, only when it resolves
/// inside this folder. Anything else is skipped with a reason, so a hostile story folder cannot
/// make a render read (and copy into the bundle) files from elsewhere.
struct InputRoot {
    /// Where a relative input path leads.
    enum Resolution: Equatable {
        /// Inside the root, at this real path.
        case inside(String)
        /// Outside the root, through a link or `..`.
        case outside
        /// Nothing is there (or a dangling link).
        case missing
    }

    /// The folder as given.
    let path: String
    /// The folder with every link resolved.
    let realPath: String

    /// The root at `path`, which must exist. Throws when its path cannot be resolved: taken as
    /// given, every story in it read as leading outside it (a scale QA pass: a folder whose
    /// absolute path is longer than `PATH_MAX` skipped every story for a link it did not hold).
    init(_ path: String) throws {
        self.path = path
        guard let resolved = BundlePaths.realPath(path) else {
            let code = errno
            throw MediaError(
                .unreadableInput, path: path, "cannot resolve the folder's path: \(SystemErrorText.describe(code))")
        }
        realPath = resolved
    }

    /// Where `relative` (relative to the root) leads.
    func resolve(_ relative: String) -> Resolution {
        guard let resolved = BundlePaths.realPath(BundlePaths.join(path, relative)) else { return .missing }
        return BundlePaths.isInside(resolved, realPath) && !resolved.utf8.elementsEqual(realPath.utf8)
            ? .inside(resolved) : .outside
    }

    /// The reason a path that leads outside is skipped.
    static let outsideReason = "it leads outside the stories input (a link or '..'); only links inside it are followed"

    /// Why `relative`, which does not resolve inside the root (``resolve(_:)``), is skipped:
    /// ``outsideReason``, or that it leads to the root itself (a QA pass: `ln -s . loop` was said
    /// to lead outside).
    func outsideReason(for relative: String) -> String {
        guard let resolved = BundlePaths.realPath(BundlePaths.join(path, relative)),
            resolved.utf8.elementsEqual(realPath.utf8)
        else { return Self.outsideReason }
        return "it leads to the stories input itself (a link or '..'), not to a folder inside it"
    }
}
