import Foundation
import StoryMedia
import StoryreelKit
import Synchronization

/// Remembers, per clip path, the file's size, mtime, inode and inode change time with its
/// ``ClipRecord``, or with why it cannot be used when that lies in its bytes (per avatar path,
/// with its SHA-256 alone), so a re-run re-hashes and re-probes only files that changed. Stored as JSON
/// inside the bundle. The change time catches a clip rewritten in place with its size and mtime
/// put back (an in-place metadata edit that keeps the date, a file system with coarse mtimes),
/// which a render would otherwise never see again while `plan`, which hashes, saw it.
public final class StatCache: Sendable {
    /// The cache's file in the bundle's `.storyreel/`.
    static let fileName = "stat-cache.json"

    private struct Entry: Codable, Sendable {
        var size: UInt64
        var modified: Int64
        var inode: UInt64
        /// Nil in caches written before it was kept: such an entry no longer answers.
        var statusChanged: Int64?
        /// A clip's record; nil for a file kept by its hash alone (an avatar).
        var record: ClipRecord?
        /// The ``probeVersion`` the record was made by; nil in caches written before it was kept.
        var probe: String?
        /// The SHA-256 of a file kept by its hash alone; nil for a clip, whose record has it.
        var sha256: String?
        /// Why the clip cannot be used (its skipped entry's reason), for a clip with no record;
        /// its `probe` is then ``failureProbe``.
        var failure: String?
        /// True when the failure is its images' (it probes but does not decode), found by the
        /// units a full render ran; nil when it is the probe's.
        var fromUnits: Bool?
        /// When the file's stamp was taken for the entry (before it was read), in nanoseconds
        /// since 1970 by the wall clock; nil in caches written before it was kept (``isRacy``).
        var made: Int64?

        /// An entry for a file of `stamp`.
        init(
            _ stamp: (size: UInt64, modified: Int64, inode: UInt64, statusChanged: Int64), record: ClipRecord?,
            probe: String?, sha256: String?, failure: String? = nil, fromUnits: Bool? = nil
        ) {
            (size, modified, inode, statusChanged) = (stamp.size, stamp.modified, stamp.inode, stamp.statusChanged)
            (self.record, self.probe, self.sha256, self.failure) = (record, probe, sha256, failure)
            self.fromUnits = fromUnits
        }

        /// True when the file last changed within a tick of the file system's clock of when
        /// its stamp was taken: a write in the same tick after that leaves the same stamp, and
        /// its old hash was kept for good (a QA pass: on ext4 with whole-second times, a
        /// half-written upload completed in the second it was hashed). Such an entry is not
        /// trusted; the file is read again, and the entry made then, later, is (git's rule for
        /// racy index entries). The change is the change time, which the kernel sets on every
        /// write (the mtime is a file's to set: a camera's clock a year ahead would make a clip
        /// read again on every run, a review), and a change later than a tick after the stamp is
        /// a clock's error, not a write. The tick is 2 s where both times are whole seconds (FAT's
        /// tick; ext4 with small inodes), else 10 ms (the kernel's timestamp clock ticks at up to
        /// 10 ms).
        var isRacy: Bool {
            guard let made else { return false }
            let changed = statusChanged ?? modified
            let tick = StatCache.timestampTick(modified: modified, statusChanged: statusChanged ?? 0)
            return changed >= made.subtractingReportingOverflow(tick).partialValue
                && changed <= made.addingReportingOverflow(tick).partialValue
        }

        /// True when the record and the hash hold only values a probe and a hash give
        /// (``ClipRecord/isWellFormed``).
        var isWellFormed: Bool {
            (record?.isWellFormed ?? true) && (sha256.map(ManifestSchemaChecker.isSHA256) ?? true)
        }

        /// True when a file of `stamp` is, by `stat`, the one this entry was made from, its
        /// change time included (a failure's too: see ``StatCache/failureEntry(_:stamp:timeout:)``).
        func matches(_ stamp: (size: UInt64, modified: Int64, inode: UInt64, statusChanged: Int64)) -> Bool {
            matchesBarTheChangeTime(stamp) && statusChanged == stamp.statusChanged
        }

        /// True when a file of `stamp` has this entry's size, mtime and inode, and the entry is
        /// not racy.
        func matchesBarTheChangeTime(_ stamp: (size: UInt64, modified: Int64, inode: UInt64, statusChanged: Int64))
            -> Bool
        {
            size == stamp.size && modified == stamp.modified && inode == stamp.inode && !isRacy
        }
    }

