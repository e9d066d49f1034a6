import Foundation

/// Tests that mount (tmpfs, bind mounts, over `/proc`) do it in a mount namespace of their own
/// (`unshare --mount`), which leaves the machine's mounts as they are.
public enum MountNamespace {
    /// True when this process may make a mount namespace and run `mounting` (a shell command) in
    /// it: root with CAP_SYS_ADMIN, as CI and these machines are; a locked-down container may not.
    public static func allows(_ mounting: String) -> Bool {
        guard getuid() == 0, let probe = try? TestEnvironment.run(unshare, shell + [mounting]) else { return false }
        return probe.status == 0
    }

    /// Runs the shell command `script` in a mount namespace of its own, with storyreel's binary
    /// as `$0` and `arguments` as `$1` on: it mounts, then runs `"$0" …`.
    public static func run(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        try TestEnvironment.run(unshare, shell + [script, TestEnvironment.storyreelBinary] + arguments)
    }

    private static let unshare = "/usr/bin/unshare"
    private static let shell = ["--mount", "--propagation", "private", "/bin/sh", "-c"]
}
