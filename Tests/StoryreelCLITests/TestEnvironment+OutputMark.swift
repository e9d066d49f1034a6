import Foundation
import StoryMedia
import StoryreelTestSupport

extension TestEnvironment {
    /// Marks the file or folder at `path` as storyreel marks what it makes (``OutputMark``): a
    /// stale temporary file or folder a killed run left carries the mark, and a sweep removes
    /// nothing of a temporary name without it.
    static func markAsStoryreels(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        OutputMark.mark(descriptor: descriptor)
        guard OutputMark.isMarked(path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
