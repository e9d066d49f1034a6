import Foundation
import StoryMedia

/// Puts a clip into a folder (a bundle's `clips/`, a story folder) as a regular file: a copy or
/// a hard link, never a symlink, staged under a temporary name and then given its name, so a
/// reader never sees half a file. The source is never modified.
///
/// What is placed is checked against what the clip was filed under: its hash, computed as it is
/// placed, or its stat stamp before and after, so a clip that changes or is truncated while
/// storyreel works is refused instead of being filed under what it was.
enum ClipPlacement {
    /// What a placed clip is checked against: its hash, the stamp it had when it was inspected,
    /// or both.
    struct Check {
        /// Its contents must hash to this SHA-256 (hex).
        var sha256: String?
        /// Its size, mtime and identity must stay this stamp (taken before it was inspected)
        /// until it is placed, at its path too, and every byte of that size must be placed.
        var unchangedSince: FileStamp?

        /// Its contents must hash to `sha256`.
        static func sha256(_ sha256: String) -> Check { Check(sha256: sha256) }
        /// It must not change from `stamp` until it is placed; nothing is hashed.
        static func unchanged(since stamp: FileStamp) -> Check { Check(unchangedSince: stamp) }
    }

    /// Copies `source` to `destination` (or, with `link`, hard-links it when both are on one
    /// file system; a symlink's target is linked, never the symlink), checking it with `check`.
    /// With `exclusive`, an existing destination is never replaced (``StagedFile/NameTaken`` is
    /// thrown). Throws a ``MediaError``: `.invalidMedia` naming the source when it changed,
    /// `.cannotCreateOutput`/`.ioFailure` naming the destination when it cannot be written.
    /// `beforePlacing` runs once the copy is whole and checked, before it takes its name: what
    /// it throws leaves nothing placed (`ingest` waits there for the upload's first frame,
    /// decoded meanwhile). `placed` runs once it has its name, with interrupts still held off
    /// (`ingest` says so there, so an interrupt cannot fall between the two).
    static func place(
        _ source: String, at destination: String, check: Check, link: Bool, exclusive: Bool = false,
        timeout: Double? = nil, beforePlacing: () throws -> Void = {}, placed: () -> Void = {}
    ) throws {
        if link,
            try linkInPlace(
                source, at: destination, check: check, exclusive: exclusive, timeout: timeout, placed: placed)
        {
            return
        }
        let input = try RegularFile(path: source, timeout: timeout)
        let output = try StagedFile(for: destination, replacing: !exclusive, marked: false)
        let hasher = check.sha256 == nil ? nil : try ContentHasher()
        // Nothing to hash: the kernel copies it (an ingest of a 277 MB upload spent 80 ms of its
        // 480 copying through memory, in `make bench`). Where it cannot, it goes through memory.
        let copied =
            try (hasher == nil ? output.appendKernelCopy(of: input) : nil)
            ?? input.forEachChunk { chunk in
                try chunk.withUnsafeBytes { bytes in
                    hasher?.update(bytes)
                    try output.append(bytes)
                }
            }
        if let stamp = check.unchangedSince {
            // The open file, and the path: an upload renamed over or removed meanwhile is not
            // the one that was inspected any more. And its change time, which no program can put
            // back: an upload rewritten in place while it was copied, its mtime then put back,
            // was filed (a QA pass). (A stamp leaves it out, for `render --link`'s own hard link;
            // nothing here links the source.)
            let now = input.currentStamp()
            try verify(
                input.stamp == stamp && copied == stamp.size && now == stamp
                    && now?.statusChanged == stamp.statusChanged && FileStamp(path: source) == stamp, source)
        }
        if let expected = check.sha256 { try verify(hasher?.finalHex() == expected, source) }
        try beforePlacing()
        try output.commit(exclusively: exclusive, placed: placed)
    }

    /// Hard-links `source` to `destination`, checked with `check`, as ``place(_:at:check:link:exclusive:timeout:)``
    /// does with `link`; returns false, having changed nothing, where no hard link can be made
    /// (another file system, a file this user may not link).
    static func linkInPlace(
        _ source: String, at destination: String, check: Check, exclusive: Bool = false, timeout: Double? = nil,
        placed: () -> Void = {}
    ) throws -> Bool {
        let folder = try FolderHandle.forWriting(destination)
        guard let temporary = TemporaryFile.hardLink(to: source, for: destination, in: folder) else { return false }
        // The temporary path leads through the folder's descriptor: removed while it is open.
        defer { withExtendedLifetime(folder) { TemporaryFile.remove(temporary.path) } }
        if let stamp = check.unchangedSince {
            try verify(FileStamp(path: temporary.path) == stamp && FileStamp(path: source) == stamp, source)
        }
        if let expected = check.sha256 {
            try verify(try ContentHasher.sha256(ofFileAt: temporary.path, timeout: timeout) == expected, source)
        }
        try StagedFile.moveIntoPlace(
            temporary.name, in: folder, at: destination, folder: folder, exclusively: exclusive, placed: placed)
        return true
    }

    private static func verify(_ unchanged: Bool, _ source: String) throws {
        guard unchanged else {
            throw MediaError(
                .invalidMedia, path: source,
                "\(BundlePlan.changedWhile) it was being copied; \(BundlePlan.runAgain)")
        }
    }
}
