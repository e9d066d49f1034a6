import Foundation
import StoryMedia
import Synchronization

/// `storyreel render`: turns a stories input into a bundle (clips, posters, thumbnails, avatars,
/// cube transitions and `manifest.json`), incrementally, under a lock, and atomically.
///
/// It touches only what it wrote: OUT must be missing, empty or a bundle (or `--force` given);
/// stale temporary files are removed only by their exact name and only in storyreel's own
/// folders; `--prune` removes only outputs the ledger says storyreel wrote.
public struct BundleRenderer: Sendable {
    /// The stories folder or spec.
    public var input: String
    /// The bundle folder.
    public var output: String
    /// How to render.
    public var options: RenderOptions

    /// A renderer for `input` into `output`.
    public init(input: String, output: String, options: RenderOptions) {
        self.input = input
        self.output = output
        self.options = options
    }

    /// Renders, reporting each finished unit to `progress` and, once, a wait for another
    /// render's lock to `waiting` (with the holder's pid when known). Throws when nothing could
    /// be done (missing input, refused OUT, lock timeout) and when an output could not be
    /// written (a full disk: the manifest is then left as it was); bad clips are skipped.
    public func run(
        waiting: @escaping @Sendable (Int32?) -> Void = { _ in },
        progress: @escaping @Sendable (RenderProgress) -> Void = { _ in }
    ) throws -> RenderSummary {
        let started = MonotonicClock.now
        // Everything that can refuse the run is checked before OUT is touched.
        let firstLook = try StoryInput.load(input)
        let inputIsStoriesFolder = FileStamp(path: input)?.isFolder == true
        try BundleFolder.check(
            output: output, inputRoot: firstLook.root, inputIsStoriesFolder: inputIsStoriesFolder, force: options.force,
            takesForce: options.takesForce)
        // One mkdir a missing folder, so a failure says which and why ("Read-only file system").
        // Bare: missing, empty (`mkdir OUT` first, a CI workspace), or holding only the lock file a
        // first run in which nothing played left (re-checks: both kept the skeleton).
        let outputIsBare =
            FileStamp(path: output, followingLinks: false) == nil
            || Set((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? ["?"]).isSubset(of: [
                BundlePaths.lockFile
            ])
        var createdFolders = CreatedOutputs()
        try createdFolders.createFolder(output)
        let bareOutput = outputIsBare ? FileStamp(path: output, followingLinks: false)?.identity : nil
        // Shards share the bundle's lock, so the shards of one render run side by side into one
        // OUT (their units are disjoint); a full render (the manifest, --prune) waits for all.
        // One waiting line and one --lock-timeout for the whole wait, on whichever of the
        // bundle's locks it is (a re-check: a shard waiting on OUT, then on shards of another
        // count, said so twice and waited twice the timeout).
        let lockWaitStarted = MonotonicClock.now
        let announced = Mutex(false)
        let waitingOnce: @Sendable (Int32?) -> Void = { pid in
            if announced.withLock({ first in
                defer { first = true }
                return !first
            }) {
                waiting(pid)
            }
        }
        let lock: BundleLock
        do {
            lock = try BundleLock(
                folder: output, shared: options.shard != nil, timeout: options.lockTimeout, waiting: waitingOnce)
        } catch {
            // OUT made by this run goes again while empty (a QA pass: under a umask of 222 it was
            // made unwritable, its lock file could not be, and every later run was refused).
            createdFolders.removeAll()
            throw error
        }
        defer { withExtendedLifetime(lock) {} }
        // A first full render stopped part-way (short of open files: 71) takes away the folders it
        // made while they hold nothing: a QA pass found six empty ones beside the lock file. Any
        // output, or the manifest a finished render writes, keeps them.
        defer {
            if let bareOutput, options.shard == nil,
                FileStamp(path: output, followingLinks: false)?.identity == bareOutput
            {
                _ = BundleFolder.removeEmptySkeleton(output)
            }
        }
        // The stories as they are once the lock is held: a render that waited behind another (an
        // `ingest --render` queued behind one) rendered the listing it made before, published a
        // manifest without a story ingested meanwhile and skipped clips deleted meanwhile (a QA
        // pass). The last render to write the manifest has listed after every earlier ingest.
        let storyInput = try StoryInput.load(input)
        if storyInput.root != firstLook.root {
            try BundleFolder.check(
                output: output, inputRoot: storyInput.root, inputIsStoriesFolder: inputIsStoriesFolder,
                force: options.force, takesForce: options.takesForce)
        }
        // A newer storyreel may have rendered while this one waited for the lock.
        try BundleGenerator.refuseNewer(output)
        // OUT and its folders are held open, and every output is written through them: a folder
        // swapped for a symlink during the run cannot lead a write elsewhere (``FolderPin``).
        let outputPin = try FolderPin(path: output)
        var folderPins: [(name: String, pin: FolderPin)] = []
        defer { withExtendedLifetime((outputPin, folderPins)) {} }
        for name in BundlePaths.outputFolders + [BundlePaths.privateFolder] {
            let path = BundlePaths.join(output, name)
            // A bundle of referenced clips gets no clips/ folder (one from earlier runs stays).
            if name == "clips", options.clipMode == .reference, outputPin.handle.status(of: name) == nil { continue }
            // Not through a symlink put there since the check: mkdir fails on it, and the folder is
            // opened without following one. Made, it is taken away by an interrupt while still
            // empty, as every command's folders are; not a shard's: the other shards of the render
            // write into it at once (a QA pass: a shard stopped by SIGTERM took `transitions/`
            // away as another was about to write there, which failed, 73).
            var failure: Int32 = 0
            let makeFolder = {
                if FileCreationMask.makeFolder(name, in: outputPin.handle.descriptor) { return true }
                failure = errno
                return false
            }
            let made = options.shard == nil ? InterruptCleanup.trackFolder(path, createdBy: makeFolder) : makeFolder()
            let existing = outputPin.handle.status(of: name)
            guard made || (failure == EEXIST && existing.map { $0.st_mode & S_IFMT == S_IFDIR } == true) else {
                throw MediaError(
                    .cannotCreateOutput, path: path, "cannot create the folder: \(SystemErrorText.describe(failure))")
            }
            folderPins.append((name, FolderPin(try FolderHandle(name: name, in: outputPin.handle))))
        }
        var shardLock: BundleLock?
        var shardGroupLock: ShardGroupLock?
        if let shard = options.shard {
            func timeLeft() -> Double { max(0, options.lockTimeout - (MonotonicClock.now - lockWaitStarted)) }
            do {
                // Shards of another count split the work otherwise: they take turns with these.
                shardGroupLock = try ShardGroupLock(
                    bundle: output, count: shard.count, timeout: timeLeft(), waiting: waitingOnce)
                // The same shard twice at once (a retried CI job) takes turns: it writes one ledger.
                shardLock = try BundleLock(
                    file: BundlePaths.join(output, BundlePaths.shardLockFile(shard)), folder: output,
                    timeout: timeLeft(), waiting: waitingOnce)
            } catch is BundleLock.Timeout {
                throw BundleLock.Timeout(folder: output, seconds: options.lockTimeout)
            }
            BundlePaths.removeStaleTemporaries(in: output, untouchedFor: TemporaryFile.staleAfter)
        } else {
            // Another shard's temporary files may be in flight while shards share the lock.
            BundlePaths.removeStaleTemporaries(in: output)
        }
        defer { withExtendedLifetime((shardGroupLock, shardLock)) {} }

        let privateFolder = BundlePaths.join(output, BundlePaths.privateFolder)
        let cache = StatCache(file: BundlePaths.join(privateFolder, StatCache.fileName))
        let ledger = BundleLedger(bundle: output, shard: options.shard)
        // An interrupt (Ctrl-C, a CI job's SIGTERM) records what the run finished: its outputs
        // were otherwise in no ledger, so --prune kept them for good (a QA pass). A SIGKILL
        // still leaves them unrecorded, until a run that needs their keys adopts them.
        let recordOnInterrupt = InterruptCleanup.onInterrupt { ledger.saveOnInterrupt() }
        defer { InterruptCleanup.removeInterruptAction(recordOnInterrupt) }
        var summary = RenderSummary()
        summary.bundle = output
        summary.warnings = storyInput.warnings + ledger.unreadable
        let (saved, unreadable) = BundleSettings.load(in: output)
        if let unreadable { summary.warnings.append(unreadable + ", and kept") }
        var settings = (saved ?? BundleSettings()).applying(options.settings)
        // What this run does with clips is what is kept (the CLI gives the kept mode when no flag).
        settings.clips = options.clipMode
        if let saved { summary.settingsChanges = settings.changes(from: saved) }
        let plan = try BundlePlan.make(
            input: storyInput, settings: settings, options: options, cache: cache, bundle: output)
        summary.warnings += plan.stories.flatMap(\.items).compactMap { item in
            item.record.playbackConcern.map { "\(item.path): \($0)" }
        }

        var run = UnitRun(
            bundle: output, options: options, canvas: (plan.canvasWidth, plan.canvasHeight), ledger: ledger,
            sourceStamps: plan.sourceStamps, sourceHashes: plan.sourceHashes, progress: progress)
        run.execute(plan.shardUnits)
        // An output set aside has left its name, made again or not (a review: a shard's failed
        // remake said `changed: false`).
        if !run.setAside.isEmpty { summary.wroteBundleFiles = true }
        // Before the manifest is written again: it still names the renderer that made the bundle.
        if run.rendered > 0, let note = BundleGenerator.olderRendererNote(output, prune: options.prune) {
            summary.notes.append(note)
        }
        // A clip whose units failed (it may have changed since it was hashed) is hashed and
        // probed again next time; one the plan skipped keeps what it was skipped for, when that
        // lies in its bytes.
        let failed = Set(run.failures.map(\.path))
        let kept = plan.stories.flatMap(\.items).filter { !failed.contains($0.path) }.map(\.path)
        let avatars = plan.stories.filter { $0.avatar != nil }.compactMap(\.source.avatar)
        let skippedClips = plan.skipped.map(\.path)
        // A clip whose images cannot be made for a reason in its bytes (it probes but does not
        // decode) is skipped by the plan from now on, while it is unchanged, as one that does not
        // probe is: it was copied and tried again on every render, and `--prune` removed the copy
        // every time, so no re-run was ever "rendered 0" (a QA pass). Full renders only: a shard
        // plans the units every other shard plans.
        if options.shard == nil {
            for item in plan.stories.flatMap(\.items) {
                // Only while the file is still the one the plan hashed (its change time too): a
                // unit that read a clip being rewritten in place, its mtime put back, had 'moov
                // atom not found' kept for the whole clip that followed, skipped on every render
                // (a QA pass).
                guard let reason = run.lastingFailureReason(forAnyOf: item.outputs.all),
                    let stamp = plan.sourceStamps[item.absolutePath],
                    (try? BundlePlan.unchanged(
                        item.absolutePath, since: stamp, sha256: item.record.sha256, timeout: options.timeout)) != nil
                else { continue }
                cache.storeFailure(reason, for: plan.statCacheKey(item.path), stamp: stamp, record: item.record)
            }
        }
        // Those just found, and those a shard planned, failed again and keeps.
        let heldFailures = plan.stories.flatMap(\.items).filter { item in
            plan.sourceStamps[item.absolutePath].flatMap { cache.failure(for: plan.statCacheKey(item.path), stamp: $0) }
                != nil
        }.map(\.path)
        do {
            try cache.save(keeping: Set((kept + avatars + skippedClips + heldFailures).map(plan.statCacheKey)))
        } catch {
            // Said, as the ledger's failure is: every later run hashed the clips again in silence
            // (a QA pass).
            summary.warnings.append(
                "the stat cache could not be saved (\(MediaError.reason(of: error))); the bundle is as rendered, and "
                    + "the next run hashes the clips again")
        }
        guard options.shard == nil else {
            // A shard's transitions over their peak are said too (a re-check: a sharded CI job
            // never saw the warning, which the final pass, making nothing, cannot give).
            summary.warnings += Self.setAsideWarnings(run) + run.warnings
            // A shard of an input in which no clip can be read keeps the settings as they were,
            // as a full render in which nothing plays does (a QA pass: its flags were kept, and
            // the next render removed the page).
            let nothingPlays = plan.nothingPlays
            if nothingPlays {
                summary.nothingPlays = true
                summary.settingsChanges = []
                summary.nothingPlaysLine =
                    plan.nothingPlaysReason(skippedAny: !plan.skipped.isEmpty)
                    + ", so the settings were left as they were" + plan.storiesFolderHint(input: input)
            }
            return try finish(
                run, summary: &summary, skipped: plan.skipped, started: started, ledger: ledger,
                settings: nothingPlays ? nil : (settings, saved))
        }

        // What plays: items whose outputs are all there, stories with such an item, and the
        // transitions between those stories, rendered now if the plan did not foresee them.
        var skipped = plan.skipped + run.failures
        var playing: [ResolvedStory] = []
        for var story in plan.stories {
            let missing = story.items.filter { !$0.outputs.all.allSatisfy(run.available.contains) }
            for item in missing where !skipped.contains(where: { $0.path == item.path }) {
                let reason = run.failureReason(forAnyOf: item.outputs.all) ?? "its outputs are missing"
                skipped.append(SkippedEntry(path: item.path, story: story.id, reason: reason))
            }
            story.items.removeAll { item in missing.contains { $0.path == item.path } }
            if let avatar = story.avatarOutput, !run.available.contains(avatar) {
                story.avatarOutput = nil
                // Stories sharing an avatar's bytes share its unit, whose failure names the first
                // of them: each of the others gets its own entry (a QA pass: they lost their
                // avatars without a word).
                if let path = story.source.avatar, !skipped.contains(where: { $0.path == path }) {
                    let reason = run.failureReason(forAnyOf: [avatar]) ?? "its output is missing"
                    skipped.append(SkippedEntry(path: path, story: story.id, reason: reason))
                }
            }
            if story.items.isEmpty {
                skipped.append(SkippedEntry(path: story.id, story: story.id, reason: "no playable clip"))
            } else {
                playing.append(story)
            }
        }
        // Nothing plays (every story skipped: the clips' mount missing, a spec of broken paths):
        // the manifest, the page and the settings are left as they were and nothing is pruned.
        // An empty manifest replaced a good one, and --prune removed every output (a QA pass).
        if playing.isEmpty {
            let manifestPath = BundlePaths.join(output, BundlePaths.manifest)
            summary.settingsChanges = []  // not kept either
            summary.nothingPlays = true
            summary.warnings += Self.setAsideWarnings(run)
            let hadManifest = FileStamp(path: manifestPath) != nil
            var result = try finish(
                run, summary: &summary, skipped: skipped, started: started, ledger: ledger, settings: nil)
            // A first render of nothing that plays leaves no empty bundle behind (a QA pass: a
            // CI job given only broken uploads got a folder that looked like a bundle).
            let removal =
                bareOutput.map { BundleFolder.removeUnplayedBundle(output, madeAs: $0, ledger: ledger) } ?? (
                    outputsRemoved: 0, skeletonRemoved: false
                )
            let removed = removal.skeletonRemoved
            // What it rendered and then removed is not counted: "rendered 1" beside "no bundle was
            // made" read as a contradiction (a QA pass).
            result.rendered = max(0, result.rendered - removal.outputsRemoved)
            result.nothingPlaysLine =
                plan.nothingPlaysReason(skippedAny: !skipped.isEmpty) + ", so "
                + (removed
                    ? "no bundle was made ('\(output)' holds only its lock file)"
                    : !hadManifest
                        ? "no manifest was written"
                        : "the manifest was left as it was" + (options.prune ? ", and nothing was pruned" : ""))
                + plan.storiesFolderHint(input: input)
            return result
        }
        let transitions = try plan.transitionUnits(between: playing)
        // Each output once: stories of the same clips share their transitions, and each copy of
        // one was rendered again, only to find its name taken (a re-check: 300 stories of three
        // clips, one of which changed during the plan, rendered 2.4 transitions a second for
        // minutes; 5,000 of them, past 11 minutes).
        var seen = run.attempted
        run.execute(transitions.filter { seen.insert($0.output).inserted })
        summary.warnings += Self.setAsideWarnings(run) + run.warnings
        skipped += run.failures.filter { failure in !skipped.contains(failure) }
        // A failed transition is reported when it joins what plays; one into or out of a clip
        // that failed was replaced by a transition joining what plays.
        let joining = Set(transitions.map(\.output))
        skipped += run.transitionFailures.filter { joining.contains($0.output) }.map(\.entry)

        let manifest = try ManifestBuilder(
            stories: playing, transitions: transitions.filter { run.available.contains($0.output) },
            skipped: skipped, plan: plan, bundle: output, ledger: ledger
        ).build()
        if options.clipMode == .reference, let warning = Self.referenceThroughLinkWarning(playing, bundle: output) {
            summary.warnings.append(warning)
        }
        if let failure = run.outputFailure {
            try? Self.save(ledger)
            throw failure
        }
        // Every output went in through its folder's pinned handle: a folder moved or replaced
        // meanwhile holds them elsewhere than the manifest would name them (a QA pass: `mv posters
        // posters.old; mkdir posters` mid-run gave 0 and a bundle validate refused).
        for (name, pin) in folderPins where outputPin.handle.identity(of: name) != pin.handle.identity {
            try? Self.save(ledger)
            throw MediaError(
                .cannotCreateOutput, path: BundlePaths.join(output, name),
                "was moved or replaced while storyreel wrote into it; the manifest is left as it was: render again")
        }
        let manifestPath = BundlePaths.join(output, BundlePaths.manifest)
        let bytes = try manifest.manifest.jsonData()
        var referenced = manifest.referencedFiles.union([BundlePaths.manifest])
        // The page first: a failure writing the manifest then leaves the old manifest with a page
        // that plays it (it fetches manifest.json), where the other order left a new manifest
        // beside the old page.
        if settings.player {
            if let note = try writePlayerPage(for: bytes, ledger: ledger, summary: &summary) {
                summary.notes.append(note)
            } else {
                referenced.insert(PlayerPage.fileName)
            }
        } else if ledger.recorded.contains(PlayerPage.fileName) {
            // Said as a note, not counted as pruned: --prune was not given (a QA pass).
            let changed = ledger.state(of: PlayerPage.fileName) == .changed
            if ledger.removeIfUnchanged(PlayerPage.fileName) {
                summary.wroteBundleFiles = true
                summary.notes.append("\(PlayerPage.fileName) removed (--no-player)")
            } else if changed {
                summary.notes.append(
                    "\(PlayerPage.fileName) was changed since storyreel wrote it, so --no-player left it")
            }
        } else if ledger.state(of: PlayerPage.fileName) == .unknown,
            PlayerPage.isStoryreelPage(at: BundlePaths.join(output, PlayerPage.fileName))
        {
            // storyreel's page, perhaps edited, in a bundle copied without its ledger: left, and
            // said (a re-check: it stayed in silence, playing the manifest embedded in it).
            summary.notes.append(
                "\(PlayerPage.fileName) is not in the bundle's ledger (.storyreel/ was missing or not kept), so "
                    + "--no-player left it; remove it if it is storyreel's")
        }
        // The settings before the manifest, which is the last thing a failure may leave as it was:
        // settings ahead of the manifest only key the next run as this one (whose outputs are all
        // in place), where settings behind it would re-key the bundle to the old ones.
        try settings.save(in: output, over: saved)
        if (try? RegularFile.contents(of: manifestPath, maxSize: UInt64(bytes.count))) != bytes {
            if settings.canvas == .automatic, let note = Self.canvasChangeNote(plan, bundle: output) {
                summary.notes.append(note)
            }
            try writeManifest(bytes, to: manifestPath, ledger: ledger, summary: &summary)
        }
        if ledger.state(of: BundlePaths.manifest) != .current { try? ledger.record(BundlePaths.manifest) }
        summary.manifestPath = manifestPath
        if options.prune {
            let sources = Set(plan.sourceStamps.values.map(\.identity))
            let (removed, stuck) = prune(keeping: referenced, ledger: ledger, sources: sources)
            summary.pruned += removed
            if let warning = Self.pruneWarning(stuck) { summary.warnings.append(warning) }
        }
        do {
            // The manifest is in place and the ledger already holds every output (saved with the
            // manifest's contents as pending, just before it was written): a failure to save it
            // again costs the next run a hash of the manifest, not the run.
            try ledger.save()
        } catch {
            summary.warnings.append(
                "the ledger could not be saved (\(MediaError.reason(of: error))); the bundle is complete, and the "
                    + "next run checks the manifest by its contents")
        }
        return try finish(
            run, summary: &summary, skipped: skipped, started: started, ledger: nil, settings: nil)
    }

    /// Saves `ledger`; when it cannot be saved (a full disk), removes the outputs this run
    /// recorded since its last save before rethrowing, so that each output is recorded or
    /// removed, never left in place in no ledger.
    private static func save(_ ledger: BundleLedger) throws {
        do {
            try ledger.save()
        } catch {
            ledger.removeUnsaved()
            throw error
        }
    }

    /// Fills in the summary and saves the ledger (nil: saved already); rethrows the first output
    /// failure; then saves the run's settings over the ones it read (a shard's; a full render
    /// saves them just before its manifest, and passes nil). They are saved once every output and the ledger are
    /// written: a run interrupted (Ctrl-C, a cancelled CI job) or stopped by a full disk before
    /// then leaves the bundle's settings as they were, and the note that they changed is printed
    /// by the run that saves them.
    private func finish(
        _ run: UnitRun, summary: inout RenderSummary, skipped: [SkippedEntry], started: Double, ledger: BundleLedger?,
        settings: (run: BundleSettings, saved: BundleSettings?)?
    ) throws -> RenderSummary {
        // The first output that failed is the run's error: on a full disk the ledger cannot be
        // saved either, and its error named `.storyreel/ledger.json` in place of the clip that
        // did not fit (a CI QA pass).
        if let failure = run.outputFailure {
            if let ledger { try? Self.save(ledger) }
            throw failure
        }
        if let ledger { try Self.save(ledger) }
        if let settings { try settings.run.save(in: output, over: settings.saved) }
        summary.isShard = options.shard != nil
        if options.shard != nil, options.prune {
            // Said, not silently dropped (an incremental-render QA pass): a shard knows only its
            // own units, so what nothing uses is for the full render after the merge to tell.
            summary.notes.append("--prune does nothing in a shard; the full render after the merge prunes")
        }
        summary.rendered = run.rendered
        summary.cached = run.cached
        summary.skipped = options.shard == nil ? skipped : skipped + run.failures + run.transitionFailures.map(\.entry)
        summary.seconds = MonotonicClock.now - started
        return summary
    }

    /// Writes the manifest's bytes at `path` (the bundle's `manifest.json`): over storyreel's
    /// own manifest, or one edited since (set aside first), but never over a file someone put
    /// there during the render, which the check before the run could not see: that is left as
    /// it is and the render fails (73), as it does for one found there before it.
    private func writeManifest(_ bytes: Data, to path: String, ledger: BundleLedger, summary: inout RenderSummary)
        throws
    {
        let foreign = MediaError(
            .cannotCreateOutput, path: path,
            "a file storyreel did not write took this name during the render, which render does not replace; "
                + "move it away and run again")
        let state = ledger.state(of: BundlePaths.manifest)
        if state == .unknown, !BundleFolder.isStoryreelManifest(path) { throw foreign }
        guard try writeRecorded(BundlePaths.manifest, bytes, state: state, ledger: ledger, summary: &summary) else {
            throw foreign
        }
    }

    /// Writes `bytes` as the bundle's `relative` (the page or the manifest), whose ledger state
    /// is `state`: one edited since storyreel wrote it is set aside first; the new contents are
    /// recorded as pending and the ledger saved before the rename, so a run killed just after it
    /// leaves a file the next run knows as its own; and a name that was free takes them only
    /// while it still is. Returns false, having written nothing, when a file took that name
    /// during the render.
    private func writeRecorded(
        _ relative: String, _ bytes: Data, state: BundleLedger.State, ledger: BundleLedger,
        summary: inout RenderSummary
    ) throws -> Bool {
        try setAside(relative, ifChanged: state, ledger: ledger, summary: &summary)
        try ledger.willWrite(relative, data: bytes)
        try Self.save(ledger)
        do {
            try AtomicFile.write(
                bytes, to: BundlePaths.join(output, relative),
                stagingFolder: BundlePaths.join(output, BundlePaths.privateFolder), exclusively: state == .missing)
            summary.wroteBundleFiles = true
            return true
        } catch is StagedFile.NameTaken {
            return false
        }
    }

    /// Writes the player page for the manifest's bytes as `index.html`, atomically and only when
    /// its bytes change, and records it in the ledger. A page storyreel did not write (or that
    /// is not a regular file) is left alone: the returned note says so. One the ledger does not
    /// know that begins as storyreel's pages do is storyreel's, for an older manifest.
    private func writePlayerPage(for manifest: Data, ledger: BundleLedger, summary: inout RenderSummary) throws
        -> String?
    {
        let page = PlayerPage(manifest: manifest).bytes
        let name = PlayerPage.fileName
        let path = BundlePaths.join(output, name)
        let state = ledger.state(of: name)
        let current = state == .missing ? nil : try? RegularFile.contents(of: path, maxSize: UInt64(page.count))
        let foreign = "\(path): a file storyreel did not write; the player page was not written"
        switch state {
        case .notRegular:
            return "\(path): not a regular file storyreel wrote; the player page was not written"
        case .unknown where current != page && !PlayerPage.isStoryreelPage(at: path):
            return foreign
        case .missing, .current, .changed, .unknown:
            // Someone's file may also take a free name while the run writes (then it is kept).
            if current != page, try !writeRecorded(name, page, state: state, ledger: ledger, summary: &summary) {
                return foreign
            }
            if state != .current || current != page { try ledger.record(name) }
            return nil
        }
    }

    /// Moves `relative` into `.storyreel/replaced/`, with a warning, when `state` (the ledger's
    /// state of it) says it changed since storyreel wrote it (an edited manifest or page is
    /// someone's work), or that the ledger does not know it: its callers replace only other
    /// bytes, and without the ledger (a bundle copied without `.storyreel/`, as a deploy of its
    /// visible files is) nothing tells storyreel's page from one a user edited (a QA pass: a page
    /// given an analytics script was rewritten in silence). Throws when it cannot be moved,
    /// leaving it as it is.
    private func setAside(
        _ relative: String, ifChanged state: BundleLedger.State, ledger: BundleLedger, summary: inout RenderSummary
    ) throws {
        guard state == .changed || state == .unknown else { return }
        let kept = try ledger.setAside(relative)
        summary.warnings.append(
            state == .changed
                ? Self.setAsideWarning(relative, keptAs: kept)
                : "\(relative) is not in the bundle's ledger (.storyreel/ was missing or not kept), so it may have been "
                    + "edited: kept as \(kept) and written again")
    }

    /// A note when the automatic canvas differs from the one the bundle's manifest has: every
    /// still and transition is made again, and one ingest of another shape of clip did so in
    /// silence (a QA pass). Nil when it is the same, or there is no manifest of storyreel's.
    private static func canvasChangeNote(_ plan: BundlePlan, bundle: String) -> String? {
        guard
            let previous = BundleFolder.storyreelManifest(at: BundlePaths.join(bundle, BundlePaths.manifest))?.canvas,
            (previous.width, previous.height) != (plan.canvasWidth, plan.canvasHeight)
        else { return nil }
        return "canvas \(previous.width)x\(previous.height) → \(plan.canvasWidth)x\(plan.canvasHeight) (automatic: the "
            + "largest clip of the shape and aspect most clips have): every still and transition is the new canvas's "
            + "(made again where the bundle does not have it from before); "
            + "--size \(previous.width)x\(previous.height) keeps the old one"
    }

    /// Removes the outputs storyreel recorded writing that the manifest no longer references,
    /// when they are still exactly as written or are a `--link` copy still linked to one of
    /// `sources` (the input's clips: ``BundleLedger/removeLink(_:toOneOf:)``), then the images
    /// and clip copies no ledger knows whose own bytes name them as storyreel's, unchanged
    /// (``UnrecordedOutputs``). Nothing else is removed. Returns how many were removed, and the
    /// recorded, unchanged ones that could not be (immutable, a read-only folder), which stay
    /// known for a later `--prune`.
    private func prune(keeping referenced: Set<String>, ledger: BundleLedger, sources: Set<FileIdentity>)
        -> (removed: Int, stuck: [String])
    {
        var removed = 0
        var stuck: [String] = []
        for relative in ledger.recorded.sorted() where !referenced.contains(relative) {
            if ledger.removeIfUnchanged(relative) || ledger.removeLink(relative, toOneOf: sources) {
                removed += 1
            } else if ledger.state(of: relative) == .current {
                stuck.append(relative)
            }
        }
        removed += UnrecordedOutputs.removeSelfNamed(
            in: output, keeping: referenced, ledger: ledger, timeout: options.timeout)
        return (removed, stuck)
    }

    /// The warning for outputs `--prune` could not remove (a QA pass: the run said nothing).
    static func pruneWarning(_ stuck: [String]) -> String? {
        guard let first = stuck.first else { return nil }
        let more = stuck.count > 1 ? " and \(stuck.count - 1) more" : ""
        return "--prune could not remove \(first)\(more), which storyreel wrote and the manifest no longer uses; "
            + "they stay known, for a later --prune"
    }

    /// With `--reference`, a warning when OUT is reached through a symlinked folder, so that the
    /// items' `src`, relative to OUT as given (as a browser resolves them from that path), lead
    /// elsewhere from OUT's real folder, where `validate` and a server of that folder read them (a
    /// QA pass: `validate` refused the bundle the render had just written, exit 0). Nil otherwise.
    private static func referenceThroughLinkWarning(_ stories: [ResolvedStory], bundle: String) -> String? {
        guard let realBundle = BundlePaths.realPath(bundle),
            let item = stories.lazy.flatMap(\.items).first,
            let source = BundlePaths.realPath(item.absolutePath)
        else { return nil }
        let bundleFolder = URL(fileURLWithPath: bundle).standardizedFileURL.path
        let src = BundlePaths.relative(item.absolutePath, from: bundleFolder)
        let fromRealFolder = BundlePaths.realPath(BundlePaths.join(realBundle, src))
        guard fromRealFolder.map({ !$0.utf8.elementsEqual(source.utf8) }) ?? true else { return nil }
        return "\(bundle) is reached through a symbolic link: the clips' src paths (\(src) …) are relative to it "
            + "as given, and from its real folder \(realBundle) they lead elsewhere; serve the bundle at the path "
            + "given, or render into the real folder"
    }

    /// The warning for an output that had changed since storyreel wrote it and was set aside.
    private static func setAsideWarning(_ output: String, keptAs kept: String) -> String {
        "\(output) had changed since storyreel wrote it: kept as \(kept) and made again"
    }

    /// One warning per output that had changed since storyreel wrote it and was set aside.
    private static func setAsideWarnings(_ run: UnitRun) -> [String] {
        run.setAside.map { setAsideWarning($0.output, keptAs: $0.keptAs) }
    }
}
