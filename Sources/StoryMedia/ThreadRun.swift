#if canImport(Glibc)
    import Glibc
#endif

/// One ``ThreadStack/withRoom(_:)`` call's body, the caller's signal mask and the body's result,
/// shared with the thread that runs it. The caller reads `status` only after joining that thread.
final class ThreadRun: @unchecked Sendable {
    let body: () -> Int32
    var callerSignals = sigset_t()
    var status: Int32 = 0

    init(body: @escaping () -> Int32) { self.body = body }

    /// The thread's entry point: restores the caller's signal mask, then runs the body.
    static let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        let run = Unmanaged<ThreadRun>.fromOpaque(context).takeRetainedValue()
        pthread_sigmask(SIG_SETMASK, &run.callerSignals, nil)
        run.status = run.body()
        return nil
    }
}
