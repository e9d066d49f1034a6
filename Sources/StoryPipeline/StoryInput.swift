import Foundation
import StoryMedia
import StoryreelKit

/// The stories to render, read from a stories folder (`STORIES/<handle>/`) or a JSON spec, in
/// play order, with what was skipped on the way.
public struct StoryInput: Sendable {
    /// The folder that the stories' relative paths start from.
    public var root: String
    /// Stories in play order: by `order`, then by handle in natural order; read stories last.
    public var stories: [StorySource]
    /// Folders and files left out, with reasons.
    public var skipped: [SkippedEntry]
    /// What was read but ignored, one line each, e.g. `ana.lima/story.json: unknown key
    /// "is_read" (did you mean "isRead"?); ignored`.
    public var warnings: [String] = []
    /// The story folders, relative to ``root``, holding no clip of their own but folders that
    /// do: stories folders, when the folder above was given (`render samples` for
    /// `samples/stories`), which a run in which nothing plays names.
    public var foldersOfStories: [String] = []

    /// File extensions of clips, compared case-insensitively.
    public static let clipExtensions: Set<String> = ["mov", "mp4", "m4v"]

    /// True for a clip's file name: a clip extension in any case, not dot-prefixed (dot-prefixed
    /// files are hidden, and where `ingest` stages its copies).
    public static func isClipFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && hasClipExtension(name)
    }

    /// File extensions of videos that storyreel does not play (other containers), compared
    /// case-insensitively: a story folder's file with one is named in a warning, as an upload in
    /// one of them would otherwise leave the story in silence. `.ts` is left out: it is as often
    /// a TypeScript file.
    static let otherVideoExtensions: Set<String> = [
        "3g2", "3gp", "avi", "flv", "m2ts", "mkv", "mpeg", "mpg", "mts", "ogv", "webm", "wmv",
    ]

    /// File extensions of still images, compared case-insensitively: a story folder's file with
    /// one (other than its avatar) is named in a warning. From a QA pass of stills: a photo
    /// dropped into a story vanished from it with exit 0 and no word, where a `.webm` was named.
    static let stillExtensions: Set<String> = ["avif", "gif", "heic", "heif", "jpeg", "jpg", "png", "webp"]

    /// True when `name` ends in a clip extension, in any case.
    static func hasClipExtension(_ name: String) -> Bool {
        clipExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// Reads `path`: a stories folder, or a `.json` spec file.
    public static func load(_ path: String) throws -> StoryInput {
        try checkExists(path) ? try loadFolder(path) : try loadSpec(path)
    }

    /// Throws `.missingInput` when nothing is at `path` (or its links loop), as ``load(_:)``
    /// does; else returns true for a folder.
    @discardableResult
    public static func checkExists(_ path: String) throws -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            // A loop of symbolic links is said as every other command says it (a QA pass: render
            // and plan said "no such file or folder").
            var status = stat()
            if stat(path, &status) != 0, errno == ELOOP {
                throw MediaError.system(.missingInput, path: path, "cannot open", code: ELOOP)
            }
            throw MediaError(.missingInput, path: path, "no such file or folder")
        }
        return isFolder.boolValue
    }

    /// Why `folder` is not a stories folder but a bundle storyreel rendered (it holds
    /// `.storyreel/` with `manifest.json` beside it, or its ledger or settings in it), or nil. A
    /// QA pass: `render OUT -o OUT2` rendered a bundle's `clips/`, `posters/` … as stories, and
    /// `ingest --into OUT` filed an upload as a story folder inside the bundle, both without a word.
    /// A bundle without `.storyreel/` (a deploy of its visible files, shard artifacts merged
    /// without hidden files) is one too when it holds storyreel's manifest or page, or only
    /// storyreel's output folders of key-named files (a later QA pass: it was rendered, exit 0,
    /// as stories named `clips` and `transitions`, the transitions played as clips).
    public static func bundleReason(_ folder: String) -> String? {
        let privateFolder = BundlePaths.join(folder, BundlePaths.privateFolder)
        guard FileStamp(path: privateFolder, followingLinks: false)?.isFolder == true else {
            return visibleBundleReason(folder)
        }
        // A shard's output, or a first render interrupted, has no manifest yet (a review): its
        // ledger or settings say it is a bundle.
        let marks = ((try? FolderListing(path: privateFolder))?.names ?? []).filter { name in
            name == BundleSettings.fileName || name == StatCache.fileName || BundleLedger.isLedgerFileName(name)
        }
        guard FileStamp(path: BundlePaths.join(folder, BundlePaths.manifest))?.isRegularFile == true || !marks.isEmpty
        else { return nil }
        return "a bundle storyreel rendered (it holds \(BundlePaths.privateFolder)/), not a stories folder"
    }

    /// ``bundleReason(_:)`` for a folder without `.storyreel/`.
    private static func visibleBundleReason(_ folder: String) -> String? {
        let manifest = BundlePaths.join(folder, BundlePaths.manifest)
        if FileStamp(path: manifest, followingLinks: false)?.isRegularFile == true,
            BundleGenerator.writer(ofManifestAt: manifest)?.generator?.hasPrefix("storyreel ") == true
        {
            return "a bundle storyreel rendered (it holds storyreel's \(BundlePaths.manifest)), not a stories folder"
        }
        let page = BundlePaths.join(folder, PlayerPage.fileName)
        if FileStamp(path: page, followingLinks: false)?.isRegularFile == true, PlayerPage.isStoryreelPage(at: page) {
            return "a bundle storyreel rendered (it holds storyreel's player page, \(PlayerPage.fileName)), "
                + "not a stories folder"
        }
        // Only storyreel's output folders (and nothing else but its manifest, page and lock), one
        // of them holding an output at least: a story folder named `clips` of a person's clips
        // has other names than 16 hex digits.
        guard (try? BundleFolder.state(of: folder)) == .bundle else { return nil }
        let outputs = BundlePaths.outputFolders.filter { name in
            let names = (try? FolderListing(path: BundlePaths.join(folder, name)))?.names ?? []
            return names.contains { BundlePaths.isOutputName($0, in: name) }
        }
        guard !outputs.isEmpty else { return nil }
        return "a bundle storyreel rendered (it holds only storyreel's output folders, "
            + outputs.map { "\($0)/" }.joined(separator: ", ") + "), not a stories folder"
    }

    /// Reads a stories folder: one subfolder per user. Throws `.noStories` when it has no
    /// subfolder at all (not a stories folder), or when it is a bundle (``bundleReason(_:)``).
    public static func loadFolder(_ path: String) throws -> StoryInput {
        if let reason = bundleReason(path) {
            throw MediaError(.noStories, path: path, reason + "; give the stories folder it was rendered from")
        }
        let listing = try FolderListing(path: path)
        let root = try InputRoot(path)
        var stories: [StorySource] = []
        var skipped: [SkippedEntry] = []
        var warnings: [String] = []
        var foldersOfStories: [String] = []
        var sawFolder = false
        for entry in listing.undecodable where entry.isFolder {
            sawFolder = true
            skipped.append(SkippedEntry(path: entry.displayName, story: nil, reason: "not a story folder: \(notUTF8)"))
        }
        for name in listing.names.sorted(by: NaturalOrder.areInIncreasingOrder)
        where !name.hasPrefix(".") && !isSystemFolderName(name) {
            let folder = (path as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                // A link that leads nowhere may be a story folder moved away: said, not passed
                // over in silence (a QA pass: the story left the manifest with exit 0).
                if FileStamp(path: folder, followingLinks: false)?.isSymbolicLink == true,
                    FileStamp(path: folder) == nil
                {
                    skipped.append(
                        SkippedEntry(
                            path: name, story: nil,
                            reason: "a link that leads nowhere (its target is gone, or it loops), not a story folder"))
                }
                continue
            }
            sawFolder = true
            if let problem = StoryHandle.problem(with: name) {
                skipped.append(SkippedEntry(path: name, story: nil, reason: "not a story folder: \(problem)"))
                continue
            }
            guard case .inside = root.resolve(name) else {
                skipped.append(SkippedEntry(path: name, story: nil, reason: root.outsideReason(for: name)))
                continue
            }
            let folderListing: FolderListing
            do {
                folderListing = try FolderListing(path: folder)
            } catch let error as MediaError where error.kind == .systemLimit {
                throw error
            } catch {
                skipped.append(SkippedEntry(path: name, story: name, reason: MediaError.reason(of: error)))
                continue
            }
            let files = folderListing.names
            for entry in folderListing.undecodable where isClipFileName(entry.displayName) && !entry.isFolder {
                skipped.append(SkippedEntry(path: "\(name)/\(entry.displayName)", story: name, reason: notUTF8))
            }
            // A folder named like a clip (`old.mp4/`) is a folder inside the story, as `old/` is:
            // it was skipped as "a folder, not a file", failing the render (65), where `old/`
            // only got a warning (a QA pass).
            let (clipFiles, twins) = withoutNormalizationTwins(
                files.filter { isClipFileName($0) && !folderListing.folders.contains($0) })
            skipped += twins.map { SkippedEntry(path: "\(name)/\($0.name)", story: name, reason: $0.reason) }
            var clips: [String] = []
            for file in clipFiles.sorted(by: NaturalOrder.areInIncreasingOrder) {
                if root.resolve("\(name)/\(file)") == .outside {
                    skipped.append(SkippedEntry(path: "\(name)/\(file)", story: name, reason: InputRoot.outsideReason))
                } else {
                    clips.append("\(name)/\(file)")
                }
            }
            warnings += strayNameWarnings(story: name, files: files.filter { !folderListing.folders.contains($0) })
            let shownFiles = files.filter { !$0.hasPrefix(".") && !folderListing.folders.contains($0) }
                .sorted(by: NaturalOrder.areInIncreasingOrder)
            warnings += shownFiles.filter { otherVideoExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .map { "\(name)/\($0): not played: storyreel plays .mov, .mp4 and .m4v clips" }
            warnings +=
                shownFiles
                .filter { stillExtensions.contains(($0 as NSString).pathExtension.lowercased()) && !isAvatarLike($0) }
                .map {
                    "\(name)/\($0): not played: a still is no story item (storyreel plays .mov, .mp4 and .m4v "
                        + "clips); to show a photo, make it a clip first"
                }
            let nested = nestedFolderWarnings(in: folder, story: name, folders: folderListing.folders)
            warnings += nested
            if clips.isEmpty, !nested.isEmpty { foldersOfStories.append(name) }
            if clips.isEmpty, files.contains(where: TemporaryFile.isTemporaryName) {
                // An ingest is copying this new story's first clip (or one was killed doing so):
                // not a story yet, and no fault of this run's.
                warnings.append("\(name): no clip yet, only an ingest's temporary copy; not rendered this time")
                continue
            }
            if clips.isEmpty, !skipped.contains(where: { $0.story == name }) {
                // A folder holding no clip (its stories expired, or none came yet) is no bad clip:
                // it was skipped as "no playable clip", and every later render exited 65, which
                // hid a real one (a QA pass). A clip that cannot play still makes that skip.
                warnings.append("\(name): holds no clip; left out until one is added")
                continue
            }
            var avatar = avatarNames.first { files.contains($0) }.map { "\(name)/\($0)" }
            if let relative = avatar, root.resolve(relative) == .outside {
                skipped.append(SkippedEntry(path: relative, story: name, reason: "avatar: \(InputRoot.outsideReason)"))
                avatar = nil
            }
            var story = StorySource(handle: name, displayName: name, avatar: avatar, clips: clips)
            if files.contains("story.json") {
                do {
                    let settings: String
                    switch root.resolve("\(name)/story.json") {
                    case .inside(let real): settings = real
                    case .outside: throw MediaError(.invalidMedia, path: "\(name)/story.json", InputRoot.outsideReason)
                    case .missing:
                        // Listed but not reachable: a folder that can be read and not entered
                        // said "it leads outside the stories input" of a file that did not (a
                        // QA pass); the system's reason, as the clips beside it give theirs.
                        var status = stat()
                        let reason =
                            lstat(BundlePaths.join(root.path, "\(name)/story.json"), &status) == 0
                            ? "a link that leads nowhere" : SystemErrorText.describe(errno)
                        throw MediaError(.unreadableInput, path: "\(name)/story.json", reason)
                    }
                    warnings += try applySettings(from: settings, to: &story).map { "\(name)/story.json: \($0)" }
                } catch let error as StoryTypeError {
                    // A value of the wrong type: the story is left out rather than shown wrongly,
                    // and the line says so (it read like a story.json left aside, a QA pass).
                    skipped.append(
                        SkippedEntry(
                            path: "\(name)/story.json", story: name, reason: "\(error.reason); the story is left out"))
                    continue
                } catch let error as MediaError where error.kind == .systemLimit {
                    throw error
                } catch {
                    skipped.append(
                        SkippedEntry(path: "\(name)/story.json", story: name, reason: MediaError.reason(of: error)))
                }
            }
            stories.append(story)
        }
        guard sawFolder else {
            throw MediaError(
                .noStories, path: path,
                "not a stories folder: it has no story subfolders (expected STORIES/HANDLE/clip.mov)")
        }
        var input = StoryInput(
            root: path, stories: playOrder(stories, byExplicitOrder: true), skipped: skipped, warnings: warnings)
        input.foldersOfStories = foldersOfStories
        return input
    }

    /// Reads a JSON spec: `{"stories": [{"handle", "displayName", "avatar", "isRead", "items": [...]}]}`.
    /// Paths are relative to the spec file; the array order is the play order. A path that leads
    /// outside the spec's folder is skipped with its reason, and so is a story whose handle an
    /// earlier story has (the handle is the story's id).
    public static func loadSpec(_ path: String) throws -> StoryInput {
        let notASpec = "not a stories spec: expected {\"stories\": [...]}"
        let bytes: Data
        do {
            bytes = try RegularFile.contents(of: path, maxSize: maximumSettingsSize)
        } catch let error as MediaError where error.kind == .invalidMedia {
            // Too big to read (a QA pass: it said the spec was no {"stories": [...]}).
            throw MediaError(.noStories, path: path, "not a stories spec storyreel reads: \(error.reason)")
        }
        let root = try InputRoot(path.containingFolder)
        let isJSONFile = (path as NSString).pathExtension.lowercased() == "json"
        guard let data = JSONTextEncoding.utf8(bytes) else {
            guard isJSONFile else { throw MediaError(.noStories, path: path, notAStoriesFolderOrSpec) }
            throw MediaError(.noStories, path: path, "not a stories spec storyreel reads: it \(notUnicodeText)")
        }
        if let problem = shapeProblem(data, valueLimit: maximumSpecValues) {
            // A clip's bytes nest brackets at random (a review: black-intro.mp4 "nests more than
            // 32 levels deep").
            guard isJSONFile else { throw MediaError(.noStories, path: path, notAStoriesFolderOrSpec) }
            throw MediaError(.noStories, path: path, "not a stories spec storyreel reads: it \(problem)")
        }
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else {
            // A clip given as INPUT is no broken spec (a QA pass: "not valid JSON: cannot convert
            // input string to valid utf8 input").
            guard isJSONFile else { throw MediaError(.noStories, path: path, notAStoriesFolderOrSpec) }
            // Where the text breaks: a spec is written by hand or by a script.
            throw MediaError(.noStories, path: path, JSONParseFailure.notValidJSON(data))
        }
        // One scan for both faults Foundation's parser lets through.
        let scan = JSONStructureScan(data)
        if let comma = JSONSyntaxFault.trailingCommaPlaced(in: data, scan: scan) {
            throw MediaError(.noStories, path: path, "not valid JSON: \(comma)")
        }
        guard let object = parsed as? [String: Any], let entries = object["stories"] as? [Any] else {
            throw MediaError(.noStories, path: path, notASpec)
        }
        if let duplicate = scan.duplicateKeyPath {
            throw MediaError(
                .noStories, path: path, "\"\(duplicate)\" is given twice, which readers settle differently")
        }
        // As a stories folder with no story in it is not one: a backend's empty list published
        // an empty reel, and with --prune removed every output (a QA pass).
        guard !entries.isEmpty else {
            throw MediaError(.noStories, path: path, "not a stories spec: its \"stories\" array is empty")
        }
        var stories: [StorySource] = []
        var skipped: [SkippedEntry] = []
        let unknown = object.keys.filter { $0 != "stories" }.sorted().map { key in
            (key: key, closest: key.lowercased() == "stories" ? "stories" : nil)
        }
        var warnings = StoryFields.unknownKeyLines(unknown).map { "\(path): \($0)" }
        // The position of the story that plays under each handle.
        var positions: [String: Int] = [:]
        // The file each item leads to, as first spelled (see ``earlierSpelling(of:as:in:)``).
        var itemSpellings: [String: (spelling: String, label: String)] = [:]
        // Unknown keys are named for ten lines of the whole spec, then counted by story (a QA
        // pass: a key misspelled in each of 5,000 stories gave 5,000 lines).
        var unknownKeyLines: [(position: Int, line: String)] = []
        var storiesWithUnknownKeys = 0
        for (position, element) in entries.enumerated() {
            // One entry that is not an object leaves that story out, not the spec (a QA pass: it
            // said the spec was no `{"stories": [...]}`).
            guard let entry = element as? [String: Any] else {
                let reason =
                    "not a story: a story is an object ({\"handle\": …, \"items\": […]}), got "
                    + StoryFields.describe(element)
                skipped.append(SkippedEntry(path: "stories[\(position)]", story: nil, reason: reason))
                continue
            }
            let unknownKeys = StoryFields.specStory.unknownKeyWarnings(in: entry)
            if !unknownKeys.isEmpty {
                storiesWithUnknownKeys += 1
                unknownKeyLines += unknownKeys.map { (position, "\(path): stories[\(position)]: \($0)") }
            }
            // A skipped entry's story is null unless it is a valid handle, as for a folder.
            let validHandle = (entry["handle"] as? String).flatMap { StoryHandle.problem(with: $0) == nil ? $0 : nil }
            if let problem = StoryFields.specStory.typeProblem(in: entry) {
                skipped.append(SkippedEntry(path: "stories[\(position)]", story: validHandle, reason: problem))
                continue
            }
            guard let handle = entry["handle"] as? String else {
                skipped.append(SkippedEntry(path: "stories[\(position)]", story: nil, reason: "no handle"))
                continue
            }
            if let problem = StoryHandle.problem(with: handle) {
                skipped.append(SkippedEntry(path: "stories[\(position)]", story: nil, reason: problem))
                continue
            }
            // The handle is the story's id: a second story of the same handle would give the
            // manifest two stories of one id (and a transition from it to itself).
            if let first = positions[handle] {
                let reason = "handle \"\(handle)\" is also the handle of stories[\(first)], which plays instead"
                skipped.append(SkippedEntry(path: "stories[\(position)]", story: handle, reason: reason))
                continue
            }
            positions[handle] = position
            var items: [String] = []
            for (index, item) in (entry["items"] as? [Any] ?? []).compactMap({ $0 as? String }).enumerated() {
                if let problem = specPathProblem(item, clip: true) {
                    // An absolute path is named by its place: the manifest holds no absolute path.
                    // An absolute path, or an empty one, is named by its place (a QA pass: ": skipped").
                    let label =
                        item.hasPrefix("/") || item.isEmpty ? "stories[\(position)].items[\(index)]" : item
                    skipped.append(SkippedEntry(path: label, story: handle, reason: problem))
                    continue
                }
                let resolution = root.resolve(item)
                if resolution == .outside {
                    skipped.append(SkippedEntry(path: item, story: handle, reason: InputRoot.outsideReason))
                    continue
                }
                // The file it leads to, so that `dé/../cafe\u{301}.mp4` is compared with `café.mp4`.
                let file: String
                if case .inside(let real) = resolution { file = real } else { file = item }
                if let earlier = earlierSpelling(of: file, as: item, in: &itemSpellings) {
                    let reason = normalizationTwinReason(item, of: earlier)
                    skipped.append(SkippedEntry(path: item, story: handle, reason: reason))
                    continue
                }
                items.append(item)
            }
            var avatar = entry["avatar"] as? String
            if let relative = avatar, let problem = specPathProblem(relative, clip: false) {
                let label = relative.hasPrefix("/") || relative.isEmpty ? "stories[\(position)].avatar" : relative
                skipped.append(SkippedEntry(path: label, story: handle, reason: "avatar: \(problem)"))
                avatar = nil
            } else if let relative = avatar, root.resolve(relative) == .outside {
                skipped.append(
                    SkippedEntry(path: relative, story: handle, reason: "avatar: \(InputRoot.outsideReason)"))
                avatar = nil
            }
            let shown = shownName(entry["displayName"] as? String, handle: handle)
            if let warning = shown.warning { warnings.append("\(path): stories[\(position)]: \(warning)") }
            stories.append(
                StorySource(
                    handle: handle, displayName: shown.name, isRead: entry["isRead"] as? Bool ?? false,
                    avatar: avatar, clips: items))
        }
        // Each story's lines whole, as long as ten are not passed (the first story's always).
        var (shownStories, shownLines) = (0, 0)
        for story in Dictionary(grouping: unknownKeyLines, by: \.position).sorted(by: { $0.key < $1.key }) {
            guard shownStories == 0 || shownLines + story.value.count <= StoryFields.unknownKeysShown else { break }
            warnings += story.value.map(\.line)
            (shownStories, shownLines) = (shownStories + 1, shownLines + story.value.count)
        }
        let more = storiesWithUnknownKeys - shownStories
        if more > 0 {
            warnings.append("\(path): unknown keys in \(more) more \(more == 1 ? "story" : "stories"); ignored")
        }
        return StoryInput(
            root: root.path, stories: playOrder(stories, byExplicitOrder: false), skipped: skipped, warnings: warnings)
    }

    /// Why a spec's item (`clip`) or avatar path cannot be used, or nil. From a QA pass: an
    /// absolute path was read relative to the spec's folder (another file played), a NUL cut
    /// the path the system opened short of the one the manifest named (`1.mp4\u{0}.jpg` became a
    /// clip named `.jpg`), and a `.txt` item was copied into `clips/` and served as text.
    static func specPathProblem(_ path: String, clip: Bool) -> String? {
        if path.hasPrefix("/") { return "an absolute path: a spec's paths are relative to its folder" }
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "its path holds a control character"
        }
        let name = (path as NSString).lastPathComponent
        if clip, !hasClipExtension(name) {
            return "not a clip: storyreel plays .mov, .mp4 and .m4v files"
        }
        if !clip, !StillImage.isStillPath(name) { return "not a still: an avatar is a .jpg, .jpeg or .png file" }
        return nil
    }

    /// The names a story's avatar goes by.
    static let avatarNames = ["avatar.jpg", "avatar.png"]

    /// True for the avatar's name, and for a name ``strayNameWarnings(story:files:)`` takes for a
    /// misspelt avatar (`Avatar.JPG`, `avatar.jpeg`), which its own warning names.
    static func isAvatarLike(_ file: String) -> Bool {
        let trimmed = String(file.reversed().drop { $0 == "." || $0 == " " }.reversed()).lowercased()
        // Any still named avatar (`avatar.gif`, `avatar.webp`: a QA pass gave them the generic
        // photo warning).
        return (trimmed as NSString).deletingPathExtension == "avatar"
            && stillExtensions.contains((trimmed as NSString).pathExtension)
    }

    /// Folders that file systems, NAS systems and Windows make at the top of a volume or a share,
    /// never stories: passed over as hidden ones are. From a QA pass: an empty `lost+found` (a
    /// stories folder at the root of its own volume) or a Synology `@eaDir` was skipped as "not
    /// a story folder", and every render exited 65.
    static let systemFolderNames: Set<String> = [
        "lost+found", "@eadir", "#recycle", "#snapshot", "@recycle", "@recently-snapshot", "$recycle.bin",
        "system volume information",
    ]

    /// True for a name of ``systemFolderNames``, in any case (`$RECYCLE.BIN` and `$Recycle.Bin`,
    /// as Windows spells it on NTFS: a re-check).
    public static func isSystemFolderName(_ name: String) -> Bool { systemFolderNames.contains(name.lowercased()) }

    /// Warnings for the files of story `story` that look meant to play or to be its avatar but
    /// are not used, from a QA pass where each was passed over in silence: a clip whose name ends
    /// in `.` or a space after its extension (`b.mp4.`, as web forms and SMB shares leave them),
    /// an avatar named in another case or as `.jpeg` (`Avatar.JPG`), and the `avatar.png` beside
    /// an `avatar.jpg`.
    static func strayNameWarnings(story: String, files: [String]) -> [String] {
        var warnings: [String] = []
        for file in files.filter({ !$0.hasPrefix(".") }).sorted(by: NaturalOrder.areInIncreasingOrder) {
            let trimmed = String(file.reversed().drop { $0 == "." || $0 == " " }.reversed())
            if trimmed != file, hasClipExtension(trimmed) {
                warnings.append(
                    "\(story)/\(file): not played: its name goes on after the extension (a '.' or a space); rename it")
            } else if !avatarNames.contains(file), isAvatarLike(file) {
                warnings.append("\(story)/\(file): not the avatar: a story's avatar is named avatar.jpg or avatar.png")
            }
        }
        if avatarNames.allSatisfy(files.contains) {
            warnings.append("\(story)/avatar.png: not the avatar: avatar.jpg is; keep one")
        }
        return warnings
    }

    /// A warning for each folder inside the story folder `story` (at `path`) that holds clips:
    /// only a story's own folder is read, so they do not play. From a QA pass: clips filed in
    /// dated subfolders (`ana/2024-06-01/2.mp4`) were left out with exit 0 and no word, and a
    /// story whose clips were all there was skipped as having no playable clip, with no hint
    /// why. A folder whose name starts with `.` is passed over, as its files would be, and so is a
    /// system folder (Synology's `@eaDir`, which it makes in every folder it indexes: a re-check).
    static func nestedFolderWarnings(in path: String, story: String, folders: [String]) -> [String] {
        folders.filter { !$0.hasPrefix(".") && !isSystemFolderName($0) }.sorted(by: NaturalOrder.areInIncreasingOrder)
            .compactMap { folder in
                let listing = try? FolderListing(path: (path as NSString).appendingPathComponent(folder))
                let clips = listing?.names.filter(isClipFileName).count ?? 0
                guard clips > 0 else { return nil }
                return "\(story)/\(folder): not read: a folder inside a story, holding \(clips) "
                    + (clips == 1 ? "clip" : "clips") + "; a story's clips go directly in its folder"
            }
    }

    /// The name a story shows: `given`, or its handle when none is given or `given` is blank
    /// (``Manifest/User/isBlank(_:)``: nothing but white space and invisible characters), which a
    /// warning then says. From a QA pass: `"displayName": ""` gave a story with no name under its
    /// avatar, in silence. A name over ``Manifest/User/displayNameLimit`` characters is cut there,
    /// at a character's end, with a warning (a QA pass: a 15 MB name made a 90 MB player page).
    static func shownName(_ given: String?, handle: String) -> (name: String, warning: String?) {
        guard let given else { return (handle, nil) }
        let blank = "\"displayName\" is blank; the handle \"\(handle)\" is shown"
        guard !Manifest.User.isBlank(given) else { return (handle, blank) }
        let limit = Manifest.User.displayNameLimit
        let length = given.unicodeScalars.count
        guard length > limit else { return (given, nil) }
        var cut = ""
        var scalars = 0
        for character in given {
            scalars += character.unicodeScalars.count
            guard scalars <= limit else { break }
            cut.append(character)
        }
        guard !Manifest.User.isBlank(cut) else {
            // Its first 100 scalars show nothing (blank ones, or one character of many marks):
            // not blank, but too long to cut (a review: it was called blank).
            return (
                handle,
                "\"displayName\" is \(length) characters long, over \(limit), and its first \(limit) show "
                    + "nothing; the handle \"\(handle)\" is shown"
            )
        }
        return (cut, "\"displayName\" is \(length) characters long, over \(limit); it is cut to \"\(cut.shortened())\"")
    }

    /// The reason a name that is not UTF-8 is left out.
    static let notUTF8 = "its name is not UTF-8, which a manifest cannot hold; rename it"

    /// `names` less each one that differs from an earlier one (in byte order) only in Unicode
    /// normalization, such as `café` composed (NFC) and decomposed (NFD), with the reason for each.
    /// They are two files here, but one name to Swift's string comparison and to macOS and iOS,
    /// so a bundle could not keep them apart: the second clip took the first one's poster.
    static func withoutNormalizationTwins(_ names: [String]) -> (
        kept: [String], twins: [(name: String, reason: String)]
    ) {
        var spellings: [String: (spelling: String, label: String)] = [:]
        var kept: [String] = []
        var twins: [(name: String, reason: String)] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            if let earlier = earlierSpelling(of: name, as: name, in: &spellings) {
                twins.append((name, normalizationTwinReason(name, of: earlier)))
            } else {
                kept.append(name)
            }
        }
        return (kept, twins)
    }

    /// The label recorded with an earlier spelling of `key` that differs from it byte for byte
    /// (`spellings` is keyed by Swift's comparison, which takes NFC and NFD spellings for one),
    /// or nil, having recorded `key` with `label` when it is the first spelling. The same bytes
    /// again are no twin: a spec may list one file twice.
    static func earlierSpelling(
        of key: String, as label: String, in spellings: inout [String: (spelling: String, label: String)]
    ) -> String? {
        guard let first = spellings[key] else {
            spellings[key] = (key, label)
            return nil
        }
        return first.spelling.utf8.elementsEqual(key.utf8) ? nil : first.label
    }

    /// The reason `name` is left out, which differs from `earlier` only in Unicode
    /// normalization, naming each one's form (the two look alike in a message).
    static func normalizationTwinReason(_ name: String, of earlier: String) -> String {
        "its name is the \(normalizationForm(name)) spelling of \"\(earlier)\", which is here in the "
            + "\(normalizationForm(earlier)) one: macOS, iOS and the manifest's readers take the two for one name; "
            + "rename one of them"
    }

    /// `composed (NFC)`, `decomposed (NFD)`, or `mixed` for a name in neither form.
    static func normalizationForm(_ name: String) -> String {
        if name.utf8.elementsEqual(name.precomposedStringWithCanonicalMapping.utf8) { return "composed (NFC)" }
        if name.utf8.elementsEqual(name.decomposedStringWithCanonicalMapping.utf8) { return "decomposed (NFD)" }
        return "mixed"
    }

    /// Why a file given as INPUT that is no JSON spec (a clip) is read as neither.
    static let notAStoriesFolderOrSpec =
        "not a stories folder or a JSON spec: give a folder of story folders, or a .json spec"

    /// Why a spec or `story.json` whose first bytes announce UTF-16 or UTF-32 is not read.
    static let notUnicodeText = "is not valid UTF-8, UTF-16 or UTF-32 text"

    /// A spec or `story.json` is read up to this size.
    static let maximumSettingsSize: UInt64 = 16 << 20

    /// The most JSON values a spec may hold (about 9 a story of two clips: some 20,000 stories), and a `story.json`
    /// (it holds a few), and how deep either may nest, counted before it is parsed
    /// (``JSONShape``): Foundation's parser takes about 1.5 KB a value, and a 15 MB story.json of
    /// 850,000 small objects took 2.55 GB, and a failed allocation under a memory limit (an
    /// audit).
    static let maximumSpecValues = 200_000
    static let maximumStoryFileValues = 10_000
    static let maximumSettingsDepth = 32

    /// Why `data`, a spec or `story.json` whose values may number `valueLimit`, is not read (it
    /// "holds more than …"), or nil.
    static func shapeProblem(_ data: Data, valueLimit: Int) -> String? {
        JSONShape.problem(in: data, depthLimit: maximumSettingsDepth, valueLimit: valueLimit)?.description
    }

    /// Stories with an `order` first by it, the rest by handle in natural order (when
    /// `byExplicitOrder`; otherwise the given order is kept); then read stories move last,
    /// keeping their order.
    static func playOrder(_ stories: [StorySource], byExplicitOrder: Bool) -> [StorySource] {
        var ordered = stories
        if byExplicitOrder {
            ordered.sort { a, b in
                switch (a.order, b.order) {
                case (let x?, let y?) where x != y: return x < y
                case (.some, .none): return true
                case (.none, .some): return false
                default: return NaturalOrder.areInIncreasingOrder(a.handle, b.handle)
                }
            }
        }
        return ordered.filter { !$0.isRead } + ordered.filter(\.isRead)
    }

    /// Applies `story.json` at `path` to `story`; returns its unknown keys as warnings, throws
    /// ``StoryTypeError`` for a value of the wrong type.
    private static func applySettings(from path: String, to story: inout StorySource) throws -> [String] {
        let bytes: Data
        do {
            bytes = try RegularFile.contents(of: path, maxSize: maximumSettingsSize)
        } catch let error as MediaError where error.kind == .invalidMedia {
            // Too big (the one `.invalidMedia` reading it throws): the story plays without its
            // settings, and the line says so, as for a story.json that is no JSON (a QA note: it
            // gave the size alone).
            throw MediaError(.invalidMedia, path: path, "story.json: \(error.reason); its settings were ignored")
        }
        guard let data = JSONTextEncoding.utf8(bytes) else {
            throw MediaError(.invalidMedia, path: path, "story.json \(notUnicodeText); its settings were ignored")
        }
        if let problem = shapeProblem(data, valueLimit: maximumStoryFileValues) {
            throw MediaError(.invalidMedia, path: path, "story.json \(problem); its settings were ignored")
        }
        // Invalid JSON (a typo, or a number like 1e400 that JSON parsers refuse) is told apart
        // from valid JSON that is not an object.
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else {
            let failure = JSONParseFailure(parsing: data).map { " (\($0))" } ?? ""
            throw MediaError(
                .invalidMedia, path: path, "story.json is not valid JSON\(failure); its settings were ignored")
        }
        let scan = JSONStructureScan(data)
        if let comma = JSONSyntaxFault.trailingCommaPlaced(in: data, scan: scan) {
            throw MediaError(
                .invalidMedia, path: path, "story.json is not valid JSON (\(comma)); its settings were ignored")
        }
        guard let object = parsed as? [String: Any] else {
            throw MediaError(.invalidMedia, path: path, "story.json is not a JSON object; its settings were ignored")
        }
        // A key given twice means two things to two readers (Foundation keeps the first value,
        // a browser the last), as in a manifest.
        if let duplicate = scan.duplicateKeyPath {
            throw StoryTypeError(reason: "\"\(duplicate)\" is given twice")
        }
        if let problem = StoryFields.storyJSON.typeProblem(in: object) { throw StoryTypeError(reason: problem) }
        let shown = shownName(object["displayName"] as? String, handle: story.handle)
        story.displayName = shown.name
        if let isRead = object["isRead"] as? Bool { story.isRead = isRead }
        if let order = object["order"] as? NSNumber { story.order = order.doubleValue }
        return StoryFields.storyJSON.unknownKeyWarnings(in: object) + [shown.warning].compactMap { $0 }
    }

    /// Why `render` leaves out the story `handle` of the stories folder `stories` for its
    /// `story.json` (a value of the wrong type, a key given twice), or nil: `ingest` says so of
    /// the story it adds a clip to (an ingest QA pass: 0 and no word, then the render left the
    /// story out and nothing played).
    public static func storyFileLeavesOut(handle: String, in stories: String) -> String? {
        let path = BundlePaths.join(BundlePaths.join(stories, handle), "story.json")
        guard FileStamp(path: path)?.isRegularFile == true else { return nil }
        var story = StorySource(handle: handle, displayName: handle, avatar: nil, clips: [])
        do {
            _ = try applySettings(from: path, to: &story)
            return nil
        } catch let error as StoryTypeError {
            return "\(error.reason); render leaves the story out until it is fixed"
        } catch {
            return nil
        }
    }

    /// A `story.json` value of the wrong type, e.g. `"isRead": "yes"`.
    private struct StoryTypeError: Error {
        let reason: String
    }
}
