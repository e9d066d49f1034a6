import Foundation
import StoryMedia

/// Puts a clip into a bundle's `clips/` folder as a copy or a hard link, through a dot-prefixed
/// temp name and a rename, so a reader never sees half a file. The source is never modified.
enum ClipPlacement {
    /// Copies (or, with `link`, hard-links, falling back to a copy across file systems) `source`
    /// to `destination`.
    static func place(_ source: String, at destination: String, link: Bool) throws {
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(
            ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        defer { unlink(temporary) }
        if !(link && Foundation.link(source, temporary) == 0) {
            do {
                try FileManager.default.copyItem(atPath: source, toPath: temporary)
            } catch {
                throw MediaError(
                    .cannotCreateOutput, path: destination, "cannot copy the clip: \(error.localizedDescription)")
            }
        }
        guard rename(temporary, destination) == 0 else {
            throw MediaError(.cannotCreateOutput, path: destination, String(cString: strerror(errno)))
        }
    }
}
