import Foundation
import Synchronization
import Testing

@testable import StoryPipeline

/// `Parallel.map` calls its body once for each index, on up to `jobs` threads, and returns the
/// results in index order, whatever order the threads finish in.
@Suite struct ParallelTests {
    @Test(arguments: [(0, 1), (1, 1), (1, 4), (7, 2), (100, 3), (100, 1)])
    func everyIndexRunsOnceAndComesBackInOrder(count: Int, jobs: Int) {
        let calls = Mutex([Int](repeating: 0, count: count))
        let results = Parallel.map(count, jobs: jobs) { index in
            calls.withLock { $0[index] += 1 }
            return index * index
        }
        #expect(results == (0..<count).map { $0 * $0 })
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    @Test func noMoreThanJobsRunAtOnce() {
        let running = Mutex((now: 0, most: 0))
        _ = Parallel.map(24, jobs: 2) { index in
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            var spin = 0
            for step in 0..<20_000 { spin &+= step ^ index }
            running.withLock { $0.now -= 1 }
            return spin
        }
        #expect((1...2).contains(running.withLock { $0.most }))
    }

    /// `--jobs` above the cores runs as many units at once as there are cores, as docs/bundles.md
    /// says: the cap is Parallel's own, not an accident of libdispatch (a scale QA pass took it for
    /// a defect; a build without it needed 3× the memory and crashed under `ulimit -v`). Units
    /// that wait for each other show the width: each waits until `jobs` run, or 3 s (0.5 s was
    /// too short for libdispatch's second thread to start beside a loaded test run).
    @Test func moreJobsThanCoresRunAsManyAsTheCores() {
        let jobs = Parallel.coreCount + 3
        let running = Mutex((now: 0, most: 0))
        let start = Date()
        _ = Parallel.map(jobs * 2, jobs: jobs) { _ in
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            while running.withLock({ $0.most }) < jobs, Date().timeIntervalSince(start) < 3 { usleep(1000) }
            running.withLock { $0.now -= 1 }
            return 0
        }
        #expect(running.withLock { $0.most } == Parallel.coreCount)
    }
}
