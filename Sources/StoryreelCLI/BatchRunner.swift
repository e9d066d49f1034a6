import StoryMedia
import StoryPipeline

/// The one way per-input commands (`inspect`, `thumbnail`, `plan`) work through their inputs:
/// in parallel, results kept in argument order, and the first failure in that order sets the
/// exit code, so a run gives the same answer whatever finishes first.
struct BatchRunner<Output: Sendable> {
    /// Each input's result, in argument order.
    let results: [Result<Output, any Error>]

    /// Runs `body` on each of `inputs`, up to `jobs` at once.
    init(_ inputs: [String], jobs: Int, _ body: @escaping @Sendable (Int, String) throws -> Output) {
        results = Parallel.map(inputs.count, jobs: jobs) { index in
            Result { try body(index, inputs[index]) }.mapError { error in
                // Anything the one error mapping does not know is an I/O failure on that input.
                ExitCode(for: error) == .software ? MediaError(.ioFailure, path: inputs[index], "\(error)") : error
            }
        }
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
