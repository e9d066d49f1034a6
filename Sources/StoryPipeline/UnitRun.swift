import Foundation
import StoryMedia

/// The work units of one render as they are done: which outputs are there (cached or made now),
/// which units failed and why, and the first failure to write an output (a full disk), which
/// ends the render with 73/74 instead of being a skipped clip.
struct UnitRun {
    /// The bundle folder.
    let bundle: String
    /// The render's options.
    let options: RenderOptions
    /// The canvas the plan chose.
    let canvas: (width: Int, height: Int)
    /// What storyreel wrote into the bundle.
    let ledger: BundleLedger
    /// Called after each unit that had to be made.
    let progress: @Sendable (RenderProgress) -> Void
    /// Each source's stamp when the plan hashed it (``BundlePlan/sourceStamps``).
    let sourceStamps: [String: FileStamp]
    /// Each source's hash (``BundlePlan/sourceHashes``).
    let sourceHashes: [String: String]

    /// Outputs that are in place, cached or made in this run.
    private(set) var available = Set<String>()
    /// Outputs whose units were looked at in this run.
    private(set) var attempted = Set<String>()
    /// Warnings the units made in this run gave (``UnitWorker/make(_:)``), in order, and those
    /// the ledger kept for outputs found current (a run that made nothing said nothing of a
    /// damaged face or a transition over its peak, which a CI job's re-run then hid).
    private(set) var warnings: [String] = []
    /// Units other than transitions that failed on their inputs, with the cause and whether it
    /// lies in the input's bytes (``BundlePlan/liesInTheFile(_:)``), in order.
    private var unitFailures: [(unit: WorkUnit, cause: String, lasting: Bool)] = []
    /// The failed units other than transitions as skipped entries: one per input, naming its
    /// units and their cause (`poster, thumbnail, first-frame, last-frame: no decodable video
    /// frame`), each cause in turn when they differ (a clip replaced mid-render: `clip: it
    /// changed while it was being copied …; poster, …: it changed while storyreel read it …`).
    var failures: [SkippedEntry] { failureGroups.map(UnitRun.entry) }

    /// The reason of the skipped entry for the failed unit that makes one of `outputs`, or nil
    /// when none of them failed. A clip reposted in other stories shares its units, so its copies
    /// there are reported with the same reason as the first.
    func failureReason(forAnyOf outputs: [String]) -> String? {
        guard let failed = unitFailures.first(where: { outputs.contains($0.unit.output) }) else { return nil }
        return failureGroups.first { $0.unit.sourceLabel == failed.unit.sourceLabel }.map { UnitRun.entry($0).reason }
    }

    /// ``failureReason(forAnyOf:)`` when every failure of that input lies in its bytes (it
    /// probes but does not decode), so that it stands while the input is unchanged; else nil.
    func lastingFailureReason(forAnyOf outputs: [String]) -> String? {
        guard let failed = unitFailures.first(where: { outputs.contains($0.unit.output) }) else { return nil }
        let label = failed.unit.sourceLabel
        guard unitFailures.allSatisfy({ $0.unit.sourceLabel != label || $0.lasting }) else { return nil }
        return failureReason(forAnyOf: outputs)
    }

    /// The failed units other than transitions grouped by input, in order, each input's kinds
    /// grouped by cause. (Grouped by input and cause, a clip that failed for two causes was two
    /// entries, and the summary counted two skipped clips: a QA pass.)
    private var failureGroups: [(unit: WorkUnit, causes: [(kinds: [WorkUnit.Kind], cause: String)])] {
        var grouped: [(unit: WorkUnit, causes: [(kinds: [WorkUnit.Kind], cause: String)])] = []
        for (unit, cause, _) in unitFailures {
            guard let index = grouped.firstIndex(where: { $0.unit.sourceLabel == unit.sourceLabel }) else {
                grouped.append((unit, [([unit.kind], cause)]))
                continue
            }
            if let same = grouped[index].causes.firstIndex(where: { $0.cause == cause }) {
                grouped[index].causes[same].kinds.append(unit.kind)
            } else {
                grouped[index].causes.append(([unit.kind], cause))
            }
        }
        return grouped
    }

