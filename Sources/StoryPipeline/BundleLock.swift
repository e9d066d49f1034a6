import Foundation
import StoryMedia

/// An exclusive `flock(2)` on `OUT/.lock`, so two renders cannot clobber one bundle. The kernel
/// drops the lock when the process dies, so a killed render never leaves the bundle locked.
public final class BundleLock {
    private let descriptor: Int32

    /// Why a lock could not be taken.
    public struct Timeout: Error, CustomStringConvertible {
        /// The bundle folder.
        public let folder: String
        /// How long we waited.
        public let seconds: Double
        public var description: String {
            "\(folder): another storyreel render holds the bundle lock; gave up after \(seconds) s (--lock-timeout)"
        }
    }

    /// Takes the lock of bundle `folder` (created if needed), waiting up to `timeout` seconds.
    public init(folder: String, timeout: Double) throws {
        let path = (folder as NSString).appendingPathComponent(".lock")
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw MediaError(
                .cannotCreateOutput, path: path, "cannot create the lock file: \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(descriptor)
                throw Timeout(folder: folder, seconds: timeout)
            }
            usleep(50_000)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