    /// The version of what a ``ClipRecord`` says of a clip: bumped whenever the probe reads a
    /// clip differently, so that a bundle made before learns the new reading on its next render
    /// rather than keeping the old record for as long as the clip is unchanged, and `validate`
    /// (which probes afresh) does not then fault a manifest a render cannot mend. 2: a pixel
    /// aspect given only by the H.264/HEVC bitstream is read; 3: the sample size table checked; 4: the
    /// audio is the first enabled track, its start is decoded (channels a PCE gives, audio that
    /// does not decode) and a disabled one is no audio; 5: a Dolby Vision sample entry's codecs
    /// string is its own, `dvh1.05.06`, not `hvc1.…`, and a last H.264 or HEVC sample ending in
    /// 64 zeros is an upload still being written; 6: a segment-indexed MP4's fragments are all
    /// indexed, composition offsets FFmpeg drops are a warning, and so is a last AAC frame
    /// ending in a zero byte; 7: HLG signalled by an alternative transfer characteristics SEI over
    /// BT.2020's transfer is HLG, and a frame held far longer than the others, first or last,
    /// makes the frame rate variable; 8: the audio's RFC 6381 codecs string is read, which the
    /// manifest's items carry as `audioCodecs`, and a VP9 clip's codecs string gives its `vpcC`
    /// box's level).
    static let probeVersion = "storyreel-probe-8"

    /// What a failure was found by: the probe's version, storyreel's and libavutil's, and this
    /// very executable (its size and mtime), so that any other build, which may read the clip
    /// otherwise, tries the clip again (a review: a fix released under the same version number
    /// would not have reached the clips it had skipped).
    static let failureProbe: String = {
        let executable = FileStamp(path: "/proc/self/exe").map { "\($0.size)-\($0.modified)" } ?? "unknown"
        return "\(probeVersion) \(BundlePlan.toolVersion) avutil-\(MediaLibraries.utilityVersion) \(executable)"
    }()

    /// The tick of the clock that gave a file these times, at most, in nanoseconds: 2 s where
    /// both are whole seconds (FAT's tick; ext4 with small inodes keeps seconds), else 10 ms.
    static func timestampTick(modified: Int64, statusChanged: Int64) -> Int64 {
        modified % 1_000_000_000 == 0 && statusChanged % 1_000_000_000 == 0 ? 2_000_000_000 : 10_000_000
    }

    /// Nanoseconds added to the time a stamp was taken, for ``Entry/made``: 0, or a test's.
    private let madeOffset: Int64

    /// The cache file is read up to this size.
    static let maximumFileSize: UInt64 = 256 << 20

    /// The entries by path, and whether any was added since loading.
    private let state: Mutex<(entries: [String: Entry], changed: Bool)>
    private let file: String

    /// Loads the cache stored at `file` (an empty cache when it is missing or unreadable);
    /// `madeOffset` moves the time entries say their stamps were taken at (tests).
    public init(file: String, madeOffset: Int64 = 0) {
        self.file = file
        self.madeOffset = madeOffset
        let data = (try? RegularFile.contents(of: file, maxSize: StatCache.maximumFileSize)) ?? Data()
        let entries = JSONShape.decoded([String: Entry].self, from: data) ?? [:]
        // An entry holding a value no probe gives (the file edited by hand, or damaged) is
        // dropped, and its file read again, rather than written into a manifest.
        let wellFormed = entries.filter { $0.value.isWellFormed }
        state = Mutex((wellFormed, wellFormed.count != entries.count))
    }

    /// The cached record for `path`, when its size, mtime, inode and change time are unchanged (as `stat`
    /// says now, or as `stamp` says when given).
    public func record(for path: String, stamp given: FileStamp? = nil) -> ClipRecord? {
        guard let stamp = given.map(StatCache.stamp) ?? StatCache.stamp(path), let entry = entry(path, matching: stamp),
            entry.probe == StatCache.probeVersion || (entry.probe == StatCache.failureProbe && entry.fromUnits == true)
        else { return nil }
        // A Dolby Vision clip cached before its profile was kept is probed again, for the
        // warning a profile without a compatible base layer gets (a review); no other clip is.
        if let record = entry.record, record.hdr == "dolbyVision", record.dolbyVisionProfile == nil { return nil }
        return entry.record
    }

    /// Why the clip at `path` cannot be used, as found when it was as `stamp` says, by this build
    /// of storyreel: a no-op re-run re-read every clip it had skipped, a 222 MB truncated upload
    /// whole (a QA pass). A failure of the clip's images counts only with `unitFailuresToo`: a
    /// shard, which must plan the units every other shard plans, passes false.
    public func failure(
        for path: String, stamp given: FileStamp, unitFailuresToo: Bool = true, timeout: Double? = nil
    ) -> String? {
        guard let entry = failureEntry(path, stamp: given, timeout: timeout), unitFailuresToo || entry.fromUnits != true
        else { return nil }
        return entry.failure
    }

