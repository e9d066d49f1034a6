import Foundation

/// Counts finished units across worker threads.
final class ProgressCounter: @unchecked Sendable {
    // `done` is only touched under `lock`.
    private let lock = NSLock()
    private var done = 0
    private let total: Int

    init(total: Int) { self.total = total }

    func finish(_ label: String) -> RenderProgress {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        return RenderProgress(done: done, total: total, current: label)
    }
}
