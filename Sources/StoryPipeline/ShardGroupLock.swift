import Foundation
import StoryMedia

/// Keeps the shards of different counts apart: the shards of one render (`--shard K/N`, one N)
/// share the bundle's lock and run side by side, but a shard of another count splits the work
/// otherwise, so its units overlap theirs, and each called the other's fresh outputs files
/// storyreel did not write (a QA pass: `--shard 1/2` beside `--shard 1/3`, both 65). A shard
/// holds `.storyreel/shards-of-N.lock` shared while it runs; one of another count waits, as for
/// another render, up to `--lock-timeout`. Entering is one at a time, under
/// `.storyreel/shard-gate.lock`, so two counts arriving together cannot both see the other absent.
final class ShardGroupLock: Sendable {
    /// The shared lock on this count's file.
    private let group: BundleLock

    /// The file the shards of `count` hold shared: `shards-of-N.lock`.
    static func fileName(count: Int) -> String { "shards-of-\(count).lock" }
    /// The file entering shards hold, one at a time, while they look for another count.
    static let gateFileName = "shard-gate.lock"
    /// How long the gate is waited for at least, in seconds: it is held for a look only.
    static let momentaryWait = 10.0

    /// Joins the shards of `count` rendering into `bundle` (its private folder made), waiting up
    /// to `timeout` seconds while shards of another count run; `waiting` is called once, with
    /// the pid of one of them when the kernel reports it.
    init(bundle: String, count: Int, timeout: Double, waiting: (Int32?) -> Void) throws {
        let privateFolder = BundlePaths.join(bundle, BundlePaths.privateFolder)
        let deadline = MonotonicClock.now + max(0, min(timeout, 1e9))
        var announced = false
        while true {
            // The gate and this count's file are held only for the moment an entering shard looks
            // (nothing is waited for meanwhile), so they get a few seconds whatever the timeout:
            // with `--lock-timeout 0`, shards of one count started together failed on the gate
            // (a re-check: 7 of 40, 75).
            let moment = max(deadline - MonotonicClock.now, Self.momentaryWait)
            let gate: BundleLock
            let group: BundleLock
            do {
                gate = try BundleLock(
                    file: BundlePaths.join(privateFolder, Self.gateFileName), folder: bundle, timeout: moment)
                group = try BundleLock(
                    file: BundlePaths.join(privateFolder, Self.fileName(count: count)), folder: bundle,
                    shared: true, timeout: moment)
            } catch is BundleLock.Timeout {
                throw BundleLock.Timeout(folder: bundle, seconds: timeout)
            }
            guard let busy = Self.otherCountRunning(in: privateFolder, besides: count, bundle: bundle) else {
                self.group = group
                withExtendedLifetime(gate) {}
                return
            }
            withExtendedLifetime((gate, group)) {}
            guard MonotonicClock.now < deadline else {
                throw BundleLock.Timeout(folder: bundle, seconds: timeout)
            }
            if !announced {
                waiting(busy)
                announced = true
            }
            usleep(100_000)
        }
    }

    /// When shards of a count other than `count` hold their file in `privateFolder`: the pid of
    /// one of them (`nil` inside when the kernel does not say), else nil.
    private static func otherCountRunning(in privateFolder: String, besides count: Int, bundle: String) -> Int32?? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: privateFolder)) ?? []
        for name in names where name != fileName(count: count) {
            guard name.hasPrefix("shards-of-"), name.hasSuffix(".lock") else { continue }
            let path = BundlePaths.join(privateFolder, name)
            // Free when it can be taken exclusively at once (taken, it is let go again); one that
            // cannot be opened as a lock file (a symlink put there) is no count's.
            do {
                _ = try BundleLock(file: path, folder: bundle, timeout: 0)
                continue
            } catch is BundleLock.Timeout {
            } catch {
                continue
            }
            var status = stat()
            guard lstat(path, &status) == 0 else { return .some(nil) }
            return .some(BundleLock.holder(ofInode: UInt64(clamping: status.st_ino)))
        }
        return nil
    }
}
