import Foundation
import StoryreelTestSupport
import Testing

/// `render --json` tells a script what it otherwise scraped from stderr (a scripting QA pass):
/// whether the bundle changed (to upload it again or not), how many outputs `--prune` removed,
/// each skipped entry with its reason, and the warnings and notes.
@Suite struct RenderSummaryJSONTests {
    /// The lines of `stderr` with `prefix`, the prefix taken off.
    private func lines(_ stderr: String, _ prefix: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    @Test func theSummarySaysWhetherTheBundleChangedAndWhatWasPruned() throws {
        let fixture = try BundleFixture()
        let (first, made) = try fixture.render(into: "reel")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(made["changed"] as? Bool == true && made["pruned"] as? Int == 0)
        let (_, again) = try fixture.render(into: "reel")
        #expect(again["changed"] as? Bool == false, "a no-op run changes nothing: \(again)")
        // A new display name rewrites the manifest alone: nothing is rendered, yet it changed.
        try Data(#"{"displayName": "Ana L."}"#.utf8).write(
            to: URL(fileURLWithPath: fixture.stories + "/ana.lima/story.json"))
        let (_, renamed) = try fixture.render(into: "reel")
        #expect(renamed["rendered"] as? Int == 0 && renamed["changed"] as? Bool == true, "\(renamed)")
        // Another CRF makes the transitions again; --prune removes the old ones and says so.
        let (_, recoded) = try fixture.render(into: "reel", ["--crf", "30"])
        #expect(recoded["changed"] as? Bool == true)
        let notes = try #require(recoded["notes"] as? [String])
        #expect(notes.first?.hasPrefix("settings changed: crf ") == true, "\(notes)")
        let (pruning, pruned) = try fixture.render(into: "reel", ["--prune"])
        let count = try #require(pruned["pruned"] as? Int)
        #expect(count >= 3 && pruned["changed"] as? Bool == true, "\(pruned)")
        #expect(pruning.stderr.isEmpty || !pruning.stderr.contains("rendered "), "no summary line: \(pruning.stderr)")
        let (_, settled) = try fixture.render(into: "reel", ["--prune"])
        #expect(settled["pruned"] as? Int == 0 && settled["changed"] as? Bool == false, "\(settled)")
    }

    /// From a review: the level warning, printed before the work, was missing from the JSON.
    @Test func theWarningPrintedBeforeTheWorkIsInTheSummaryToo() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("stories/solo"), withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: folder.path("stories/solo/1.mp4")))
        let result = try TestEnvironment.storyreel([
            "render", folder.path("stories"), "-o", folder.path("big"), "--size", "8192x4368", "--json",
        ])
        #expect(result.status == 66, "nothing plays: \(result.stderr)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let printed = lines(result.stderr, "storyreel: warning: ")
        #expect(
            printed.filter { $0.hasPrefix("transitions: ") }.count == 1
                && printed.first?.hasPrefix("transitions: ") == true,
            "first, and once: \(result.stderr)")
        // The last is why nothing plays, which stderr gives as an error, the run's last line.
        let failure = try #require(lines(result.stderr, "storyreel: error: ").last)
        #expect(failure.hasPrefix("nothing plays: "), "\(result.stderr)")
        #expect(summary["warnings"] as? [String] == printed + [failure], "\(summary)")
    }

    @Test func skippedEntriesWarningsAndNotesAreInTheSummaryAsOnStderr() throws {
        let fixture = try BundleFixture()
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: fixture.stories + "/ben_k/9-bad.mp4"))
        try Data(#"{"displayName": "Chloe", "colour": "red"}"#.utf8).write(
            to: URL(fileURLWithPath: fixture.stories + "/chloe/story.json"))
        for (name, extra) in [("reel", [String]()), ("shard", ["--shard", "1/1"])] {
            let (result, summary) = try fixture.render(into: name, extra)
            #expect(result.status == 65, "\(result.stderr)")
            let entries = try #require(summary["skippedEntries"] as? [[String: Any]], "\(summary)")
            #expect(entries.count == summary["skipped"] as? Int)
            let skipped = entries.map { "\($0["path"] as? String ?? ""): skipped: \($0["reason"] as? String ?? "")" }
            #expect(skipped == lines(result.stderr, "storyreel: error: "), "\(result.stderr)")
            #expect(
                entries.first?["path"] as? String == "ben_k/9-bad.mp4" && entries.first?["story"] as? String == "ben_k")
            #expect(summary["warnings"] as? [String] == lines(result.stderr, "storyreel: warning: "))
            #expect((summary["warnings"] as? [String])?.contains { $0.contains("\"colour\"") } == true)
            #expect(summary["notes"] as? [String] == lines(result.stderr, "storyreel: note: "))
        }
    }

    /// From an incremental-render QA pass: `--shard K/N --prune` pruned nothing and said
    /// nothing. A shard knows only its own units; it says so in a note.
    @Test func pruneInAShardIsANote() throws {
        let fixture = try BundleFixture()
        let (result, summary) = try fixture.render(into: "part", ["--shard", "1/2", "--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        let note = "--prune does nothing in a shard; the full render after the merge prunes"
        #expect((summary["notes"] as? [String])?.contains(note) == true, "\(summary)")
        #expect(result.stderr.contains("storyreel: note: \(note)\n"), "\(result.stderr)")
        let (plain, plainSummary) = try fixture.render(into: "part", ["--shard", "1/2"])
        #expect(plain.status == 0 && (plainSummary["notes"] as? [String])?.contains(note) == false, "\(plainSummary)")
    }
}
