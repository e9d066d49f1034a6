import Foundation
import StoryMedia

/// Images of an earlier render that no ledger records and whose own bytes name them
/// (``OutputProvenance``): what `--prune` removes beside what the ledger records.
///
/// A bundle copied without `.storyreel/` (the README's CI artifact, a cache or a tarball
/// restore), shards merged that way, or a render killed before it saved its ledger, keep their
/// pictures without a record; once their keys change (an upgrade's renderer, a new setting) the
/// manifest stops using them and `--prune`, which removed only what a ledger records, kept them
/// for good (an upgrade QA pass: 43 files, the bundle 62% larger). A JPEG whose comment names it
/// as that very output, with the hash of the whole file without the comment, was written by
/// storyreel and never changed since; a user's file does not say so, nor does one edited.
/// A clip copy carries no comment, but its name is its content's: one whose bytes hash to its
/// name is storyreel's copy (or a byte-for-byte one, which a render adopts the same way), and
/// goes too (an incremental-render QA pass: after a render killed before its ledger, a deleted
/// story's clips stayed published for good). Transitions are left: their comment hashes the
/// samples alone, which a remux that retimes or retitles one keeps (a review: `ffmpeg -itsscale
/// 2 -c copy` was removed).
enum UnrecordedOutputs {
    /// Removes the files of `bundle`'s output folders that have an output's name, are not in
    /// `referenced`, are in no ledger (`ledger`, whose own prune covers those) and whose own
    /// bytes vouch for them; `timeout` bounds each file's read. Returns how many were removed.
    static func removeSelfNamed(
        in bundle: String, keeping referenced: Set<String>, ledger: BundleLedger, timeout: Double
    )
        -> Int
    {
        let recorded = ledger.recorded
        var removed = 0
        for folder in BundlePaths.outputFolders where folder != "transitions" {
            let folderPath = BundlePaths.join(bundle, folder)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []).sorted()
            for name in names where BundlePaths.isOutputName(name, in: folder) {
                let relative = folder + "/" + name
                guard !referenced.contains(relative), !recorded.contains(relative) else { continue }
                let path = BundlePaths.join(bundle, relative)
                guard let examined = FileStamp(path: path, followingLinks: false), examined.isRegularFile,
                    folder == "clips"
                        ? hashesToItsName(path, name: name, timeout: timeout)
                        : OutputProvenance.jpegVerdict(path, output: relative, timeout: timeout) == .vouches,
                    FileStamp(path: path, followingLinks: false) == examined,
                    FolderEntryRemoval.remove(name, in: folderPath, identity: examined.identity, folderMayBeLink: false)
                else { continue }
                removed += 1
            }
        }
        return removed
    }

    /// True when the clip copy at `path`, named `name` (`7ca35542e566c009.mp4`), hashes to it:
    /// its SHA-256 starts with the name's 16 hex digits.
    private static func hashesToItsName(_ path: String, name: String, timeout: Double) -> Bool {
        let stem = (name as NSString).deletingPathExtension
        guard let sha256 = try? ContentHasher.sha256(ofFileAt: path, timeout: timeout) else { return false }
        return sha256.hasPrefix(stem)
    }
}
