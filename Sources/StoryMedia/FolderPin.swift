import Foundation
import Synchronization

/// A folder a command checked, held open so that every file it writes there goes through that
/// descriptor (``FolderHandle``): while the pin lives, a ``StagedFile`` for a file in the folder
/// at ``FolderHandle/path`` writes into the folder opened, whatever the path names by then (a
/// symlink put in its place leads nowhere storyreel writes). Released in `deinit`.
public final class FolderPin: Sendable {
    /// The pinned folder.
    public let handle: FolderHandle

    /// Pins `handle` until this pin goes away. Pins of one path nest: the latest is used.
    public init(_ handle: FolderHandle) {
        self.handle = handle
        let key = Self.key(handle.path)
        Self.pins.withLock { $0[key, default: []].append(handle) }
    }

    /// Opens and pins the folder at `path` (see ``FolderHandle/init(path:followingLink:)``).
    public convenience init(path: String, followingLink: Bool = true) throws {
        self.init(try FolderHandle(path: path, followingLink: followingLink))
    }

    deinit {
        let key = Self.key(handle.path)
        Self.pins.withLock { pins in
            if let index = pins[key]?.lastIndex(where: { $0 === handle }) { pins[key]?.remove(at: index) }
            if pins[key]?.isEmpty == true { pins[key] = nil }
        }
    }

    /// The handle pinned for the folder at `path`, or nil when nobody pinned it.
    public static func handle(for path: String) -> FolderHandle? {
        let key = key(path)
        return pins.withLock { $0[key]?.last }
    }

    /// The path to read `path` by: through the pinned folder's descriptor
    /// (``FolderHandle/entryPath(_:)``) when the folder that holds it is pinned, else `path`
    /// itself. What storyreel checks of a file in a pinned folder (its stamp, its identity, its
    /// mark, its contents) is then the file it writes there, not whatever the path names by then
    /// (a QA pass: with a folder swapped for a symlink, a render hashed a victim's file into its
    /// ledger, set good outputs aside and left a page unwritten).
    /// A source file pinned itself (``SourcePin``) is read through ``withResolved(_:_:)``.
    public static func resolved(_ path: String) -> String {
        guard !pins.withLock({ $0.isEmpty }), let handle = handle(for: path.containingFolder) else { return path }
        return handle.entryPath(path.lastComponent)
    }

    /// `body`'s result for the path to read `path` by: through its own descriptor while the file
    /// is pinned itself (``SourcePin/withPinnedLink(for:_:)``, with the descriptor held open
    /// while `body` runs), else ``resolved(_:)``. `body` stats or opens; it must not pin.
    public static func withResolved<T: Sendable>(_ path: String, _ body: (String) throws -> T) rethrows -> T {
        if let pinned = try SourcePin.withPinnedLink(for: path, body) { return pinned }
        return try body(resolved(path))
    }

    /// Pinned handles by folder path (``key(_:)``), the latest pin last.
    private static let pins = Mutex<[String: [FolderHandle]]>([:])

    /// `path` spelled one way: no empty or `.` components, no trailing slash (`a//b/./` → `a/b`),
    /// so a file's folder finds its pin however the two paths were joined. `..` is kept: past a
    /// symlink it does not lead to the parent of the folder spelled before it.
    static func key(_ path: String) -> String {
        let joined = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
