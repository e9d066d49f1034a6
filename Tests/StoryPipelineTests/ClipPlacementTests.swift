import Foundation
import StoryMedia
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// Placing a clip: what is placed is what was hashed or stamped, an exclusive name is never
/// replaced, and a symlink becomes a regular file.
@Suite struct ClipPlacementTests {
    let folder: TemporaryFolder
    let source: String
    let sha256: String

    init() throws {
        folder = try TemporaryFolder()
        source = try folder.write("clip.mp4", Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        sha256 = try ContentHasher.sha256(ofFileAt: source)
    }

    @Test func aClipThatChangedSinceItWasHashedIsRefusedAndNothingIsPlaced() throws {
        let destination = folder.path("placed.mp4")
        let stale = String(repeating: "0", count: 64)
        for link in [false, true] {
            #expect(throws: MediaError.self) {
                try ClipPlacement.place(source, at: destination, check: .sha256(stale), link: link)
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.sorted() == ["clip.mp4"], "no temporary file left: \(names)")
    }

    /// `ingest` places an upload checked by the stamp it had when it was probed: one that was
    /// appended to, rewritten in place or replaced since is refused, and nothing is placed.
    @Test func aClipThatChangedSinceItWasStampedIsRefusedAndNothingIsPlaced() throws {
        let destination = folder.path("placed.mp4")
        let stamp = try #require(FileStamp(path: source))
        try ClipPlacement.place(source, at: destination, check: .unchanged(since: stamp), link: false)
        #expect(try ContentHasher.sha256(ofFileAt: destination) == sha256, "unchanged: placed as it is")
        try FileManager.default.removeItem(atPath: destination)
        let grown = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
        try grown.seekToEnd()
        try grown.write(contentsOf: Data("more".utf8))
        try grown.close()
        let replaced = try folder.write("other.mp4", Data(count: 100_000))
        let sameSize = try #require(FileStamp(path: replaced))
        // The old ingest checked a possible duplicate by the hash it took after inspecting it
        // only, so an upload changed between the two went in uninspected.
        let hashedSinceTheStamp = try ContentHasher.sha256(ofFileAt: source)
        for (check, link) in [
            (ClipPlacement.Check.unchanged(since: stamp), false), (.unchanged(since: stamp), true),
            (.unchanged(since: sameSize), false),
            (.init(sha256: hashedSinceTheStamp, unchangedSince: stamp), false),
            (.init(sha256: hashedSinceTheStamp, unchangedSince: stamp), true),
        ] {
            #expect(throws: MediaError.self) {
                try ClipPlacement.place(source, at: destination, check: check, link: link)
            }
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.sorted() == ["clip.mp4", "other.mp4"], "no temporary file left: \(names)")
    }

    @Test func exclusivePlacementNeverReplacesAnExistingName() throws {
        let destination = try folder.write("taken.mp4", Data("someone else's".utf8))
        #expect(throws: StagedFile.NameTaken.self) {
            try ClipPlacement.place(source, at: destination, check: .sha256(sha256), link: false, exclusive: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data("someone else's".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names.sorted() == ["clip.mp4", "taken.mp4"], "no temporary file left: \(names)")
    }

    @Test func aSymlinkedClipIsPlacedAsARegularFile() throws {
        let link = folder.path("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: source)
        for (name, hardLink) in [("copied.mp4", false), ("linked.mp4", true)] {
            let destination = folder.path(name)
            try ClipPlacement.place(link, at: destination, check: .sha256(sha256), link: hardLink)
            var status = stat()
            #expect(lstat(destination, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG, "\(name)")
            #expect(try ContentHasher.sha256(ofFileAt: destination) == sha256)
        }
    }
}
