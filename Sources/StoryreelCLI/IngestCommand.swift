import Foundation
import StoryMedia
import StoryPipeline
import Synchronization

/// `storyreel ingest CLIP... --story HANDLE --into STORIES [--render OUT]`.
public enum IngestCommand: Command {
    public static let name = "ingest"
    public static let abstract = "Add new clips to a story folder safely, then optionally re-render the bundle."
    public static let usage =
        "ingest CLIP... --story HANDLE --into STORIES [--create] [--render OUT [--prune] [render's settings options]] "
        + "[--max-duration SECONDS] [--timeout SECONDS] [--lock-timeout SECONDS] [--quiet] [--json]"
    static let story = Option.text("story", "HANDLE", "The story (user) to add the clips to; created when new.")
    static let into = Option.outputPath("into", "STORIES", "The stories folder (it must exist, unless --create).")
    static let create = Flag("create", "Create the stories folder STORIES when it is missing.")
    static let render = Option.outputPath("render", "OUT", "Then run the incremental render of STORIES into OUT.")
    /// A service that only ever ran `ingest --render` kept every transition an ingest replaced
    /// (a story's last clip changes the transition out of it), for good (a QA pass).
    static let prune = Flag("prune", "With --render: remove outputs storyreel wrote that nothing references any more.")
    static let maxDuration = Option.number(
        "max-duration", "SECONDS", "Reject clips longer than this.", default: 60, range: .seconds)
    static let timeout = Option.number(
        "timeout", "SECONDS",
        "Deadline of each step of a clip: hashing, probing, decoding its first frame (with --render, as in render).",
        default: 30, range: .seconds)
    static let lockTimeout = Option.number(
        "lock-timeout", "SECONDS",
        "Wait this long for another ingest into STORIES (and, with --render, a render of OUT), then exit 75.",
        default: 60, range: .number(from: 0, to: 86_400))
    static let quiet = Flag(
        "quiet", short: "q", "Print only errors (no per-clip lines, warnings, notes or summary).")
    static let json = Flag(
        "json", "Print one JSON object on stdout at the end: each clip's outcome and file, and the render's summary.")
    public static let options: [any OptionDeclaration] =
        [story, into, create, render, prune, maxDuration, timeout, lockTimeout, quiet, json]
        + RenderCommand.settingsOptions
    /// What users call the story, the stories folder and the bundle to render (a QA pass:
    /// `--handle` was pointed to plan's `--bundle`, `--stories` to `--story`, and `-o` to the
    /// `-o` of thumbnail, cube and render, where ingest's `--render OUT` does that).
    public static let familiarNames: [String: [String]] = [
        "--handle": ["story"], "--user": ["story"], "--stories": ["into"], "--to": ["into"], "-o": ["render"],
        "--output": ["render"], "--out": ["render"],
    ]
    /// The render's defaults help shows are a new bundle's (a QA pass), as in render's help.
    public static let optionsNote: String? =
        "Settings given with --render (--size through --no-player) are kept in the bundle "
        + "(OUT/.storyreel/settings.json) and used by later runs until given again; the defaults above are a new "
        + "bundle's."
    public static let examples = [
        "storyreel ingest samples/portrait-h264.mp4 --story ana.lima --into stories --create   # a new stories folder",
        "storyreel ingest samples/sixty-fps.mp4 samples/edit-list.mp4 --story ben_k --into stories --render reel",
        "storyreel ingest samples/portrait-h264.mp4 --story ben_k --into stories --render reel --prune",
        "storyreel ingest samples/black-intro.mp4 --story ana.lima --into stories --json | jq -r '.clips[0].file'",
    ]

