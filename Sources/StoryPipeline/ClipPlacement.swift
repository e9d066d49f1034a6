import Foundation
import StoryMedia

/// Puts a clip into a folder (a bundle's `clips/`, a story folder) as a regular file: a copy or
/// a hard link, never a symlink, staged under a temporary name and then given its name, so a
/// reader never sees half a file. The source is never modified.
///
/// What is placed is hashed as it is placed and compared with the hash the clip was filed
/// under, so a clip that changes or is truncated while storyreel works is refused instead of
/// being filed under its old hash.
enum ClipPlacement {
    /// Copies `source` to `destination` (or, with `link`, hard-links it when both are on one
    /// file system; a symlink's target is linked, never the symlink), checking that the contents
    /// hash to `sha256`. With `exclusive`, an existing destination is never replaced
    /// (``StagedFile/NameTaken`` is thrown). Throws a ``MediaError``: `.invalidMedia` naming the
    /// source when its contents changed, `.cannotCreateOutput`/`.ioFailure` naming the
    /// destination when it cannot be written.
    static func place(
        _ source: String, at destination: String, sha256: String, link: Bool, exclusive: Bool = false,
        timeout: Double? = nil
    ) throws {
        if link, let temporary = TemporaryFile.hardLink(to: source, for: destination) {
            defer { TemporaryFile.remove(temporary) }
            try check(try ContentHasher.sha256(ofFileAt: temporary, timeout: timeout), against: sha256, source: source)
            try StagedFile.moveIntoPlace(temporary, at: destination, exclusively: exclusive)
            return
        }
        let input = try RegularFile(path: source, timeout: timeout)
        let output = try StagedFile(for: destination, replacing: !exclusive)
        let hasher = try ContentHasher()
        try input.forEachChunk { chunk in
            try chunk.withUnsafeBytes { bytes in
                hasher.update(bytes)
                try output.append(bytes)
            }
        }
        try check(hasher.finalHex(), against: sha256, source: source)
        if exclusive {
            try output.commitExclusively()
        } else {
            try output.commit()
        }
    }

    private static func check(_ placed: String, against expected: String, source: String) throws {
        guard placed == expected else {
            throw MediaError(
                .invalidMedia, path: source, "it changed while it was being copied; run again once it is complete")
        }
    }
}
