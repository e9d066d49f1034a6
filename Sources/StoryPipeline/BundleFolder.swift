import Foundation
import StoryMedia
import StoryreelKit

/// What a render may do with the folder it was given as OUT, checked before anything is
/// written: a missing or empty folder becomes a bundle; a bundle is rendered into; anything else
/// is refused unless `--force`, and even then storyreel touches only its own files.
public enum BundleFolder {
    /// What OUT is now.
    public enum State: Equatable, Sendable {
        /// Nothing is there yet.
        case missing
        /// An empty folder.
        case empty
        /// A storyreel bundle: it has `.storyreel/`, or holds only storyreel's output folders
        /// with key-named files (shard artifacts merged without hidden files) and a manifest.
        case bundle
        /// A folder holding something that is not storyreel's: `entry` names the first one.
        case foreign(entry: String)
    }

    /// The state of `path`. Throws ``BundleRefusal`` when it is not a folder at all.
    public static func state(of path: String) throws -> State {
        guard let stamp = FileStamp(path: path) else { return .missing }
        guard stamp.isFolder else {
            throw BundleRefusal(.notABundle, path: path, "exists and is not a folder")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().filter {
            !isFileSystemsOwn($0, in: path)
        }
        if names.isEmpty { return .empty }
        if FileStamp(path: BundlePaths.join(path, BundlePaths.privateFolder))?.isFolder == true { return .bundle }
        // A person's own file is named before storyreel's records of other commands
        // (`.storyreel-frames` of `cube --frames-dir`), which the refusal named instead (a QA pass).
        let foreign = names.filter { !belongsToBundle($0, in: path, besides: names) }
        if let entry = foreign.first(where: { !$0.hasPrefix(".storyreel") }) ?? foreign.first {
            return .foreign(entry: strangerInside(entry, in: path) ?? entry)
        }
        return .bundle
    }

    /// True for `lost+found`, a folder, at the root of a file system (`folder` is on another
    /// device than its parent): a fresh ext4 volume made for bundles holds it, and was refused
    /// as not empty (73; a safety QA pass). storyreel never touches it.
    private static func isFileSystemsOwn(_ name: String, in folder: String) -> Bool {
        guard name == "lost+found",
            FileStamp(path: BundlePaths.join(folder, name), followingLinks: false)?.isFolder == true,
            let own = FileIdentity(path: folder), let parent = FileIdentity(path: BundlePaths.join(folder, ".."))
        else { return false }
        return own.device != parent.device
    }

    /// Refuses OUT when it is the stories folder `inputRoot` or inside it (64): what `render`
    /// refuses first, and `plan --bundle` too, as it plans what `render -o OUT` would do. The
    /// paths are quoted, as the CLI quotes the paths it names mid-sentence: a spec's folder `.`
    /// before the `;` read as a typo (a QA pass).
    public static func checkOutside(output: String, inputRoot: String) throws {
        let input = BundlePaths.realPath(inputRoot) ?? BundlePaths.prospectiveRealPath(inputRoot)
        let resolvedOutput = BundlePaths.prospectiveRealPath(output)
        if BundlePaths.isInside(resolvedOutput, input) {
            throw BundleRefusal(
                .outputInsideInput, path: output,
                (resolvedOutput == input
                    ? "the bundle folder is the stories input '\(inputRoot)'"
                    : "the bundle folder is inside the stories input '\(inputRoot)'") + "; choose a folder outside it")
        }
        // By device and inode too: the stories folder mounted at another path (a bind mount, a
        // container's second mount of one volume) has another real path (a safety QA pass: a
        // bundle went into the stories folder, or made it a bundle with --force).
        guard let inputIdentity = FileIdentity(path: input) else { return }
        var folder = resolvedOutput
        while true {
            if FileIdentity(path: folder) == inputIdentity {
                throw BundleRefusal(
                    .outputInsideInput, path: output,
                    (folder == resolvedOutput
                        ? "the bundle folder is the stories input '\(inputRoot)'"
                        : "the bundle folder is inside the stories input '\(inputRoot)'")
                        + " ('\(folder)' is the same folder, mounted at another path); choose a folder outside it")
            }
            let parent = (folder as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != folder else { return }
            folder = parent
        }
    }

    /// Refuses (64) a stories folder inside one of OUT's own folders (`clips/`, `.storyreel/`),
    /// which render writes into and sets files aside in: with `--force` it filled the user's
    /// stories folder with clip copies (a QA pass). A spec's folder is not refused: a spec in
    /// OUT's `clips/` naming the copies there re-renders the bundle from them (`--reference`).
    public static func checkStoriesOutsideOwnFolders(output: String, stories: String) throws {
        let ownFolders = BundlePaths.outputFolders + [BundlePaths.privateFolder]
        func refusal(_ folder: String) -> BundleRefusal {
            BundleRefusal(
                .outputInsideInput, path: output,
                "the stories folder '\(stories)' is inside the bundle's \(folder) folder, which render writes into; "
                    + "choose a stories folder outside it")
        }
        if let entry = entryLeadingTo(stories, in: output), ownFolders.contains(entry) { throw refusal(entry) }
        // By device and inode too, as ``checkOutside(output:inputRoot:)`` does: one of OUT's
        // folders bind-mounted at another path as the stories folder (a re-check).
        let identities = ownFolders.compactMap { name in
            FileIdentity(path: BundlePaths.join(output, name)).map { (identity: $0, name: name) }
        }
        guard !identities.isEmpty, var folder = BundlePaths.realPath(stories) else { return }
        while true {
            if let identity = FileIdentity(path: folder), let own = identities.first(where: { $0.identity == identity })
            {
                throw refusal(own.name)
            }
            let parent = (folder as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != folder else { return }
            folder = parent
        }
    }

    /// Refuses OUT when it is INPUT or inside it (64), or when it holds things that are not
    /// storyreel's and `force` is false (73). `inputRoot` is the stories folder or the spec's
    /// folder; it need not exist yet (`ingest --create --render OUT` checks OUT first). The
    /// refusal suggests `--force` when the command takes it (`render`), else `render --force`.
    /// Then OUT must be able to become a folder, and its output folders must be folders: checked
    /// here so that `ingest --render` refuses them before any clip goes in (73).
    /// `inputIsStoriesFolder` is false for a spec's folder (``checkStoriesOutsideOwnFolders``).
    public static func check(
        output: String, inputRoot: String, inputIsStoriesFolder: Bool = true, force: Bool, takesForce: Bool = true
    ) throws {
        try checkCanHoldOutputs(output)
        try checkOutside(output: output, inputRoot: inputRoot)
        if inputIsStoriesFolder { try checkStoriesOutsideOwnFolders(output: output, stories: inputRoot) }
        let state = try state(of: output)
        // `ingest --create --render OUT` with STORIES to be made inside a missing or empty OUT:
        // OUT holds it by the time the render looks, and was refused then, after the clips went
        // in (a QA pass: 73 with the upload ingested). It is refused now, as it would be then.
        // Likewise an OUT holding only what an earlier run left (its lock file, empty output
        // folders: a re-check), which is no bundle with `.storyreel/` that takes STORIES in.
        let holdsForeign = if case .foreign = state { true } else { false }
        if !holdsForeign, !force, let entry = entryLeadingTo(inputRoot, in: output),
            FileStamp(path: BundlePaths.join(output, entry), followingLinks: false) == nil,
            FileStamp(path: BundlePaths.join(output, BundlePaths.privateFolder))?.isFolder != true
        {
            throw BundleRefusal(
                .notABundle, path: output,
                "the stories folder '\(inputRoot)' is to be made inside it, and a bundle folder holding \(entry), which "
                    + "is not storyreel's, is refused; choose a bundle folder outside the stories folder")
        }
        if case .foreign(let entry) = state, !force {
            throw BundleRefusal(
                .notABundle, path: output,
                "not empty and not a storyreel bundle (it holds \(entry)); choose an empty folder, "
                    + (takesForce
                        ? "or pass --force to render there anyway"
                        : "or render there once with `storyreel render --force`")
                    + " (storyreel then touches only its own files)")
        }
        let manifest = BundlePaths.join(output, BundlePaths.manifest)
        guard let stamp = FileStamp(path: manifest, followingLinks: false) else { return }
        // A newer storyreel's manifest is named as one, not as "a file storyreel did not write"
        // (an upgrade QA pass: that advice was to move the newer manifest away).
        try BundleGenerator.refuseNewer(output)
        // Only a regular file (not a symlink) can be storyreel's: known to the ledger, or a
        // manifest storyreel could have written.
        let isStoryreels =
            stamp.isRegularFile
            && (BundleLedger(bundle: output, shard: nil).state(of: BundlePaths.manifest) != .unknown
                || isStoryreelManifest(manifest))
        if !isStoryreels {
            throw BundleRefusal(
                .notABundle, path: manifest,
                "a file storyreel did not write, which render does not replace (not even with --force); move it away")
        }
    }

    /// The name of the entry of `output` that `inputRoot` is or is inside (`st` for `reel/st/a`
    /// in `reel`), by where both resolve once they exist; nil when it is not inside.
    private static func entryLeadingTo(_ inputRoot: String, in output: String) -> String? {
        let input = BundlePaths.prospectiveRealPath(inputRoot)
        let folder = BundlePaths.prospectiveRealPath(output)
        guard input != folder, BundlePaths.isInside(input, folder) else { return nil }
        return URL(fileURLWithPath: input).pathComponents.dropFirst(URL(fileURLWithPath: folder).pathComponents.count)
            .first
    }

    /// Refuses (73) an OUT that cannot become a folder (a symlink that leads nothing, a name
    /// under a file) and output folders in it that are not folders: a symlink there would take
    /// the writes, and the stale-temporary sweep, out of OUT. Nothing is made or changed.
    private static func checkCanHoldOutputs(_ output: String) throws {
        if FileStamp(path: output) == nil {
            if FileStamp(path: output, followingLinks: false)?.isSymbolicLink == true {
                throw MediaError(.cannotCreateOutput, path: output, "is a symbolic link that leads to nothing")
            }
            if let problem = PathDisplay.fileInPlaceOfFolder(above: output) {
                throw MediaError(.cannotCreateOutput, path: output, problem)
            }
            return
        }
        // OUT itself (the manifest, the page) and `.storyreel/replaced/` too (a re-check: a
        // render wrote its transitions, then failed at the page; a changed output that could
        // not be set aside was "a file storyreel did not write").
        for name in ["."] + BundlePaths.outputFolders + [BundlePaths.privateFolder, BundlePaths.replacedFolder] {
            let path = name == "." ? output : BundlePaths.join(output, name)
            // OUT as given, through a link (what OUT is, `state(of:)` tells); its folders not.
            guard let stamp = FileStamp(path: path, followingLinks: name == ".") else { continue }
            if name == ".", !stamp.isFolder { continue }
            if !stamp.isFolder {
                throw MediaError(
                    .cannotCreateOutput, path: path,
                    "is \(stamp.isSymbolicLink ? "a symbolic link" : "a file"), not a folder: storyreel writes "
                        + "only into folders of its own inside OUT; move it away")
            }
            // A folder storyreel cannot write (or read) failed the run with 73 after its work, the
            // outputs made by then in no ledger (a QA pass: `.storyreel/` not readable).
            if access(path, R_OK | W_OK | X_OK) != 0 {
                throw MediaError(
                    .cannotCreateOutput, path: path,
                    "storyreel cannot read and write this folder (\(SystemErrorText.describe(errno)))")
            }
        }
        // The settings and the ledgers are saved once every output is made: a FIFO or a folder
        // there failed the run (73) after all its work, every time, and a ledger that could not
        // be saved took what the run had adopted with it (QA passes).
        let privateFolder = BundlePaths.join(output, BundlePaths.privateFolder)
        let ledgers = ((try? FileManager.default.contentsOfDirectory(atPath: privateFolder)) ?? [])
            .filter(BundleLedger.isLedgerFileName)
        for name in [BundleSettings.fileName] + Set(ledgers + [BundleLedger.fullRenderFileName]).sorted() {
            let path = BundlePaths.join(privateFolder, name)
            guard let stamp = FileStamp(path: path, followingLinks: false), !stamp.isRegularFile else { continue }
            let what = name == BundleSettings.fileName ? "the bundle's settings" : "its ledger (what it wrote)"
            throw MediaError(
                .cannotCreateOutput, path: path, "is not a regular file: storyreel keeps \(what) there; move it away")
        }
    }

    /// Takes away the bundle a first render made in a bare `output` (one it created, an empty
    /// one, or one holding only its lock file) when nothing played: the outputs `ledger` recorded while they
    /// are as written (a clip copied before its frames failed to decode: a re-check found 200
    /// such copies left), then, when the output folders are empty and `.storyreel/` holds
    /// nothing but the ledger and the stat cache, those. `output` and its lock file stay: a
    /// render waiting for that lock goes on into `output` once it has it (a re-check: with them
    /// removed, it failed with 73). Anything else in `output` (a file put there meanwhile) leaves
    /// the rest as it is. Called by the full render, which holds the bundle's lock, with the
    /// identity `output` had when the render began with it: a folder put at its path since is
    /// not touched. Returns how many outputs it removed, and whether the skeleton went too (when
    /// it stays, the ledger is saved without the outputs removed: a re-check found it naming
    /// them).
    static func removeUnplayedBundle(_ output: String, madeAs identity: FileIdentity, ledger: BundleLedger) -> (
        outputsRemoved: Int, skeletonRemoved: Bool
    ) {
        guard FileStamp(path: output, followingLinks: false)?.identity == identity else { return (0, false) }
        let outputsRemoved = ledger.recorded.filter { ledger.removeIfUnchanged($0) }.count
        guard removeEmptySkeleton(output) else {
            try? ledger.save()
            return (outputsRemoved, false)
        }
        return (outputsRemoved, true)
    }

    /// Takes away the folders a render makes in `output` (the output folders and `.storyreel/`)
    /// when they hold no output: the output folders are empty, `.storyreel/` holds nothing but
    /// the ledger and the stat cache, and `output` nothing else but its lock file. Returns
    /// whether they went. Called only by a full render, which holds the bundle's lock
    /// exclusively: a shard's folders may be another shard's, which is writing into them.
    static func removeEmptySkeleton(_ output: String) -> Bool {
        let privateFolder = BundlePaths.join(output, BundlePaths.privateFolder)
        let privateFiles = [BundleLedger.fullRenderFileName, StatCache.fileName]
        let holdsOnlyItsOwn =
            BundlePaths.outputFolders.allSatisfy { folder in
                (try? FileManager.default.contentsOfDirectory(atPath: BundlePaths.join(output, folder)))?.isEmpty
                    ?? true
            }
            && Set((try? FileManager.default.contentsOfDirectory(atPath: privateFolder)) ?? []).isSubset(
                of: privateFiles)
            && Set((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isSubset(
                of: BundlePaths.outputFolders + [BundlePaths.privateFolder, BundlePaths.lockFile])
        guard holdsOnlyItsOwn else { return false }
        for folder in BundlePaths.outputFolders { rmdir(BundlePaths.join(output, folder)) }
        for name in privateFiles { unlink(BundlePaths.join(privateFolder, name)) }
        return rmdir(privateFolder) == 0
    }

    /// True when the regular file at `path` holds a manifest storyreel could have written (it
    /// decodes as one): the manifest of a bundle made before the ledger recorded manifests, or
    /// by another version, or copied in.
    static func isStoryreelManifest(_ path: String) -> Bool {
        storyreelManifest(at: path) != nil
    }

    /// The manifest the regular file at `path` holds, when it decodes as one storyreel could
    /// have written, generator included (a QA pass: one another tool wrote in the same format,
    /// `"generator": "my-cms 1.0"`, which `validate` refuses, was replaced in silence); nil
    /// otherwise.
    static func storyreelManifest(at path: String) -> Manifest? {
        guard let data = try? RegularFile.contents(of: path, maxSize: 256 << 20),
            let manifest = try? Manifest(jsonData: data), manifest.generator.hasPrefix("storyreel ")
        else { return nil }
        return manifest
    }

    /// True for an entry a bundle made by storyreel holds at its top (`names` are all of them):
    /// an output folder whose files all have storyreel's names, the manifest, the lock file, or
    /// the page: storyreel's, or one beside a manifest (a bundle whose page its user replaced).
    /// A folder holding only someone's `index.html` (a web site's root) was taken for a bundle
    /// and rendered into without `--force` (a QA pass).
    /// `name/file`, the first file in output folder `name` that is not storyreel's, or nil when
    /// `name` is not such a folder: the refusal names that file (a QA pass: `it holds avatars`,
    /// one of storyreel's own names, where `avatars/logo.png` was the stranger).
    private static func strangerInside(_ name: String, in bundle: String) -> String? {
        let path = BundlePaths.join(bundle, name)
        guard BundlePaths.outputFolders.contains(name), FileStamp(path: path, followingLinks: false)?.isFolder == true
        else { return nil }
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        return files.first { !BundlePaths.isOutputName($0, in: name) && !TemporaryFile.isTemporaryName($0) }
            .map { "\(name)/\($0)" }
    }

    private static func belongsToBundle(_ name: String, in bundle: String, besides names: [String]) -> Bool {
        let path = BundlePaths.join(bundle, name)
        let stamp = FileStamp(path: path, followingLinks: false)
        if name == PlayerPage.fileName {
            return stamp?.isRegularFile == true
                && (names.contains(BundlePaths.manifest) || PlayerPage.isStoryreelPage(at: path))
        }
        if [BundlePaths.manifest, BundlePaths.lockFile].contains(name) {
            return stamp?.isRegularFile == true
        }
        guard BundlePaths.outputFolders.contains(name), stamp?.isFolder == true else { return false }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return files.allSatisfy { BundlePaths.isOutputName($0, in: name) || TemporaryFile.isTemporaryName($0) }
    }
}
