import Foundation
import StoryMedia
import StoryreelKit
import Synchronization

/// What storyreel wrote into a bundle: for each output (bundle-relative path), its size, mtime
/// and SHA-256 when written. It is how storyreel knows a file is its own, so `--prune` removes
/// only what storyreel wrote, and how a changed or truncated output is noticed and redone.
///
/// Stored in `.storyreel/` as one file per writer, `ledger.json` for a full render and
/// `ledger-shard-K-of-N.json` for a shard, so shard folders merged by copying keep every
/// shard's entries. Every ledger file found is read; a full render writes the union to
/// `ledger.json` and removes the shard files it merged.
public final class BundleLedger: Sendable {
    /// One output as it was written.
    struct Entry: Codable, Equatable, Sendable {
        var size: UInt64
        var modified: Int64
        /// Empty for an output not written yet, only about to be (``pending``).
        var sha256: String
        /// The contents about to take the name (``BundleLedger/willWrite(_:data:)``), recorded
        /// before a rename that a kill may interrupt: a file with them is storyreel's too.
        var pending: Pending?
        /// A transition's RFC 6381 codecs string, read from the file as it was recorded
        /// (``noteCodecs(_:of:readAt:)``), so that a re-run writes its manifest without opening
        /// the transitions again. Nil until read, and again once the file is recorded anew.
        var codecs: String?
        /// The file's inode and inode change time as recorded (nil in a ledger written before
        /// storyreel kept them): a file at the name with the recorded size and mtime is taken as
        /// written only while these hold too, else its contents are hashed. Nobody can set a
        /// change time, so a user's file put at an output's name with that size and mtime
        /// (`touch -r`, `exiftool -P`) is not taken for storyreel's, shipped and then pruned (a QA
        /// pass). Not the device: a disk mounted again can get another number (a loop or network
        /// volume, a pod's fresh mount), and every output was read again (a review).
        var inode: UInt64?
        var statusChanged: Int64?
        /// The warnings making the file gave (``UnitWarning``), said again by a run that finds
        /// it current; nil (not written) when there were none.
        var warnings: Warnings?

        /// An entry for a file of `stamp` with contents `sha256`, made with `warnings`.
        init(_ stamp: FileStamp, sha256: String, codecs: String? = nil, warnings: [String] = []) {
            (size, modified, self.sha256, self.codecs) = (stamp.size, stamp.modified, sha256, codecs)
            (inode, statusChanged) = (stamp.identity.inode, stamp.statusChanged)
            self.warnings = warnings.isEmpty ? nil : Warnings(lines: warnings)
        }

        /// An entry of a file not written yet (``pending`` says what is about to be).
        init(pending: Pending) {
            (size, modified, sha256, self.pending) = (0, .min, "", pending)
        }

        /// False for a clip copy's entry whose contents are not the ones its name gives (its
        /// first 16 hex digits of SHA-256): an edited ledger vouching for another video under a
        /// clip's name kept it, and the page played it under the user's story (a QA pass).
        func agreesWithName(_ relative: String) -> Bool {
            guard relative.hasPrefix("clips/") else { return true }
            let stem = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
            return [sha256, pending?.sha256 ?? ""].allSatisfy { $0.isEmpty || $0.hasPrefix(stem) }
        }

        /// True when a file of `stamp` is, by `stat` alone, the one recorded.
        func isWritten(as stamp: FileStamp) -> Bool {
            guard !sha256.isEmpty, size == stamp.size, modified == stamp.modified else { return false }
            guard let inode, let statusChanged else { return true }
            return inode == stamp.identity.inode && statusChanged == stamp.statusChanged
        }
    }

    /// An entry's warnings, read leniently: what is not an array of strings (a hand-edited
    /// ledger's) reads as none, where it made the whole ledger "not a ledger", every output no
    /// longer known as storyreel's (a re-check).
    struct Warnings: Codable, Equatable, Sendable {
        var lines: [String]

        init(lines: [String]) { self.lines = lines }

        init(from decoder: any Swift.Decoder) throws {
            lines = (try? decoder.singleValueContainer().decode([String].self)) ?? []
        }

