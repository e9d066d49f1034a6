#if canImport(Glibc)
    import Glibc
#endif

/// Runs one body on several threads at once: the calling thread and `count − 1` started for it.
///
/// libdispatch's `concurrentPerform` runs at most as many iterations at once as there are cores,
/// so `--jobs 8` on two cores ran two units at a time (a scale QA pass), where the README promises
/// N at once (what `make -j` and `xargs -P` give; more than the cores helps only storage or a
/// network that waits). These threads are the process's own, with ``ThreadStack/minimumSize`` of
/// stack and the caller's signal mask.
public enum WorkerThreads {
    /// Calls `body` on `count` threads at once (the calling thread one of them) and returns when
    /// every call has returned. A thread that cannot start (the process or memory limit) leaves
    /// its share to the others: `body` is expected to take work until none is left.
    public static func run(_ count: Int, _ body: @Sendable () -> Void) {
        guard count > 1 else { return body() }
        withoutActuallyEscaping(body) { escapable in
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            _ = pthread_attr_setstacksize(&attributes, ThreadStack.minimumSize)
            var started: [pthread_t] = []
            for _ in 1..<count {
                let run = ThreadRun {
                    escapable()
                    return 0
                }
                // The caller's mask, restored by the thread itself (ThreadRun's way): the threads
                // inherit it anyway, and the interrupt handling relies on it.
                pthread_sigmask(SIG_BLOCK, nil, &run.callerSignals)
                let context = Unmanaged.passRetained(run).toOpaque()
                var thread = pthread_t()
                guard pthread_create(&thread, &attributes, ThreadRun.start, context) == 0 else {
                    Unmanaged<ThreadRun>.fromOpaque(context).release()
                    break
                }
                started.append(thread)
            }
            escapable()
            for thread in started { pthread_join(thread, nil) }
        }
    }
}
