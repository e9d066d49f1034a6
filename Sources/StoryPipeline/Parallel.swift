import Dispatch
import Foundation
import StoryMedia

/// Runs independent work items on several cores and collects their results in order.
public enum Parallel {
    /// The number of cores, the default for `--jobs`.
    public static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// How many threads ``map(_:jobs:_:)`` runs `count` items of work on for `jobs`.
    public static func workers(jobs: Int, count: Int) -> Int {
        max(1, min(jobs, count, coreCount, DescriptorLimit.jobsAllowed))
    }

    /// Calls `body` for 0..<count on up to `jobs` threads, and no more than the cores or than
    /// the open-file limit allows (``DescriptorLimit/jobsAllowed``), and returns the results in
    /// index order.
    ///
    /// No more than the cores: the units are CPU work whose `--timeout` is wall-clock time, and
    /// each takes memory. A build that ran `--jobs` threads of its own above the cores (a scale
    /// QA pass took the cap for a defect) was then found to need 1 GB where 360 MB had done at
    /// `-j 8`, to crash under a `ulimit -v` the thread check passes, to fail a render under a pids
    /// limit of 100, and to time out clips that finish at `-j 2` (a QA pass of that build).
    /// libdispatch's `concurrentPerform` is itself no wider than the cores; the cap says so.
    public static func map<Result: Sendable>(
        _ count: Int, jobs: Int = Parallel.coreCount, _ body: @Sendable (Int) -> Result
    ) -> [Result] {
        let slots = ResultSlots<Result>(count: count)
        let workers = workers(jobs: jobs, count: count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = slots.claimIndex() {
                slots.store(body(index), at: index)
            }
        }
        return slots.results()
    }
}
