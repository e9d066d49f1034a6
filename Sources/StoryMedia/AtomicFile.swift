import Foundation

/// Writes files so that a reader sees either the old file, or the new one complete, never a
/// half-written file: the bytes go to a ``StagedFile`` (a hidden temporary file named by
/// ``TemporaryFile``), are flushed to disk, and the temporary file is renamed over the
/// destination.
public enum AtomicFile {
    /// Writes `data` to `path` atomically, staged in `stagingFolder` when given (a folder of
    /// storyreel's own on the same file system, so nothing is ever left beside the final file),
    /// else beside it. On failure the temporary file is removed, any existing file at `path` is
    /// left as it was, and a ``MediaError`` of kind `.cannotCreateOutput` (or `.ioFailure` when
    /// writing fails part-way, e.g. a full disk) names the path and the reason. `exclusively`:
    /// the file takes its name only when nothing has it (else ``StagedFile/NameTaken``), for an
    /// output whose name was free when the work began (a bundle's: a file put there meanwhile is
    /// someone's).
    public static func write(
        _ data: Data, to path: String, stagingFolder: String? = nil, exclusively: Bool = false
    ) throws {
        let file = try StagedFile(for: path, stagingFolder: stagingFolder, replacing: !exclusively)
        try file.append(data)
        try file.commit(exclusively: exclusively)
    }
}
