import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// Stack room for storyreel's threads whatever `ulimit -s` says.
///
/// glibc gives the main thread, and every thread started without a stack size of its own
/// (libavcodec's, libx264's, Foundation's), the soft `ulimit -s` of the process's start. FFmpeg's
/// encoders and decoders need more than 100 KB of it: under `ulimit -s 100`, `thumbnail` ended in
/// a segmentation fault inside libavcodec's mjpeg encoder. A limit under ``minimumSize`` is
/// therefore raised for new threads, and the work runs on a new thread with that stack.
public enum ThreadStack {
    /// The least stack a thread of storyreel's gets: Linux's usual `ulimit -s`, 8 MB.
    public static let minimumSize = 8 << 20

    /// Runs `body` with at least ``minimumSize`` of stack for it and for the threads it starts,
    /// and returns its result. Where `ulimit -s` already gives that (or is unlimited), `body`
    /// runs on the calling thread. Otherwise the default stack of new threads is raised, `body`
    /// runs on a new thread, and the calling thread waits with every signal blocked, so a signal
    /// reaches `body`'s threads as it would have reached the calling one (interrupt handling
    /// blocks signals in the thread that installs it, and its threads inherit that).
    public static func withRoom(_ body: () -> Int32) -> Int32 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_STACK.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
            limit.rlim_cur < UInt(minimumSize)
        else { return body() }
        if cff_default_thread_stack_size() < minimumSize {
            _ = cff_set_default_thread_stack_size(minimumSize)
        }
        return withoutActuallyEscaping(body) { escapable in
            let run = ThreadRun(body: escapable)
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            pthread_sigmask(SIG_BLOCK, &allSignals, &run.callerSignals)
            defer { pthread_sigmask(SIG_SETMASK, &run.callerSignals, nil) }
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            var thread = pthread_t()
            let context = Unmanaged.passRetained(run).toOpaque()
            guard pthread_attr_setstacksize(&attributes, minimumSize) == 0,
                pthread_create(&thread, &attributes, ThreadRun.start, context) == 0
            else {
                Unmanaged<ThreadRun>.fromOpaque(context).release()
                pthread_sigmask(SIG_SETMASK, &run.callerSignals, nil)
                return escapable()
            }
            pthread_join(thread, nil)
            return run.status
        }
    }
}
