import Foundation
import StoryMedia

/// What a file storyreel wrote held, as its folder's record keeps it (`thumbnail --out-dir`'s
/// posters, `cube --frames-dir`'s frames): its size and SHA-256, so a later run replaces it only
/// while it still holds that, and refuses a file someone changed since.
struct FileContents: Codable, Equatable {
    /// The size in bytes.
    var size: Int
    /// The SHA-256, lowercase hex.
    var sha256: String

    init(size: Int, sha256: String) {
        (self.size, self.sha256) = (size, sha256)
    }

    /// What `data` holds.
    init(of data: Data) throws {
        self.init(size: data.count, sha256: try ContentHasher.sha256(of: data))
    }

    /// What the regular file at `path` holds now, or nil when it cannot be read.
    init?(ofFileAt path: String) {
        guard let file = try? RegularFile(path: path), let sha256 = try? ContentHasher.sha256(of: file),
            let size = Int(exactly: file.size)
        else { return nil }
        self.init(size: size, sha256: sha256)
    }

    /// True when the regular file at `path` holds these contents (its size, then its hash).
    func isHeld(at path: String) -> Bool {
        guard size >= 0, let file = try? RegularFile(path: path, maxSize: UInt64(size)), file.size == UInt64(size)
        else { return false }
        return (try? ContentHasher.sha256(of: file)) == sha256
    }
}
