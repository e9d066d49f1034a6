import Foundation
import StoryreelTestSupport
import Testing

/// `ingest` leaves nothing of its own behind in a story folder: not an empty story folder when
/// no clip went in.
@Suite struct IngestLeavesNothingBehindTests {
    // The old code created the story folder before looking at any clip and left it there, empty,
    // when every clip was rejected.
    @Test func failedIngestLeavesNoStoryFolderItCreated() throws {
        let fixture = try BundleFixture()
        let garbage = try fixture.folder.write("broken.mp4", Data(repeating: 7, count: 1000))
        let result = try TestEnvironment.storyreel(["ingest", garbage, "--story", "newbie", "--into", fixture.stories])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(garbage): rejected"))
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/newbie"))
    }
}
