import Foundation
import StoryMedia
import StoryPipeline
import Synchronization

/// `thumbnail --out-dir DIR`'s folder: which posters in it storyreel wrote, recorded in
/// `DIR/.storyreel-posters`. A later run replaces those, and refuses (73) to write over a file of
/// that name that no run recorded, since it is someone else's. Two runs into one folder take
/// turns (`flock` on the folder itself, so no lock file is left there), so neither loses the
/// other's record.
///
/// Each poster is recorded as it is written, not when the run ends: its name, size and SHA-256
/// as pending before it is renamed into place, then as written. A run killed part-way (Ctrl-C,
/// a CI job's timeout) used to leave posters that no record named, and every later run refused
/// them; now the next run knows them, by their contents when the kill came between the two.
final class PosterFolder: Sendable {
    /// The folder.
    let path: String
    /// Held for the whole run.
    private let lock: BundleLock
    /// The record as this run has it: earlier runs' names, then this run's.
    private let record: Mutex<Record>

    /// The record's name inside the folder.
    static let recordName = ".storyreel-posters"

    /// What `.storyreel-posters` holds: `{"posters": [names], "pending": {name: {size, sha256}}}`.
    /// An older record, a JSON array of names, is read as `posters`.
    struct Record: Codable {
        /// A poster about to be renamed into place: what it will hold.
        struct Pending: Codable, Equatable {
            var size: Int
            var sha256: String
        }
        /// Posters written.
        var posters: Set<String> = []
        /// Posters about to be written, by name.
        var pending: [String: Pending] = [:]

        init(posters: Set<String> = [], pending: [String: Pending] = [:]) {
            (self.posters, self.pending) = (posters, pending)
        }

        /// The names in order, so that the file is the same for the same posters.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(posters.sorted(), forKey: .posters)
            try container.encode(pending, forKey: .pending)
        }
    }

    /// Takes `path`'s lock, waiting up to `timeout` seconds (`--timeout`) for another run, and
    /// reads its record. A pending poster whose file holds what was pending was written by a run
    /// killed just after the rename, so it counts as written.
    init(path: String, timeout: Double) throws {
        self.path = path
        lock = try BundleLock(folderItself: path, timeout: timeout, option: "--timeout")
        var record = Self.read(Self.recordPath(in: path))
        for (name, pending) in record.pending {
            let poster = (path as NSString).appendingPathComponent(name)
            if let file = try? RegularFile(path: poster, maxSize: UInt64(pending.size)), file.size == pending.size,
                (try? ContentHasher.sha256(of: file)) == pending.sha256
            {
                record.posters.insert(name)
            }
        }
        record.pending = [:]
        self.record = Mutex(record)
    }

    /// The error (`.cannotCreateOutput`) when `poster` (a path in the folder) names a file that
    /// no run recorded writing, else nil.
    func refusal(toReplace poster: String) -> MediaError? {
        let name = (poster as NSString).lastPathComponent
        guard FileStamp(path: poster, followingLinks: false) != nil, !record.withLock({ $0.posters.contains(name) })
        else { return nil }
        return MediaError(
            .cannotCreateOutput, path: poster,
            "exists and storyreel did not write it; move it away or give another --out-dir")
    }

    /// Writes `data` as `poster` (a path in the folder), atomically, recording it as pending
    /// before the rename and as written after it.
    func write(_ data: Data, to poster: String) throws {
        let name = (poster as NSString).lastPathComponent
        let pending = Record.Pending(size: data.count, sha256: try ContentHasher.sha256(of: data))
        try record.withLock { record in
            record.pending[name] = pending
            try save(record)
        }
        try AtomicFile.write(data, to: poster)
        try record.withLock { record in
            record.pending[name] = nil
            record.posters.insert(name)
            try save(record)
        }
    }

    /// Removes the record when it names no poster written: a run that wrote none leaves no
    /// record behind (and so the folder it made can go).
    func removeRecordIfEmpty() {
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

    private static func read(_ path: String) -> Record {
        guard let data = try? RegularFile.contents(of: path, maxSize: 16 << 20) else { return Record() }
        if let names = try? JSONDecoder().decode([String].self, from: data) { return Record(posters: Set(names)) }
        return (try? JSONDecoder().decode(Record.self, from: data)) ?? Record()
    }

    private static func recordPath(in folder: String) -> String {
        (folder as NSString).appendingPathComponent(recordName)
    }
}
