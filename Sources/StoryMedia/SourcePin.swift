import Foundation
import Synchronization

/// A source file a render reads, held open while the plan stamps, probes and hashes it, and
/// while a work unit reads and checks it. While the pin lives, every open and stat of its path
/// by storyreel (``RegularFile``, ``FileStamp``, the hashers, through ``FolderPin/withResolved(_:_:)``)
/// is of the file opened, through `/proc/self/fd`, whatever the path names by then: the plan
/// hashes the very file it stamps, and a unit decodes the very file whose stamp it checks.
///
/// A QA pass swapped a story folder (or a clip) to other content and back while a render read
/// it: the poster was decoded from the other file and the check after it, made by path, saw the
/// first again, so the other file's picture was filed, and kept, under the clip's key.
///
/// Units run at once may pin one path: they share one descriptor, closed when the last of them
/// lets go, so a link one of them reads by stays open while it reads (with a descriptor each,
/// one unit read through another's, closed meanwhile and its number given to another file: a
/// full test run saw a good clip skipped as changed). A path pinned while it names another file
/// than the one pinned is refused as changed.
public final class SourcePin {
    /// The path pinned, as given.
    public let path: String
    /// ``path`` as the registry keys it (``FolderPin/key(_:)``).
    private let key: String
    /// True once this pin holds its entry: a pin refused in `init` still runs `deinit`, which
    /// must not let go of the other pins' file.
    private var holds = false

    /// A pinned file: its descriptor (held open, closed with the last pin), its
    /// `/proc/self/fd` link, its identity, and how many pins hold it.
    private struct Entry {
        let descriptor: Int32
        let link: String
        let identity: FileIdentity
        var holders: Int
    }

    /// Opens the regular file at `path` (by its path, not through a pin) and pins it. Throws as
    /// ``RegularFile/init(path:maxSize:timeout:)``, and `.invalidMedia` ("it changed while
    /// storyreel read it") when the path is pinned to another file already.
    public init(path: String) throws {
        self.path = path
        key = FolderPin.key(path)
        let file = try RegularFile(path: path, throughSourcePins: false)
        let identity = file.stamp.identity
        let descriptor = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else {
            throw MediaError.system(.unreadableInput, path: path, "cannot hold the file open", code: errno)
        }
        let key = key
        let pinned = Self.pins.withLock { pins -> Bool in
            if var entry = pins[key] {
                guard entry.identity == identity else { return false }
                entry.holders += 1
                pins[key] = entry
                close(descriptor)
            } else {
                pins[key] = Entry(
                    descriptor: descriptor, link: "/proc/self/fd/\(descriptor)", identity: identity, holders: 1)
            }
            return true
        }
        holds = pinned
        guard pinned else {
            close(descriptor)
            // Worded as BundlePlan's own (`changedWhile`, `runAgain`), which render's exit code reads.
            throw MediaError(
                .invalidMedia, path: path, "it changed while storyreel read it; run again once it is complete")
        }
    }

    deinit {
        guard holds else { return }
        let key = key
        Self.pins.withLock { pins in
            guard var entry = pins[key] else { return }
            entry.holders -= 1
            if entry.holders > 0 {
                pins[key] = entry
            } else {
                pins[key] = nil
                close(entry.descriptor)
            }
        }
    }

    /// `body`'s result for the path to read the pinned file at `path` by (a `/proc/self/fd`
    /// link), or nil when it is not pinned. `body` runs while the pins are locked, so the link's
    /// descriptor stays open while it stats or opens it: looked up first and used after, the
    /// link could name a descriptor the last pin had closed meanwhile and its number given to
    /// another file (a QA pass: `plan` of 5,000 stories sharing one clip skipped it as changed,
    /// 10 to 30 times a run). `body` must not pin or look up pins.
    static func withPinnedLink<T: Sendable>(for path: String, _ body: (String) throws -> T) rethrows -> T? {
        guard !pins.withLock({ $0.isEmpty }) else { return nil }
        let key = FolderPin.key(path)
        return try pins.withLock { pins in try pins[key].map { try body($0.link) } }
    }

    /// The pinned files, by path (``FolderPin/key(_:)``).
    private static let pins = Mutex<[String: Entry]>([:])
}
