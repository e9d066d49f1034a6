import Foundation
import StoryMedia

/// Runs independent work items on several cores and collects their results in order.
public enum Parallel {
    /// The number of cores, the default for `--jobs`.
    public static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Calls `body` for 0..<count on up to `jobs` threads (no more than the open-file limit
    /// allows, ``DescriptorLimit/jobsAllowed``) and returns the results in index order.
    public static func map<Result: Sendable>(
        _ count: Int, jobs: Int = Parallel.coreCount, _ body: @Sendable (Int) -> Result
    ) -> [Result] {
        let slots = ResultSlots<Result>(count: count)
        let workers = max(1, min(jobs, count, DescriptorLimit.jobsAllowed))
        WorkerThreads.run(workers) {
            while let index = slots.claimIndex() {
                slots.store(body(index), at: index)
            }
        }
        return slots.results()
    }
}
