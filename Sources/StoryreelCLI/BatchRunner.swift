import StoryMedia
import StoryPipeline
import Synchronization

/// The one way per-input commands (`inspect`, `thumbnail`, `plan`) work through their inputs:
/// in parallel, results kept in argument order, and the first failure in that order sets the
/// exit code, so a run gives the same answer whatever finishes first.
struct BatchRunner<Output: Sendable> {
    /// Each input's result, in argument order.
    let results: [Result<Output, any Error>]

    /// Runs `body` on each of `inputs`, up to `jobs` at once. `reported`, when given, is called
    /// with each input's result in argument order as soon as it and every one before it are done
    /// (one call at a time), so a long batch's lines come as it goes, the same whatever finishes
    /// first, rather than all at its end.
    init(
        _ inputs: [String], jobs: Int,
        reported: (@Sendable (Int, Result<Output, any Error>) -> Void)? = nil,
        _ body: @escaping @Sendable (Int, String) throws -> Output
    ) {
        let pending = Mutex(InOrder<Output>())
        results = Parallel.map(inputs.count, jobs: jobs) { index in
            let result = Result { try body(index, inputs[index]) }.mapError { error in
                // Anything the one error mapping does not know is an I/O failure on that input.
                ExitCode(for: error) == .software ? MediaError(.ioFailure, path: inputs[index], "\(error)") : error
            }
            if let reported {
                pending.withLock { order in
                    order.done[index] = result
                    while let next = order.done.removeValue(forKey: order.next) {
                        reported(order.next, next)
                        order.next += 1
                    }
                }
            }
            return result
        }
    }

    /// The results done but not yet reported, by index, and the next index to report.
    private struct InOrder<Value: Sendable>: Sendable {
        var done: [Int: Result<Value, any Error>] = [:]
        var next = 0
    }

    /// The exit code of the first failure in argument order, or success.
    var exitCode: ExitCode {
        for case .failure(let error) in results { return ExitCode(for: error) }
        return .success
    }

    /// Writes each failure's one-line error to `console`, in argument order.
    func reportFailures(to console: Console) {
        for case .failure(let error) in results { console.error("\(error)") }
    }
}
