import Foundation

/// Tests that mount (tmpfs, bind mounts, over `/proc`) do it in a mount namespace of their own
/// (`unshare --mount`), which leaves the machine's mounts as they are.
public enum MountNamespace {
    /// True when this process may make a mount namespace and run `mounting` (a shell command) in
    /// it: root with CAP_SYS_ADMIN, as CI and these machines are; a locked-down container may not.
    public static func allows(_ mounting: String) -> Bool {
        guard getuid() == 0,
            let probe = try? TestEnvironment.run(
                "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", mounting])
        else { return false }
        return probe.status == 0
    }
}
