import Foundation
import StoryreelKit
import StoryreelTestSupport
import Testing

/// FIFOs and devices where a story folder, a spec or an upload should have a regular file: each
/// is refused at once with its reason, no run hangs, and the bundle lock is let go.
@Suite struct NonRegularFilesInStoriesTests {
    @Test func aFIFOAvatarOrStorySettingsIsSkippedWithoutHanging() throws {
        let fixture = try BundleFixture()
        let stories = fixture.stories
        try FileManager.default.removeItem(atPath: "\(stories)/ana.lima/avatar.jpg")
        #expect(mkfifo("\(stories)/ana.lima/avatar.jpg", 0o644) == 0)
        try FileManager.default.removeItem(atPath: "\(stories)/ana.lima/story.json")
        #expect(mkfifo("\(stories)/ana.lima/story.json", 0o644) == 0)
        #expect(mkfifo("\(stories)/ben_k/3.mp4", 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: "\(stories)/chloe/zero.mov", withDestinationPath: "/dev/zero")
        let started = Date()
        let (result, _) = try fixture.render(into: "reel", ["--timeout", "5"])
        #expect(Date().timeIntervalSince(started) < 30, "no hang")
        #expect(result.status == 65, "\(result.stderr)")
        let manifest = try fixture.manifest("reel")
        var skipped: [String: String] = [:]
        for entry in manifest.skipped {
            skipped[entry.path] = entry.reason
        }
        #expect(skipped["ana.lima/avatar.jpg"]?.contains("FIFO") == true, "\(skipped)")
        #expect(skipped["ana.lima/story.json"]?.contains("FIFO") == true, "\(skipped)")
        #expect(skipped["ben_k/3.mp4"]?.contains("regular file") == true, "\(skipped)")
        #expect(skipped["chloe/zero.mov"] != nil, "\(skipped)")
        // The lock was let go: a second render starts and finds nothing to do.
        let (again, summary) = try fixture.render(into: "reel", ["--lock-timeout", "0"])
        #expect(again.status == 65)
        #expect(summary["rendered"] as? Int == 0)
    }

    @Test func aSpecAvatarOnDevZeroIsSkippedWithoutHanging() throws {
        let fixture = try BundleFixture()
        let spec = """
            {"stories": [{"handle": "ana", "avatar": "../../../../../../../../dev/zero",
              "items": ["stories/ana.lima/IMG_0001.MOV"]},
             {"handle": "ben", "avatar": "zero.jpg", "items": ["stories/ben_k/1.mp4"]}]}
            """
        let specPath = try fixture.folder.write("stories.json", Data(spec.utf8))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.path("zero.jpg"), withDestinationPath: "/dev/zero")
        let elsewhere = try TemporaryFolder()
        let started = Date()
        let result = try TestEnvironment.storyreel([
            "render", specPath, "-o", elsewhere.path("reel"), "--size", "360x640", "--json",
        ])
        #expect(Date().timeIntervalSince(started) < 30, "no hang")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("dev/zero") && result.stderr.contains("zero.jpg"), "\(result.stderr)")
    }

    @Test func ingestRefusesAFIFOAndADeviceAtOnce() throws {
        let fixture = try BundleFixture()
        let fifo = fixture.folder.path("upload.mov")
        #expect(mkfifo(fifo, 0o644) == 0)
        let zero = fixture.folder.path("zero.mov")
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        let before = FolderSnapshot(fixture.stories)
        let started = Date()
        let result = try TestEnvironment.storyreel([
            "ingest", fifo, zero, "/dev/urandom", "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(Date().timeIntervalSince(started) < 30, "no hang")
        // Not ingested, 66, as every command exits on a path that is no regular file; not
        // rejected, 65, as a damaged upload is (a scripting QA pass).
        #expect(result.status == 66)
        let refused = result.stderr.split(separator: "\n").filter { $0.contains(": not ingested: ") }
        #expect(refused.count == 3, "\(result.stderr)")
        let after = FolderSnapshot(fixture.stories)
        #expect(before.changed(in: after).isEmpty)
        #expect(Set(after.paths).subtracting(before.paths).allSatisfy { $0 == ".storyreel-ingest.lock" })
    }
}
