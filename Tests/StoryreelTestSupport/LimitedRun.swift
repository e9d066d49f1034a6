import Foundation

/// Runs the built `storyreel` under limits a test sets: a file-size limit that makes writes fail
/// as on a full disk, an address-space limit that makes allocations fail, a wall-clock limit
/// that turns a hang into a failure, and a measure of peak memory.
public enum LimitedRun {
    /// What a limited run left: the process result, how long it took, and (when measured) its
    /// peak resident memory.
    public struct Outcome: Sendable {
        /// The exit status and output. A run killed by a signal never has a sysexits status.
        public let result: ProcessResult
        /// Wall-clock seconds.
        public let seconds: Double
        /// Peak resident set size in KiB, from GNU time's `%M`, when asked for.
        public let peakKiB: Int?
    }

    /// Runs `storyreel arguments` through `bash`:
    /// - `fileSizeKiB`: `ulimit -f`, with SIGXFSZ ignored (unless not `ignoringFileSizeSignal`:
    ///   then at its default action, killing a process that does not ignore it itself), so a
    ///   write past it fails with EFBIG, as a write to a full disk fails with ENOSPC;
    /// - `virtualMemoryKiB`: `ulimit -v`, so allocations past it fail;
    /// - `openFiles`: `ulimit -Sn soft` and `ulimit -Hn hard`, how many files it may hold open
    ///   (a process may raise its soft limit up to the hard one);
    /// - `cpuSeconds`: `ulimit -St`, a soft CPU-time limit, past which the kernel sends SIGXCPU;
    /// - `stackKiB`: `ulimit -s`, soft and hard, the main thread's stack and glibc's default for
    ///   other threads';
    /// - `umask`: the file-creation mask, e.g. `"222"`;
    /// - `unprivileged`: run as `nobody` (through `setpriv`) when the tests run as root, whom
    ///   file permissions do not stop; `binary` must then be a copy `nobody` can run;
    /// - `binary`: the storyreel to run (default: the one under test);
    /// - `seconds`: killed (SIGKILL, status 137) after this long, so a hang fails the test
    ///   instead of stalling the suite;
    /// - `measuresMemory`: runs it under `/usr/bin/time -f %M` and reports the peak.
    public static func storyreel(
        _ arguments: [String], fileSizeKiB: Int? = nil, virtualMemoryKiB: Int? = nil,
        openFiles: (soft: Int, hard: Int)? = nil, cpuSeconds: Int? = nil, stackKiB: Int? = nil, umask: String? = nil,
        unprivileged: Bool = false, binary: String? = nil, seconds: Int = 60, measuresMemory: Bool = false,
        ignoringFileSizeSignal: Bool = true, in folder: URL? = nil
    ) throws -> Outcome {
        let scratch = try TemporaryFolder()
        let memoryReport = scratch.path("peak-kib")
        var script = "trap '' XFSZ"
        if let fileSizeKiB { script += "; ulimit -f \(fileSizeKiB)" }
        if let virtualMemoryKiB { script += "; ulimit -v \(virtualMemoryKiB)" }
        // The soft limit first: it may not be above the hard one at any moment.
        if let openFiles { script += "; ulimit -Sn \(openFiles.soft) && ulimit -Hn \(openFiles.hard)" }
        if let cpuSeconds { script += "; ulimit -St \(cpuSeconds)" }
        if let stackKiB { script += "; ulimit -s \(stackKiB)" }
        if let umask { script += "; umask \(umask)" }
        script += "; exec \"$@\""
        var command = ["timeout", "-s", "KILL", String(seconds)]
        // A shell cannot undo a signal ignored when it started (the test runner may ignore it).
        if !ignoringFileSizeSignal { command += ["env", "--default-signal=XFSZ"] }
        if measuresMemory { command += ["/usr/bin/time", "-f", "%M", "-o", memoryReport] }
        if unprivileged, getuid() == 0 { command += ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] }
        let started = Date()
        let result = try TestEnvironment.run(
            "bash", ["-c", script, "bash"] + command + [binary ?? TestEnvironment.storyreelBinary] + arguments,
            in: folder)
        let seconds = Date().timeIntervalSince(started)
        var peak: Int?
        if measuresMemory, let text = try? String(contentsOfFile: memoryReport, encoding: .utf8) {
            // GNU time writes "Command exited with non-zero status N" before the figure.
            peak = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        return Outcome(result: result, seconds: seconds, peakKiB: peak)
    }

    /// The lines of `stderr` that are storyreel's own errors (`storyreel: error: …`), leaving out
    /// anything a library printed by itself (x264 reports a failed malloc on stderr directly).
    public static func errorLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("storyreel: error: ") }
    }
}
