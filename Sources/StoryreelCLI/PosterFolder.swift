import Foundation
import StoryMedia
import StoryPipeline
import StoryreelKit
import Synchronization

/// `thumbnail --out-dir DIR`'s folder: which posters in it storyreel wrote, and what they held,
/// recorded in `DIR/.storyreel-posters`. A later run replaces a poster only while it is still
/// what storyreel wrote, and refuses (73) to write over any other file of that name: someone
/// else's, or a poster changed since. Two runs into one folder take turns (`flock` on the folder
/// itself, so no lock file is left there), so neither loses the other's record.
///
/// Each poster is recorded as it is written, not when the run ends: its name, size and SHA-256
/// go into the ``PosterJournal`` before it is renamed into place. A run killed part-way (Ctrl-C,
/// a CI job's timeout) used to leave posters that no record named, and every later run refused
/// them; now the next run knows them by their contents, and removes the temporary files such a
/// run left for those names. The record itself is rewritten only when the journal has grown by
/// a quarter of it (and at the end), so a run's cost grows with its posters, not their square.
final class PosterFolder: Sendable {
    /// The folder.
    let path: String
    /// Held for the whole run.
    private let lock: BundleLock
    /// True when the folder had a record (or a journal) before this run.
    private let hadRecord: Bool
    /// The record as this run has it, and the journal of what it wrote since it last saved it.
    private let state: Mutex<State>

    /// What the run keeps under its lock.
    private struct State {
        /// Earlier runs' posters, then this run's; `pending` holds the posters on their way.
        var record: Record
        /// The posters written since the record was last saved are there.
        let journal: PosterJournal
        /// How many posters were written since the record was last saved.
        var writtenSinceSave = 0
    }

    /// The fewest posters the journal holds before the record is saved again.
    static let smallestJournal = 64

    /// The record's name inside the folder.
    static let recordName = ".storyreel-posters"

    /// What `.storyreel-posters` holds: `{"posters": {name: {size, sha256}}, "pending": {…}}`.
    /// An older record, a JSON array of names, is read by name: each poster it names takes the
    /// contents it has now.
    struct Record: Codable {
        /// Posters written, with their contents.
        var posters: [String: FileContents] = [:]
        /// Posters about to be renamed into place, with what they will hold.
        var pending: [String: FileContents] = [:]
    }

    /// On an interrupt, removes the journal of the folder at `path`, which this run made, while
    /// no poster is in it: only the journal and temporary files (removed next), so the folder
    /// goes too. A poster's line is journaled before its rename, so an interrupt between the two
    /// left the folder, holding a journal that named a poster not there (a QA pass of
    /// interrupts: 13 of 100 SIGTERMs in the first 80 ms).
    static func removeLoneJournalOnInterrupt(in path: String) {
        InterruptCleanup.removeOnInterruptWhileAlone(BundlePaths.join(path, PosterJournal.name))
    }

