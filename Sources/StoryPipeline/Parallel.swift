import Dispatch
import Foundation

/// Runs independent work items on several cores and collects their results in order.
public enum Parallel {
    /// The number of cores, the default for `--jobs`.
    public static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Calls `body` for 0..<count on up to `jobs` threads and returns the results in index order.
    public static func map<Result: Sendable>(
        _ count: Int, jobs: Int = Parallel.coreCount, _ body: @Sendable (Int) -> Result
    ) -> [Result] {
        let slots = ResultSlots<Result>(count: count)
        let workers = max(1, min(jobs, count))
        let next = ResultSlots<Int>(count: 0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = next.claim(below: count) {
                slots.store(body(index), at: index)
            }
        }
        return slots.results()
    }
}

/// Lock-protected result storage shared by the worker threads of ``Parallel/map(_:jobs:_:)``.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    // Every access to `values` and `counter` holds `lock`, which is what makes this Sendable.
    private let lock = NSLock()
    private var values: [Value?]
    private var counter = 0

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func store(_ value: Value, at index: Int) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }

    /// Hands out 0, 1, 2 … once each, then nil at `limit`.
    func claim(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard counter < limit else { return nil }
        counter += 1
        return counter - 1
    }

    func results() -> [Value] { values.map { $0! } }
}