    /// A group's skipped entry: each cause's kinds in the plan's order, whichever failed first
    /// (a last-frame still made with a transition fails again alone, after the others).
    private static func entry(_ group: (unit: WorkUnit, causes: [(kinds: [WorkUnit.Kind], cause: String)]))
        -> SkippedEntry
    {
        let order = WorkUnit.Kind.planOrder
        let reasons = group.causes.map { part in
            let kinds = part.kinds.sorted { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
            return "\(kinds.map(\.rawValue).joined(separator: ", ")): \(part.cause)"
        }
        return SkippedEntry(
            path: group.unit.sourceLabel, story: group.unit.story, reason: reasons.joined(separator: "; "))
    }

    /// Transitions that failed, each with its output: whether it is reported depends on whether
    /// the stories it joins still play (a transition into a clip that failed is replaced).
    private(set) var transitionFailures: [(output: String, entry: SkippedEntry)] = []
    /// The first failure to write an output.
    private(set) var outputFailure: MediaError?
    /// Units made in this run.
    private(set) var rendered = 0
    /// Units whose outputs were already there.
    private(set) var cached = 0

    init(
        bundle: String, options: RenderOptions, canvas: (width: Int, height: Int), ledger: BundleLedger,
        sourceStamps: [String: FileStamp], sourceHashes: [String: String],
        progress: @escaping @Sendable (RenderProgress) -> Void
    ) {
        self.sourceStamps = sourceStamps
        self.sourceHashes = sourceHashes
        self.bundle = bundle
        self.options = options
        self.canvas = canvas
        self.ledger = ledger
        self.progress = progress
    }

    /// What to do with a unit's output as it is on disk.
    private enum Disposition {
        /// It is in place: nothing to do.
        case current
        /// It was in place as a hard link to its source and has just been copied over it
        /// (`--copy` after `--link`), or as a copy and has just been linked over it (`--link`
        /// after `--copy`): made, so counted as rendered.
        case replacedClip
        /// Make it (again).
        case make
        /// It changed since storyreel wrote it: it was set aside, kept as this path relative to
        /// the bundle; make it again.
        case remake(keptAs: String)
        /// A file storyreel did not write has its name: leave it, and skip the unit.
        case foreign
        /// It changed since storyreel wrote it and cannot be moved aside: the run fails so.
        case unmovable(Error)
    }

    /// Outputs that had changed since storyreel wrote them, each set aside before it was made
    /// again, with where it is kept: `posters/a.jpg` kept as `.storyreel/replaced/posters-a.jpg`.
    private(set) var setAside: [(output: String, keptAs: String)] = []

    /// Makes every unit of `units` whose output is not in place. An output the ledger knows is
    /// redone when it changed since it was written, the changed file first set aside in
    /// `.storyreel/replaced/` (someone may have put it there: it is not lost); an output it does
    /// not know (merged from a shard without its ledger) is adopted when it is whole and, for a
    /// clip, has the contents its name says, for anything else names itself as that output with
    /// the hash of its pictures (``OutputProvenance``); one that names itself so but is cut short
    /// or edited is set aside and made again, as a changed one. A file of that name that is none
    /// of these is someone else's: it is left as it is and the unit is skipped, naming it.
    mutating func execute(_ units: [WorkUnit]) {
        let (ledger, bundle, canvas, options) = (self.ledger, self.bundle, self.canvas, self.options)
        let dispositions: [Disposition] = Parallel.map(units.count, jobs: options.jobs) { index in
            let unit = units[index]
            // A clip in place is held to the clip mode: --copy copies over a link to its source,
            // --link links over a copy.
            func inPlace() -> Disposition {
                if unit.kind == .clip, options.clipMode == .copy,
                    UnitRun.copyOverLinkToSource(unit, bundle: bundle, ledger: ledger, timeout: options.timeout)
                {
                    return .replacedClip
                }
                if unit.kind == .clip, options.clipMode == .link,
                    UnitRun.linkOverCopy(unit, bundle: bundle, ledger: ledger, timeout: options.timeout)
                {
                    return .replacedClip
                }
                return .current
            }
            switch ledger.state(of: unit.output) {
            case .current:
                return inPlace()
            case .missing, .notRegular: return .make
            case .changed:
                // A file that cannot be moved (an immutable one) fails the run, as a full disk
                // does: it said "a file storyreel did not write" and dropped its clip (a QA pass).
                do { return .remake(keptAs: try ledger.setAside(unit.output)) } catch { return .unmovable(error) }
            case .unknown:
                // Adopted, as a known one is (a QA pass: shards' copies merged without ledgers
                // stayed copies under --link, and were linked on the run after).
                if UnitRun.adopt(unit, ledger: ledger, bundle: bundle, canvas: canvas, timeout: options.timeout) {
                    return inPlace()
                }
                // Its own bytes name it as this very output, but it is not whole or not as
                // written: storyreel's file, cut short or edited (a shard's artifact half
                // downloaded). Set aside and made again, as a changed output the ledger knows
                // is; it was skipped on every run, its item left out of the bundle (a QA pass).
                // A clip copy says nothing of itself, but one holding its source's first bytes
                // and no more is that clip's copy, cut short.
                let path = BundlePaths.join(bundle, unit.output)
                guard
                    OutputProvenance.namesItself(path, as: unit.output, timeout: options.timeout)
                        || (unit.kind == .clip
                            && OutputProvenance.isCutShortCopy(path, of: unit.source, timeout: options.timeout))
                else {
                    return .foreign
                }
                do { return .remake(keptAs: try ledger.setAside(unit.output)) } catch { return .unmovable(error) }
            }
        }
        attempted.formUnion(units.map(\.output))
        var pending: [WorkUnit] = []
        for (unit, disposition) in zip(units, dispositions) {
            switch disposition {
            case .current:
                available.insert(unit.output)
                warnings += ledger.recordedWarnings(of: unit.output)
                cached += 1
            case .replacedClip:
                // The summary said "rendered 0" of a run that made the copies (a QA pass).
                available.insert(unit.output)
                rendered += 1
            case .make:
                pending.append(unit)
            case .remake(let kept):
                setAside.append((unit.output, kept))
                pending.append(unit)
            case .unmovable(let error):
                if outputFailure == nil {
                    outputFailure =
                        error as? MediaError ?? MediaError(.cannotCreateOutput, path: unit.output, "\(error)")
                }
            case .foreign:
                fail(
                    unit,
                    "\(BundlePaths.join(bundle, unit.output)) is a file storyreel did not write; move it away")
            }
        }
        // Under an address-space limit (`ulimit -v`), as many transitions at once as fit, and
        // none when one does not: a render past it failed part-way, after libx264's own `malloc
        // … failed` lines, and libx265 hung waiting for a thread it could not start (a review).
        var making = options
        let transitions = pending.compactMap(\.transition)
        if !transitions.isEmpty {
            let hevc = transitions.contains { $0.parameters.codec == .hevc }
            let each = AddressSpace.renderTransitionBytes(width: canvas.width, height: canvas.height, hevc: hevc)
            let fitting = AddressSpace.jobsThatFit(making.jobs, each: each)
            guard fitting > 0 else {
                outputFailure = AddressSpace.tooLittle(
                    for: bundle, making: "the \(canvas.width)x\(canvas.height) transitions", each: each)
                return
            }
            making.jobs = fitting
        }
        let worker = UnitWorker(
            bundle: bundle, options: making, canvasWidth: canvas.width, canvasHeight: canvas.height,
            sourceStamps: sourceStamps, sourceHashes: sourceHashes)
        let counter = ProgressCounter(units: pending)
        let batches = UnitWorker.batches(of: pending)
        let progress = self.progress
        if !pending.isEmpty { progress(counter.start()) }
        func make(_ batches: [[WorkUnit]], counting: Bool) -> [Result<[UnitWarning], Error>] {
            Parallel.map(batches.count, jobs: making.jobs) { index in
                let batch = batches[index]
                defer {
                    if counting {
                        for unit in batch { progress(counter.finish(unit)) }
                    }
                }
                // Each output with the hash a clip copy is known by (the others are hashed as read).
                let outputs = batch.map { (relative: $0.output, sha256: $0.kind == .clip ? $0.key : nil) }
                ledger.willMake(outputs)
                defer { ledger.doneMaking(outputs.map(\.relative)) }
                let result = Result {
                    let warnings = try worker.make(batch)
                    for output in outputs {
                        let kept = warnings.filter { $0.output == output.relative }.map(\.text)
                        try ledger.record(output.relative, sha256: output.sha256, warnings: kept)
                    }
                    return warnings
                }
                if case .failure = result { ledger.recordFinished(outputs) }
                return result
            }
        }
        var retries: [[WorkUnit]] = []
        for (batch, outcome) in zip(batches, make(batches, counting: true)) {
            // A repost whose first copy changed or went during the render is made from another.
            if case .failure(let error) = outcome,
                let again = UnitRun.fromAnotherCopy(batch, after: error, clipMode: options.clipMode)
            {
                retries.append(again)
                continue
            }
            // A transition shares its decode with the outgoing clip's last-frame still, so the
            // incoming clip's failure failed the still too: the still is made again alone. The
            // old code dropped the outgoing item, whose clip was fine. (A clip's own images share
            // one clip: one failing drops the item anyway, so they are not retried.)
            if case .failure(let error) = outcome, batch.count > 1, batch[0].kind == .transition,
                bundleWriteFailure(error) == nil
            {
                record([batch[0]], outcome)
                retries += batch.dropFirst().map { [$0] }
            } else {
                record(batch, outcome)
            }
        }
        // A still the failed transition wrote before failing (a name taken under the transition)
        // is this run's own whole file: taken as it is. Made again it met its own name, and
        // failed as someone else's file.
        // (The failed batch has recorded it already when it carries storyreel's mark.)
        retries.removeAll { batch in
            let state = ledger.state(of: batch[0].output)
            guard
                state == .current
                    || (state == .unknown
                        && UnitRun.adopt(
                            batch[0], ledger: ledger, bundle: bundle, canvas: canvas, timeout: options.timeout))
            else { return false }
            record(batch, .success([]))
            return true
        }
        // A still retried alone after its transition failed is made from another copy of its
        // clip too, when its own changed or went meanwhile.
        var lastTries: [[WorkUnit]] = []
        for (batch, outcome) in zip(retries, make(retries, counting: false)) {
            if case .failure(let error) = outcome,
                let again = UnitRun.fromAnotherCopy(batch, after: error, clipMode: options.clipMode)
            {
                lastTries.append(again)
            } else {
                record(batch, outcome)
            }
        }
        for (batch, outcome) in zip(lastTries, make(lastTries, counting: false)) { record(batch, outcome) }
    }

    /// `batch` made from a copy of its input that every unit of it has among its
    /// ``WorkUnit/otherCopies``, when it failed because its own copy changed or went meanwhile;
    /// nil otherwise (transitions, or a failure in the bytes, which every copy shares). Not
    /// with `--reference`, whose items play their own paths: the item whose copy changed would
    /// be kept, pointing at the changed file.
    static func fromAnotherCopy(_ batch: [WorkUnit], after error: Error, clipMode: RenderOptions.ClipMode)
        -> [WorkUnit]?
    {
        guard clipMode != .reference, let error = error as? MediaError, batch.allSatisfy({ $0.kind != .transition }),
            error.reason.hasPrefix(BundlePlan.changedWhile) || error.kind == .missingInput,
            let copy = batch.first?.otherCopies.first(where: { copy in
                batch.allSatisfy { $0.otherCopies.contains(copy) }
            })
        else { return nil }
        return batch.map { $0.madeFrom(copy) }
    }

    /// Makes a clip a `--link` run hard-linked to its source a copy, now that the bundle holds
    /// copies: still linked, an edit of the source in place changed the published clip (a QA
    /// pass). The copy is checked against the clip's hash and renamed over the link; when that
    /// fails the link stays, as it was. True when the copy took the link's place.
    static func copyOverLinkToSource(_ unit: WorkUnit, bundle: String, ledger: BundleLedger, timeout: Double?)
        -> Bool
    {
        guard isLinkToSource(unit, bundle: bundle) else { return false }
        let path = BundlePaths.join(bundle, unit.output)
        do {
            try ClipPlacement.place(
                unit.source, at: path, check: .sha256(unit.key), link: false, exclusive: false, timeout: timeout)
            try ledger.record(unit.output, sha256: unit.key)
            return true
        } catch {
            return false  // the link stays, and the next run tries again
        }
    }

    /// Makes a clip a `--copy` run copied a hard link to its source, now that the bundle links
    /// (a QA pass: switching to `--link` kept every copy, and saved no space). Only where the
    /// link can be made (``canLinkOverCopy(_:bundle:)``); the link is checked against the
    /// clip's hash before it takes the copy's name, and when that fails the copy stays. True
    /// when the link took the copy's place.
    static func linkOverCopy(_ unit: WorkUnit, bundle: String, ledger: BundleLedger, timeout: Double?) -> Bool {
        guard canLinkOverCopy(unit, bundle: bundle) else { return false }
        let path = BundlePaths.join(bundle, unit.output)
        do {
            // Only a link: where none can be made the copy stays, rather than be copied again.
            guard try ClipPlacement.linkInPlace(unit.source, at: path, check: .sha256(unit.key), timeout: timeout)
            else { return false }
            try ledger.record(unit.output, sha256: unit.key)
            return true
        } catch {
            return false  // the copy stays, and the next run tries again
        }
    }

    /// True when clip `unit`'s output in `bundle` is a file of its own (a copy) on the same file
    /// system as its source, which this user may link (Linux's `protected_hardlinks`: its owner,
    /// root, or one who may read and write it), so a hard link can take its place; otherwise
    /// `--link` copies, and the copy is what it would make.
    static func canLinkOverCopy(_ unit: WorkUnit, bundle: String) -> Bool {
        guard let placed = FileStamp(path: BundlePaths.join(bundle, unit.output), followingLinks: false),
            placed.isRegularFile, let source = FileStamp(path: unit.source),
            placed.identity != source.identity, placed.identity.device == source.identity.device
        else { return false }
        return geteuid() == 0 || source.owner == geteuid() || access(unit.source, R_OK | W_OK) == 0
    }

    /// True when clip `unit`'s output in `bundle` is a hard link to its source (`--link`).
    static func isLinkToSource(_ unit: WorkUnit, bundle: String) -> Bool {
        guard let placed = FileStamp(path: BundlePaths.join(bundle, unit.output), followingLinks: false),
            placed.isRegularFile
        else { return false }
        return placed.identity == FileStamp(path: unit.source)?.identity
    }

    /// Takes in the outcome of making `batch`.
    private mutating func record(_ batch: [WorkUnit], _ outcome: Result<[UnitWarning], Error>) {
        switch outcome {
        case .success(let madeWithWarnings):
            warnings += madeWithWarnings.map(\.text)
            available.formUnion(batch.map(\.output))
            rendered += batch.count
        case .failure(let error):
            if let failure = bundleWriteFailure(error) {
                if outputFailure == nil { outputFailure = failure }
                return
            }
            if let taken = error as? StagedFile.NameTaken {
                // A file put at an output's name during the render is kept, as one found there
                // before it is.
                for unit in batch { fail(unit, "\(taken.path) is a file storyreel did not write; move it away") }
                return
            }
            let lasting = (error as? MediaError).map(BundlePlan.liesInTheFile) ?? false
            for unit in batch { fail(unit, MediaError.reason(of: error), lasting: lasting) }
        }
    }

    /// Records that `unit` failed for `reason`, `lasting` when that lies in its input's bytes: a
    /// transition is named by the stories it joins.
    private mutating func fail(_ unit: WorkUnit, _ reason: String, lasting: Bool = false) {
        if unit.kind == .transition {
            let entry = SkippedEntry(
                path: unit.sourceLabel, story: unit.story, reason: "transition \(unit.title): \(reason)")
            transitionFailures.append((unit.output, entry))
        } else {
            unitFailures.append((unit, reason, lasting))
        }
    }

    /// `error` when the render stops on it: a failure to write into the bundle (a full disk, a
    /// read-only folder) or the system's limit (out of open files); nil for an input that cannot
    /// be used.
    private func bundleWriteFailure(_ error: Error) -> MediaError? {
        (error as? MediaError).flatMap { $0.isWriteFailure(inside: bundle) || $0.kind == .systemLimit ? $0 : nil }
    }

    /// Takes a key-named output the ledger does not know as storyreel's: a clip when its
    /// contents hash to its key, an image when it is a whole JPEG of the unit's ``WorkUnit/imageSize``,
    /// a transition when it is a
    /// whole clip of the unit's frames on the canvas (``OutputIntegrity``). Returns true when
    /// adopted.
    static func adopt(
        _ unit: WorkUnit, ledger: BundleLedger, bundle: String, canvas: (width: Int, height: Int), timeout: Double
    ) -> Bool {
        let path = BundlePaths.join(bundle, unit.output)
        // An output storyreel made and did not record (a run killed before it saved its ledger)
        // carries its mark; an image or a transition without it is someone's (a QA pass: a
        // user's JPEG at a poster's future name was adopted, shipped as the poster, and later
        // removed by --prune) unless its own bytes name it as this output with the hash of its
        // pictures: a copy drops the mark (shards merged with `cp -r` or as CI artifacts). A
        // marked one is refused when its bytes name another output or other pictures (an edit
        // written over storyreel's file keeps the mark: a review); one whose bytes say nothing
        // was written by a storyreel before the comment. So in a bundle with no ledger at all
        // (copied without its hidden folder), as in one with a ledger: a whole JPEG of the
        // right size was taken there whatever it held (a later QA pass: a user's, or
        // storyreel's still of another item, shipped and later pruned); every output of this
        // renderer's keys names itself. A clip is taken by its contents, which its key names.
        let naming =
            unit.kind != .clip
            ? OutputIntegrity.Naming(output: unit.output, required: OutputMark.isUnmarked(path), timeout: timeout)
            : nil
        switch unit.kind {
        case .clip:
            break
        case .transition:
            guard let transition = unit.transition else { return false }
            let frames = CubeTransitionJob(
                from: transition.fromClip, to: transition.toClip, parameters: transition.parameters
            ).frameCount
            let problem = OutputIntegrity.transitionProblem(
                at: path, frames: frames, width: canvas.width, height: canvas.height,
                fps: transition.parameters.fps, naming: naming, timeout: timeout)
            guard problem == nil else { return false }
        case .poster, .thumbnail, .firstFrame, .lastFrame, .avatar:
            let tolerance = ImageSize.tolerance(of: unit.kind)
            let problem = OutputIntegrity.imageProblem(
                at: path, size: unit.imageSize, tolerance: tolerance, naming: naming)
            guard problem == nil else { return false }
        }
        guard (try? ledger.adopt(unit.output)) != nil else { return false }
        if unit.kind == .clip, ledger.hash(of: unit.output) != unit.key {
            ledger.forget(unit.output)
            return false
        }
        return true
    }
}
