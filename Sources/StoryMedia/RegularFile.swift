import Foundation

/// A regular file opened for reading: never a FIFO, a device, a socket or a folder, whatever the
/// path or a symlink on the way says. It owns the descriptor and closes it in `deinit`.
///
/// The file is opened with `O_NONBLOCK` (so opening a FIFO cannot wait for a writer) and then
/// checked with `fstat` on the open descriptor, so what is checked is what is read. Reads can be
/// capped (`maxSize`) and bounded in time (`timeout`), so `/dev/zero` behind a symlink, a FIFO
/// or a huge file cannot hang or exhaust a batch.
public final class RegularFile {
    /// The path as given.
    public let path: String
    /// The size in bytes when it was opened.
    public let size: UInt64
    /// Its size, mtime and identity when it was opened.
    public let stamp: FileStamp

    /// The open file (``StagedFile/appendKernelCopy(of:)`` copies from it).
    let descriptor: Int32
    /// When reading must stop, on ``MonotonicClock``; nil for no limit.
    private let deadline: Double?
    /// The time allowed to read it, in seconds, for the timeout's message.
    private let timeout: Double?

    /// Opens `path`. Throws `.missingInput` when it does not exist, `.unreadableInput` when it is
    /// not a readable regular file, and `.invalidMedia` when it is larger than `maxSize` bytes.
    /// Reads give up `timeout` seconds from now (nil: no limit).
    public convenience init(path: String, maxSize: UInt64? = nil, timeout: Double? = nil) throws {
        try self.init(path: path, maxSize: maxSize, timeout: timeout, throughSourcePins: true)
    }

    /// Opens `path` as ``init(path:maxSize:timeout:)`` does; not through a ``SourcePin`` of it
    /// when `throughSourcePins` is false (what a pin itself opens).
    init(path: String, maxSize: UInt64? = nil, timeout: Double? = nil, throughSourcePins: Bool) throws {
        self.path = path
        // A file in a pinned folder is read through the folder's descriptor (``FolderPin``).
        func opening(_ target: String) -> (target: String, descriptor: Int32, code: Int32) {
            let opened = open(target, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            return (target, opened, opened >= 0 ? 0 : errno)
        }
        // A source pinned itself is opened through its own descriptor (``SourcePin``).
        let (target, opened, code) =
            throughSourcePins ? FolderPin.withResolved(path, opening) : opening(FolderPin.resolved(path))
        guard opened >= 0 else {
            if code == ENOENT { throw MediaError(.missingInput, path: path, "no such file") }
            // A QA pass: `clip.mp4/` was "no such file" beside the very file, and a socket gave
            // the system's "No such device or address" where a FIFO is named as one.
            if code == ENOTDIR {
                throw MediaError(.missingInput, path: path, "no such file: a part of the path is a file, not a folder")
            }
            if code == EACCES { throw MediaError(.unreadableInput, path: path, "permission denied") }
            var status = stat()
            if stat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
                throw MediaError(.unreadableInput, path: path, RegularFile.describe(mode: status.st_mode))
            }
            throw MediaError.system(.unreadableInput, path: path, "cannot open", code: code)
        }
        var status = stat()
        guard fstat(opened, &status) == 0 else {
            let reason = SystemErrorText.describe(errno)
            close(opened)
            throw MediaError(.unreadableInput, path: path, "cannot read its status: \(reason)")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            throw MediaError(.unreadableInput, path: path, RegularFile.describe(mode: status.st_mode))
        }
        let byteCount = UInt64(clamping: status.st_size)
        if let maxSize, byteCount > maxSize {
            close(opened)
            throw MediaError(
                .invalidMedia, path: path, "\(byteCount) bytes is over the \(maxSize / 1_000_000) MB limit")
        }
        descriptor = opened
        size = byteCount
        stamp = FileStamp(status)
        deadline = timeout.flatMap { $0.isFinite && $0 > 0 ? MonotonicClock.now + min($0, 1e9) : nil }
        self.timeout = deadline == nil ? nil : timeout
    }

    deinit { close(descriptor) }