        func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(lines)
        }
    }

    /// An output's contents about to be written: its size and SHA-256.
    struct Pending: Codable, Equatable, Sendable {
        var size: UInt64
        var sha256: String
    }

    /// What an output path holds now, compared with the ledger.
    public enum State: Equatable, Sendable {
        /// Nothing is there.
        case missing
        /// The file storyreel wrote, unchanged.
        case current
        /// storyreel wrote it, but it has changed since (tampered, truncated): redo it.
        case changed
        /// A regular file the ledger does not know (merged from a shard without its ledger, or
        /// from a bundle made before the ledger).
        case unknown
        /// Something other than a regular file (a symlink, a folder).
        case notRegular
    }

    /// Ledger files are read up to this size.
    static let maximumFileSize: UInt64 = 256 << 20
    /// The full render's ledger file in `.storyreel/` (a shard's is `ledger-K-of-N.json`).
    static let fullRenderFileName = "ledger.json"

    private let bundle: String
    private let fileName: String
    private let entries: Mutex<[String: Entry]>
    private let mergedFiles: [String]
    /// Why each ledger file that could not be read was passed over, one line each, for a
    /// warning: the outputs it listed are no longer known as storyreel's, so a `--prune` leaves
    /// those the run does not make again (a QA pass: a damaged ledger was passed over in silence).
    public let unreadable: [String]
    /// The outputs some ledger file on disk holds: those read, and those of each save.
    private let saved: Mutex<Set<String>>
    /// The outputs this run took as storyreel's without making them (``adopt(_:)``).
    private let adopted = Mutex<Set<String>>([])
    /// The outputs being made now, with the hash a clip copy is known by (nil for the others):
    /// see ``willMake(_:)``.
    private let inFlight = Mutex<[String: String?]>([:])

    /// True for the name of a ledger file in `.storyreel/`: the full render's or a shard's.
    static func isLedgerFileName(_ name: String) -> Bool { name.hasPrefix("ledger") && name.hasSuffix(".json") }

    /// Reads every ledger file of `bundle`; this writer (a full render, or `shard`) saves to its
    /// own file.
    public init(bundle: String, shard: RenderOptions.Shard?) {
        self.bundle = bundle
        fileName = shard.map { "ledger-\($0.name).json" } ?? Self.fullRenderFileName
        let folder = BundlePaths.join(bundle, BundlePaths.privateFolder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter(Self.isLedgerFileName).sorted()
        var merged: [String: Entry] = [:]
        var unreadable: [String] = []
        for name in names {
            let path = BundlePaths.join(folder, name)
            let entries: [String: Entry]
            do {
                let data = try RegularFile.contents(of: path, maxSize: BundleLedger.maximumFileSize)
                guard let decoded = JSONShape.decoded([String: Entry].self, from: data) else {
                    let reason =
                        (try? JSONSerialization.jsonObject(with: data)) == nil
                        ? JSONParseFailure.notValidJSON(data) : "not a ledger"
                    unreadable.append(Self.passedOver(path, reason))
                    continue
                }
                entries = decoded
            } catch {
                unreadable.append(Self.passedOver(path, MediaError.reason(of: error)))
                continue
            }
            merged.merge(entries.filter { BundlePaths.isLedgerPath($0.key) && $0.value.agreesWithName($0.key) }) {
                kept, _ in kept
            }
        }
        self.unreadable = unreadable
        entries = Mutex(merged)
        saved = Mutex(Set(merged.keys))
        mergedFiles = names
    }

    /// The warning for a ledger file passed over.
    private static func passedOver(_ path: String, _ reason: String) -> String {
        "\(path): \(reason); passed over: the outputs it lists are no longer known as storyreel's, and --prune "
            + "leaves those this run does not make again"
    }

    /// After a save that failed (a full disk): removes the outputs this run made and recorded
    /// since the last save that are still as written, and returns how many. Kept, they would be
    /// in no ledger file, and no `--prune` would ever remove them (a QA pass: a transition
    /// finished by a re-render at another `--crf` that a full disk stopped stayed in the bundle
    /// for good). What the run adopted stays: it was in no ledger before the run either, and the
    /// manifest left in place plays it (a QA pass: a bundle merged from shards lost every output,
    /// and a damaged ledger took the live bundle's clips and images with it).
    @discardableResult
    public func removeUnsaved() -> Int {
        let unsaved = recorded.subtracting(saved.withLock { $0 }).subtracting(adopted.withLock { $0 })
        return unsaved.sorted().filter { removeIfUnchanged($0) }.count
    }

    /// What `relative` holds now. A file whose size matches but whose mtime, inode or change time
    /// does not (copied from a shard, hard-linked, its permissions changed) is hashed: when its
    /// contents are what was written, the entry is refreshed.
    public func state(of relative: String) -> State {
        let path = BundlePaths.join(bundle, relative)
        guard let stamp = FileStamp(path: path, followingLinks: false) else { return .missing }
        guard stamp.isRegularFile else { return .notRegular }
        guard let entry = entries.withLock({ $0[relative] }) else { return .unknown }
        if entry.isWritten(as: stamp) { return .current }
        // The written contents, or those a run killed just after renaming them into place
        // wrote (it had recorded them as pending, but not yet as written).
        let known = [(entry.size, entry.sha256), entry.pending.map { ($0.size, $0.sha256) }].compactMap { $0 }
            .filter { !$0.1.isEmpty && $0.0 == stamp.size }
        if !known.isEmpty, let actual = try? ContentHasher.sha256(ofFileAt: path),
            known.contains(where: { $0.1 == actual })
        {
            // The same contents: what was read from them, and what making them said, still hold
            // (a re-check: a bundle restored from a tarball or a cache lost its warnings here).
            let same = actual == entry.sha256
            let refreshed = Entry(
                stamp, sha256: actual, codecs: same ? entry.codecs : nil,
                warnings: same ? entry.warnings?.lines ?? [] : [])
            entries.withLock { $0[relative] = refreshed }
            return .current
        }
        // Only pending, and not what was pending: a file storyreel has not written.
        return entry.sha256.isEmpty ? .unknown : .changed
    }

    /// Records that `data` is about to take the name `relative` (a rename that a kill may
    /// interrupt), keeping what is recorded for the file there now: until ``record(_:sha256:)``,
    /// either one is storyreel's. Save the ledger before the rename. Without this, a run killed
    /// between renaming the manifest into place and saving the ledger left a manifest the next
    /// run took for an edit, set aside with a warning.
    public func willWrite(_ relative: String, data: Data) throws {
        let pending = Pending(size: UInt64(data.count), sha256: try ContentHasher.sha256(of: data))
        entries.withLock { entries in
            if entries[relative] == nil {
                entries[relative] = Entry(pending: pending)
            } else {
                entries[relative]?.pending = pending
            }
        }
    }

    /// Records `relative` as storyreel's, as it is now, with its contents' hash (computed when
    /// not given) and the warnings making it gave. Throws when the file cannot be read.
    public func record(_ relative: String, sha256 known: String? = nil, warnings: [String] = []) throws {
        let file = try RegularFile(path: BundlePaths.join(bundle, relative))
        let sha256 = try known ?? ContentHasher.sha256(ofFileAt: file.path)
        let entry = Entry(file.stamp, sha256: sha256, warnings: warnings)
        entries.withLock { $0[relative] = entry }
    }

    /// The warnings recorded with `relative` when it was made, for a run that finds it current:
    /// at most four lines of up to 2,000 characters, each naming `relative` first, as making it
    /// gives them (what else a hand-edited ledger holds is not said).
    func recordedWarnings(of relative: String) -> [String] {
        let recorded = entries.withLock { $0[relative]?.warnings?.lines } ?? []
        return recorded.prefix(4).filter { $0.hasPrefix("\(relative): ") && $0.count <= 2_000 }
    }

    /// Records `relative`, an output storyreel did not make in this run (made by a run that did
    /// not record it, or by a shard whose ledger was not merged), as storyreel's, as it is now.
    /// A failed save leaves it in place (``removeUnsaved()``).
    public func adopt(_ relative: String) throws {
        try record(relative)
        adopted.withLock { _ = $0.insert(relative) }
    }

    /// The codecs string noted for `relative` (``noteCodecs(_:of:readAt:)``) while the file is
    /// still the one it was read from; nil when none was noted or the file changed since.
    public func codecs(of relative: String) -> String? {
        guard state(of: relative) == .current,
            let codecs = entries.withLock({ $0[relative]?.codecs }), Self.isCodecsString(codecs)
        else { return nil }
        return codecs
    }

    /// True for what a probe writes as a codecs string (`avc1.64001f`, `hvc1.1.6.L93.90`): up to
    /// 64 ASCII letters, digits and dots. Anything else in a ledger was put there by hand, and
    /// is read again from the file rather than copied into the manifest (a QA pass).
    static func isCodecsString(_ codecs: String) -> Bool {
        !codecs.isEmpty && codecs.utf8.count <= 64
            && codecs.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == ".")
            }
    }

    /// Notes `codecs`, read from `relative` when it had `stamp` (taken before it was read), when
    /// that is the file the ledger records; otherwise notes nothing.
    public func noteCodecs(_ codecs: String, of relative: String, readAt stamp: FileStamp) {
        entries.withLock { entries in
            guard let entry = entries[relative], entry.isWritten(as: stamp) else { return }
            entries[relative]?.codecs = codecs
        }
    }

    /// The recorded SHA-256 of `relative`'s contents, or nil when it is not recorded.
    public func hash(of relative: String) -> String? { entries.withLock { $0[relative]?.sha256 } }

    /// Forgets `relative`.
    public func forget(_ relative: String) { _ = entries.withLock { $0.removeValue(forKey: relative) } }

    /// Every recorded output.
    public var recorded: Set<String> { entries.withLock { Set($0.keys) } }

    /// Moves `relative`, an output that changed since storyreel wrote it (someone may have put
    /// their own file there), into `.storyreel/replaced/` (its path's `/` made `-`, a number
    /// added when the name is taken), on the same file system, and returns where it went
    /// relative to the bundle. A file whose bytes are those of a copy already kept there is not
    /// kept twice: its name is taken away and the copy's path returned (a deploy step that made
    /// the same edit to the page after every render filled the folder with copies; a QA pass).
    /// The move goes through the folders' descriptors (``FolderHandle``), the ones the render
    /// pinned: a folder swapped for a symlink cannot make it move someone else's file.
    /// Throws `.cannotCreateOutput` naming `relative` and the system's reason when it cannot be
    /// moved (an immutable file, a read-only folder); it is then left alone.
    public func setAside(_ relative: String) throws -> String {
        let source = BundlePaths.join(bundle, relative)
        let sourceName = (relative as NSString).lastPathComponent
        let privateFolder = BundlePaths.join(bundle, BundlePaths.privateFolder)
        let replacedName = (BundlePaths.replacedFolder as NSString).lastPathComponent
        func failure(_ reason: String) -> MediaError {
            MediaError(
                .cannotCreateOutput, path: source,
                "changed since storyreel wrote it, and cannot be moved aside to be written again: \(reason)")
        }
        func failure(_ code: Int32) -> MediaError { failure(SystemErrorText.describe(code)) }
        let from = try FolderHandle.forWriting(source)
        let parent = try FolderHandle.forWriting(source, in: privateFolder)
        if !FileCreationMask.makeFolder(replacedName, in: parent.descriptor) {
            let code = errno
            guard code == EEXIST else { throw failure(code) }
        }
        let folder: FolderHandle
        do {
            folder = try FolderHandle(name: replacedName, in: parent)
        } catch {
            throw failure(MediaError.reason(of: error))
        }
        // The edited file as it is now, and its contents' hash once needed: a copy kept with the
        // same bytes is not kept twice, and the file's name is taken away only while it is still
        // the file hashed (a write landing between would be lost; a review).
        let examined = FileStamp(path: from.entryPath(sourceName), followingLinks: false)
        var sourceDigest: String??
        func isKept(as name: String) -> Bool {
            guard let examined, examined.isRegularFile,
                let kept = FileStamp(path: folder.entryPath(name), followingLinks: false), kept.isRegularFile,
                examined.size == kept.size
            else { return false }
            if sourceDigest == nil {
                sourceDigest = .some(
                    try? ContentHasher.sha256(ofFileAt: from.entryPath(sourceName), timeout: Self.hashTimeout))
            }
            guard let digest = sourceDigest ?? nil,
                (try? ContentHasher.sha256(ofFileAt: folder.entryPath(name), timeout: Self.hashTimeout)) == digest,
                let now = FileStamp(path: from.entryPath(sourceName), followingLinks: false), now == examined,
                now.statusChanged == examined.statusChanged
            else { return false }
            return true
        }
        let flat = relative.replacingOccurrences(of: "/", with: "-")
        let (stem, suffix) = ((flat as NSString).deletingPathExtension, (flat as NSString).pathExtension)
        for attempt in 1...1000 {
            let name = attempt == 1 ? flat : "\(stem)-\(attempt)" + (suffix.isEmpty ? "" : ".\(suffix)")
            // Never over a file already kept: link it there, then take the output's name away;
            // where the file system has no hard links (exFAT, FAT), move it there, still never
            // over a kept file (every render of a bundle on exFAT failed with 73 once one output
            // was edited: a QA pass).
            let linked = linkat(from.descriptor, sourceName, folder.descriptor, name, 0) == 0
            var code = linked ? 0 : errno
            if !linked, [EPERM, EOPNOTSUPP, ENOSYS, EMLINK].contains(code) {
                code = from.renameWithoutReplacing(sourceName, to: name, in: folder)
                if code == 0 { return BundlePaths.replacedFolder + "/" + name }
            }
            guard linked else {
                guard code == EEXIST else { throw failure(code) }
                if isKept(as: name) {
                    guard unlinkat(from.descriptor, sourceName, 0) == 0 else { throw failure(errno) }
                    return BundlePaths.replacedFolder + "/" + name
                }
                continue
            }
            guard unlinkat(from.descriptor, sourceName, 0) == 0 else {
                let code = errno
                unlinkat(folder.descriptor, name, 0)
                throw failure(code)
            }
            return BundlePaths.replacedFolder + "/" + name
        }
        throw failure("\(BundlePaths.replacedFolder)/ holds 1000 other copies of it")
    }

    /// Seconds a hash of a set-aside file may take (a file on slow storage; files are opened
    /// with a deadline).
    static let hashTimeout = 60.0

    /// Removes `relative` when it is still exactly the file storyreel recorded (its size and
    /// mtime, or else its contents' hash), and forgets it. Returns true when a file was removed.
    ///
    /// A file changed since storyreel wrote it stays, and so does its entry: a later run that
    /// needs its name again sets it aside and makes it anew. Forgotten, it became a stranger's
    /// file whose unit was skipped for good (a QA pass: a `--link` clip whose source was edited
    /// in place, pruned, then wanted again).
    public func removeIfUnchanged(_ relative: String) -> Bool {
        // As ``state(of:)`` decides everywhere else: a file whose mtime changed (a copy, a CI
        // cache restore) is still as written while its contents hash the same.
        let path = BundlePaths.join(bundle, relative)
        let examined = FileStamp(path: path, followingLinks: false)
        let state = state(of: relative)
        if state == .changed { return false }
        guard state == .current, let examined, FileStamp(path: path, followingLinks: false) == examined else {
            // Gone, or no longer a regular file: nothing of storyreel's is left to remove. One
            // that changed between the two looks stays known, for the next run to decide.
            if state != .current { forget(relative) }
            return false
        }
        // Through the folder's descriptor, not the path: an output folder swapped for a symlink
        // meanwhile would have led the unlink outside the bundle (a QA pass). Forgotten only once
        // removed: one forgotten first and then not removed was never pruned again (a QA pass).
        let folder = (path as NSString).deletingLastPathComponent
        guard
            FolderEntryRemoval.remove(
                (path as NSString).lastPathComponent, in: folder, identity: examined.identity,
                folderMayBeLink: !relative.contains("/"))
        else { return false }
        forget(relative)
        return true
    }

    /// Removes the recorded clip copy `relative` when it is a hard link to one of `sources` (the
    /// input's clips, by device and inode), whatever its bytes: a `--link` copy whose source was
    /// edited in place holds the edit under the old content's name, and was left for good as
    /// changed since it was written (an incremental-render QA pass). Its bytes are the source's,
    /// which the input keeps: removing the link loses nothing. Returns true when removed.
    public func removeLink(_ relative: String, toOneOf sources: Set<FileIdentity>) -> Bool {
        guard relative.hasPrefix("clips/") else { return false }
        let path = BundlePaths.join(bundle, relative)
        guard let examined = FileStamp(path: path, followingLinks: false), examined.isRegularFile,
            sources.contains(examined.identity),
            FolderEntryRemoval.remove(
                (path as NSString).lastPathComponent, in: (path as NSString).deletingLastPathComponent,
                identity: examined.identity, folderMayBeLink: false)
        else { return false }
        forget(relative)
        return true
    }

    /// Notes that `outputs` (bundle-relative, each with a clip copy's known SHA-256) are being
    /// made, by one batch of work units that records them all once the batch is done; an
    /// interrupt meanwhile records those that have taken their names (``saveOnInterrupt()``).
    public func willMake(_ outputs: [(relative: String, sha256: String?)]) {
        inFlight.withLock { inFlight in
            for output in outputs { inFlight[output.relative] = output.sha256 }
        }
    }

    /// Notes that the batch that made `relatives` is done with them (recorded or failed).
    public func doneMaking(_ relatives: [String]) {
        inFlight.withLock { inFlight in
            for relative in relatives { inFlight.removeValue(forKey: relative) }
        }
    }

    /// Records those of `outputs` (bundle-relative, each with a clip copy's known SHA-256) that
    /// have taken their names and are not recorded yet: what a batch of units that failed or
    /// was interrupted part-way had finished (a clip's poster, written before its stills timed
    /// out, was in no ledger, so no `--prune` removed it; a QA pass). Outputs take their names
    /// only once whole. A file is taken for this run's only when it shows it: an image or a
    /// transition by storyreel's mark (``OutputMark``), a clip copy by hashing to its key; a
    /// file someone put at an output's name meanwhile is not recorded (a later `--prune` would
    /// remove it).
    public func recordFinished(_ outputs: [(relative: String, sha256: String?)]) {
        for (relative, sha256) in outputs {
            let path = BundlePaths.join(bundle, relative)
            guard FileStamp(path: path, followingLinks: false)?.isRegularFile == true,
                entries.withLock({ $0[relative] }) == nil
            else { continue }
            if let sha256 {
                guard (try? ContentHasher.sha256(ofFileAt: path)) == sha256 else { continue }
            } else if !OutputMark.isMarked(path) {
                continue
            }
            try? record(relative, sha256: sha256)
        }
    }

    /// On an interrupt: records the outputs being made that have taken their names (a still
    /// finished before the transition of its batch) and saves. Without it the outputs of an
    /// interrupted run were in no ledger (it is saved at the end), so no `--prune` removed them
    /// (a QA pass). Nothing is thrown: the process is about to die of the signal.
    public func saveOnInterrupt() {
        recordFinished(inFlight.withLock { $0.map { ($0.key, $0.value) } })
        // A first run interrupted before it finished anything leaves no ledger (its `.storyreel/`
        // then goes with the other empty folders it made).
        guard !mergedFiles.isEmpty || !entries.withLock({ $0.isEmpty }) else { return }
        try? save()
    }

    /// Writes this writer's ledger file (staged in `.storyreel/`); a full render also removes
    /// the shard ledgers it merged. Entries whose files are gone are dropped.
    public func save() throws {
        let snapshot = entries.withLock { current -> [String: Entry] in
            current = current.filter {
                $0.value.pending != nil || FileManager.default.fileExists(atPath: BundlePaths.join(bundle, $0.key))
            }
            return current
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let folder = BundlePaths.join(bundle, BundlePaths.privateFolder)
        let data = try encoder.encode(snapshot)
        let path = BundlePaths.join(folder, fileName)
        // A no-op run leaves the file as it is (its mtime too: CI caches key on it).
        if (try? RegularFile.contents(of: path, maxSize: BundleLedger.maximumFileSize)) != data {
            try AtomicFile.write(data, to: path)
        }
        saved.withLock { $0.formUnion(snapshot.keys) }
        guard fileName == "ledger.json" else { return }
        for name in mergedFiles where name != fileName {
            unlink(BundlePaths.join(folder, name))
        }
    }
}
