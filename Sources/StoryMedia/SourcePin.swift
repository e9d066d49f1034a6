import Synchronization

/// A source file a render reads, held open while the plan stamps, probes and hashes it, and
/// while a work unit decodes and checks it. While the pin lives, every open and stat of its path
/// by storyreel (``RegularFile``, ``FileStamp``, the hashers, through ``FolderPin/resolved(_:)``)
/// is of the file opened, through `/proc/self/fd`, whatever the path names by then: the plan
/// hashes the very file it stamps, and a unit decodes the very file whose stamp it checks.
///
/// A QA pass swapped a story folder (or a clip) to other content and back while a render read
/// it: the poster was decoded from the other file and the check after it, made by path, saw the
/// first again, so the other file's picture was filed, and kept, under the clip's key.
///
/// Units run at once may pin one path: a pin made while another lives opens the file through
/// the other's link, so every pin of a path alive at one time is of one file, and a unit's reads
/// never move from one file to another while its own pin lives.
public final class SourcePin {
    /// The path pinned, as given.
    public let path: String
    /// The open file, held for its descriptor.
    private let file: RegularFile
    /// Its `/proc/self/fd` link.
    private let pinnedPath: String

    /// Opens the regular file at `path` and pins it. Throws as
    /// ``RegularFile/init(path:maxSize:timeout:)``.
    public init(path: String) throws {
        self.path = path
        file = try RegularFile(path: path)
        pinnedPath = file.reopenablePath
        let key = FolderPin.key(path)
        let pin = (link: pinnedPath, identity: file.stamp.identity)
        Self.pins.withLock { $0[key, default: []].append(pin) }
    }

    deinit {
        let key = FolderPin.key(path)
        Self.pins.withLock { pins in
            if let index = pins[key]?.lastIndex(where: { $0.link == pinnedPath }) { pins[key]?.remove(at: index) }
            if pins[key]?.isEmpty == true { pins[key] = nil }
        }
    }

    /// The path to read the pinned file at `path` by (a `/proc/self/fd` link), or nil when it
    /// is not pinned.
    static func pinnedPath(for path: String) -> String? {
        guard !pins.withLock({ $0.isEmpty }) else { return nil }
        let key = FolderPin.key(path)
        return pins.withLock { $0[key]?.first?.link }
    }

    /// The identity of the file pinned at `path`, or nil when it is not pinned: a file opened
    /// through a pin's link must have it (``RegularFile``), as a link read just as its pin went
    /// may name a descriptor number the system has given another file since.
    static func identity(for path: String) -> FileIdentity? {
        guard !pins.withLock({ $0.isEmpty }) else { return nil }
        let key = FolderPin.key(path)
        return pins.withLock { $0[key]?.first?.identity }
    }

    /// The pins alive, by path (``FolderPin/key(_:)``): each one's `/proc/self/fd` link and the
    /// identity of its file, all one file's.
    private static let pins = Mutex<[String: [(link: String, identity: FileIdentity)]]>([:])
}