    public static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
        var printedJSON = false
        do {
            return try ingest(arguments, console: console, printedJSON: &printedJSON)
        } catch {
            // `--json` prints `{"error", "exitCode"}` for a run that fails, as render's does,
            // unless the object with the clips' outcomes is out already.
            if arguments[json], !printedJSON, ExitCode(for: error) != .usage {
                console.output(RenderCommand.failureJSON(error).serialized(pretty: false))
            }
            throw error
        }
    }

    /// Ingests the clips and renders when asked; with `--json`, prints the outcomes' object and
    /// sets `printedJSON`.
    private static func ingest(_ arguments: ParsedArguments, console: Console, printedJSON: inout Bool) throws
        -> ExitCode
    {
        guard !arguments.positionals.isEmpty else { throw UsageError("ingest needs at least one CLIP") }
        guard let handle = arguments[story] else { throw UsageError("ingest needs --story HANDLE") }
        guard let stories = arguments[into] else { throw UsageError("ingest needs --into STORIES") }
        if let problem = StoryHandle.problem(with: handle) { throw UsageError("--story '\(handle)': \(problem)") }
        // A folder named like an option is a trap in a shell (`rm *` in STORIES reads `-rf` as
        // one): ingest makes none, and adds to one only when it is already there.
        if handle.hasPrefix("-"), FileStamp(path: BundlePaths.join(stories, handle)) == nil {
            throw UsageError(
                "--story '\(handle)': a new story's handle may not start with '-' (a shell would read its folder's "
                    + "name as an option)")
        }
        var console = console
        console.quiet = arguments[quiet]
        var levelWarning: String?
        let renderOptions = try arguments[render].map {
            let saved = BundleSettings.saved(in: $0)
            var options = try RenderCommand.renderOptions(arguments, saved: saved)
            options.lockTimeout = arguments[lockTimeout]
            options.prune = arguments[prune]
            options.takesForce = false
            levelWarning = RenderCommand.warnAboutLevel(options, saved: saved, console: console)
            return options
        }
        if renderOptions == nil, let given = RenderCommand.settingsOptions.first(where: { arguments.wasGiven($0) }) {
            throw UsageError("--\(given.spec.name) is a setting of the render: give it with --render OUT")
        }
        if renderOptions == nil, arguments[prune] {
            throw UsageError("--prune removes a bundle's unused outputs: give it with --render OUT")
        }
        // Names their file system cannot hold are refused as `-o`'s are, before any work.
        try InputProtection.checkNameLengths(
            (arguments[create] ? [InputProtection.Output(label: "--into '\(stories)'", path: stories)] : [])
                + (arguments[render].map { [.init(label: "--render '\($0)'", path: $0)] } ?? []))
        // OUT is checked as render checks it, before any clip is ingested or STORIES created.
        if let output = arguments[render] {
            try BundleFolder.check(output: output, inputRoot: stories, force: false, takesForce: false)
            // A `..` in OUT's path after what is no folder leads nowhere (a re-check).
            if FileStamp(path: output) == nil, let problem = CreatedOutputs.dotDotProblem(in: output) {
                throw MediaError(.cannotCreateOutput, path: output, problem)
            }
        }
        let storiesToCreate = try isStoriesFolderToCreate(stories, create: arguments[create], handle: handle)
        var ingester = ClipIngester(
            storiesFolder: stories, handle: handle, maxDuration: arguments[maxDuration], timeout: arguments[timeout])
        ingester.lockTimeout = arguments[lockTimeout]
        ingester.waiting = console.lockWaitingNote(stories)
        // A new stories folder is made only for an upload that can go into it: when every clip
        // is rejected, --create leaves nothing behind (nor runs the render).
        let allRejected = storiesToCreate ? try ingester.rejections(of: arguments.positionals) : nil
        // The stories folder --create made, with the ingest lock file in it, goes again when no
        // clip went in: after a failure, or an interrupt (Ctrl-C) before the clip is in place.
        var createdStories: CreatedOutputs?
        let lockFile = BundlePaths.join(stories, ClipIngester.lockFileName)
        if storiesToCreate, allRejected == nil {
            // One mkdir a missing folder, so a failure names it and the system's reason.
            var created = CreatedOutputs()
            try created.createFolder(stories)
            createdStories = created
            Self.removeLoneLockFileOnInterrupt(lockFile)
        }
        // In each ingested clip's JSON warnings too (an ingest QA pass: a backend reading only
        // the JSON never learnt that a user's handle split one user into two stories).
        var storyWarnings: [String] = []
        if !storiesToCreate, let twin = Self.caseTwin(of: handle, in: stories) {
            let warning =
                "\(handle): a new story, though \(twin) is there, a name that differs only in case: two stories "
                + "here, one folder on macOS and Windows; is --story \(twin) meant?"
            console.warning(warning)
            storyWarnings.append(warning)
        }
        var exitCode = ExitCode.success
        // With --json, stdout holds only the object printed at the end.
        let json = arguments[Self.json]
        var warned: Set<String> = []  // render, when it follows, gives the same lines: each once
        // Each clip's line as soon as its outcome is known: a run interrupted after some clips
        // went in used to print nothing, so the caller could not tell which (a QA pass). The
        // line of a clip in the story but not yet said is said by an interrupt (``UnsaidLines``,
        // ``ClipIngester/ingest(_:reported:placed:)``).
        let says = !console.quiet && !json
        let sayUnsaidOnInterrupt =
            says
            ? InterruptCleanup.onInterrupt { [console] in Self.unsaid.sayTheRest(with: console.lineUnlessItWouldWait) }
            : nil
        defer { sayUnsaidOnInterrupt.map(InterruptCleanup.removeInterruptAction) }
        func placed(_ index: Int, _ name: String) {
            guard says else { return }
            Self.unsaid.record("\(arguments.positionals[index]): ingested as \(handle)/\(name)", for: index)
        }
        func report(_ index: Int, _ outcome: IngestOutcome) {
            let clip = arguments.positionals[index]
            switch outcome {
            case .ingested(let name, _, _):
                if says { Self.unsaid.say("\(clip): ingested as \(handle)/\(name)", for: index, with: console.line) }
                for warning in outcome.warnings(handle: handle) {
                    console.warning(warning)
                    warned.insert(warning)
                }
            case .alreadyPresent(let name):
                if !console.quiet, !json { console.line("\(clip): already ingested as \(handle)/\(name)") }
            case .rejected(let reason):
                console.error("\(clip): rejected: \(reason)")
                if exitCode == .success { exitCode = Self.exitCode(of: outcome) }
            case .notWritten(let failure):
                // Not the clip's fault: the run's own failure (73, 74) outranks a rejection.
                console.error("\(clip): not ingested: \(IngestOutcome.reason(failure, clip: clip))")
                if exitCode == .success || exitCode == .dataError { exitCode = Self.exitCode(of: outcome) }
            }
        }
        var outcomes: [IngestOutcome]
        do {
            if let allRejected {
                outcomes = allRejected
                for (index, outcome) in outcomes.enumerated() { report(index, outcome) }
            } else {
                var remade = 0
                while true {
                    do {
                        outcomes = try ingester.ingest(arguments.positionals, reported: report, placed: placed)
                        break
                    } catch let error as MediaError
                        where error.kind == .missingInput && error.path == stories && arguments[create] && remade < 3
                    {
                        // The folder another `--create` made and took away again while this run
                        // waited for its lock: made anew, this run's own now (it goes again when
                        // no clip goes in).
                        remade += 1
                        var created = createdStories ?? CreatedOutputs()
                        try created.createFolder(stories)
                        createdStories = created
                        Self.removeLoneLockFileOnInterrupt(lockFile)
                    }
                }
            }
        } catch {
            createdStories.map { Self.remove($0, lockFile: lockFile, ingested: []) }
            throw error
        }
        createdStories.map { Self.remove($0, lockFile: lockFile, ingested: outcomes) }
        // A clip went into a story whose story.json render refuses: the clip is in, and will not
        // play until the file is fixed (a QA pass: 0 and no word, then nothing played).
        // `--json` gives it in each ingested clip's `warnings` too.
        if outcomes.contains(where: \.isIngested),
            let leftOut = StoryInput.storyFileLeavesOut(handle: handle, in: stories)
        {
            let warning = "\(handle)/story.json: \(leftOut)"
            console.warning(warning)
            warned.insert(warning)
            storyWarnings.append(warning)
        }
        func printJSON(render: JSONValue) {
            guard json else { return }
            let clips = zip(arguments.positionals, outcomes).map { clip, outcome in
                outcome.json(
                    clip: clip, handle: handle, exitCode: Int(Self.exitCode(of: outcome).rawValue),
                    storyWarnings: storyWarnings)
            }
            let object = JSONValue.object([
                ("story", .string(handle)), ("stories", .string(stories)), ("clips", .array(clips)), ("render", render),
            ])
            console.output(object.serialized(pretty: false))
            printedJSON = true
        }
        // A stories folder this run made, into which no clip went (each rejected, or not
        // written: a full disk), is gone again, and there is nothing to render: the render
        // said "no such file or folder" (66) in place of the clips' 74 (a QA pass).
        let createdNothing = createdStories != nil && !outcomes.contains(where: \.isIngested)
        guard let output = arguments[render], let options = renderOptions, allRejected == nil, !createdNothing else {
            printJSON(render: .null)
            return exitCode
        }
        var summary: RenderSummary
        do {
            summary = try BundleRenderer(input: stories, output: output, options: options)
                .run(waiting: console.lockWaitingNote(output))
        } catch {
            printJSON(render: RenderCommand.failureJSON(error))
            let ingested = outcomes.filter(\.isIngested).count
            // An upload rejected (65) or not written (73, 74) stays the outcome when the render
            // then finds no stories (66): the clip, or the run's own write, is what went wrong (a
            // review: a full disk's 74 became 66).
            if ingested == 0, exitCode != .success, (error as? MediaError)?.kind == .noStories {
                console.error("\(error)")
                return exitCode
            }
            guard ingested > 0 else { throw error }
            throw RenderAfterIngestFailure(underlying: error, ingested: ingested, stories: stories)
        }
        // The level warning was printed before the work; the JSON carries it too.
        summary.warnings.insert(contentsOf: levelWarning.map { [$0] } ?? [], at: 0)
        RenderCommand.report(
            summary, console: console, json: false, summaryLine: !json,
            alreadyPrinted: Array(warned) + (levelWarning.map { [$0] } ?? []))
        printJSON(render: summary.json)
        // A rejected clip (65) outranks the render's nothing plays (66), as a clip not written
        // (73, 74) outranks both.
        if exitCode == .success { exitCode = RenderCommand.exitCode(of: summary) }
        return exitCode
    }

    /// The exit code `outcome` alone gives, as `--json` reports it for each clip: 0 for a clip
    /// in the story, 65 for one rejected, and for one not ingested its failure's (66 not there or
    /// not readable, 73 and 74 the folder not written, 75 still changing: try again).
    static func exitCode(of outcome: IngestOutcome) -> ExitCode {
        switch outcome {
        case .ingested, .alreadyPresent: .success
        case .rejected: .dataError
        case .notWritten(let failure): ExitCode(for: failure)
        }
    }

    /// The lines of clips in the story not yet said.
    private static let unsaid = UnsaidLines()

    /// What ``removeLoneLockFileOnInterrupt(_:)`` registered.
    private static let lockFileAction = Mutex<Int?>(nil)

    /// Takes away the ingest lock file `lockFile` of a stories folder this run made if the run is
    /// interrupted while the folder holds nothing else but this run's temporary files (removed
    /// next), so the folder goes too. Removed whatever the folder held, the lock file went from a
    /// story a clip had gone into (a QA pass of interrupts: every SIGTERM after the first clip's
    /// line).
    private static func removeLoneLockFileOnInterrupt(_ lockFile: String) {
        lockFileAction.withLock { token in
            // A new story's folder still under its temporary name is a temporary file here.
            if token == nil { token = InterruptCleanup.removeOnInterruptWhileAlone(lockFile) }
        }
    }

    /// Takes away the stories folder this run `created` (and its ingest lock file) unless a clip
    /// went into it (`ingested`); either way an interrupt from now on leaves the lock file.
    private static func remove(_ created: CreatedOutputs, lockFile: String, ingested: [IngestOutcome]) {
        lockFileAction.withLock { token in
            token.map(InterruptCleanup.removeInterruptAction)
            token = nil
        }
        guard !ingested.contains(where: \.isIngested) else { return }
        // The lock file goes only under its lock, and only when the folder holds nothing else:
        // removed as another ingest waited on it, two ingests then ran at once (a QA pass). One
        // that waited on it finds it gone and locks the file at its path instead.
        let stories = (lockFile as NSString).deletingLastPathComponent
        guard let lock = try? BundleLock(file: lockFile, folder: stories, timeout: 0) else {
            // No lock file could be made there (under a umask of 222 the folder made is not
            // writable): the folder goes while it is empty, as `removeAll` removes folders (a QA
            // pass: it was left behind).
            created.removeAll()
            return
        }
        if (try? FileManager.default.contentsOfDirectory(atPath: stories)) == [ClipIngester.lockFileName] {
            unlink(lockFile)
            created.removeAll()
        }
        withExtendedLifetime(lock) {}
    }

    /// The story folder of `stories` whose name is `handle`'s in another case, when there is no
    /// folder of `handle`'s own: `--story Ana` for `ana` started a second story in silence (a QA
    /// pass).
    static func caseTwin(of handle: String, in stories: String) -> String? {
        guard let listing = try? FolderListing(path: stories), !listing.names.contains(handle) else { return nil }
        return listing.folders.sorted().first { $0 != handle && $0.lowercased() == handle.lowercased() }
    }

    /// `--into STORIES` must be a folder, not a bundle, and not one of files without a story
    /// folder (66; an empty one is a stories folder to be): a missing one is refused (66), so
    /// a typo does not start a new stories folder, unless `--create` asks for it; then this
    /// returns true.
    static func isStoriesFolderToCreate(_ stories: String, create: Bool, handle: String) throws -> Bool {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: stories, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw MediaError(.unreadableInput, path: stories, "not a folder") }
            if let reason = StoryInput.bundleReason(stories) {
                throw MediaError(
                    .noStories, path: stories, reason + "; --into takes the stories folder, --render the bundle")
            }
            // Files and no story folder: another folder given by mistake (a QA pass: the uploads
            // folder itself took a story and the lock file). An empty one takes the first story.
            // A system folder is no story folder (a re-check: `lost+found` beside the uploads).
            // One that cannot be listed is an unreadable input (66), as render says of it (an
            // ingest QA pass: 73, an output's code, from the lock file that followed).
            guard let listing = opendir(stories) else {
                let code = errno
                throw MediaError(
                    .unreadableInput, path: stories, "cannot read the stories folder: \(SystemErrorText.describe(code))"
                )
            }
            closedir(listing)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: stories)) ?? []).filter {
                !$0.hasPrefix(".") && !StoryInput.isSystemFolderName($0)
            }
            let hasFolder = names.contains { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: "\(stories)/\(name)", isDirectory: &isFolder)
                    && isFolder.boolValue
            }
            if !names.isEmpty, !hasFolder {
                throw MediaError(
                    .noStories, path: stories,
                    "not a stories folder: it holds files but no story folder (expected STORIES/HANDLE/clip.mov); "
                        + "--into takes the stories folder")
            }
            // Clips at its top, as a story folder holds them, and no story HANDLE: a story folder
            // given for STORIES (an ingest QA pass: `--into st/ana --story ana` put the clip in
            // st/ana/ana/, which no render plays, exit 0).
            if let clip = names.sorted().first(where: StoryInput.isClipFileName),
                FileStamp(path: BundlePaths.join(stories, handle)) == nil
            {
                throw MediaError(
                    .noStories, path: stories,
                    "holds clips at its top (\(clip)), as a story folder does, and no story \(handle): --into takes the "
                        + "stories folder, whose folders are the stories")
            }
            return false
        }
        guard create else {
            throw MediaError(
                .missingInput, path: stories, "no such stories folder; give --create to start a new one")
        }
        // A `..` after a folder that does not exist leads nowhere for the system, though the path
        // tidied by its spelling names a folder --create could make (a re-check: `reel/../st`
        // with no `reel` made `st`, then said it "was removed while this ingest waited for its
        // lock", and took it away again).
        if let problem = CreatedOutputs.dotDotProblem(in: stories) {
            throw MediaError(.missingInput, path: stories, problem)
        }
        return true
    }
}
