import Foundation

/// Whether the process can start threads. Short of them (the limit on a user's processes and
/// threads, `ulimit -u`, a container's pids limit, or too little address space for their stacks,
/// `ulimit -v`), libdispatch retries `pthread_create` for ever: every command hung, with no
/// output (a QA pass). A command checks first that it can start a few at once, and says so in one
/// line when it cannot; FFmpeg's codecs, which start their own, fail with EAGAIN
/// (``MediaError/Kind/systemLimit``).
public enum ThreadCapacity {
    /// How many threads a command must be able to start at once: more than the 25 a `render`
    /// peaks at on two cores, so a limit that low is caught before any work. (More cores start
    /// more: a codec that then cannot open is checked again, ``codecFailure(_:)``.)
    public static let probeCount = 32

    /// The limits that stop threads from starting, for the error lines.
    public static let limits =
        "the limit on processes and threads (`ulimit -u`, a container's pids limit) or on memory (`ulimit -v`) "
        + "is too low"

    /// Why a thread could not be started, for the error line.
    public static let shortageReason = "cannot start a thread: \(limits)"

    /// Starts `count` threads that are alive at once, then ends them. Returns the `pthread_create`
    /// error of the first that could not start, or nil when all did.
    /// The threads have the default stacks, as libdispatch's and FFmpeg's do, so an address-space
    /// limit too low for a run's threads (`ulimit -v 250000`: a render hung; at 300000 it died of
    /// a failed allocation) is caught too; the stacks are reserved, not touched. While they are
    /// alive, `reserving` more bytes of address space are reserved too (ENOMEM when they cannot
    /// be): the command's probe reserves what FFmpeg's libraries will take once loaded
    /// (``MediaLibraries/addressSpaceToReserve``), as it did when they were loaded at start-up.
    public static func probe(_ count: Int = probeCount, reserving: Int = 0) -> Int32? {
        pthread_mutex_lock(gate)
        var threads: [pthread_t] = []
        var failure: Int32?
        for _ in 0..<count {
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { _ in
                    // Waits for the gate, so every thread started is alive until all are.
                    pthread_mutex_lock(ThreadCapacity.gate)
                    pthread_mutex_unlock(ThreadCapacity.gate)
                    return nil
                }, nil)
            guard result == 0 else {
                failure = result
                break
            }
            threads.append(thread)
        }
        if failure == nil, reserving > 0 {
            let reservation = mmap(nil, reserving, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            if reservation == UnsafeMutableRawPointer(bitPattern: -1) {
                failure = errno
            } else {
                munmap(reservation, reserving)
            }
        }
        pthread_mutex_unlock(gate)
        for thread in threads { pthread_join(thread, nil) }
        return failure
    }

    /// True when a codec call that failed (`code`, FFmpeg's) failed for want of threads or memory:
    /// EAGAIN, FFmpeg's own word for it, or any failure while no few threads can start now
    /// (libx264 says only "Generic error in an external library" when it cannot start its
    /// threads or allocate).
    static func codecFailure(_ code: Int32) -> Bool {
        code == -EAGAIN || probe(8) != nil
    }

    /// Held while the probe starts its threads.
    nonisolated(unsafe) private static let gate: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
}
