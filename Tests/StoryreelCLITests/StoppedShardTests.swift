import Foundation
import StoryreelTestSupport
import Testing

/// Shards of one render side by side in one OUT, one of them stopped: its own suite, so that it
/// runs beside the others rather than in the serialized ``RenderBundleTests``.
@Suite struct StoppedShardTests {
    /// From a QA pass: a shard stopped by SIGTERM or SIGINT took away the output folders it
    /// had made while they were empty, as a full render does, while the render's other shards
    /// wrote into them: the next write there failed (73, `no such folder: reel/transitions`).
    /// A stopped shard leaves its folders; the other shard then finishes.
    @Test(arguments: [SIGTERM, SIGINT])
    func aStoppedShardLeavesTheFoldersTheOtherShardsWriteInto(signal: Int32) throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        let transitions = "\(bundle)/transitions"
        let status = try TestEnvironment.interrupt(
            [
                "render", fixture.stories, "-o", bundle, "--shard", "1/2", "--size", BundleFixture.canvasArgument,
                "--quiet",
            ],
            with: signal
        ) {
            (try? FileManager.default.contentsOfDirectory(atPath: transitions))?.isEmpty == true
        }
        #expect(status & 0x7f == signal || (status >> 8) & 0xff == 128 + signal, "status \(status)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: transitions, isDirectory: &isFolder) && isFolder.boolValue)
        let (other, _) = try fixture.render(into: "reel", ["--shard", "2/2"])
        #expect(other.status == 0, "\(other.stderr)")
    }
}
