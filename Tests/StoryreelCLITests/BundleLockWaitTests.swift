import Foundation
import StoryreelTestSupport
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
}
