import Foundation

/// Paths in error lines as the user wrote them: a folder that storyreel worked out as an absolute
/// path (by walking up from a path given relative) is shown relative to the working folder again,
/// so one line does not mix `file/a.jpg` with `/tmp/…/file`.
public enum PathDisplay {
    /// `path` (absolute) as the user would have written it, given that they wrote `given`: the
    /// part below the working folder when `given` is relative and `path` is inside it (`.` for
    /// the working folder itself), else `path`.
    public static func asGiven(_ path: String, given: String) -> String {
        guard !given.hasPrefix("/") else { return path }
        let workingFolder = FileManager.default.currentDirectoryPath
        if path == workingFolder { return "." }
        let prefix = workingFolder.hasSuffix("/") ? workingFolder : workingFolder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The nearest folder above `path` that exists or, when that is a file (or anything but a
    /// folder), its line: "`file` is a file, not a folder", with the file named as the user
    /// would have written it. Nil when the nearest existing ancestor is a folder.
    public static func fileInPlaceOfFolder(above path: String) -> String? {
        var ancestor = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        while FileStamp(path: ancestor.path) == nil, ancestor.path != "/" {
            ancestor = ancestor.deletingLastPathComponent()
        }
        guard let stamp = FileStamp(path: ancestor.path), !stamp.isFolder else { return nil }
        return "\(asGiven(ancestor.path, given: path)) is a file, not a folder"
    }
}
