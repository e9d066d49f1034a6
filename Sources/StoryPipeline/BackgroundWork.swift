import Dispatch
import Synchronization

/// One piece of work started on another thread at once, whose result is collected later with
/// ``wait()``: what lets the cube job decode TO while the calling thread decodes FROM.
final class BackgroundWork<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, Error>?>(nil)
    private let group = DispatchGroup()

    /// Starts `body` on a global queue.
    init(_ body: @escaping @Sendable () throws -> Value) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = Result { try body() }
            self.result.withLock { $0 = outcome }
            self.group.leave()
        }
    }

    /// Blocks until the work is done and returns its result.
    func wait() -> Result<Value, Error> {
        group.wait()
        return result.withLock { $0! }
    }
}
