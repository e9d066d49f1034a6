import Foundation
import StoryreelTestSupport
import Testing

/// `cube --frames-dir DIR` replaces the frames it wrote in an earlier run (no stale frames of a
/// longer transition stay), refuses a folder holding frames it did not write, and prints the
/// folder's pattern without `//`.
@Suite struct CubeFramesFolderTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let from = TestEnvironment.sample("stories/ana.lima/avatar.jpg")
    static let to = TestEnvironment.sample("stories/ben_k/avatar.jpg")

    func cube(_ frames: String, duration: String) throws -> ProcessResult {
        try TestEnvironment.storyreel([
            "cube", Self.from, Self.to, "--size", "64x64", "--frames-dir", frames, "--duration", duration,
        ])
    }

    func frameNames(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix("frame_") }.sorted()
    }

    @Test func aShorterRunRemovesTheEarlierRunsExtraFrames() throws {
        let frames = folder.path("frames")
        let long = try cube(frames + "/", duration: "0.5")
        #expect(long.status == 0, "\(long.stderr)")
        #expect(try frameNames(frames).count == 15)
        #expect(long.stderr.contains("\(frames)/frame_*.png"), "\(long.stderr)")
        #expect(!long.stderr.contains("//"), "\(long.stderr)")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(frames)/notes.txt"))
        let short = try cube(frames, duration: "0.2")
        #expect(short.status == 0, "\(short.stderr)")
        #expect(try frameNames(frames) == (0..<6).map { String(format: "frame_%04d.png", $0) })
        #expect(FileManager.default.fileExists(atPath: "\(frames)/notes.txt"), "other files are left alone")
    }

    @Test func aFolderHoldingFramesStoryreelDidNotWriteIsRefused() throws {
        let frames = folder.path("theirs")
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        let theirs = Data("their frame".utf8)
        try theirs.write(to: URL(fileURLWithPath: "\(frames)/frame_0020.png"))
        let result = try cube(frames, duration: "0.5")
        #expect(result.status == 73, "\(result.stderr)")
        #expect(
            result.stderr
                == "storyreel: error: \(frames): holds frame_0020.png, which storyreel did not write; "
                + "give an empty or new folder to --frames-dir\n")
        #expect(try frameNames(frames) == ["frame_0020.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(frames)/frame_0020.png")) == theirs)
    }
}
