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
    /// What a placed clip is checked against.
    enum Check {
        /// Its contents must hash to this SHA-256 (hex).
        case sha256(String)
        /// Its size, mtime and identity must stay this stamp (taken before it was probed) until
        /// it is placed, and every byte of that size must be placed. Nothing is hashed.
        case unchanged(since: FileStamp)
    }

    /// Copies `source` to `destination` (or, with `link`, hard-links it when both are on one
    /// file system; a symlink's target is linked, never the symlink), checking it with `check`.
    /// With `exclusive`, an existing destination is never replaced (``StagedFile/NameTaken`` is
    /// thrown). Throws a ``MediaError``: `.invalidMedia` naming the source when it changed,
    /// `.cannotCreateOutput`/`.ioFailure` naming the destination when it cannot be written.
    static func place(
        _ source: String, at destination: String, check: Check, link: Bool, exclusive: Bool = false,
        timeout: Double? = nil
    ) throws {
        if link, let temporary = TemporaryFile.hardLink(to: source, for: destination) {
            defer { TemporaryFile.remove(temporary) }
            switch check {
            case .sha256(let expected):
                try verify(try ContentHasher.sha256(ofFileAt: temporary, timeout: timeout) == expected, source)
            case .unchanged(let stamp):
                try verify(FileStamp(path: temporary) == stamp, source)
            }
            try StagedFile.moveIntoPlace(temporary, at: destination, exclusively: exclusive)
            return
        }
        let input = try RegularFile(path: source, timeout: timeout)
        let output = try StagedFile(for: destination, replacing: !exclusive)
        let hasher: ContentHasher?
        if case .sha256 = check { hasher = try ContentHasher() } else { hasher = nil }
        let copied = try input.forEachChunk { chunk in
            try chunk.withUnsafeBytes { bytes in
                hasher?.update(bytes)
                try output.append(bytes)
            }
        }
        switch check {
        case .sha256(let expected):
            try verify(hasher?.finalHex() == expected, source)
        case .unchanged(let stamp):
            try verify(input.stamp == stamp && copied == stamp.size && input.currentStamp() == stamp, source)
        }
        if exclusive {
            try output.commitExclusively()
        } else {
            try output.commit()
        }
    }

    private static func verify(_ unchanged: Bool, _ source: String) throws {
        guard unchanged else {
            throw MediaError(
                .invalidMedia, path: source, "it changed while it was being copied; run again once it is complete")
        }
    }
}
