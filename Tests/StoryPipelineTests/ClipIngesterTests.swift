import Foundation
import StoryreelTestSupport
import Testing

@testable import StoryPipeline

/// `ClipIngester` as the `ingest` command drives it.
@Suite struct ClipIngesterTests {
    /// Each clip's outcome is reported as soon as it has one, before the next clip is read: the
    /// command prints its line then, so a run interrupted after some clips went in says which.
    /// (Every line used to wait for the last clip: a QA pass's Ctrl-C left clips in the story and
    /// nothing on stdout.)
    @Test func eachOutcomeIsReportedBeforeTheNextClipIsIngested() throws {
        let folder = try TemporaryFolder()
        let stories = folder.path("stories")
        try FileManager.default.createDirectory(atPath: stories, withIntermediateDirectories: true)
        let clips = ["portrait-h264.mp4", "sixty-fps.mp4", "edit-list.mp4"].map(TestEnvironment.sample)
        let ingester = ClipIngester(storiesFolder: stories, handle: "ana")
        var inTheStoryWhenReported: [[String]] = []
        let outcomes = try ingester.ingest(clips) { index, outcome in
            #expect(index == inTheStoryWhenReported.count)
            #expect(outcome.isIngested)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(stories)/ana")) ?? []
            inTheStoryWhenReported.append(names.filter { !$0.hasPrefix(".") }.sorted())
        }
        #expect(outcomes.count == 3)
        #expect(
            inTheStoryWhenReported == [
                ["0001-portrait-h264.mp4"],
                ["0001-portrait-h264.mp4", "0002-sixty-fps.mp4"],
                ["0001-portrait-h264.mp4", "0002-sixty-fps.mp4", "0003-edit-list.mp4"],
            ])
    }
}
