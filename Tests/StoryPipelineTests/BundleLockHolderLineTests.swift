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
