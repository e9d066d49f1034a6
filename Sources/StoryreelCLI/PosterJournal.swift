import Foundation
import StoryMedia
import StoryPipeline
import StoryreelKit

/// `thumbnail --out-dir`'s journal, `DIR/.storyreel-posters-journal`: one JSON line per poster
/// about to be renamed into place (`{"name", "size", "sha256"}`), appended and flushed to disk
/// before the rename. ``PosterFolder`` rewrites its whole record only now and then and at the
/// end of the run, then removes the journal; in between, the journal names the posters since,
/// so a run killed part-way still leaves every poster it renamed known to the next run.
///
/// Rewriting the whole record before and after every poster made a run's cost grow with the
/// square of its posters: 765 clips took 3.7 s, 1.4 s of it without the record (a QA pass).
final class PosterJournal {
    /// The journal's name inside the folder.
    static let name = ".storyreel-posters-journal"

    /// One poster about to take its name.
    struct Entry: Codable, Equatable {
        var name: String
        var size: Int
        var sha256: String
    }

    /// The journal's path.
    let path: String
    /// Open for appending from the first entry until ``remove()``, else -1.
    private var descriptor: Int32 = -1

    /// The journal of the folder at `folder`; nothing is opened until the first entry.
    init(folder: String) {
        path = BundlePaths.join(folder, Self.name)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// True from the first entry until ``remove()``: the journal is on disk, with entries the
    /// record may not hold yet.
    var isOpen: Bool { descriptor >= 0 }

    /// Appends `entry` as one line and flushes it to disk. The journal is created on first use
    /// through the folder's descriptor, never through a symlink, and must be a regular file.
    func append(_ entry: Entry) throws {
        if descriptor < 0 {
            let folder = try FolderHandle.forWriting(path)
            let opened = openat(
                folder.descriptor, Self.name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644
            )
            guard opened >= 0 else {
                throw MediaError.system(.cannotCreateOutput, path: path, "cannot open", code: errno)
            }
            // Its owner reads it again (a kill under a umask of 777 left it mode 000, a QA pass).
            FileCreationMask.keepFileUsable(opened)
            var status = stat()
            guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                close(opened)
                throw MediaError(.cannotCreateOutput, path: path, "is not a regular file; move it away")
            }
            descriptor = opened
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        // One write(2) per line, so a kill leaves whole lines and at most the last one cut short.
        let written = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            let code = written < 0 ? errno : ENOSPC
            throw MediaError.system(.ioFailure, path: path, "cannot write", code: code)
        }
        guard fsync(descriptor) == 0 else {
            throw MediaError.system(.ioFailure, path: path, "cannot flush to disk", code: errno)
        }
    }

    /// Closes and removes the journal, once the record holds what it named.
    func remove() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        guard let folder = try? FolderHandle.forWriting(path) else { return }
        unlinkat(folder.descriptor, Self.name, 0)
    }

    /// The entries of the journal in `folder`, in order, or none when there is no journal. A
    /// line that is not an entry (the end of one a kill cut short) is passed over. Throws
    /// `.cannotCreateOutput` when its name holds anything but a file of storyreel's: a symlink, a
    /// folder, or a file with other names (hard links), which appending would write into and
    /// the end of the run would remove (a QA pass: a symlink there was removed, and a hard link's
    /// other file took the journal's lines).
    static func entries(in folder: String) throws -> [Entry] {
        let path = BundlePaths.join(folder, name)
        var status = stat()
        if lstat(FolderPin.resolved(path), &status) == 0,
            status.st_mode & S_IFMT != S_IFREG || status.st_nlink > 1
        {
            let what: String
            switch status.st_mode & S_IFMT {
            case S_IFREG: what = "a file with other names (hard links)"
            case S_IFLNK: what = "a symbolic link"
            case S_IFDIR: what = "a folder"
            default: what = "not a regular file"
            }
            throw MediaError(
                .cannotCreateOutput, path: path, "is \(what), not a journal storyreel wrote; move it away")
        }
        let data: Data
        do {
            data = try RegularFile.contents(of: path, maxSize: 64 << 20)
        } catch let error as MediaError where error.kind == .missingInput {
            return []
        } catch let error as MediaError where error.kind != .systemLimit {
            throw MediaError(.cannotCreateOutput, path: path, error.reason)
        }
        // Every whole line is an entry, and what follows the last one the start of an entry a
        // kill cut short: anything else at the name is someone's file, which appending would
        // write into and the end of the run would remove (a QA pass: a user's notes there, and a
        // clip given as the input under that name, were removed with exit 0).
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let cut = lines.removeLast()
        let entries = lines.map { JSONShape.decoded(Entry.self, from: Data($0)) }
        guard !entries.contains(nil), cut.isEmpty || isStartOfEntry(cut) else {
            throw MediaError(.cannotCreateOutput, path: path, "is not a journal storyreel wrote; move it away")
        }
        // A name in the folder, as every poster's is.
        return entries.compactMap { $0 }.filter { !$0.name.contains("/") && ![".", ".."].contains($0.name) }
    }

    /// True when `bytes` are the start of a line as ``append(_:)`` writes one,
    /// `{"name":"…","sha256":"<64 hex>","size":N}`: the end of a journal whose last line a
    /// kill cut short. A file that only began with `{"name":"` was taken for one, and removed
    /// (a re-check: `{"name":"Bob","note":"keep me"}`).
    private static func isStartOfEntry(_ bytes: Data.SubSequence) -> Bool {
        var rest = Substring(String(decoding: bytes, as: UTF8.self))
        // Each fixed part in turn: the text ends inside it (true), or goes on past it.
        func pass(_ part: String) -> Bool? {
            if rest.count <= part.count { return part.hasPrefix(rest) ? true : false }
            guard rest.hasPrefix(part) else { return false }
            rest = rest.dropFirst(part.count)
            return nil
        }
        if let ends = pass(#"{"name":""#) { return ends }
        // The name, to its closing quote (JSON escapes in it).
        var escaped = false
        guard
            let close = rest.indices.first(where: { index in
                defer { escaped = !escaped && rest[index] == "\\" }
                return !escaped && rest[index] == "\""
            })
        else { return true }
        rest = rest[rest.index(after: close)...]
        if let ends = pass(#","sha256":""#) { return ends }
        let hex = rest.prefix { "0123456789abcdef".contains($0) }
        guard hex.count <= 64 else { return false }
        rest = rest.dropFirst(hex.count)
        if rest.isEmpty { return true }
        guard hex.count == 64 else { return false }
        if let ends = pass(#"","size":"#) { return ends }
        let digits = rest.prefix { ("0"..."9").contains($0) }
        rest = rest.dropFirst(digits.count)
        return rest.isEmpty || (rest == "}" && !digits.isEmpty)
    }
}