    /// The failure's entry for `path` while the file is the one it was made from: by its stamp,
    /// change time included, so a clip mended in place with its size and mtime put back is
    /// tried again (a QA pass: it stayed skipped for good, where a fresh render played it). A
    /// probe's failure is then read again, which fails fast; for a clip whose images failed, whose
    /// record has its hash, a change time that alone moved (`render --link` links the clip and
    /// `--prune` unlinks it: it was tried again on every run, a review) is checked by hashing
    /// it, and the entry is kept again with the new stamp while the bytes are the same.
    private func failureEntry(_ path: String, stamp given: FileStamp, timeout: Double?) -> Entry? {
        let stamp = StatCache.stamp(given)
        guard let entry = state.withLock({ $0.entries[path] }), entry.probe == StatCache.failureProbe,
            entry.failure != nil, entry.matchesBarTheChangeTime(stamp)
        else { return nil }
        if entry.statusChanged == stamp.statusChanged { return entry }
        guard entry.fromUnits == true, let sha256 = entry.record?.sha256,
            (try? ContentHasher.sha256(ofFileAt: path, timeout: timeout)) == sha256,
            let after = StatCache.stamp(path), after == stamp
        else { return nil }
        var kept = entry
        kept.statusChanged = stamp.statusChanged
        keep(kept, for: path, takenAt: given.takenAt)
        return kept
    }

    /// Remembers that the clip at `path`, as `stamp` says it was when read (checked unchanged
    /// after), cannot be used, for `reason`; `record`, what its probe read, when its images could
    /// not be made: a shard, which plans the clip's units all the same, takes the clip's record
    /// from it (``record(for:stamp:)``) rather than probing and overwriting it, and a full
    /// render sizes its canvas with it (``failedClipRecord(for:stamp:)``), as before it knew.
    public func storeFailure(_ reason: String, for path: String, stamp given: FileStamp, record: ClipRecord? = nil) {
        keep(
            Entry(
                StatCache.stamp(given), record: record, probe: StatCache.failureProbe, sha256: nil, failure: reason,
                fromUnits: record != nil ? true : nil),
            for: path, takenAt: given.takenAt)
    }

    /// The record of the clip at `path` whose images could not be made (it probes but does not
    /// decode), while it is as `stamp` says; nil otherwise.
    public func failedClipRecord(for path: String, stamp given: FileStamp) -> ClipRecord? {
        guard let entry = entry(path, matching: StatCache.stamp(given)), entry.probe == StatCache.failureProbe,
            entry.fromUnits == true
        else { return nil }
        return entry.record
    }

    /// The cached SHA-256 of `path`, a file kept by its hash alone (an avatar), when it is
    /// unchanged as `stamp` says: a no-op re-run read every avatar whole again, a 14.7 MB one in
    /// 50 ms (a QA pass).
    public func hash(for path: String, stamp given: FileStamp) -> String? {
        entry(path, matching: StatCache.stamp(given))?.sha256
    }

    /// Remembers `sha256` for `path` as `stamp` says it was when hashed (checked unchanged after).
    public func storeHash(_ sha256: String, for path: String, stamp given: FileStamp) {
        keep(Entry(StatCache.stamp(given), record: nil, probe: nil, sha256: sha256), for: path, takenAt: given.takenAt)
    }

    /// Remembers `record` for `path` as the file is now (or as `stamp` says, when given: the
    /// stamp it had before it was read, checked unchanged after).
    public func store(_ record: ClipRecord, for path: String, stamp given: FileStamp? = nil) {
        guard let taken = given ?? FileStamp(path: path) else { return }
        keep(
            Entry(StatCache.stamp(taken), record: record, probe: StatCache.probeVersion, sha256: nil), for: path,
            takenAt: taken.takenAt)
    }

    /// The entry for `path` when the file is, by `stat`, the one it was made from.
    private func entry(
        _ path: String, matching stamp: (size: UInt64, modified: Int64, inode: UInt64, statusChanged: Int64)
    )
        -> Entry?
    {
        state.withLock { $0.entries[path] }.flatMap { $0.matches(stamp) ? $0 : nil }
    }

    /// Puts `entry` in for `path`, to be saved, its stamp taken at `takenAt`.
    private func keep(_ entry: Entry, for path: String, takenAt: Int64) {
        var entry = entry
        entry.made = takenAt.addingReportingOverflow(madeOffset).partialValue
        state.withLock { state in
            state.entries[path] = entry
            state.changed = true
        }
    }

    /// Writes the cache back, atomically, keeping only `paths`; does nothing when no entry was
    /// added or dropped, so a no-op re-run writes nothing.
    public func save(keeping paths: Set<String>) throws {
        let (kept, unchanged) = state.withLock { state in
            let kept = state.entries.filter { paths.contains($0.key) }
            return (kept, !state.changed && kept.count == state.entries.count)
        }
        if unchanged { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(kept), to: file)
    }

    private static func stamp(_ path: String) -> (size: UInt64, modified: Int64, inode: UInt64, statusChanged: Int64)? {
        FileStamp(path: path).map(stamp)
    }

    private static func stamp(_ stamp: FileStamp) -> (
        size: UInt64, modified: Int64, inode: UInt64, statusChanged: Int64
    ) {
        (stamp.size, stamp.modified, stamp.identity.inode, stamp.statusChanged)
    }
}
