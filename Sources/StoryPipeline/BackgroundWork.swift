import Dispatch

/// One piece of work started on another thread at once, whose result is collected later with
/// ``wait()``: what lets the cube job decode TO while the calling thread decodes FROM.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // `result` is written once on the worker thread before `group.leave()` and read only after
    // `group.wait()`, which orders the two accesses: that is what makes this Sendable.
    private var result: Result<Value, Error>?
    private let group = DispatchGroup()

    /// Starts `body` on a global queue.
    init(_ body: @escaping @Sendable () throws -> Value) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            self.result = Result { try body() }
            self.group.leave()
        }
    }

    /// Blocks until the work is done and returns its result.
    func wait() -> Result<Value, Error> {
        group.wait()
        return result!
    }
}
