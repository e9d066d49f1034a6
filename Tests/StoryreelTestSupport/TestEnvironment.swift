import Foundation

/// Paths and processes the tests share: the package root, the samples, the built `storyreel`
/// binary, and the ffmpeg/ffprobe CLIs used as trusted peers.
public enum TestEnvironment {
    /// The package's root folder.
    public static let packageRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    /// `samples/` in the package.
    public static var samples: URL { packageRoot.appendingPathComponent("samples") }

    /// The path of `relative` under `samples/`, e.g. `sample("stories/ben_k/1.mp4")`.
    public static func sample(_ relative: String) -> String { samples.appendingPathComponent(relative).path }

    /// The sample clips at the top of `samples/`, sorted by name.
    public static var sampleClips: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
        return names.filter { $0.hasSuffix(".mp4") || $0.hasSuffix(".mov") }.sorted()
            .map { samples.appendingPathComponent($0) }
    }

    /// Every clip under `samples/stories/`, sorted by path.
    public static var storyClips: [URL] {
        let root = samples.appendingPathComponent("stories")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var clips: [URL] = []
        while let relative = enumerator?.nextObject() as? String {
            let lower = relative.lowercased()
            if lower.hasSuffix(".mov") || lower.hasSuffix(".mp4") || lower.hasSuffix(".m4v") {
                clips.append(root.appendingPathComponent(relative))
            }
        }
        return clips.sorted { $0.path < $1.path }
    }

    /// The built `storyreel` binary: `$STORYREEL_BIN`, or `.build/debug/storyreel`.
    public static var storyreelBinary: String {
        if let path = ProcessInfo.processInfo.environment["STORYREEL_BIN"], !path.isEmpty { return path }
        return packageRoot.appendingPathComponent(".build/debug/storyreel").path
    }

    /// Runs the built `storyreel` with `arguments`.
    public static func storyreel(_ arguments: [String], in folder: URL? = nil) throws -> ProcessResult {
        try run(storyreelBinary, arguments, in: folder)
    }

    /// Runs `executable` (a path, or a name looked up on PATH) and captures its output.
    ///
    /// A binary a test has just copied (to run it as another user, or beside a library) can
    /// fail to start with ETXTBSY for a moment: a process another test forks meanwhile holds the
    /// copy's write descriptor until it execs (a full run once got 126, "Text file busy"). That
    /// is the harness's race, not the binary's behaviour, so the run is tried again.
    public static func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> ProcessResult {
        for attempt in 1...5 {
            do {
                let result = try runOnce(executable, arguments, in: folder)
                guard result.status == 126, result.stderr.contains("Text file busy"), attempt < 5 else { return result }
            } catch  where attempt < 5 && ("\(error)".contains("busy") || (error as NSError).code == Int(ETXTBSY)) {
                // posix_spawn's ETXTBSY, from Process.run.
            }
            usleep(100_000)
        }
        return try runOnce(executable, arguments, in: folder)
    }

    private static func runOnce(_ executable: String, _ arguments: [String], in folder: URL?) throws -> ProcessResult {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let folder { process.currentDirectoryURL = folder }
        let captures = try TemporaryFolder()
        let stdoutFile = URL(fileURLWithPath: try captures.write("stdout", Data()))
        let stderrFile = URL(fileURLWithPath: try captures.write("stderr", Data()))
        let stdoutHandle = try FileHandle(forWritingTo: stdoutFile)
        let stderrHandle = try FileHandle(forWritingTo: stderrFile)
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try stdoutHandle.close()
        try stderrHandle.close()
        let result = ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: stdoutFile), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrFile), as: UTF8.self))
        return result
    }

    /// ffprobe's first video stream of a file, with its frames counted (`nb_read_frames`).
    public static func ffprobeVideoStream(_ path: String) throws -> [String: Any] {
        let probe = try ffprobe(path, extra: ["-count_frames", "-select_streams", "v:0"])
        guard let stream = (probe["streams"] as? [[String: Any]])?.first else {
            throw TestFailure("ffprobe found no video stream in \(path)")
        }
        return stream
    }

    /// ffprobe's JSON (`-show_format -show_streams`) for a clip, parsed.
    public static func ffprobe(_ path: String, extra: [String] = []) throws -> [String: Any] {
        let result = try run(
            "ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json"] + extra + [path])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw TestFailure("ffprobe failed on \(path): \(result.stderr)") }
        return object
    }

    /// Starts the built storyreel as a shell starts it, with no signal blocked and SIGINT,
    /// SIGTERM and SIGHUP at their default action (a test's `Process` would pass on the signals its
    /// thread blocks), its output discarded (or its standard output written to the file at
    /// `standardOutput`); returns its pid. With `stackKiB`, a shell sets `ulimit -s` first and then
    /// becomes storyreel (`exec`, the same pid).
    public static func spawnAsAShellWould(
        _ arguments: [String], stackKiB: Int? = nil, standardOutput: String? = nil
    ) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var interrupts = sigset_t()
        sigemptyset(&interrupts)
        sigaddset(&interrupts, SIGINT)
        sigaddset(&interrupts, SIGTERM)
        sigaddset(&interrupts, SIGHUP)
        posix_spawnattr_setsigdefault(&attributes, &interrupts)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, standardOutput ?? "/dev/null", O_WRONLY | (standardOutput == nil ? 0 : O_CREAT | O_TRUNC),
            0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var command = [TestEnvironment.storyreelBinary] + arguments
        if let stackKiB { command = ["/bin/bash", "-c", "ulimit -s \(stackKiB) && exec \"$@\"", "bash"] + command }
        let argv = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let failure = posix_spawn(&pid, command[0], &actions, &attributes, argv, environ)
        guard failure == 0 else { throw TestFailure("cannot start storyreel: \(String(cString: strerror(failure)))") }
        return pid
    }

    /// Starts storyreel with `arguments` as a shell would, polls until `ready` holds, then sends
    /// `signal` and returns the run's wait status. Throws when the run ends first or is not
    /// ready within `patience` seconds (it is then killed).
    public static func interrupt(
        _ arguments: [String], with signal: Int32, patience: Double = 60, stackKiB: Int? = nil,
        standardOutput: String? = nil, once ready: () -> Bool
    ) throws -> Int32 {
        let pid = try spawnAsAShellWould(arguments, stackKiB: stackKiB, standardOutput: standardOutput)
        var status: Int32 = 0
        var exited = false
        defer {
            if !exited {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
        }
        let deadline = Date().addingTimeInterval(patience)
        // `ready` is asked once per poll and its answer kept: a state it sees (a temporary file)
        // can be gone a moment later, and asking again would call a ready run not ready.
        var isReady = false
        while !exited, Date() < deadline {
            isReady = ready()
            if isReady { break }
            exited = waitpid(pid, &status, WNOHANG) == pid
            usleep(1_000)
        }
        guard !exited else { throw TestFailure("storyreel \(arguments) finished before it could be interrupted") }
        guard isReady else { throw TestFailure("storyreel \(arguments) did not get far enough within \(patience) s") }
        kill(pid, signal)
        exited = waitpid(pid, &status, 0) == pid
        guard exited else { throw TestFailure("storyreel \(arguments) could not be waited for") }
        return status
    }
}
