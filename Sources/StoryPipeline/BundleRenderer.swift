import Foundation
import StoryMedia

/// `storyreel render`: turns a stories input into a bundle (clips, posters, thumbnails, avatars,
/// cube transitions and `manifest.json`), incrementally, under a lock, and atomically.
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

    /// Renders, reporting each finished unit to `progress`. Throws only when nothing could be
    /// done (missing input, lock timeout, output not creatable); bad clips are skipped.
    public func run(progress: @escaping @Sendable (RenderProgress) -> Void = { _ in }) throws -> RenderSummary {
        let started = Date()
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw MediaError(.cannotCreateOutput, path: output, "cannot create the bundle folder")
        }
        let lock = try BundleLock(folder: output, timeout: options.lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        BundlePaths.removeStaleTemporaries(in: output)
        for folder in BundlePaths.outputFolders + [BundlePaths.privateFolder] {
            try? FileManager.default.createDirectory(
                atPath: BundlePaths.join(output, folder), withIntermediateDirectories: true)
        }

        let storyInput = try StoryInput.load(input)
        let cacheFile = BundlePaths.join(output, "\(BundlePaths.privateFolder)/stat-cache.json")
        let cache = StatCache(file: cacheFile)
        let plan = try BundlePlan.make(input: storyInput, options: options, cache: cache)
        try? cache.save(keeping: Set(plan.stories.flatMap { $0.items.map(\.absolutePath) }))

        var summary = RenderSummary()
        let units = plan.shardUnits
        let pending = units.filter { !FileManager.default.fileExists(atPath: BundlePaths.join(output, $0.output)) }
        summary.cached = units.count - pending.count
        let worker = UnitWorker(bundle: output, options: options)
        let counter = ProgressCounter(total: pending.count)
        let batches = UnitWorker.batches(of: pending)
        let failures: [[SkippedEntry]] = Parallel.map(batches.count, jobs: options.jobs) { index in
            let batch = batches[index]
            defer {
                for unit in batch { progress(counter.finish("\(unit.kind.rawValue) \(unit.sourceLabel)")) }
            }
            do {
                try worker.make(batch)
                return []
            } catch {
                let reason = MediaError.reason(of: error)
                return batch.map {
                    SkippedEntry(path: $0.sourceLabel, story: $0.story, reason: "\($0.kind.rawValue): \(reason)")
                }
            }
        }
        let failed = failures.flatMap { $0 }
        summary.rendered = pending.count - failed.count
        summary.skipped = plan.skipped + failed

        if options.shard == nil {
            let manifest = ManifestBuilder(plan: plan, bundle: output, inputRoot: storyInput.root).build(
                skipped: summary.skipped)
            let manifestPath = BundlePaths.join(output, BundlePaths.manifest)
            let bytes = Data((manifest.value.serialized() + "\n").utf8)
            if FileManager.default.contents(atPath: manifestPath) != bytes {
                try AtomicFile.write(bytes, to: manifestPath)
            }
            summary.manifestPath = manifestPath
            summary.skipped = manifest.skipped
            if options.prune { summary.pruned = prune(keeping: manifest.referencedFiles) }
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Removes files in the output folders that the manifest does not reference.
    private func prune(keeping referenced: Set<String>) -> Int {
        var removed = 0
        for folder in BundlePaths.outputFolders {
            let path = BundlePaths.join(output, folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            where !referenced.contains("\(folder)/\(name)") {
                if (try? FileManager.default.removeItem(atPath: BundlePaths.join(path, name))) != nil { removed += 1 }
            }
        }
        return removed
    }
}