    /// Takes `path`'s lock, waiting up to `timeout` seconds (`--timeout`) for another run (told
    /// to `waiting` once when it has to wait), and reads its record. Throws `.cannotCreateOutput`
    /// (73) when the folder cannot be written into, or when the record is there but is not one
    /// storyreel can read (hand-edited, cut short): writing a new one would forget every poster
    /// it names, which would then be refused for good. A folder removed while this run waited
    /// (by the run that made it and wrote nothing) is made again by `remake`.
    init(path: String, timeout: Double, waiting: (Int32?) -> Void, remake: () throws -> Void = {}) throws {
        self.path = path
        lock = try BundleLock(
            folderItself: path, timeout: timeout, option: "--timeout", waiting: waiting, remake: remake)
        // Every poster goes through the journal in the folder: one the run may not write into
        // (another user's, a read-only mount) is said once, before any clip is decoded (each
        // clip failed with the journal's own line, one line per clip).
        guard faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS) == 0 else {
            throw MediaError.system(.cannotCreateOutput, path: path, "cannot write into the folder", code: errno)
        }
        let recordPath = Self.recordPath(in: path)
        var record: Record
        let journal = PosterJournal(folder: path)
        let journaled = try PosterJournal.entries(in: path)
        if let data = try Self.readRecord(recordPath) {
            guard let read = Self.decode(data, in: path) else {
                throw MediaError(
                    .cannotCreateOutput, path: recordPath,
                    "not a record of posters storyreel can read; move it away (storyreel then replaces none of "
                        + "the posters there)")
            }
            record = read
        } else {
            record = Record()
        }
        // The entry itself, not what was read: a symlink there that leads nowhere is someone's,
        // and the end of a run that wrote nothing leaves it.
        hadRecord = FileStamp(path: recordPath, followingLinks: false) != nil || !journaled.isEmpty
        // A killed run's journal names the posters it was writing since it last saved the record.
        for entry in journaled {
            record.pending[entry.name] = FileContents(size: entry.size, sha256: entry.sha256)
        }
        // The temporary files a killed run left for the names it recorded (a poster is recorded
        // as pending before its temporary file is made).
        let staged = Set(record.posters.keys).union(record.pending.keys).union([Self.recordName])
        // A pending poster whose file holds what was pending was written by a run killed just
        // after the rename: it counts as written.
        for (name, contents) in record.pending where contents.isHeld(at: BundlePaths.join(path, name)) {
            record.posters[name] = contents
        }
        record.pending = [:]
        TemporaryFile.removeStale(in: path, finalNames: staged)
        if FileStamp(path: journal.path, followingLinks: false) != nil {
            // The record takes in what the killed run journaled, and this run's journal starts
            // empty (not after a line a failed write cut short, which a later line would follow).
            try Self.save(record, in: path)
            journal.remove()
        }
        state = Mutex(State(record: record, journal: journal))
    }

    /// The error (`.cannotCreateOutput`) when `poster` (a path in the folder) names a file that
    /// no run recorded writing, or that has changed since, else nil.
    func refusal(toReplace poster: String) -> MediaError? {
        let name = (poster as NSString).lastPathComponent
        guard FileStamp(path: poster, followingLinks: false) != nil else { return nil }
        guard let contents = state.withLock({ $0.record.posters[name] }) else { return Self.notWritten(poster) }
        return contents.isHeld(at: poster) ? nil : Self.changed(poster)
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

    /// Writes `data` as `poster` (a path in the folder), atomically, journaling it before the
    /// rename (``PosterJournal``) and recording it as written after it. A name that was free
    /// takes the poster only while it still is: a file put there meanwhile is someone's
    /// (`.cannotCreateOutput`).
    func write(_ data: Data, to poster: String) throws {
        let name = (poster as NSString).lastPathComponent
        let contents = try FileContents(of: data)
        let wasFree = FileStamp(path: poster, followingLinks: false) == nil
        try state.withLock { state in
            state.record.pending[name] = contents
            try state.journal.append(.init(name: name, size: contents.size, sha256: contents.sha256))
        }
        // Checked again just before the rename: the poster may have been edited while this one
        // was decoded (a re-check: the check before any work left a window of the decode's length).
        if !wasFree, let recorded = state.withLock({ $0.record.posters[name] }), !recorded.isHeld(at: poster) {
            throw Self.changed(poster)
        }
        do {
            try AtomicFile.write(data, to: poster, exclusively: wasFree)
        } catch is StagedFile.NameTaken {
            throw Self.notWritten(poster)
        }
        state.withLock { state in
            state.record.pending[name] = nil
            state.record.posters[name] = contents
            state.writtenSinceSave += 1
            // Saved with the posters still on their way as pending, so removing the journal
            // forgets none of them. A failure leaves the journal as it is: the end tries again.
            if state.writtenSinceSave >= max(Self.smallestJournal, state.record.posters.count / 4) {
                try? Self.saveAndEmptyJournal(&state, in: path)
            }
        }
    }

    /// Ends the run: the record takes in the journal, which goes. A run that wrote no poster into
    /// a folder without a record leaves neither behind (and so the folder it made can go).
    /// Returns a warning when the record cannot be saved; the journal then stays, and the next
    /// run reads the posters from it.
    func finish() -> String? {
        state.withLock { state in
            if !hadRecord, state.record.posters.isEmpty {
                state.journal.remove()
                if let folder = try? FolderHandle.forWriting(Self.recordPath(in: path)) {
                    unlinkat(folder.descriptor, Self.recordName, 0)
                }
                return nil
            }
            guard state.writtenSinceSave > 0 || state.journal.isOpen else { return nil }
            do {
                try Self.saveAndEmptyJournal(&state, in: path)
                return nil
            } catch {
                return "\(error); the next run reads this run's posters from \(PosterJournal.name)"
            }
        }
    }

    /// Saves `state`'s record, then removes its journal, which the record now holds.
    private static func saveAndEmptyJournal(_ state: inout State, in folder: String) throws {
        try save(state.record, in: folder)
        state.journal.remove()
        state.writtenSinceSave = 0
    }

    private static func save(_ record: Record, in folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try AtomicFile.write(try encoder.encode(record), to: recordPath(in: folder))
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
        if let names = JSONShape.decoded([String].self, from: data) {
            var record = Record()
            for name in names {
                guard let contents = FileContents(ofFileAt: BundlePaths.join(folder, name)) else { continue }
                record.posters[name] = contents
            }
            return record
        }
        return JSONShape.decoded(Record.self, from: data)
    }

    private static func recordPath(in folder: String) -> String { BundlePaths.join(folder, recordName) }
}
