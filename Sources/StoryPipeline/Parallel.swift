import Dispatch
import Foundation
import Synchronization

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

/// Result storage shared by the worker threads of ``Parallel/map(_:jobs:_:)``.
final class ResultSlots<Value: Sendable>: Sendable {
    private let values: Mutex<[Value?]>
    private let counter = Mutex(0)

    init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }

    func store(_ value: Value, at index: Int) {
        values.withLock { $0[index] = value }
    }

    /// Hands out 0, 1, 2 … once each, then nil at `limit`.
    func claim(below limit: Int) -> Int? {
        counter.withLock { counter in
            guard counter < limit else { return nil }
            counter += 1
            return counter - 1
        }
    }

    func results() -> [Value] { values.withLock { $0.map { $0! } } }
}
