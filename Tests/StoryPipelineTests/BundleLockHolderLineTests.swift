import Dispatch
import Foundation
import StoryreelTestSupport
import Synchronization
import Testing

@testable import StoryPipeline

/// The "waiting for the lock" line names the holder's pid, or is not printed. From a QA pass:
/// two quick ingests into one folder printed `waiting for the lock on ns…` without the pid when
/// the holder let go between the failed `flock` and the look at `/proc/locks`, and then there
/// was no wait at all. The look at the holder is stood in for here, so the race is exact.
@Suite struct BundleLockHolderLineTests {
    @Test func aHolderThatLetGoBeforeItWasLookedUpIsNotAnnounced() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lock")
        let first = Mutex<BundleLock?>(try BundleLock(file: path, folder: folder.path(""), timeout: 0))
        var lines: [Int32?] = []
        let second = try BundleLock(
            file: path, folder: folder.path(""), timeout: 5, waiting: { lines.append($0) },
            holder: { _ in
                first.withLock { $0 = nil }  // the holder lets go just before the look
                return nil
            })
        _ = second
        #expect(lines.isEmpty, "announced a wait that did not happen: \(lines)")
    }

    @Test func aHolderStillThereIsAnnouncedOnceWithWhatIsKnown() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lock")
        let first = try BundleLock(file: path, folder: folder.path(""), timeout: 0)
        var lines: [Int32?] = []
        #expect(throws: BundleLock.Timeout.self) {
            _ = try BundleLock(
                file: path, folder: folder.path(""), timeout: 0.3, waiting: { lines.append($0) }, holder: { _ in nil })
        }
        #expect(lines.count == 1 && lines[0] == nil, "\(lines)")
        // With /proc/locks, the holder (this process) is named.
        lines = []
        #expect(throws: BundleLock.Timeout.self) {
            _ = try BundleLock(file: path, folder: folder.path(""), timeout: 0.3, waiting: { lines.append($0) })
        }
        #expect(lines == [getpid()])
        _ = first
    }
}

/// A folder locked with `folderItself` (`thumbnail --out-dir`, `cube --frames-dir`) that the run
/// holding it removes while another waits (it made the folder and wrote nothing into it) is made
/// again by the waiter, which locks that one. From a QA pass: the waiting run locked the removed
/// folder and failed, 73, "No such file or directory".
@Suite struct BundleLockRemovedFolderTests {
    @Test func aFolderRemovedWhileWaitingIsMadeAgainAndLocked() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("posters")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let first = Mutex<BundleLock?>(try BundleLock(folderItself: path, timeout: 0))
        let remade = Mutex(0)
        let waiter = Mutex<BundleLock?>(nil)
        let done = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let lock = try? BundleLock(
                folderItself: path, timeout: 20, waiting: { _ in waiting.signal() },
                remake: {
                    remade.withLock { $0 += 1 }
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                })
            waiter.withLock { $0 = lock }
            done.signal()
        }
        #expect(waiting.wait(timeout: .now() + 20) == .success, "the waiter waits on the first folder")
        try FileManager.default.removeItem(atPath: path)
        first.withLock { $0 = nil }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(waiter.withLock { $0 } != nil, "the waiter went on")
        #expect(remade.withLock { $0 } == 1)
        #expect(FileManager.default.fileExists(atPath: path))
        // The folder at the path is the one locked.
        #expect(try TestEnvironment.run("/usr/bin/flock", ["-n", path, "true"]).status != 0)
    }
}