    /// Its size, mtime and identity now (`fstat` on the open descriptor), or nil when that fails.
    public func currentStamp() -> FileStamp? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return FileStamp(status)
    }

    /// What to say of a file whose size is 0: "empty file (0 bytes)", unless bytes can be read from
    /// it all the same, as from /proc's and /sys's files, which storyreel does not read as media.
    public func zeroSizeReason() -> String {
        var byte: UInt8 = 0
        guard pread(descriptor, &byte, 1, 0) > 0 else { return "empty file (0 bytes)" }
        return "its file system gives it no size (as /proc's files have none), so it is not a media file"
    }

    /// Throws `.timedOut` once the time allowed to read the file has passed.
    func checkDeadline() throws {
        if let deadline, MonotonicClock.now > deadline {
            throw MediaError.deadlinePassed(path: path, seconds: timeout)
        }
    }

    /// Throws `.ioFailure` when `total` bytes read is more than a chunk of `chunkSize` past the
    /// size it had when it was opened: a file that keeps growing cannot keep a reader busy.
    func checkNotGrowing(total: UInt64, chunkSize: Int) throws {
        if total > size + UInt64(chunkSize) {
            throw MediaError(.ioFailure, path: path, "the file grew while it was read")
        }
    }

    /// Up to `count` bytes from the current position; empty at the end of the file. Throws
    /// `.timedOut` once the deadline has passed and `.ioFailure` when the read fails.
    public func read(upTo count: Int) throws -> Data {
        try checkDeadline()
        var buffer = Data(count: max(0, count))
        let got = buffer.withUnsafeMutableBytes { bytes -> Int in
            while true {
                let result = Foundation.read(descriptor, bytes.baseAddress, bytes.count)
                if result < 0 && errno == EINTR { continue }
                return result
            }
        }
        guard got >= 0 else {
            throw MediaError(.ioFailure, path: path, "read failed: \(SystemErrorText.describe(errno))")
        }
        buffer.count = got
        return buffer
    }

    /// Calls `body` with each chunk of up to `chunkSize` bytes, to the end of the file, and
    /// returns the bytes read. A file that grows by more than a chunk while it is read throws
    /// `.ioFailure`, so a file that keeps growing cannot keep a reader busy.
    @discardableResult
    public func forEachChunk(size chunkSize: Int = 1 << 20, _ body: (Data) throws -> Void) throws -> UInt64 {
        var total: UInt64 = 0
        while true {
            let chunk = try read(upTo: chunkSize)
            if chunk.isEmpty { return total }
            total += UInt64(chunk.count)
            try body(chunk)
            try checkNotGrowing(total: total, chunkSize: chunkSize)
        }
    }

    /// Moves the read position to `offset` bytes from the start.
    public func seek(to offset: UInt64) throws {
        guard let position = off_t(exactly: offset), lseek(descriptor, position, SEEK_SET) >= 0 else {
            throw MediaError(.ioFailure, path: path, "cannot seek to \(offset)")
        }
    }

    /// The whole file, which must be at most `maxSize` bytes: for manifests, specs and settings.
    public static func contents(of path: String, maxSize: UInt64, timeout: Double? = nil) throws -> Data {
        let file = try RegularFile(path: path, maxSize: maxSize, timeout: timeout)
        var data = Data()
        try file.forEachChunk { data.append($0) }
        guard UInt64(data.count) <= maxSize else {
            throw MediaError(.invalidMedia, path: path, "over the \(maxSize / 1_000_000) MB limit")
        }
        return data
    }

    /// A name that opens this very file again, for a library that opens files by name (FFmpeg):
    /// `/proc/self/fd/N`, so what it opens is what was checked here even if `path` has been
    /// replaced by a FIFO or a device since. `path` itself where `/proc` is not mounted.
    var reopenablePath: String {
        let link = "/proc/self/fd/\(descriptor)"
        return access(link, F_OK) == 0 ? link : path
    }

    /// What a non-regular file is, for an error line.
    static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder, not a file"
        case S_IFIFO: return "a FIFO, not a regular file"
        case S_IFCHR, S_IFBLK: return "a device, not a regular file"
        case S_IFSOCK: return "a socket, not a regular file"
        case S_IFLNK: return "a symbolic link, not a regular file"
        default: return "not a regular file"
        }
    }
}
