import Dispatch
import Foundation
import StoryPipeline
import StoryreelTestSupport
import Synchronization
import Testing

/// A lock file removed and made anew while a run waits on it is not the lock any more: the
/// waiting run locks the file at the path instead. From a QA pass: an `ingest --create` that
/// took its stories folder away again removed the lock file others waited on; one of them then
/// locked the removed file, a newcomer the new one, and both ingests ran at once.
@Suite struct BundleLockReplacedFileTests {
    @Test func aRunThatWaitedOnARemovedLockFileLocksTheFileAtThePath() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lock")
        var first: BundleLock? = try BundleLock(file: path, folder: folder.path(""), timeout: 0)
        #expect(first != nil)
        let waiter = Mutex<BundleLock?>(nil)
        let done = DispatchSemaphore(value: 0)
        let root = folder.path("")
        DispatchQueue.global().async {
            let lock = try? BundleLock(file: path, folder: root, timeout: 20)
            waiter.withLock { $0 = lock }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)  // the waiter waits on the first file
        // The holder removes the file under its lock, as ingest does, and lets go.
        unlink(path)
        first = nil
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(waiter.withLock { $0 } != nil, "the waiter went on")
        // A newcomer opens the file at the path: the waiter must be holding that one.
        let newcomer = try? BundleLock(file: path, folder: root, timeout: 0)
        #expect(newcomer == nil, "two runs hold the lock at once")
        #expect(
            try TestEnvironment.run("/usr/bin/flock", ["-n", path, "true"]).status != 0,
            "the file at the path is the one locked")
    }
}
