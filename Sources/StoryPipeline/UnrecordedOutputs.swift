import Foundation
import StoryMedia

/// Outputs of an earlier render that no ledger records and whose own bytes name them
/// (``OutputProvenance``): what `--prune` removes beside what the ledger records.
///
/// A bundle copied without `.storyreel/` (the README's CI artifact, a cache or a tarball
/// restore), shards merged that way, or a render killed before it saved its ledger, keep their
/// pictures and transitions without a record; once their keys change (an upgrade's renderer, a
/// new setting) the manifest stops using them and `--prune`, which removed only what a ledger
/// records, kept them for good (an upgrade QA pass: 43 files, the bundle 62% larger). An image
/// or a transition whose comment names it as that very output, with the hash of the pictures it
/// still holds, was written by storyreel and never changed since; a user's file does not say
/// so, nor does one edited in place. Clip copies carry no comment and are left.
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
        for folder in BundlePaths.outputFolders where folder != "clips" {
            let folderPath = BundlePaths.join(bundle, folder)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []).sorted()
            for name in names where BundlePaths.isOutputName(name, in: folder) {
                let relative = folder + "/" + name
                guard !referenced.contains(relative), !recorded.contains(relative) else { continue }
                let path = BundlePaths.join(bundle, relative)
                guard let examined = FileStamp(path: path, followingLinks: false), examined.isRegularFile,
                    vouches(path, as: relative, timeout: timeout),
                    FileStamp(path: path, followingLinks: false) == examined,
                    FolderEntryRemoval.remove(name, in: folderPath, identity: examined.identity, folderMayBeLink: false)
                else { continue }
                removed += 1
            }
        }
        return removed
    }

    /// True when the file at `path` names itself `relative`, with the hash of its pictures.
    private static func vouches(_ path: String, as relative: String, timeout: Double) -> Bool {
        if relative.hasPrefix("transitions/") {
            // The hash covers the samples, not the index: a copy remuxed with a turn in its display
            // matrix keeps them (as adoption checks, ``OutputIntegrity``); storyreel writes none.
            guard let info = try? ClipProbe.inspect(path: path, timeout: timeout, readingColour: false),
                let video = info.video, video.rotation == 0, !video.mirrored
            else { return false }
            return OutputProvenance.mp4Verdict(path, comment: info.tags["comment"], output: relative, timeout: timeout)
                == .vouches
        }
        return OutputProvenance.jpegVerdict(path, output: relative, timeout: timeout) == .vouches
    }
}
