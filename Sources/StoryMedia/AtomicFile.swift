import Foundation

/// Writes files so that a reader sees either the old file, or the new one complete, never a
/// half-written file: the bytes go to a hidden temporary file in the same folder, are flushed to
/// disk, and the temporary file is renamed over the destination.
public enum AtomicFile {
    /// Writes `data` to `path` atomically. The temporary file (named by ``TemporaryFile``) is
    /// made in `stagingFolder` when given (a folder of storyreel's own on the same file system,
    /// so nothing is ever left beside the final file), else beside it. On failure the temporary
    /// file is removed, any existing file at `path` is left as it was, and a ``MediaError`` of
    /// kind `.cannotCreateOutput` (or `.ioFailure` when writing fails part-way, e.g. a full disk)
    /// names the path and the reason.
    public static func write(_ data: Data, to path: String, stagingFolder: String? = nil) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw MediaError(.cannotCreateOutput, path: path, "is a directory")
        }
        let (descriptor, temporaryPath) = try TemporaryFile.create(for: path, in: stagingFolder)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporaryPath) }
        }
        do {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: path)
            guard fchmod(descriptor, 0o644 & ~currentUmask) == 0 else { throw failure(path, "cannot set permissions") }
            guard fsync(descriptor) == 0 else { throw failure(path, "cannot flush to disk", kind: .ioFailure) }
        }
        guard rename(temporaryPath, path) == 0 else { throw failure(path, "cannot move the finished file into place") }
        succeeded = true
        syncFolder(folder)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(path, "cannot write", kind: .ioFailure)
                }
                offset += written
            }
        }
    }

    /// Makes the rename itself durable; a folder that cannot be opened is not an error.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The process's file-creation mask, read once (by setting and restoring it) so that the
    /// finished file gets the permissions any newly created file would.
    private static let currentUmask: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    /// An error of `kind` with `what` and the current `errno` text.
    private static func failure(_ path: String, _ what: String, kind: MediaError.Kind = .cannotCreateOutput)
        -> MediaError
    {
        MediaError(kind, path: path, "\(what): \(String(cString: strerror(errno)))")
    }
}
