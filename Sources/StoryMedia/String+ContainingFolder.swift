extension String {
    /// The folder part of this path: `a/b` → `a`, `/y` → `/`, `a/b/` → `a`, and `.` for a bare
    /// name (`y`). Written out because Foundation's `NSString.deletingLastPathComponent` traps on
    /// a one-character path on Linux, so `thumbnail -o y` crashed after writing its file.
    public var containingFolder: String {
        let path = withoutTrailingSlashes
        guard let slash = path.lastIndex(of: "/") else { return "." }
        var folder = path[..<slash]
        while folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component of this path, the name in ``containingFolder``: `a/b` → `b`, `a/b/` →
    /// `b`, `y` → `y`.
    public var lastComponent: String {
        let path = withoutTrailingSlashes
        guard let slash = path.lastIndex(of: "/") else { return String(path) }
        return String(path[path.index(after: slash)...])
    }

    /// This path without the slashes it ends in (`a/b//` → `a/b`), but `/` itself.
    public var withoutTrailingSlashes: Substring {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path
    }
}
