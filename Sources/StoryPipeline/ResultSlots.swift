import Synchronization

/// Result storage shared by the worker threads of ``Parallel/map(_:jobs:_:)``.
final class ResultSlots<Value: Sendable>: Sendable {
    private let values: Mutex<[Value?]>
    private let counter = Mutex(0)
    /// How many slots there are.
    let count: Int

    /// `count` empty slots.
    init(count: Int) {
        self.count = count
        values = Mutex(Array(repeating: nil, count: count))
    }

    /// Keeps `value` as the result of work item `index`.
    func store(_ value: Value, at index: Int) {
        values.withLock { $0[index] = value }
    }

    /// Hands out the indices 0, 1, 2 … once each, then nil once every slot has been handed out.
    func claimIndex() -> Int? {
        counter.withLock { counter in
            guard counter < count else { return nil }
            counter += 1
            return counter - 1
        }
    }

    /// Every slot's value, in index order; each must have been stored.
    func results() -> [Value] { values.withLock { $0.map { $0! } } }
}
