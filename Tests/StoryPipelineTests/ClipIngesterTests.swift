import Foundation
import StoryMedia
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

    /// From an ingest QA pass: an upload deleted, or renamed over by another, while it was
    /// copied was rejected (65) as "changed while it was being copied", so a job setting rejected
    /// uploads aside set the good new file aside as damaged. Gone or replaced, it is not ingested
    /// (66); the same file grown or rewritten in place is still rejected.
    @Test func anUploadGoneOrReplacedWhileCopiedIsNotIngestedRatherThanRejected() throws {
        let folder = try TemporaryFolder()
        let upload = try folder.write("upload.mp4", Data("first".utf8))
        let inspected = try #require(FileStamp(path: upload))
        try Data("first, and more".utf8).write(to: URL(fileURLWithPath: upload), options: [])
        #expect(FileStamp(path: upload)?.identity == inspected.identity, "rewritten in place")
        #expect(ClipIngester.goneOrReplaced(upload, inspected: inspected) == nil)
        let other = try folder.write("other.mp4", Data("another".utf8))
        #expect(rename(other, upload) == 0)
        let replaced = try #require(ClipIngester.goneOrReplaced(upload, inspected: inspected))
        #expect(replaced.kind == .missingInput)
        #expect(replaced.reason == "another file took its name while it was being copied; ingest that one again")
        try FileManager.default.removeItem(atPath: upload)
        let gone = try #require(ClipIngester.goneOrReplaced(upload, inspected: inspected))
        #expect(gone.kind == .missingInput && gone.reason == "it went away while it was being copied")
    }

    /// From an ingest QA pass: with `2024-06-01 12.00.00.mp4` in a story, the next clip was
    /// numbered `2025-up.mp4`, then `2026-…`, names that read as years. A date is no sequence
    /// number; a sequence number beside it still counts.
    @Test func aDateAtTheStartOfANameIsNoSequenceNumber() {
        #expect(ClipIngester.sequenceStart(of: ["2024-06-01 12.00.00.mp4"]) == 0)
        #expect(ClipIngester.sequenceStart(of: ["2024_06_01.mov", "0003-a.mp4"]) == 3)
        #expect(ClipIngester.sequenceStart(of: ["2024.06.01 x.mp4", "7.mp4"]) == 7)
        #expect(ClipIngester.sequenceStart(of: ["2024-06_01.mp4"]) == 2024, "not a date: two separators")
        #expect(ClipIngester.sequenceStart(of: ["0012-2024-06-01.mp4"]) == 12)
    }

    /// From an ingest QA pass: with `１０.mp4` (full-width digits) in a story, the next clip was
    /// `0001-new.mp4`, which the order (reading `１０` as 10) played first. The number counted is
    /// the one the order sees: decimal digits of any script (`٣` is 3, a later QA pass), and not
    /// a superscript or a circled digit, which the order puts after the numbers, as Finder does.
    @Test func aNumberInCompatibilityFormsCountsAsTheOrderReadsIt() {
        #expect(ClipIngester.sequenceStart(of: ["１０.mp4"]) == 10)
        #expect(ClipIngester.sequenceStart(of: ["\u{663}.mp4", "0002-a.mp4"]) == 3)
        #expect(ClipIngester.sequenceStart(of: ["³.mp4", "0002-a.mp4"]) == 2)
        #expect(ClipIngester.sequenceStart(of: ["①.mp4"]) == 0)
        #expect(ClipIngester.startsWithDigit("\u{663}.mp4"))
        #expect(!ClipIngester.startsWithDigit("²a.mp4"))
        #expect(ClipIngester.sequenceStart(of: ["２０２４－０６－０１.mp4"]) == 0, "a full-width date is a date")
        #expect(ClipIngester.startsWithDigit("１０.mp4"))
        #expect(!ClipIngester.startsWithDigit("IMG_1.mp4"))
        #expect(ClipIngester.startsWithDate("2024-06-01 12.00.00.mp4"))
        #expect(ClipIngester.startsWithDate("20240601_100000.mp4"), "a Samsung camera's name")
        #expect(!ClipIngester.startsWithDate("20241301_100000.mp4"), "no 13th month")
        #expect(!ClipIngester.startsWithDate("20240231_1.mp4"), "no 31 February")
        #expect(ClipIngester.startsWithDate("20240229_1.mp4"))
        #expect(!ClipIngester.startsWithDate("12345678_1.mp4"))
        #expect(!ClipIngester.startsWithDate("2024"))
        #expect(NaturalOrder.areInIncreasingOrder("１０.mp4", "0011-new.mp4"))
    }
}
