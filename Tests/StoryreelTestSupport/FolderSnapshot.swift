import Foundation

/// Every file, folder and symlink under a folder with its contents, hidden ones included: what
/// a test compares before and after a run to show that nothing it should not touch changed.
public struct FolderSnapshot: Equatable, CustomStringConvertible {
    /// Relative path → contents (files), `<folder>`, or `-> target` (symlinks).
    public let entries: [String: Data]

    /// Takes the snapshot of `path` (empty when it does not exist).
    public init(_ path: String) {
        var entries: [String: Data] = [:]
        let manager = FileManager.default
        let enumerator = manager.enumerator(atPath: path)
        while let relative = enumerator?.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(relative)
            if let target = try? manager.destinationOfSymbolicLink(atPath: full) {
                entries[relative] = Data("-> \(target)".utf8)
                continue
            }
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: full, isDirectory: &isFolder)
            entries[relative] = isFolder.boolValue ? Data("<folder>".utf8) : manager.contents(atPath: full) ?? Data()
        }
        self.entries = entries
    }

    /// The relative paths, sorted.
    public var paths: [String] { entries.keys.sorted() }

    /// The entries of `self` that are missing from or differ in `other`.
    public func changed(in other: FolderSnapshot) -> [String] {
        entries.keys.filter { other.entries[$0] != entries[$0] }.sorted()
    }

    public var description: String { paths.joined(separator: ", ") }
}
