import Foundation
import Synchronization

/// Removes what a run interrupted by SIGINT (Ctrl-C), SIGTERM, SIGHUP (a closed terminal or
/// ssh session) or SIGXCPU (a soft CPU-time limit: `ulimit -t`, systemd's `LimitCPU`; it left
/// temporary files and no ledger, a QA pass) would otherwise leave behind:
/// every ``TemporaryFile`` still open (a staged copy, a hard-link temporary) and every folder
/// the run registered as its own while it is still empty. The process then dies of the same
/// signal, as it would have without the cleanup (the shell sees 130, 143 or 129).
///
/// The signals are received by one thread with `sigwait` (blocked everywhere else), not by a
/// signal handler, so the cleanup runs as ordinary code and can take the registry's lock. A
/// file is created and registered under that lock, so the cleanup never misses a file that
/// exists; it is unregistered once it has its final name.
public enum InterruptCleanup {
    /// What is removed on an interrupt.
    private struct Registry {
        /// Temporary files, removed (`unlink`).
        var files: Set<String> = []
        /// Folders the run created, removed when empty (`rmdir`), last created first.
        var folders: [String] = []
    }

    private static let registry = Mutex(Registry())
    private static let installed = Mutex(false)
    /// Held by ``deferringInterrupts(_:)``'s body; the cleanup waits for it.
    private static let criticalSection = Mutex(())
    /// The thread holding ``criticalSection``, if any.
    private static let criticalSectionOwner = Mutex<pthread_t?>(nil)
    /// What ``onInterrupt(_:)`` registered, by token.
    private static let actions = Mutex<(next: Int, byToken: [Int: @Sendable () -> Void])>((0, [:]))

    /// Ignores SIGXFSZ and SIGPIPE (see ``install()``): also for what runs before it, such as
    /// `--help` into a pipe whose reader stopped.
    public static func ignoreWriteSignals() {
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts handling SIGINT, SIGTERM, SIGHUP and SIGXCPU for the rest of the process, and ignores
    /// SIGXFSZ and SIGPIPE, so a write over a file-size limit (`ulimit -f`) fails with EFBIG and
    /// one to a pipe whose reader stopped (`| head -1`) with EPIPE, I/O errors that are reported
    /// and cleaned up (74), instead of killing the process mid-batch: call it before any
    /// other thread is started (threads inherit the blocked signals). A signal the process was
    /// started with ignored (a background job of a script ignores SIGINT) stays ignored. Calling
    /// it again does nothing.
    public static func install() {
        let isFirst = installed.withLock { done in
            defer { done = true }
            return !done
        }
        guard isFirst else { return }
        ignoreWriteSignals()
        let handled = [SIGINT, SIGTERM, SIGHUP, SIGXCPU].filter { !isIgnored($0) }
        guard !handled.isEmpty else { return }
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in handled { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let watcher = Thread { [signals] in waitForSignal(among: signals) }
        watcher.start()
    }

    /// Runs `create`, which makes a file and returns its path (nil when it made none), and
    /// registers that path for removal on an interrupt. An interrupt arriving meanwhile is
    /// handled once the file is registered.
    static func trackFile(createdBy create: () -> String?) -> String? {
        registry.withLock { registry in
            let path = create()
            if let path { registry.files.insert(path) }
            return path
        }
    }

    /// Removes the finished file `path` too if the process is interrupted: an output that is
    /// only good with the others of its run (a transition's frames), until ``forgetFile(_:)``.
    public static func removeFileOnInterrupt(_ path: String) {
        _ = registry.withLock { $0.files.insert(path) }
    }

    /// Stops tracking `path`: a temporary file has been given its final name or removed, or a
    /// finished file's run is complete.
    public static func forgetFile(_ path: String) {
        _ = registry.withLock { $0.files.remove(path) }
    }

    /// Runs `create`, which makes a folder and returns true when it made one, and registers
    /// `path` for removal on an interrupt while it is empty.
    public static func trackFolder(_ path: String, createdBy create: () -> Bool) -> Bool {
        registry.withLock { registry in
            let created = create()
            if created { registry.folders.append(path) }
            return created
        }
    }

    /// Stops tracking folder `path`: it holds a finished file, or has been removed.
    public static func forgetFolder(_ path: String) {
        registry.withLock { $0.folders.removeAll { $0 == path } }
    }

    /// Registers `action` to run on an interrupt, before the temporary files and empty folders
    /// are removed (it may itself write a file atomically: a render records the outputs it
    /// finished, which were otherwise never in its ledger, so `--prune` could not remove them);
    /// returns a token for ``removeInterruptAction(_:)``. Keep `action` short: the process
    /// exits only once it has returned.
    public static func onInterrupt(_ action: @escaping @Sendable () -> Void) -> Int {
        actions.withLock { actions in
            defer { actions.next += 1 }
            actions.byToken[actions.next] = action
            return actions.next
        }
    }

    /// Registers removing `file` on an interrupt while its folder holds nothing else but
    /// temporary files (which the cleanup removes next), so that a folder the run made goes with
    /// it: a lock file or a journal, which keeps a folder no output went into; returns the token
    /// for ``removeInterruptAction(_:)``.
    @discardableResult
    public static func removeOnInterruptWhileAlone(_ file: String) -> Int {
        let folder = file.containingFolder
        let name = file.lastComponent
        return onInterrupt {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder))?
                .filter { !TemporaryFile.isTemporaryName($0) }
            if entries == [name] { unlink(file) }
        }
    }

    /// Forgets the action ``onInterrupt(_:)`` registered as `token`.
    public static func removeInterruptAction(_ token: Int) {
        _ = actions.withLock { $0.byToken.removeValue(forKey: token) }
    }

    /// Runs `body` with interrupts held off: one arriving meanwhile is handled once `body` has
    /// returned, so `body` finishes what must not be cut in half (moving a run's finished files
    /// into place and keeping them) and the cleanup then sees its end state. Keep `body` short.
    /// A body may call this again (a staged file gives itself its name this way): on the thread
    /// already holding the section, `body` just runs.
    public static func deferringInterrupts<Result>(_ body: () throws -> Result) throws -> Result {
        let current = pthread_self()
        if criticalSectionOwner.withLock({ $0.map { pthread_equal($0, current) != 0 } ?? false }) {
            return try body()
        }
        return try criticalSection.withLock { _ in
            criticalSectionOwner.withLock { $0 = current }
            defer { criticalSectionOwner.withLock { $0 = nil } }
            return try body()
        }
    }

    /// True when signal `number` is ignored (`SIG_IGN`), as the process was started.
    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if os(Linux)
            let handler = current.__sigaction_handler.sa_handler
        #else
            let handler = current.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The watcher thread: waits for one of `signals`, runs the ``onInterrupt(_:)`` actions,
    /// removes what is registered, and dies of the signal while still holding the lock, so no
    /// other thread creates a file after the cleanup.
    private static func waitForSignal(among signals: sigset_t) {
        var signals = signals
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        // Held as a body does, so an action that writes a file (the ledger) names it itself.
        _ = try? deferringInterrupts {
            for action in actions.withLock({ $0.byToken.sorted { $0.key < $1.key }.map(\.value) }) { action() }
            registry.withLock { registry in
                for file in registry.files { unlink(file) }
                for folder in registry.folders.reversed() { rmdir(folder) }
                die(of: received)
            }
        }
    }

    /// Ends the process by `signalNumber` with its default action.
    private static func die(of signalNumber: Int32) -> Never {
        signal(signalNumber, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(signalNumber)
        _exit(128 + signalNumber)
    }
}
