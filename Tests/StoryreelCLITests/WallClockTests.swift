import Foundation
import StoryreelTestSupport
import Testing

/// Debian's libfaketime, where it is installed.
private let libfaketime: String? = [
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
].first { FileManager.default.fileExists(atPath: $0) }

/// From a QA pass of clocks: storyreel under a wall clock that is wrong or set while it runs
/// (an NTP step, a VM's resume, a host whose clock runs ahead of a shared folder's). libfaketime
/// fakes the wall clock only (`FAKETIME_DONT_FAKE_MONOTONIC`) and leaves files' times as they
/// are (`NO_FAKE_STAT`).
@Suite(.enabled(if: libfaketime != nil, "needs libfaketime (Debian's faketime)"))
struct WallClockTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// storyreel `arguments` under libfaketime with the wall clock at `offset` (`+15m`,
    /// `+0 x100`: a hundred times as fast).
    func storyreel(_ arguments: [String], clock offset: String) throws -> ProcessResult {
        try TestEnvironment.run(
            "/usr/bin/env",
            [
                "LD_PRELOAD=\(try #require(libfaketime))", "FAKETIME=\(offset)", "NO_FAKE_STAT=1",
                "FAKETIME_DONT_FAKE_MONOTONIC=1", TestEnvironment.storyreelBinary,
            ] + arguments)
    }

    /// A preloaded library that calls `setenv` before `main` (libfaketime does) moves the
    /// environment, below which a statically linked Swift runtime looks for the arguments: it
    /// found none, and every command said "is /proc mounted?" (71). They are read from
    /// `/proc/self/cmdline` then.
    @Test func aPreloadedLibraryThatSetsTheEnvironmentDoesNotHideTheCommandLine() throws {
        let version = try storyreel(["--version"], clock: "+0")
        #expect(version.status == 0 && version.stdout.hasPrefix("storyreel "), "\(version.status): \(version.stderr)")
        let missing = folder.path("caf\u{E9} missing.mp4")
        let refused = try storyreel(["inspect", TestEnvironment.sample("portrait-h264.mp4"), missing], clock: "+0")
        #expect(refused.status == 66, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(missing): "), "\(refused.stderr)")
        #expect(refused.stdout.contains("portrait-h264.mp4"), "every argument read")
    }

    /// Lock waits and a render's `seconds` follow the monotonic clock. With the wall clock a
    /// hundred times as fast, a wait of `--lock-timeout 30` gave up at once (and with it set
    /// back a day, one of 3 s waited for its holder, 25 s); the summary's seconds were wrong.
    @Test func aLockWaitAndARendersSecondsFollowTheMonotonicClock() throws {
        let fixture = try BundleFixture()
        let out = fixture.folder.path("reel")
        #expect(try fixture.render(into: "reel").0.status == 0)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["\(out)/.lock", "sleep", "2"]
        try holder.run()
        defer { holder.waitUntilExit() }
        // flock takes the lock as it starts.
        usleep(300_000)
        let started = Date()
        let waited = try storyreel(
            [
                "render", fixture.stories, "-o", out, "--size", BundleFixture.canvasArgument, "--json",
                "--lock-timeout", "30",
            ],
            clock: "+0 x100")
        let elapsed = Date().timeIntervalSince(started)
        #expect(waited.status == 0, "\(waited.status): \(waited.stderr)")
        #expect(elapsed >= 1 && elapsed < 20, "\(elapsed) s: it waited for the holder")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(waited.stdout.utf8)) as? [String: Any])
        let seconds = try #require(summary["seconds"] as? Double)
        #expect(seconds >= 1 && seconds < 20, "\(seconds) s by the monotonic clock")
    }

    /// A killed run's temporary file is judged stale by its age on the folder's own clock. A
    /// host whose clock ran 15 minutes ahead removed a live run's finished, unlocked file (its
    /// run then lost its work, 73); one whose clock was behind never removed a killed run's.
    @Test func aTemporaryFilesAgeIsMeasuredByTheFoldersClock() throws {
        let poster = folder.path("poster.jpg")
        let fresh = folder.path(".poster.jpg.Ab3dE9.storyreel-tmp")
        try Data("a live run's finished file".utf8).write(to: URL(fileURLWithPath: fresh))
        try TestEnvironment.markAsStoryreels(fresh)
        let ahead = try storyreel(
            ["thumbnail", TestEnvironment.sample("portrait-h264.mp4"), "-o", poster, "--width", "90"],
            clock: "+15m")
        #expect(ahead.status == 0, "\(ahead.stderr)")
        #expect(FileManager.default.fileExists(atPath: fresh), "a clock 15 minutes ahead took it for stale")

        let old = folder.path(".poster.jpg.Zz9Yx8.storyreel-tmp")
        try Data("a killed run's file".utf8).write(to: URL(fileURLWithPath: old))
        try TestEnvironment.markAsStoryreels(old)
        let twentyMinutesAgo = Date().addingTimeInterval(-1200)
        try FileManager.default.setAttributes([.modificationDate: twentyMinutesAgo], ofItemAtPath: old)
        let behind = try storyreel(
            ["thumbnail", TestEnvironment.sample("portrait-h264.mp4"), "-o", poster, "--width", "90"],
            clock: "-30m")
        #expect(behind.status == 0, "\(behind.stderr)")
        #expect(!FileManager.default.fileExists(atPath: old), "a clock 30 minutes behind kept it")
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
