import Dispatch
import Foundation
import StoryreelTestSupport
import Synchronization
import Testing

/// A second render that finds the bundle locked says once who holds it, then waits up to
/// `--lock-timeout` and gives up with 75, having done no work.
@Suite struct BundleLockWaitTests {
    @Test func aWaitingRenderNamesTheHolderOnceThenExits75() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["\(bundle)/.lock", "sleep", "10"]
        try holder.run()
        defer { holder.terminate() }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline,
            try TestEnvironment.run("/usr/bin/flock", ["-n", "\(bundle)/.lock", "true"]).status == 0
        {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let (result, _) = try fixture.render(into: "reel", ["--lock-timeout", "1"])
        #expect(result.status == 75)
        let waiting = result.stderr.split(separator: "\n").filter { $0.contains("waiting for the lock") }
        #expect(
            waiting == ["storyreel: waiting for the lock on \(bundle) (held by pid \(holder.processIdentifier))…"],
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/clips"), "no work was done")
    }

    /// From the QA pass: an ingest waiting for another ingest's lock said nothing until it gave
    /// up; it now says once who holds it, as render does.
    @Test func aWaitingIngestNamesTheHolderOnce() throws {
        let fixture = try BundleFixture()
        let holder = try holdLock("\(fixture.stories)/.storyreel-ingest.lock", shared: false)
        defer { holder.terminate() }
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ana.lima", "--into", fixture.stories,
            "--lock-timeout", "0.5",
        ])
        #expect(result.status == 75, "\(result.stderr)")
        let waiting = result.stderr.split(separator: "\n").filter { $0.contains("waiting for the lock") }
        #expect(
            waiting == [
                "storyreel: waiting for the lock on \(fixture.stories) (held by pid \(holder.processIdentifier))…"
            ], "\(result.stderr)")
    }

    /// Holds a `flock` (`-s` shared, else exclusive) on `file` from another process until the
    /// returned process is terminated; returns once the lock is held.
    func holdLock(_ file: String, shared: Bool) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = (shared ? ["-s"] : []) + [file, "sleep", "30"]
        try holder.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try TestEnvironment.run("/usr/bin/flock", ["-n", file, "true"]).status == 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return holder
    }

    /// From the QA pass: the README's Kubernetes Job runs four shards at once into one OUT on a
    /// shared volume, but each shard held the bundle's lock for its whole run, so they ran one
    /// after another and a shard waiting past --lock-timeout failed (75). Shards now share the
    /// lock; a full render (the manifest, --prune) still waits for every one of them.
    @Test func shardsShareTheBundleLockAndAFullRenderWaitsForThem() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let holder = try holdLock("\(bundle)/.lock", shared: true)
        defer { holder.terminate() }
        let (shard, _) = try fixture.render(into: "reel", ["--shard", "1/3", "--lock-timeout", "1"])
        #expect(shard.status == 0, "\(shard.stderr)")
        #expect(!fixture.outputs("reel").isEmpty, "the shard rendered its units")
        let (full, _) = try fixture.render(into: "reel", ["--lock-timeout", "1"])
        #expect(full.status == 75, "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/manifest.json"))
    }

    /// The same shard twice at once (a retried CI job) takes turns: the second waits on the
    /// shard's own lock while another shard runs.
    @Test func theSameShardTwiceTakesTurns() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: "\(bundle)/.storyreel", withIntermediateDirectories: true)
        let holder = try holdLock("\(bundle)/.storyreel/shard-1-of-2.lock", shared: false)
        defer { holder.terminate() }
        let (first, _) = try fixture.render(into: "reel", ["--shard", "1/2", "--lock-timeout", "1"])
        #expect(first.status == 75, "\(first.stderr)")
        let (second, _) = try fixture.render(into: "reel", ["--shard", "2/2", "--lock-timeout", "1"])
        #expect(second.status == 0, "\(second.stderr)")
    }

    /// Two shards started together into one OUT both finish, and the full render after them
    /// gives the bundle a single render gives.
    @Test func shardsRunSideBySideIntoOneBundle() throws {
        let fixture = try BundleFixture()
        let results = Mutex<[Int: ProcessResult]>([:])
        let stories = fixture.stories
        let bundle = fixture.folder.path("reel")
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let result = try? TestEnvironment.storyreel([
                "render", stories, "-o", bundle, "--size", "360x640", "--shard", "\(index + 1)/2", "--lock-timeout",
                "0",
            ])
            results.withLock { $0[index + 1] = result }
        }
        for k in 1...2 {
            let result = results.withLock { $0[k] }
            #expect(result?.status == 0, "shard \(k): \(result?.stderr ?? "did not run")")
        }
        let (full, _) = try fixture.render(into: "reel")
        #expect(full.status == 0, "\(full.stderr)")
        let (single, _) = try fixture.render(into: "single")
        #expect(single.status == 0)
        #expect(try fixture.manifestBytes("reel") == fixture.manifestBytes("single"))
        #expect(fixture.outputs("reel") == fixture.outputs("single"))
    }
}
