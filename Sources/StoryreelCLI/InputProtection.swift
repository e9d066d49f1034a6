import Foundation
import StoryMedia

/// Refuses to write over an input: an output path that names the same file as one of the
/// command's inputs, by device and inode (``FileIdentity``), so a different spelling (`./a.mp4`,
/// `dir/../a.mp4`), a symlink or a hard link is caught too; two outputs that name one file; and
/// an output whose name its folder's file system cannot hold. Checked before any work.
enum InputProtection {
    /// One path a command would write, with how the user asked for it.
    struct Output {
        /// How the error names it, e.g. `-o 'a.mp4'` or `--frames-dir's frame 'f/frame_0003.png'`.
        let label: String
        /// The path that would be written.
        let path: String
    }

    /// Throws a ``UsageError`` naming the first output in `outputs` that is the same file as one
    /// of `inputs`. Paths where nothing exists yet cannot be an input and pass.
    static func check(_ outputs: [Output], against inputs: [String]) throws {
        let existing = inputs.compactMap { input in FileIdentity(path: input).map { (identity: $0, path: input) } }
        guard !existing.isEmpty else { return }
        for output in outputs {
            guard let identity = FileIdentity(path: output.path),
                let input = existing.first(where: { $0.identity == identity })
            else { continue }
            throw UsageError.onDisk(
                "\(output.label) is the same file as the input '\(input.path)'; writing it would overwrite the input")
        }
    }

    /// Throws a ``UsageError`` when `output` is named by an extension alone (`.mp4`, `.png`): a
    /// hidden file where a name was meant. Only what `isExtension` accepts counts (for
    /// `thumbnail`, `.thumbs` is a name). `example` stands before the extension in the hint:
    /// `give the file a name before its extension (clip.mp4)`.
    static func checkNamed(
        _ output: Output, example: String, isExtension: (String) -> Bool = { _ in true }
    ) throws {
        let name = output.path.lastComponent
        guard name.hasPrefix("."), name.count > 1, (name as NSString).pathExtension.isEmpty,
            isExtension(String(name.dropFirst()))
        else { return }
        throw UsageError("\(output.label): give the file a name before its extension (\(example)\(name))")
    }

    /// Throws a ``UsageError`` when standard output is one of `inputs` by device and inode
    /// (`thumbnail in.mp4 -o - >> in.mp4`, which grew the clip; a CLI QA pass), as an output path
    /// that is an input is refused.
    static func checkStandardOutput(against inputs: [String]) throws {
        guard let identity = FileIdentity(descriptor: STDOUT_FILENO),
            let input = inputs.first(where: { FileIdentity(path: $0) == identity })
        else { return }
        throw UsageError.onDisk(
            "-o -: standard output is the input '\(input)'; writing it would change the input")
    }

    /// Throws a ``UsageError`` naming the first of `outputs` whose name is longer than its
    /// folder's file system allows (``FileNameLength``): `cube -o` with a 300-byte name rendered
    /// and encoded everything, then could not name the clip (73; a QA pass).
    static func checkNameLengths(_ outputs: [Output]) throws {
        for output in outputs {
            // `deletingLastPathComponent` traps on a one-character name on Linux.
            let name = output.path.lastComponent
            let limit = FileNameLength.limit(in: output.path.containingFolder)
            if name.utf8.count > limit {
                throw UsageError.onDisk(
                    "\(output.label): the name is \(name.utf8.count) bytes, and this file system allows "
                        + "\(limit); give a shorter one")
            }
        }
    }

    /// Throws a ``UsageError`` naming the first two of `outputs` that are one file: the same
    /// absolute path once `.` and `..` are resolved, or, for files that exist, the same device and
    /// inode. One would be written over the other (`cube -o x --filmstrip x`).
    static func checkDistinct(_ outputs: [Output]) throws {
        var seen: [(output: Output, path: String, identity: FileIdentity?)] = []
        for output in outputs {
            let path = URL(fileURLWithPath: output.path).standardizedFileURL.path
            let identity = FileIdentity(path: output.path)
            if let earlier = seen.first(where: { $0.path == path || (identity != nil && $0.identity == identity) }) {
                // Said alone, however it was spelled, as the README has it (a CLI QA pass: the same
                // spelling twice came with the synopsis).
                throw UsageError.onDisk(
                    "\(earlier.output.label) and \(output.label) are the same file; give each output its own path")
            }
            seen.append((output, path, identity))
        }
    }
}
