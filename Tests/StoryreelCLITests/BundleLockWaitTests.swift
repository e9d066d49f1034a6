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
        let holder = try holdLock("\(bundle)/.lock", shared: false)
        defer { try? release(holder, "\(bundle)/.lock") }
        let (result, _) = try fixture.render(into: "reel", ["--lock-timeout", "1"])
        #expect(result.status == 75)
        let waiting = result.stderr.split(separator: "\n").filter { $0.contains("waiting for the lock") }
        #expect(
            waiting == ["storyreel: waiting for the lock on \(bundle) (held by pid \(holder.processIdentifier))…"],
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/clips"), "no work was done")
    }

    /// A bundle's lock is on the folder itself as well as on `.lock`, which looks like a stale
    /// lock file: one deleted during a render let a second render run beside it, and 2 of 7
    /// manifests lost a story (a QA pass). Here the holder has the folder and `.lock` is gone.
    @Test func aRenderWaitsForARunHoldingTheBundleFolderThoughItsLockFileWasDeleted() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let holder = try holdLock(bundle, shared: false)
        defer { try? release(holder, bundle) }
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/.lock"))
        let (result, _) = try fixture.render(into: "reel", ["--lock-timeout", "1"])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: waiting for the lock on \(bundle) (held by pid \(holder.processIdentifier))…"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/clips"), "no work was done")
        // A shard's share of the folder lets another shard run, and a full render wait.
        try release(holder, bundle)
        let sharing = try holdLock(bundle, shared: true)
        defer { try? release(sharing, bundle) }
        let (shard, _) = try fixture.render(into: "reel", ["--shard", "1/3", "--lock-timeout", "1"])
        #expect(shard.status == 0, "\(shard.stderr)")
        let (full, _) = try fixture.render(into: "reel", ["--lock-timeout", "1"])
        #expect(full.status == 75, "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/manifest.json"))
    }

    /// A lock file that is a symlink is refused (73) as one: it was "cannot open the lock file:
    /// Too many levels of symbolic links", for render's lock and ingest's (a QA pass).
    @Test func aLockFileThatIsASymlinkIsSaidToBeOne() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        _ = try fixture.render(into: "reel")
        try FileManager.default.removeItem(atPath: "\(bundle)/.lock")
        try FileManager.default.createSymbolicLink(atPath: "\(bundle)/.lock", withDestinationPath: "/tmp/x")
        let (render, _) = try fixture.render(into: "reel")
        #expect(render.status == 73)
        #expect(
            render.stderr
                == "storyreel: error: \(bundle)/.lock: is a symbolic link; storyreel locks only a regular file\n",
            "\(render.stderr)")
        let ingestLock = "\(fixture.stories)/.storyreel-ingest.lock"
        try FileManager.default.createSymbolicLink(atPath: ingestLock, withDestinationPath: "/tmp/x")
        let ingest = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ben_k", "--into", fixture.stories,
        ])
        #expect(ingest.status == 73)
        #expect(ingest.stderr.contains("\(ingestLock): is a symbolic link"), "\(ingest.stderr)")
    }

    /// From a QA pass: a render that waited for the lock rendered the stories as it had listed
    /// them before it waited. An `ingest --render` queued behind another published a manifest
    /// without a story ingested meanwhile (both exited 0), and a clip deleted meanwhile was
    /// skipped (65). The stories are listed once the lock is held.
    @Test func aRenderThatWaitedForTheLockRendersTheStoriesAsTheyAreOnceItHoldsIt() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let holder = try holdLock("\(bundle)/.lock", shared: false)
        defer { try? release(holder, "\(bundle)/.lock") }
        let stderr = fixture.folder.path("render.stderr")
        let outcome = Mutex<(status: Int32, stdout: String)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let arguments = [TestEnvironment.storyreelBinary, fixture.stories, bundle, stderr]
        DispatchQueue.global().async {
            let result = try? TestEnvironment.run(
                "/bin/sh", ["-c", #"exec "$0" render "$1" -o "$2" --size 360x640 --json 2>"$3""#] + arguments)
            outcome.withLock { $0 = result.map { ($0.status, $0.stdout) } }
            finished.signal()
        }
        func waitingMessage() -> Bool {
            ((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "").contains("waiting for the lock")
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !waitingMessage() { Thread.sleep(forTimeInterval: 0.02) }
        #expect(waitingMessage(), "the render waits for the lock")
        try FileManager.default.createDirectory(atPath: "\(fixture.stories)/zed", withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: TestEnvironment.sample("portrait-h264.mp4"), toPath: "\(fixture.stories)/zed/1.mp4")
        try FileManager.default.removeItem(atPath: "\(fixture.stories)/chloe/night.mp4")
        try release(holder, "\(bundle)/.lock")
        finished.wait()
        let result = try #require(outcome.withLock { $0 })
        let messages = (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(messages)")
        let manifest = try fixture.manifest("reel")
        #expect(manifest.stories.map(\.id).contains("zed"), "the story added while the render waited plays")
        #expect(manifest.stories.first { $0.id == "chloe" }?.items.count == 1, "the deleted clip is not in it")
        #expect(manifest.skipped.isEmpty, "\(manifest.skipped)")
    }

    /// From the QA pass: an ingest waiting for another ingest's lock said nothing until it gave
    /// up; it now says once who holds it, as render does.
    @Test func aWaitingIngestNamesTheHolderOnce() throws {
        let fixture = try BundleFixture()
        let holder = try holdLock("\(fixture.stories)/.storyreel-ingest.lock", shared: false)
        defer { try? release(holder, "\(fixture.stories)/.storyreel-ingest.lock") }
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

    /// Ingest's lock is on the stories folder itself too: with `.storyreel-ingest.lock` deleted
    /// as a stale lock file, a second ingest ran beside the first (the render QA pass's case).
    @Test func anIngestWaitsForARunHoldingTheStoriesFolderThoughItsLockFileWasDeleted() throws {
        let fixture = try BundleFixture()
        let holder = try holdLock(fixture.stories, shared: false)
        defer { try? release(holder, fixture.stories) }
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.stories)/.storyreel-ingest.lock"))
        let result = try TestEnvironment.storyreel([
            "ingest", TestEnvironment.sample("portrait-h264.mp4"), "--story", "ana.lima", "--into", fixture.stories,
            "--lock-timeout", "0.5",
        ])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "storyreel: waiting for the lock on \(fixture.stories) (held by pid \(holder.processIdentifier))…"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing was ingested")
    }

    /// Releases the lock `holder` (from ``holdLock(_:shared:)``) holds on `file`, and returns
    /// once it is free: SIGKILL, as the test process's blocked SIGTERM is the holder's too
    /// (`terminate()` waited out its sleep), and no `waitUntilExit()`, which Foundation ended
    /// only when the orphaned sleep did.
    func release(_ holder: Process, _ file: String) throws {
        kill(holder.processIdentifier, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try TestEnvironment.run("/usr/bin/flock", ["-n", file, "true"]).status != 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Holds a `flock` (`-s` shared, else exclusive) on `file` from another process until the
    /// returned process is terminated (which releases it); returns once the lock is held.
    func holdLock(_ file: String, shared: Bool) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // -o: the sleep does not inherit the lock, so terminating flock releases it.
        holder.arguments = (shared ? ["-s"] : []) + ["-o", file, "sleep", "30"]
        try holder.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try TestEnvironment.run("/usr/bin/flock", ["-n", file, "true"]).status == 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return holder
    }

    /// From the QA pass: the Kubernetes Job of docs/bundles.md runs four shards at once into one OUT on a
    /// shared volume, but each shard held the bundle's lock for its whole run, so they ran one
    /// after another and a shard waiting past --lock-timeout failed (75). Shards now share the
    /// lock; a full render (the manifest, --prune) still waits for every one of them.
    @Test func shardsShareTheBundleLockAndAFullRenderWaitsForThem() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        let holder = try holdLock("\(bundle)/.lock", shared: true)
        defer { try? release(holder, "\(bundle)/.lock") }
        let (shard, _) = try fixture.render(into: "reel", ["--shard", "1/3", "--lock-timeout", "1"])
        #expect(shard.status == 0, "\(shard.stderr)")
        #expect(!fixture.outputs("reel").isEmpty, "the shard rendered its units")
        let (full, _) = try fixture.render(into: "reel", ["--lock-timeout", "1"])
        #expect(full.status == 75, "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(bundle)/manifest.json"))
    }

    /// Shards of another count split the work otherwise, so their units overlap: run side by
    /// side, each called the other's fresh outputs files storyreel did not write (a QA pass:
    /// `--shard 1/2` beside `--shard 1/3`, both 65). A shard of another count waits.
    @Test func shardsOfAnotherCountWaitForTheShardsRunning() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        let group = "\(bundle)/.storyreel/shards-of-2.lock"
        try FileManager.default.createDirectory(atPath: "\(bundle)/.storyreel", withIntermediateDirectories: true)
        let holder = try holdLock(group, shared: true)
        defer { try? release(holder, group) }
        let (other, _) = try fixture.render(into: "reel", ["--shard", "1/3", "--lock-timeout", "1"])
        #expect(other.status == 75, "\(other.stderr)")
        #expect(
            other.stderr.contains(
                "storyreel: waiting for the lock on \(bundle) (held by pid \(holder.processIdentifier))…"),
            "\(other.stderr)")
        #expect(fixture.outputs("reel").isEmpty, "the shard of another count did no work")
        let (same, _) = try fixture.render(into: "reel", ["--shard", "2/2", "--lock-timeout", "1"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(!fixture.outputs("reel").isEmpty)
    }

    /// Shards of one count entering together wait for each other's look at the gate whatever
    /// `--lock-timeout` (a re-check: with 0, 7 of 40 shards started together exited 75); a wait on
    /// OUT and then on shards of another count says so once, and gives up after --lock-timeout.
    @Test func theShardGateIsWaitedForAndAWaitIsSaidOnce() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        let gate = "\(bundle)/.storyreel/shard-gate.lock"
        try FileManager.default.createDirectory(atPath: "\(bundle)/.storyreel", withIntermediateDirectories: true)
        let gateHolder = Process()
        gateHolder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        gateHolder.arguments = ["-o", gate, "sleep", "1"]
        try gateHolder.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try TestEnvironment.run("/usr/bin/flock", ["-n", gate, "true"]).status == 0 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let (shard, _) = try fixture.render(into: "reel", ["--shard", "1/2", "--lock-timeout", "0"])
        #expect(shard.status == 0, "\(shard.stderr)")
        gateHolder.waitUntilExit()
        let group = "\(bundle)/.storyreel/shards-of-3.lock"
        let others = try holdLock(group, shared: true)
        defer { try? release(others, group) }
        let out = try holdLock(bundle, shared: false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { try? release(out, bundle) }
        let (waiting, _) = try fixture.render(into: "reel", ["--shard", "2/2", "--lock-timeout", "1.5"])
        #expect(waiting.status == 75, "\(waiting.stderr)")
        let lines = waiting.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("waiting for the lock") }.count == 1, "\(waiting.stderr)")
        #expect(lines.last?.hasSuffix("gave up after 1.5 s (--lock-timeout)") == true, "\(waiting.stderr)")
    }

    /// The same shard twice at once (a retried CI job) takes turns: the second waits on the
    /// shard's own lock while another shard runs.
    @Test func theSameShardTwiceTakesTurns() throws {
        let fixture = try BundleFixture()
        let bundle = fixture.folder.path("reel")
        try FileManager.default.createDirectory(atPath: "\(bundle)/.storyreel", withIntermediateDirectories: true)
        let holder = try holdLock("\(bundle)/.storyreel/shard-1-of-2.lock", shared: false)
        defer { try? release(holder, "\(bundle)/.storyreel/shard-1-of-2.lock") }
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
                "render", stories, "-o", bundle, "--size", BundleFixture.canvasArgument, "--shard", "\(index + 1)/2",
                "--lock-timeout",
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
