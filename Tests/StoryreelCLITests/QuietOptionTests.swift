import Foundation
import StoryreelTestSupport
import Testing

/// `-q`/`--quiet` in `inspect` and `thumbnail` too, as in `cube`, `render` and `ingest`: only
/// errors reach stderr, and the data (the block, the JSON, the posters' paths) is unchanged. A QA
/// pass: a script reading `inspect --json`, which holds every warning, had stderr's copies in its
/// log with no way to drop them.
@Suite struct QuietOptionTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    @Test func inspectQuietDropsStderrsWarningsAndKeepsTheJSONs() throws {
        // A clip cut in half: its index points past the end, a warning.
        let whole = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.sample("portrait-h264.mp4")))
        let half = try folder.write("half.mp4", whole.prefix(whole.count / 2))
        let loud = try TestEnvironment.storyreel(["inspect", "--json", half])
        #expect(loud.status == 0)
        #expect(loud.stderr.contains("storyreel: warning: \(half): the moov index points"), "\(loud.stderr)")
        let quiet = try TestEnvironment.storyreel(["inspect", "--json", "-q", half])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout == loud.stdout, "the JSON, its warnings with it, is the same")
        // Errors still reach stderr.
        let missing = try TestEnvironment.storyreel(["inspect", "--quiet", folder.path("missing.mp4")])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("storyreel: error: "), "\(missing.stderr)")
    }

    @Test func thumbnailQuietDropsItsNotes() throws {
        let clip = TestEnvironment.sample("black-intro.mp4")
        let loud = try TestEnvironment.storyreel(["thumbnail", clip, "-o", folder.path("late.jpg"), "--at", "9"])
        #expect(loud.status == 0)
        #expect(loud.stderr.contains("storyreel: note: "), "\(loud.stderr)")
        let quiet = try TestEnvironment.storyreel([
            "thumbnail", clip, "-o", folder.path("quiet.jpg"), "--at", "9", "-q",
        ])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(quiet.stdout == folder.path("quiet.jpg") + "\n")
    }
}
