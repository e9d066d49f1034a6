import Synchronization

/// Counts finished units across worker threads.
final class ProgressCounter: Sendable {
    private let done = Mutex(0)
    private let total: Int

    init(total: Int) { self.total = total }

    func finish(_ label: String) -> RenderProgress {
        let count = done.withLock { done in
            done += 1
            return done
        }
        return RenderProgress(done: count, total: total, current: label)
    }
}
