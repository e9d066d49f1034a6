import Foundation
import StoryMedia
import StoryPipeline
import Synchronization

/// `thumbnail --out-dir DIR`'s folder: which posters in it storyreel wrote, and what they held,
/// recorded in `DIR/.storyreel-posters`. A later run replaces a poster only while it is still
/// what storyreel wrote, and refuses (73) to write over any other file of that name: someone
/// else's, or a poster changed since. Two runs into one folder take turns (`flock` on the folder
/// itself, so no lock file is left there), so neither loses the other's record.
///
/// Each poster is recorded as it is written, not when the run ends: its name, size and SHA-256
/// as pending before it is renamed into place, then as written. A run killed part-way (Ctrl-C,
/// a CI job's timeout) used to leave posters that no record named, and every later run refused
/// them; now the next run knows them, by their contents when the kill came between the two, and
/// removes the temporary files such a run left for those names.
final class PosterFolder: Sendable {
    /// The folder.
    let path: String
    /// Held for the whole run.
    private let lock: BundleLock
    /// True when the folder had a record before this run.
    private let hadRecord: Bool
    /// The record as this run has it: earlier runs' posters, then this run's.
    private let record: Mutex<Record>

    /// The record's name inside the folder.
    static let recordName = ".storyreel-posters"

    /// What `.storyreel-posters` holds: `{"posters": {name: {size, sha256}}, "pending": {…}}`.
    /// An older record, a JSON array of names, is read by name: each poster it names takes the
    /// contents it has now.
    struct Record: Codable {
        /// What a poster holds.
        struct Contents: Codable, Equatable {
            var size: Int
            var sha256: String
        }
        /// Posters written, with their contents.
        var posters: [String: Contents] = [:]
        /// Posters about to be renamed into place, with what they will hold.
        var pending: [String: Contents] = [:]
    }

    /// Takes `path`'s lock, waiting up to `timeout` seconds (`--timeout`) for another run (told
    /// to `waiting` once when it has to wait), and reads its record. Throws `.cannotCreateOutput`
    /// (73) when the record is there but is not one storyreel can read (hand-edited, cut
    /// short): writing a new one would forget every poster it names, which would then be
    /// refused for good.
    init(path: String, timeout: Double, waiting: (Int32?) -> Void) throws {
        self.path = path
        lock = try BundleLock(folderItself: path, timeout: timeout, option: "--timeout", waiting: waiting)
        let recordPath = Self.recordPath(in: path)
        var record: Record
        if let data = try Self.readRecord(recordPath) {
            guard let read = Self.decode(data, in: path) else {
                throw MediaError(
                    .cannotCreateOutput, path: recordPath,
                    "not a record of posters storyreel can read; move it away (storyreel then replaces none of "
                        + "the posters there)")
            }
            record = read
            hadRecord = true
        } else {
            record = Record()
            hadRecord = false
        }
        // The temporary files a killed run left for the names it recorded (a poster is recorded
        // as pending before its temporary file is made).
        let staged = Set(record.posters.keys).union(record.pending.keys).union([Self.recordName])
        // A pending poster whose file holds what was pending was written by a run killed just
        // after the rename: it counts as written.
        for (name, contents) in record.pending where Self.holds(BundlePaths.join(path, name), contents) {
            record.posters[name] = contents
        }
        record.pending = [:]
        TemporaryFile.removeStale(in: path, finalNames: staged)
        self.record = Mutex(record)
    }

    /// The error (`.cannotCreateOutput`) when `poster` (a path in the folder) names a file that
    /// no run recorded writing, or that has changed since, else nil.
    func refusal(toReplace poster: String) -> MediaError? {
        let name = (poster as NSString).lastPathComponent
        guard FileStamp(path: poster, followingLinks: false) != nil else { return nil }
        guard let contents = record.withLock({ $0.posters[name] }) else { return Self.notWritten(poster) }
        return Self.holds(poster, contents) ? nil : Self.changed(poster)
    }

    private static func notWritten(_ poster: String) -> MediaError {
        MediaError(
            .cannotCreateOutput, path: poster,
            "exists and storyreel did not write it; move it away or give another --out-dir")
    }

    private static func changed(_ poster: String) -> MediaError {
        MediaError(
            .cannotCreateOutput, path: poster,
            "has changed since storyreel wrote it; move it away or give another --out-dir")
    }

    /// Writes `data` as `poster` (a path in the folder), atomically, recording it as pending
    /// before the rename and as written after it. A name that was free takes the poster only
    /// while it still is: a file put there meanwhile is someone's (`.cannotCreateOutput`).
    func write(_ data: Data, to poster: String) throws {
        let name = (poster as NSString).lastPathComponent
        let contents = Record.Contents(size: data.count, sha256: try ContentHasher.sha256(of: data))
        let wasFree = FileStamp(path: poster, followingLinks: false) == nil
        try record.withLock { record in
            record.pending[name] = contents
            try save(record)
        }
        // Checked again just before the rename: the poster may have been edited while this one
        // was decoded (a re-check: the check before any work left a window of the decode's length).
        if !wasFree, let recorded = record.withLock({ $0.posters[name] }), !Self.holds(poster, recorded) {
            throw Self.changed(poster)
        }
        do {
            try AtomicFile.write(data, to: poster, exclusively: wasFree)
        } catch is StagedFile.NameTaken {
            throw Self.notWritten(poster)
        }
        try record.withLock { record in
            record.pending[name] = nil
            record.posters[name] = contents
            try save(record)
        }
    }

    /// Removes the record this run made when it names no poster: a run that wrote none leaves
    /// no record behind (and so the folder it made can go). A record found there is kept.
    func removeRecordIfEmpty() {
        guard !hadRecord else { return }
        record.withLock { record in
            guard record.posters.isEmpty else { return }
            unlink(Self.recordPath(in: path))
        }
    }

    private func save(_ record: Record) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try AtomicFile.write(try encoder.encode(record), to: Self.recordPath(in: path))
    }

    /// The record's bytes, or nil when there is none. Throws when it is there but cannot be
    /// read as a regular file (a folder, a FIFO, no permission).
    private static func readRecord(_ path: String) throws -> Data? {
        do {
            return try RegularFile.contents(of: path, maxSize: 16 << 20)
        } catch let error as MediaError where error.kind == .missingInput {
            return nil
        } catch let error as MediaError where error.kind != .systemLimit {
            throw MediaError(.cannotCreateOutput, path: path, error.reason)
        }
    }

    /// The record in `data`, or nil when it is not one. An older array of names takes each
    /// named poster's contents from the file in `folder` now (a name with no file is dropped).
    private static func decode(_ data: Data, in folder: String) -> Record? {
        if let names = try? JSONDecoder().decode([String].self, from: data) {
            var record = Record()
            for name in names {
                guard let file = try? RegularFile(path: BundlePaths.join(folder, name)),
                    let sha256 = try? ContentHasher.sha256(of: file),
                    let size = Int(exactly: file.size)
                else { continue }
                record.posters[name] = Record.Contents(size: size, sha256: sha256)
            }
            return record
        }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// True when the regular file at `path` holds `contents` (its size, then its hash).
    private static func holds(_ path: String, _ contents: Record.Contents) -> Bool {
        guard contents.size >= 0, let file = try? RegularFile(path: path, maxSize: UInt64(contents.size)),
            file.size == UInt64(contents.size)
        else { return false }
        return (try? ContentHasher.sha256(of: file)) == contents.sha256
    }

    private static func recordPath(in folder: String) -> String { BundlePaths.join(folder, recordName) }
}
