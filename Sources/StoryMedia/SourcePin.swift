import Synchronization

/// A source file a render reads, held open while the plan stamps, probes and hashes it, and
/// while a work unit decodes and checks it: while the pin lives,
/// every open and stat of its path by storyreel (``RegularFile``, ``FileStamp``, the hashers,
/// through ``FolderPin/resolved(_:)``) is of the file opened, through `/proc/self/fd`, whatever
/// the path names by then. The plan hashes the very file it stamps, and a unit decodes the
/// very file whose stamp it checks after decoding. A QA pass swapped a story folder (or a clip) to other content and back while a
/// render read it: the poster was decoded from the other file and the check after it, made by
/// path, saw the first again, so the other file's picture was filed and kept under the clip's
/// key. Released in `deinit`.
public final class SourcePin {
    /// The path pinned, as given.
    public let path: String
    /// The open file, held for its descriptor.
    private let file: RegularFile
    /// Its `/proc/self/fd` link.
    private let pinnedPath: String

    /// Opens the regular file at `path` and pins it. Throws as ``RegularFile/init(path:maxSize:timeout:)``.
    public init(path: String) throws {
        self.path = path
        file = try RegularFile(path: path)
        pinnedPath = file.reopenablePath
        let key = FolderPin.key(path)
        Self.pins.withLock { $0[key, default: []].append(pinnedPath) }
    }

    deinit {
        let key = FolderPin.key(path)
        Self.pins.withLock { pins in
            if let index = pins[key]?.lastIndex(of: pinnedPath) { pins[key]?.remove(at: index) }
            if pins[key]?.isEmpty == true { pins[key] = nil }
        }
    }

    /// The path to read the pinned file at `path` by (its `/proc/self/fd` link), or nil when it
    /// is not pinned. Pins of one path nest: the latest is used.
    static func pinnedPath(for path: String) -> String? {
        guard !pins.withLock({ $0.isEmpty }) else { return nil }
        let key = FolderPin.key(path)
        return pins.withLock { $0[key]?.last }
    }

    /// The `/proc/self/fd` links of pinned files, by path (``FolderPin/key(_:)``).
    private static let pins = Mutex<[String: [String]]>([:])
}
