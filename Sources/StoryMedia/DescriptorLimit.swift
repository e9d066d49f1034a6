import Dispatch
import Foundation

/// How many files the process may hold open at once (`RLIMIT_NOFILE`, the shell's `ulimit -n`),
/// and what storyreel does so that running short of them is an error line, never a crash.
///
/// A run holds a few descriptors per job (the clip, the output, its folder) and one for each
/// folder it writes through (``FolderPin``). Short of them, a call fails with EMFILE, which is
/// the system's limit, not any input's fault (``MediaError/Kind/systemLimit``). But libdispatch
/// opens its own descriptors (an epoll set, an eventfd, a timer) the first time a queue's work
/// needs its manager thread, and it stops the process (SIGILL) when it cannot; so they are made
/// at the start, while descriptors are free.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as the Go runtime does for every program: a soft
    /// limit below the hard one protects only programs written for `select(2)`, which storyreel
    /// never calls. A shell's `ulimit -n 512` is a soft limit; `ulimit -Hn` is the ceiling.
    /// Then has libdispatch open its descriptors (which starts a thread: check
    /// ``ThreadCapacity`` first), or returns why not when fewer than ``libdispatchNeeds`` are
    /// free: libdispatch would stop the process (a QA pass: SIGILL at `ulimit -n 4`). Call it
    /// before a command opens any file.
    public static func prepare() -> String? {
        var limit = rlimit()
        if getrlimit(Self.resource, &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Self.resource, &limit)
        }
        if let limit = current, limit < UInt64(minimum) {
            return "cannot start: "
                + (MediaError.systemLimitReason(EMFILE) ?? "too many open files")
                + " to \(minimum) or more"
        }
        // Taken and given back: a descriptor libdispatch then opens reuses the lowest free one.
        var free: [Int32] = []
        while free.count < libdispatchNeeds {
            let descriptor = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { break }
            free.append(descriptor)
        }
        let code = errno
        for descriptor in free { close(descriptor) }
        if free.count < libdispatchNeeds {
            let reason = MediaError.systemLimitReason(code) ?? SystemErrorText.describe(code)
            return "cannot start: \(reason)"
        }
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { started.signal() }
        started.wait()
        return nil
    }

    /// The descriptors libdispatch opens for its manager thread: an epoll set, an eventfd and a
    /// timer.
    static let libdispatchNeeds = 3

    /// The fewest open files a command starts with. libdispatch stops the process (SIGILL) when
    /// it cannot open what it needs at any later moment too: once a second, while work waits
    /// on its thread pool, it opens each worker's `/proc/…/stat`; and libgcrypt, which FFmpeg's
    /// libraries load, aborts when it cannot read a file of `/proc` as they load (a QA pass:
    /// `thumbnail --out-dir` and `inspect --json` died of SIGILL at `ulimit -n` 7 to 9 on a
    /// busy machine, `ingest` of SIGABRT). A run of one job needs about 20, and every command
    /// keeps its jobs within the rest (``jobsAllowed``), so a run this short of them stops
    /// before any work with one line (71), as no real deployment's limit is.
    public static let minimum = 64

    /// The descriptors kept free of jobs: the standard streams, libdispatch's, a lock, the
    /// folders written through, and those FFmpeg's libraries open as they load.
    static let reserved = 32

    /// The descriptors one job may hold at once: its clip or clips, their decoders' files, an
    /// output and its temporary file, and the folders it writes through.
    static let perJob = 8

    /// The most jobs that keep within the open-file limit: `--jobs` asks for more only at a
    /// cost of running out of descriptors part-way, where libdispatch may stop the process.
    public static var jobsAllowed: Int {
        guard let limit = current, limit < UInt64(Int.max) else { return Int.max }
        return max(1, (Int(limit) - reserved) / perJob)
    }

    /// `RLIMIT_NOFILE`, as glibc's `getrlimit` takes it (an `Int32`, where Swift imports the
    /// constant as an enum case).
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    /// The current soft limit, or nil when it is unlimited or cannot be read.
    public static var current: UInt64? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
