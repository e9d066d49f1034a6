import Foundation

extension Manifest {
    /// Throws a ``ManifestError`` at the first story id or item id that the manifest gives again,
    /// in document order, worded as `storyreel validate` words it
    /// (`stories[1].items[0].id: 'd699a0b481b5d9dd' is also the id of stories[0].items[1]`).
    /// Decoding (``init(jsonData:)``) lets such a manifest through, which `validate` refuses:
    /// an app showing bundles it did not render calls this first, since the seen state, the
    /// navigator and `Identifiable` lists (SwiftUI's `ForEach`) take each id for one story or
    /// item (a Kit consumer's review: an item id shared with another story's made a swipe land
    /// past that story's first item). A manifest `render` wrote passes.
    public func checkIDsAreUnique() throws {
        var storyIndex: [String: Int] = [:]
        var itemPaths: [String: String] = [:]
        for (index, story) in stories.enumerated() {
            if let first = storyIndex[story.id] {
                throw ManifestError(
                    path: "stories[\(index)].id", "\(Self.quoted(story.id)) is also the id of stories[\(first)]")
            }
            storyIndex[story.id] = index
            for (itemIndex, item) in story.items.enumerated() {
                let path = "stories[\(index)].items[\(itemIndex)]"
                if let first = itemPaths[item.id] {
                    throw ManifestError(path: "\(path).id", "\(Self.quoted(item.id)) is also the id of \(first)")
                }
                itemPaths[item.id] = path
            }
        }
    }

    /// An id as an error line quotes it: `'text'`, cut at 80 characters.
    private static func quoted(_ id: String) -> String {
        "'" + id.cut().replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
